// Test driver: one spare-area operation in a process of its own.
//   op_driver STATE_DIR apply|apply-unmount DEVICE PERCENT [KILL_AFTER_STEP]
//   op_driver STATE_DIR finish|rollback|undo DEVICE
// KILL_AFTER_STEP N: the process SIGKILLs itself right after step N (0-based) is recorded as
// done, as a crash would. Prints the final journal as JSON; exit 1 with the error on stderr.
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <unistd.h>

#include "core/base/log.h"
#include "core/base/state_store.h"
#include "core/base/system_process_runner.h"
#include "core/overprovision/spare_area.h"

using namespace ssdk;
using namespace ssdk::overprovision;

int main(int argc, char** argv) {
    if (argc < 4) {
        std::cerr << "usage: op_driver STATE_DIR apply|finish|rollback|undo DEVICE [PERCENT "
                     "[KILL_AFTER_STEP]]\n";
        return 2;
    }
    log::setup("warn");
    const std::string stateDir = argv[1];
    const std::string action = argv[2];
    const std::string device = argv[3];
    std::optional<std::size_t> killAfter;
    const bool applying = action == "apply" || action == "apply-unmount";
    if (applying && argc > 5) {
        killAfter = std::stoul(argv[5]);
    }
    const StepObserver observer = [killAfter](const StepEvent& event) {
        if (killAfter && event.finished && event.index == *killAfter) {
            ::kill(::getpid(), SIGKILL);
        }
    };

    SystemProcessRunner runner;
    LinuxDiskEditor editor(runner);
    const SysfsRoot root;
    // The scratch's privileged directory (OpScratch::privilegedDir), as the helper would use.
    auto journals = StateStore::open(std::filesystem::path(stateDir) / "privileged" / "op");
    if (!journals) {
        std::fprintf(stderr, "%s\n", journals.error().describe().c_str());
        return 1;
    }
    SpareArea spare(device::Discovery(root, device::makeSystemFsProber(root)), runner, editor,
                    JournalStore(std::move(*journals)));
    Expected<Journal> result = fail(ErrorCode::InvalidArgument, "unknown action " + action);
    if (applying && argc > 4) {
        result = spare.apply(device, std::stod(argv[4]), "", observer, action == "apply-unmount");
    } else if (action == "finish") {
        result = spare.recover(device, Recovery::Finish, observer);
    } else if (action == "rollback") {
        result = spare.recover(device, Recovery::RollBack, observer);
    } else if (action == "undo") {
        result = spare.undo(device, observer);
    }
    if (!result) {
        std::cerr << result.error().describe() << "\n";
        return 1;
    }
    std::cout << toJson(*result).dump(2) << "\n";
    return 0;
}
