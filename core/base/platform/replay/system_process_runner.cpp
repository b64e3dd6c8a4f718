#include "core/base/system_process_runner.h"

#include <cstdlib>
#include <filesystem>

#include "core/base/platform/replay/unavailable.h"

namespace ssdk {

// The replay platform runs nothing: its programs' output comes from recordings
// (ReplayProcessRunner, core/platform/replay/replay_platform.h).
Expected<ProcessResult> SystemProcessRunner::run(const ProcessRequest& request) {
    const std::string program = request.argv.empty() ? std::string("a program") : request.argv[0];
    return std::unexpected(replay::unavailable("running " + program));
}

std::string findExecutable(const std::string& name) {
    namespace fs = std::filesystem;
    const auto executable = [](const fs::path& candidate) {
        std::error_code error;
        const auto status = fs::status(candidate, error);
        return fs::is_regular_file(status) &&
               (status.permissions() & (fs::perms::owner_exec | fs::perms::group_exec |
                                        fs::perms::others_exec)) != fs::perms::none;
    };
    if (name.find('/') != std::string::npos) {
        return executable(name) ? name : std::string();
    }
    const char* path = std::getenv("PATH");
    std::string_view dirs = path != nullptr ? path : "";
    while (!dirs.empty()) {
        const auto end = dirs.find(':');
        const auto dir = dirs.substr(0, end);
        if (!dir.empty() && executable(fs::path(dir) / name)) {
            return (fs::path(dir) / name).string();
        }
        dirs = end == std::string_view::npos ? std::string_view() : dirs.substr(end + 1);
    }
    return {};
}

} // namespace ssdk
