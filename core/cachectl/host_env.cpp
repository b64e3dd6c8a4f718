#include "core/cachectl/host_env.h"

#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <sys/utsname.h>
#include <thread>
#include <unistd.h>

#include "core/base/text.h"
#include "core/device/mountinfo.h"

namespace ssdk::cachectl {

namespace {

std::string trimmed(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\t')) {
        text.pop_back();
    }
    return text;
}

std::string firstLine(const std::string& text) {
    const auto end = text.find('\n');
    return trimmed(text.substr(0, end));
}

// "dm-cache" and "dm_cache" name the same module; sysfs uses underscores.
std::string sysfsModuleName(std::string module) {
    for (auto& c : module) {
        if (c == '-') {
            c = '_';
        }
    }
    return module;
}

} // namespace

HostEnv HostEnv::live(ProcessRunner& runner) {
    HostEnv env;
    env.runner = &runner;
    env.isRoot = ::geteuid() == 0;
    struct utsname name {};
    if (::uname(&name) == 0) {
        env.kernelRelease = name.release;
    }
    const char* path = std::getenv("PATH");
    env.searchPath =
        std::string(path != nullptr ? path : "/usr/bin:/bin") + ":/usr/local/sbin:/usr/sbin:/sbin";
    env.sleep = [](std::chrono::milliseconds duration) { std::this_thread::sleep_for(duration); };
    // Next to the running program (a build tree, or the helper in libexec), then the installed
    // path; never from the environment: the helper runs as root.
    std::error_code error;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
    if (!error) {
        env.daemonCandidates.push_back(self.parent_path() / "ssdkeeper-cached");
    }
    env.daemonCandidates.emplace_back("/usr/libexec/ssdkeeper/ssdkeeper-cached");
    return env;
}

std::filesystem::path HostEnv::resolve(const std::filesystem::path& absolute) const {
    if (root == "/" || root.empty()) {
        return absolute;
    }
    return root / absolute.relative_path();
}

bool HostEnv::exists(const std::filesystem::path& absolute) const {
    std::error_code error;
    return std::filesystem::exists(resolve(absolute), error);
}

Expected<std::string> HostEnv::read(const std::filesystem::path& absolute) const {
    std::ifstream in(resolve(absolute));
    if (!in) {
        return failErrno(errno, "reading " + absolute.string());
    }
    std::ostringstream text;
    text << in.rdbuf();
    return trimmed(text.str());
}

std::optional<std::uint64_t> HostEnv::readU64(const std::filesystem::path& absolute) const {
    auto text = read(absolute);
    if (!text) {
        return std::nullopt;
    }
    try {
        std::size_t used = 0;
        const auto value = std::stoull(*text, &used);
        return value;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

Expected<void> HostEnv::write(const std::filesystem::path& absolute,
                              const std::string& value) const {
    std::ofstream out(resolve(absolute), std::ios::out | std::ios::trunc);
    if (!out) {
        return failErrno(errno, "opening " + absolute.string() + " for writing");
    }
    out << value;
    out.flush();
    if (!out) {
        return failErrno(errno, "writing '" + value + "' to " + absolute.string());
    }
    return {};
}

std::vector<std::string> HostEnv::list(const std::filesystem::path& absolute) const {
    std::vector<std::string> names;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(resolve(absolute), error)) {
        names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::optional<std::filesystem::path> HostEnv::findTool(const std::string& name) const {
    std::stringstream dirs(searchPath);
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        if (dir.empty()) {
            continue;
        }
        const std::filesystem::path candidate = std::filesystem::path(dir) / name;
        if (exists(candidate)) {
            return candidate;
        }
    }
    return std::nullopt;
}

Expected<ProcessResult> HostEnv::run(std::vector<std::string> argv,
                                     std::chrono::milliseconds timeout) const {
    if (runner == nullptr) {
        return fail(ErrorCode::Internal, "no process runner");
    }
    ProcessRequest request;
    request.argv = std::move(argv);
    request.timeout = timeout;
    request.environment["LC_ALL"] = "C";
    return runner->run(request);
}

Expected<ProcessResult> HostEnv::runChecked(std::vector<std::string> argv,
                                            std::chrono::milliseconds timeout) const {
    auto result = run(argv, timeout);
    if (!result) {
        return std::unexpected(result.error());
    }
    if (!result->succeeded()) {
        std::string why = firstLine(result->standardError);
        if (why.empty()) {
            why = firstLine(result->standardOutput);
        }
        return fail(ErrorCode::ProcessFailed, describeCommand(argv) + " exited with " +
                                                  std::to_string(result->exitCode) +
                                                  (why.empty() ? "" : ": " + why));
    }
    return result;
}

std::optional<std::string> HostEnv::moduleProblem(const std::string& module) const {
    return modulesProblem({module});
}

std::optional<std::string> HostEnv::modulesProblem(const std::vector<std::string>& modules) const {
    std::vector<std::string> absent; // not built for this kernel: said once for all of them
    std::vector<std::string> problems;
    for (const std::string& module : modules) {
        const std::string sysName = sysfsModuleName(module);
        if (moduleLoaded(sysName)) {
            continue;
        }
        auto dryRun = run({"modprobe", "-n", "-q", module}, std::chrono::seconds(10));
        if (!dryRun) {
            problems.push_back("kernel module " + sysName +
                               " is not loaded and modprobe is not installed");
            continue;
        }
        if (dryRun->succeeded()) {
            continue;
        }
        // -q hides the message; ask again for it. "Module X not found in directory
        // /lib/modules/R" says no more than "not available on kernel R".
        std::string why;
        if (auto verbose = run({"modprobe", "-n", module}, std::chrono::seconds(10)); verbose) {
            why = firstLine(verbose->standardError);
        }
        if (why.empty() || why.find("not found in directory") != std::string::npos) {
            absent.push_back(sysName);
        } else {
            problems.push_back("kernel module " + sysName + " cannot be loaded (" + why + ")");
        }
    }
    if (!absent.empty()) {
        problems.insert(problems.begin(),
                        fmt::format("{} {} {} not available on kernel {}",
                                    absent.size() == 1 ? "kernel module" : "kernel modules",
                                    joinWords(absent), absent.size() == 1 ? "is" : "are",
                                    kernelRelease));
    }
    if (problems.empty()) {
        return std::nullopt;
    }
    std::string text;
    for (const auto& problem : problems) {
        text += (text.empty() ? "" : "; ") + problem;
    }
    return text;
}

bool HostEnv::moduleLoaded(const std::string& sysName) const {
    if (exists("/sys/module/" + sysName)) {
        return true;
    }
    if (auto modules = read("/proc/modules"); modules) {
        std::istringstream lines(*modules);
        std::string line;
        while (std::getline(lines, line)) {
            if (line.starts_with(sysName + " ")) {
                return true;
            }
        }
    }
    return false;
}

Expected<void> HostEnv::loadModule(const std::string& module) const {
    if (exists("/sys/module/" + sysfsModuleName(module))) {
        return {};
    }
    auto result = runChecked({"modprobe", module}, std::chrono::seconds(30));
    if (!result) {
        return std::unexpected(result.error());
    }
    return {};
}

bool HostEnv::kernelAtLeast(int major, int minor) const {
    int haveMajor = 0;
    int haveMinor = 0;
    char dot = 0;
    std::istringstream text(kernelRelease);
    if (!(text >> haveMajor >> dot >> haveMinor)) {
        return false;
    }
    return haveMajor > major || (haveMajor == major && haveMinor >= minor);
}

std::optional<device::MountInfoEntry> HostEnv::mountOf(const std::string& device) const {
    auto text = read("/proc/self/mountinfo");
    if (!text) {
        return std::nullopt;
    }
    const std::string name = kernelName(device);
    for (const auto& entry : device::parseMountInfo(*text)) {
        if (entry.source == device ||
            (entry.source.starts_with("/dev/") && kernelName(entry.source) == name)) {
            return entry;
        }
    }
    return std::nullopt;
}

std::optional<std::string> HostEnv::mountPointOf(const std::string& device) const {
    if (auto entry = mountOf(device); entry) {
        return entry->mountPoint;
    }
    return std::nullopt;
}

Expected<std::uint64_t> HostEnv::deviceBytes(const std::string& device) const {
    auto sectors = readU64("/sys/class/block/" + kernelName(device) + "/size");
    if (!sectors) {
        return fail(ErrorCode::NotFound, "no size for " + device + " in /sys/class/block");
    }
    return *sectors * 512;
}

std::string kernelName(const std::string& device) {
    std::filesystem::path path(device);
    std::error_code error;
    if (path.is_absolute()) {
        if (auto resolved = std::filesystem::canonical(path, error); !error) {
            path = resolved;
        }
    }
    return path.filename().string();
}

} // namespace ssdk::cachectl
