#pragma once

#include <optional>
#include <string>

#include "core/base/process_runner.h"
#include "core/device/discovery.h"
#include "core/overprovision/disk_editor.h"
#include "core/overprovision/filesystem_tool.h"
#include "core/overprovision/journal.h"
#include "core/overprovision/operation.h"
#include "core/overprovision/planner.h"

namespace ssdk::overprovision {

// What the spare-area page and `op plan` need to plan locally for any percentage.
struct SpareAreaStatus {
    device::Device device;
    std::optional<FilesystemUsage> usage; // of the last partition's filesystem
    std::string usageError;               // why usage is missing
    // When the last partition's ext filesystem is mounted: the processes holding it, which
    // keep it from being unmounted for a shrink.
    std::vector<std::string> mountUsers;
    std::optional<Journal> journal; // pending (recovery offered) or the last one done
};

// Its JSON, the op.inspect result: InspectReply (core/overprovision/verbs.h).

enum class Recovery { Finish, RollBack };

// The spare-area feature for one state directory: inspect, apply, undo and recover, each
// re-reading the device and re-planning rather than trusting a caller's plan. Needs root for
// everything but planning.
class SpareArea {
public:
    // procRoot: where processes holding a mounted filesystem are looked for.
    SpareArea(device::Discovery discovery, ProcessRunner& runner, DiskEditor& editor,
              JournalStore store, std::filesystem::path procRoot = "/proc");

    Expected<SpareAreaStatus> inspect(const std::string& devicePath);
    // Plans sparePercent for the device and carries the plan out. `confirmedPartition`, when
    // not empty, must name the partition the plan changes (what the user confirmed).
    // unmountAndRemount: a mounted ext filesystem is unmounted for the shrink and mounted again
    // where and as it was (refused while anything holds it open).
    // Errors: Busy when a journal is pending (recover first), Unsupported/NoSpace/Busy with
    // the plan's reasons when it cannot be done. A shrink the filesystem tool refuses (data
    // written since the plan raised its minimum) is rolled back before the error returns.
    Expected<Journal> apply(const std::string& devicePath, double sparePercent,
                            const std::string& confirmedPartition, const StepObserver& observer,
                            bool unmountAndRemount = false);
    // Grows back what the last completed apply shrank.
    Expected<Journal> undo(const std::string& devicePath, const StepObserver& observer);
    // Finishes or rolls back an interrupted operation.
    Expected<Journal> recover(const std::string& devicePath, Recovery action,
                              const StepObserver& observer);

private:
    // After a failed apply: a shrink that failed before it touched the partition is rolled
    // back at once (the filesystem mounted again where it was), and the error says so; any
    // other failure is returned as it is, its journal left pending for finish or roll back.
    Expected<Journal> rollBackUntouched(const std::string& devicePath, const Error& error,
                                        const StepObserver& observer);
    Expected<device::Device> findDevice(const std::string& devicePath) const;
    Expected<std::optional<Journal>> journalFor(const device::Device& device) const;
    struct DriveJournal {
        device::Device device;
        std::optional<Journal> journal;
    };
    // The drive as discovered now and its last journal.
    Expected<DriveJournal> driveAndJournal(const std::string& devicePath) const;

    device::Discovery m_discovery;
    ProcessRunner& m_runner;
    DiskEditor& m_editor;
    FilesystemTool m_filesystems;
    JournalStore m_store;
    std::filesystem::path m_procRoot;
};

} // namespace ssdk::overprovision
