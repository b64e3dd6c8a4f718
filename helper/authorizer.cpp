#include "helper/authorizer.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <unistd.h>

#include "core/base/sysfs_root.h"

namespace ssdk::helper {

Caller detectCaller() {
    Caller caller;
    caller.pid = ::getppid();
    caller.uid = ::getuid();
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

Expected<void> PolkitAuthorizer::authorize(const std::string& action) {
    if (m_caller.uid == 0) {
        return {};
    }
    auto startTime = processStartTime(m_caller.pid);
    if (!startTime) {
        return std::unexpected(Error(startTime.error()).addContext("identifying the caller"));
    }
    const std::string subject =
        std::to_string(m_caller.pid) + "," + *startTime + "," + std::to_string(m_caller.uid);
    auto result = m_runner.run({.argv = {"pkcheck", "--action-id", action, "--process", subject,
                                         "--allow-user-interaction"},
                                .timeout = std::chrono::minutes(5)});
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
