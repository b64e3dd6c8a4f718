#include "helper/authorizer.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <unistd.h>
#include <vector>

#include "core/base/sysfs_root.h"

namespace ssdk::helper {

Caller detectCaller() {
    Caller caller;
    caller.pid = ::getppid();
    caller.uid = ::getuid();
    // The start time belongs to the caller only if the parent is still the same process
    // after it was read: a parent that died meanwhile makes us a child of a reaper.
    if (auto startTime = processStartTime(caller.pid); startTime && ::getppid() == caller.pid) {
        caller.startTime = std::move(*startTime);
    }
    if (const char* pkexecUid = std::getenv("PKEXEC_UID"); pkexecUid != nullptr) {
        unsigned value = 0;
        const std::string_view text(pkexecUid);
        auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec == std::errc{} && ptr == text.data() + text.size()) {
            caller.uid = value;
            caller.viaPkexec = true;
        }
    }
    return caller;
}

Expected<std::string> parseStartTime(std::string_view stat) {
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so fields are counted
    // from the last ')', which ends field 2.
    const auto close = stat.rfind(')');
    if (close == std::string_view::npos) {
        return fail(ErrorCode::Parse, "no command name in a /proc/PID/stat line");
    }
    std::size_t field = 2;
    std::size_t pos = close + 1;
    while (pos < stat.size()) {
        while (pos < stat.size() && stat[pos] == ' ') {
            ++pos;
        }
        const auto end = std::min(stat.find(' ', pos), stat.size());
        if (++field == 22 && end > pos) {
            return std::string(stat.substr(pos, end - pos));
        }
        pos = end;
    }
    return fail(ErrorCode::Parse, "a /proc/PID/stat line has no field 22 (start time)");
}

Expected<std::string> processStartTime(pid_t pid) {
    const std::string path = "/proc/" + std::to_string(pid) + "/stat";
    auto stat = SysfsRoot().readString(path);
    if (!stat) {
        return std::unexpected(stat.error());
    }
    return withContext(parseStartTime(*stat), "reading " + path);
}

PolkitAuthorizer::PolkitAuthorizer(Caller caller, ProcessRunner& runner)
    : m_caller(caller)
    , m_runner(runner) {}

bool isSafeDetail(std::string_view text) {
    return !text.empty() && text.size() <= kMaxDetailLength && text.front() != '-' &&
           std::ranges::all_of(text, [](char c) { return c >= 0x20 && c < 0x7f; });
}

Expected<void> PolkitAuthorizer::authorize(const std::string& action) {
    return authorizeWithDetails(action, {});
}

Expected<void> PolkitAuthorizer::authorizeWithDetails(const std::string& action,
                                                      const AuthDetails& details) {
    if (m_caller.uid == 0) {
        return {};
    }
    if (m_caller.startTime.empty()) {
        return fail(ErrorCode::PermissionDenied,
                    "the process that started the helper (pid " + std::to_string(m_caller.pid) +
                        ") could not be identified; not asking polkit about " + action);
    }
    const std::string subject = std::to_string(m_caller.pid) + "," + m_caller.startTime + "," +
                                std::to_string(m_caller.uid);
    std::vector<std::string> argv{"pkcheck", "--action-id", action, "--process", subject};
    for (const auto& [key, value] : details) {
        const bool keyIsName =
            !key.empty() && key.size() <= 32 &&
            std::ranges::all_of(key, [](char c) { return (c >= 'a' && c <= 'z') || c == '_'; });
        if (keyIsName && isSafeDetail(value)) {
            argv.insert(argv.end(), {"--detail", key, value});
        }
    }
    argv.emplace_back("--allow-user-interaction");
    auto result = m_runner.run({.argv = std::move(argv), .timeout = std::chrono::minutes(5)});
    if (!result) {
        return std::unexpected(Error(result.error()).addContext("asking polkit about " + action));
    }
    switch (result->exitCode) {
    case 0:
        return {};
    case 1:
        return fail(ErrorCode::PermissionDenied, "not authorized for " + action);
    case 2:
        return fail(ErrorCode::PermissionDenied,
                    "authorization for " + action +
                        " needs a polkit authentication agent in your session, and none answered");
    case 3:
        return fail(ErrorCode::PermissionDenied, "authorization for " + action + " was dismissed");
    default:
        return fail(ErrorCode::PermissionDenied,
                    "polkit could not decide on " + action + " (pkcheck exited with " +
                        std::to_string(result->exitCode) + ": " + result->standardError + ")");
    }
}

} // namespace ssdk::helper
