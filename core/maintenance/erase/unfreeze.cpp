#include "core/maintenance/erase/unfreeze.h"

#include <sstream>

#include "core/base/log.h"

namespace ssdk::maintenance::erase {

Expected<void> checkSuspendToRam(const SysfsRoot& root) {
    const auto states = root.tryString(root.sys() / "power" / "state");
    if (!states) {
        return fail(ErrorCode::Unsupported,
                    "this kernel offers no suspend (no /sys/power/state): hot-plug the drive "
                    "to unfreeze it instead");
    }
    std::istringstream words(*states);
    for (std::string word; words >> word;) {
        if (word == "mem") {
            return {};
        }
    }
    return fail(ErrorCode::Unsupported,
                "this machine cannot suspend to RAM (/sys/power/state offers \"" + *states +
                    "\"): hot-plug the drive to unfreeze it instead");
}

Expected<void> suspendBriefly(ProcessRunner& runner, const SysfsRoot& root,
                              std::chrono::seconds sleep) {
    if (auto ok = checkSuspendToRam(root); !ok) {
        return ok;
    }
    log::get("maintenance")->info("suspending to RAM for {} s to unfreeze a drive", sleep.count());
    ProcessRequest request{.argv = {"rtcwake", "-m", "mem", "-s", std::to_string(sleep.count())},
                           .timeout = sleep + std::chrono::minutes(2)};
    if (auto result = runChecked(runner, request); !result) {
        return std::unexpected(
            Error(result.error()).addContext("suspending the machine briefly with rtcwake"));
    }
    return {};
}

} // namespace ssdk::maintenance::erase
