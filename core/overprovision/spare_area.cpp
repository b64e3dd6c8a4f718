#include "core/overprovision/spare_area.h"

#include <fmt/format.h>

#include "core/device/drive_key.h"
#include "core/overprovision/mounts.h"

namespace ssdk::overprovision {

SpareArea::SpareArea(device::Discovery discovery, ProcessRunner& runner, DiskEditor& editor,
                     JournalStore store, std::filesystem::path procRoot)
    : m_discovery(std::move(discovery))
    , m_runner(runner)
    , m_editor(editor)
    , m_filesystems(runner)
    , m_store(std::move(store))
    , m_procRoot(std::move(procRoot)) {}

Expected<device::Device> SpareArea::findDevice(const std::string& devicePath) const {
    auto device = m_discovery.find(devicePath);
    if (!device) {
        return std::unexpected(device.error());
    }
    return device;
}

Expected<std::optional<Journal>> SpareArea::journalFor(const device::Device& device) const {
    return m_store.load(device::driveKey(device));
}

Expected<SpareAreaStatus> SpareArea::inspect(const std::string& devicePath) {
    auto device = findDevice(devicePath);
    if (!device) {
        return std::unexpected(device.error());
    }
    SpareAreaStatus status;
    status.device = *device;
    const int last = lastPartitionIndex(*device);
    if (device->holdsRootFilesystem()) {
        // Nothing is run on the disk of the running system: the plan refuses it anyway.
        status.usageError = device->path + " holds the running system; its filesystems are "
                                           "not inspected";
    } else if (last >= 0) {
        const auto& partition = device->partitions[static_cast<std::size_t>(last)];
        const std::string type = partition.filesystem ? partition.filesystem->type : "";
        if (isSupportedFilesystem(type)) {
            FilesystemLocation where{
                type, partition.path,
                partition.mounts.empty() ? "" : partition.mounts.front().mountPoint};
            if (!where.mountPoint.empty() && type != "btrfs" && type != "ntfs") {
                status.mountUsers = findMountUsers(m_procRoot, partition.path);
            }
            auto usage = m_filesystems.inspect(where);
            if (usage) {
                status.usage = *usage;
            } else {
                status.usageError = usage.error().describe();
            }
        } else {
            status.usageError = "no filesystem SSD Keeper can resize on " + partition.path;
        }
    }
    auto journal = journalFor(*device);
    if (!journal) {
        return std::unexpected(journal.error());
    }
    status.journal = *journal;
    return status;
}

Expected<Journal> SpareArea::apply(const std::string& devicePath, double sparePercent,
                                   const std::string& confirmedPartition,
                                   const StepObserver& observer, bool unmountAndRemount) {
    auto status = inspect(devicePath);
    if (!status) {
        return std::unexpected(status.error());
    }
    if (status->journal && status->journal->pending()) {
        return fail(ErrorCode::Busy, "an interrupted spare-area change of " + devicePath +
                                         " is pending: finish it or roll it back first");
    }
    auto planned = plan(status->device, status->usage, sparePercent,
                        PlanOptions{unmountAndRemount, status->mountUsers});
    if (!planned) {
        return std::unexpected(planned.error());
    }
    if (!planned->possible) {
        std::string reasons;
        for (const auto& reason : planned->refusals) {
            reasons += (reasons.empty() ? "" : "; ") + reason;
        }
        if (!status->usageError.empty() && !status->usage) {
            reasons += " (" + status->usageError + ")";
        }
        return fail(ErrorCode::Unsupported, reasons);
    }
    if (!confirmedPartition.empty() && confirmedPartition != planned->partitionPath) {
        return fail(ErrorCode::InvalidArgument, "the confirmation names " + confirmedPartition +
                                                    ", but the plan changes " +
                                                    planned->partitionPath + "; nothing done");
    }
    const std::string id = device::driveKey(status->device);
    auto journal = journalForPlan(*planned, id, m_store.newBackupName(id, "apply"));
    if (!journal) {
        return std::unexpected(journal.error());
    }
    if (planned->unmountAndRemount) {
        auto mounted = m_filesystems.mountOf(journal->partitionPath, journal->remountPoint);
        if (!mounted) {
            return std::unexpected(mounted.error());
        }
        if (!*mounted) {
            return fail(ErrorCode::Busy, journal->partitionPath + " is no longer mounted at " +
                                             journal->remountPoint + "; nothing done");
        }
        journal->remountOptions = device::remountOptions(**mounted);
    }
    Operation operation(std::move(*journal), m_editor, m_filesystems, m_store);
    auto done = operation.run(observer);
    if (!done) {
        return rollBackUntouched(devicePath, done.error(), observer);
    }
    return done;
}

namespace {

// True when a shrink stopped before it reached the partition: the steps done only copied the
// table, unmounted or checked, and the one that failed was the filesystem's check or shrink
// (resize2fs refusing because the data grew after the plan, for one).
bool stoppedBeforePartition(const Journal& journal) {
    for (const auto& step : journal.steps) {
        if (step.state != StepState::Done) {
            return step.step == Step::CheckFilesystem || step.step == Step::ShrinkFilesystem;
        }
        if (step.step != Step::BackupTable && step.step != Step::Unmount &&
            step.step != Step::CheckFilesystem) {
            return false;
        }
    }
    return false;
}

} // namespace

Expected<Journal> SpareArea::rollBackUntouched(const std::string& devicePath, const Error& error,
                                               const StepObserver& observer) {
    auto found = driveAndJournal(devicePath);
    if (!found || !found->journal || !found->journal->pending() ||
        found->journal->direction != Direction::Shrink ||
        !stoppedBeforePartition(*found->journal)) {
        return std::unexpected(error);
    }
    const std::string remountPoint = found->journal->remountPoint;
    auto back = recover(devicePath, Recovery::RollBack, observer);
    if (!back) {
        return std::unexpected(
            Error{error.code(), fmt::format("{}; rolling back failed too ({}): finish or roll back "
                                            "the change before anything else",
                                            error.describe(), back.error().describe())});
    }
    return std::unexpected(Error{
        error.code(),
        fmt::format(
            "{}; nothing was changed: the change was rolled back{}", error.describe(),
            remountPoint.empty() ? "" : " and the filesystem mounted again at " + remountPoint)});
}

Expected<SpareArea::DriveJournal> SpareArea::driveAndJournal(const std::string& devicePath) const {
    auto device = findDevice(devicePath);
    if (!device) {
        return std::unexpected(device.error());
    }
    auto last = journalFor(*device);
    if (!last) {
        return std::unexpected(last.error());
    }
    return DriveJournal{std::move(*device), std::move(*last)};
}

Expected<Journal> SpareArea::undo(const std::string& devicePath, const StepObserver& observer) {
    auto found = driveAndJournal(devicePath);
    if (!found) {
        return std::unexpected(found.error());
    }
    const auto* device = &found->device;
    const auto* last = &found->journal;
    if (!*last || !(*last)->undoable()) {
        return fail(ErrorCode::NotFound,
                    "no completed spare-area change of " + devicePath + " to undo");
    }
    const Journal& done = **last;
    auto extent = m_editor.partitionOnDisk(device->path, done.partitionNumber);
    if (!extent) {
        return std::unexpected(extent.error());
    }
    if (extent->start != done.partitionStart || extent->size != done.toPartitionSize) {
        return fail(ErrorCode::Busy,
                    fmt::format("partition {} of {} changed since the spare area was set (now "
                                "{} at {}); undo would not restore what was there",
                                done.partitionNumber, devicePath, formatIec(extent->size),
                                formatIec(extent->start)));
    }
    auto journal = journalForUndo(done, m_store.newBackupName(done.deviceId, "undo"));
    if (!journal) {
        return std::unexpected(journal.error());
    }
    journal->devicePath = device->path;
    for (const auto& partition : device->partitions) {
        if (partition.number == journal->partitionNumber) {
            journal->partitionPath = partition.path;
        }
    }
    // The filesystem may be mounted now: ext4 and btrfs grow online.
    journal->mountPoint.clear();
    for (const auto& partition : device->partitions) {
        if (partition.number == journal->partitionNumber && !partition.mounts.empty()) {
            journal->mountPoint = partition.mounts.front().mountPoint;
        }
    }
    if (!journal->mountPoint.empty() && journal->filesystemType.starts_with("ext") &&
        !mayResizeExtOnline()) {
        return fail(ErrorCode::PermissionDenied,
                    journal->partitionPath + " is mounted at " + journal->mountPoint +
                        ": growing a mounted ext filesystem needs CAP_SYS_RESOURCE, which this "
                        "system denies (a container?); unmount it and undo again");
    }
    if (!journal->mountPoint.empty() && journal->filesystemType == "ntfs") {
        return fail(ErrorCode::Busy, journal->partitionPath + " is mounted at " +
                                         journal->mountPoint + ": unmount it to grow NTFS");
    }
    Operation operation(std::move(*journal), m_editor, m_filesystems, m_store);
    return operation.run(observer);
}

Expected<Journal> SpareArea::recover(const std::string& devicePath, Recovery action,
                                     const StepObserver& observer) {
    auto found = driveAndJournal(devicePath);
    if (!found) {
        return std::unexpected(found.error());
    }
    const auto* device = &found->device;
    const auto* last = &found->journal;
    if (!*last || !(*last)->pending()) {
        return fail(ErrorCode::NotFound,
                    "no interrupted spare-area change of " + devicePath + " to recover");
    }
    Journal journal =
        action == Recovery::Finish
            ? journalToFinish(**last)
            : journalToRollBack(**last, m_store.newBackupName((*last)->deviceId, "rollback"));
    // The kernel name may differ after a reboot or re-attach; the journal follows the drive.
    journal.devicePath = device->path;
    for (const auto& partition : device->partitions) {
        if (partition.number == journal.partitionNumber) {
            journal.partitionPath = partition.path;
        }
    }
    Operation operation(std::move(journal), m_editor, m_filesystems, m_store);
    return operation.run(observer);
}

} // namespace ssdk::overprovision
