#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/base/bytes.h"
#include "core/base/error.h"
#include "core/base/job.h"
#include "core/base/json.h"
#include "core/base/state_store.h"
#include "core/overprovision/planner.h"

namespace ssdk::overprovision {

// The jobs a spare-area Operation is made of (core/overprovision/jobs.h); the journal names each
// by toString(Step).
enum class Step {
    BackupTable,      // "backup-table"
    Unmount,          // "unmount"
    CheckFilesystem,  // "check-filesystem"
    ShrinkFilesystem, // "shrink-filesystem"
    GrowFilesystem,   // "grow-filesystem"
    ShrinkPartition,  // "shrink-partition"
    GrowPartition,    // "grow-partition"
    InformKernel,     // "inform-kernel"
    Discard,          // "discard"
    Verify,           // "verify"
    Remount,          // "remount"
};
std::string_view toString(Step step);

using StepState = JobState;

struct JournalStep {
    Step step = Step::BackupTable;
    StepState state = StepState::Pending;
};

enum class Phase {
    Running,     // apply or undo in progress (or interrupted: then recovery is offered)
    RollingBack, // an interrupted operation being undone (or interrupted itself)
    Completed,
    RolledBack,
};

// What an operation is about to do and how far it got, written to the state directory before
// every step. An operation only ever resizes one partition and its filesystem between two
// sizes, so finishing = running the remaining steps again (each is idempotent) and rolling
// back = the same steps towards the original sizes.
struct Journal {
    int version = 1;
    std::string deviceId;   // device::driveKey() of the drive, the journal's file name stem
    std::string devicePath; // "/dev/loop3"
    std::string purpose;    // "apply" or "undo": what the user asked for
    Direction direction = Direction::Shrink;
    Phase phase = Phase::Running;
    std::uint32_t partitionNumber = 0;
    std::string partitionPath;
    std::string filesystemType;
    std::string mountPoint; // where the filesystem is mounted while resized; empty: unmounted
    // Set when the operation unmounts a mounted ext filesystem for the shrink (the "unmount"
    // step) and mounts it again here with these options (the "remount" step) at the end.
    std::string remountPoint;
    std::string remountOptions; // "rw,relatime,errors=remount-ro"
    Bytes partitionStart;
    Bytes fromPartitionSize, toPartitionSize;
    Bytes fromFilesystemSize, toFilesystemSize;
    // File name, in the journal's store, of the sfdisk dump taken by the first step.
    std::string tableBackup;
    std::vector<JournalStep> steps;
    std::string lastError; // why the last run stopped, when it failed rather than crashed

    bool pending() const { return phase == Phase::Running || phase == Phase::RollingBack; }
    // Undo is offered for a completed shrink made by apply.
    bool undoable() const {
        return phase == Phase::Completed && purpose == "apply" && direction == Direction::Shrink;
    }
};

// The steps of a shrink or a grow, in order; with remount, "unmount" follows the table backup
// and "remount" ends it.
std::vector<JournalStep> stepsFor(Direction direction, bool remount = false);

// A journal for carrying out `plan` (which must be possible). Pure.
Expected<Journal> journalForPlan(const Plan& plan, const std::string& deviceId,
                                 const std::string& backupName);
// A journal that grows the partition and filesystem of a completed apply back. Pure.
Expected<Journal> journalForUndo(const Journal& completed, const std::string& backupName);
// Finishing an interrupted journal: the table backup is kept if it was taken; every other step
// runs again (each is idempotent, and a half-run resize needs its check first). Pure.
Journal journalToFinish(Journal pending);
// Rolling an interrupted journal back: the same partition and filesystem resized towards the
// sizes they had before it started. Pure.
Journal journalToRollBack(const Journal& pending, const std::string& backupName);

Json toJson(const Journal& journal);
Expected<Journal> journalFromJson(const Json& json);
std::string_view toString(Phase phase);

// Journals live in a StateStore that only the helper writes (/var/lib/ssdkeeper/op, root,
// 0700): <drive key>.json, one per drive, and the table backups beside them. Nothing in it
// comes from a file a user can write, so what a journal says (a backup's name, where to mount
// again) was written by the helper itself.
class JournalStore {
public:
    explicit JournalStore(StateStore files);

    const StateStore& files() const { return m_files; }
    // A new file name for a table backup of this drive.
    std::string newBackupName(const std::string& deviceId, const std::string& purpose) const;

    // Nothing when this drive has no journal.
    Expected<std::optional<Journal>> load(const std::string& deviceId) const;
    // Written atomically (temporary file, fsync, rename).
    Expected<void> save(const Journal& journal) const;

private:
    StateStore m_files;
};

} // namespace ssdk::overprovision
