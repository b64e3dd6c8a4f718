#include "core/overprovision/jobs.h"

#include <fmt/format.h>

#include "core/base/log.h"
#include "core/device/mount_jobs.h"

namespace ssdk::overprovision {

namespace {

// The fields every job shares: its step and what it works with.
class SpareAreaJob : public Job {
public:
    SpareAreaJob(Step step, const JobContext& context)
        : m_step(step)
        , m_context(context) {}

    std::string_view name() const override { return toString(m_step); }

protected:
    const Journal& journal() const { return m_context.journal; }
    DiskEditor& editor() const { return m_context.editor; }
    FilesystemTool& filesystems() const { return m_context.filesystems; }
    const JournalStore& store() const { return m_context.store; }
    FilesystemLocation location() const {
        return {journal().filesystemType, journal().partitionPath, journal().mountPoint};
    }
    Step step() const { return m_step; }

private:
    Step m_step;
    JobContext m_context;
};

class BackupTableJob final : public SpareAreaJob {
public:
    using SpareAreaJob::SpareAreaJob;
    std::string describe() const override {
        return "Backing up the partition table of " + journal().devicePath;
    }
    Expected<void> run() override {
        auto taken = store().files().exists(journal().tableBackup);
        if (!taken || *taken) {
            return taken ? Expected<void>() : Expected<void>(std::unexpected(taken.error()));
        }
        auto table = editor().dumpTable(journal().devicePath);
        if (!table) {
            return std::unexpected(table.error());
        }
        return store().files().write(journal().tableBackup, *table);
    }
};

class CheckFilesystemJob final : public SpareAreaJob {
public:
    using SpareAreaJob::SpareAreaJob;
    std::string describe() const override {
        return journal().mountPoint.empty()
                   ? "Checking the " + journal().filesystemType + " filesystem on " +
                         journal().partitionPath
                   : "Skipping the check of mounted " + journal().partitionPath;
    }
    Expected<void> run() override { return filesystems().check(location()); }
};

// shrink-filesystem and grow-filesystem: to the journal's new filesystem size.
class ResizeFilesystemJob final : public SpareAreaJob {
public:
    using SpareAreaJob::SpareAreaJob;
    std::string describe() const override {
        return fmt::format("{} the {} filesystem on {} to {}",
                           step() == Step::ShrinkFilesystem ? "Shrinking" : "Growing",
                           journal().filesystemType, journal().partitionPath,
                           formatIec(journal().toFilesystemSize));
    }
    Expected<void> run() override {
        return filesystems().resize(location(), journal().toFilesystemSize);
    }
};

// shrink-partition and grow-partition: only where the journal says the partition starts, and
// never cutting into the filesystem.
class ResizePartitionJob final : public SpareAreaJob {
public:
    using SpareAreaJob::SpareAreaJob;
    std::string describe() const override {
        return fmt::format("{} partition {} from {} to {}",
                           step() == Step::ShrinkPartition ? "Shrinking" : "Growing",
                           journal().partitionPath, formatIec(journal().fromPartitionSize),
                           formatIec(journal().toPartitionSize));
    }
    Expected<void> run() override {
        const Journal& j = journal();
        auto extent = editor().partitionOnDisk(j.devicePath, j.partitionNumber);
        if (!extent) {
            return std::unexpected(extent.error());
        }
        if (extent->start != j.partitionStart) {
            return fail(ErrorCode::Internal,
                        fmt::format("partition {} starts at {} on disk, not at {} as recorded: "
                                    "the table changed outside SSD Keeper; nothing done",
                                    j.partitionNumber, extent->start.value,
                                    j.partitionStart.value));
        }
        auto fsSize = filesystems().size(location());
        if (!fsSize) {
            return std::unexpected(fsSize.error());
        }
        if (*fsSize > j.toPartitionSize) {
            return fail(ErrorCode::Internal,
                        fmt::format("the filesystem ({} bytes) is larger than the new partition "
                                    "({} bytes); not resizing the partition",
                                    fsSize->value, j.toPartitionSize.value));
        }
        return editor().resizePartition(j.devicePath, j.partitionNumber, j.toPartitionSize);
    }
};

class InformKernelJob final : public SpareAreaJob {
public:
    using SpareAreaJob::SpareAreaJob;
    std::string describe() const override {
        return "Telling the kernel the new size of " + journal().partitionPath;
    }
    Expected<void> run() override {
        const Journal& j = journal();
        return editor().informKernel(j.devicePath, j.partitionNumber, j.partitionStart,
                                     j.toPartitionSize);
    }
};

// TRIMs the range a shrink freed; a drive that cannot discard only loses the hint.
class DiscardJob final : public SpareAreaJob {
public:
    using SpareAreaJob::SpareAreaJob;
    std::string describe() const override {
        return fmt::format("Discarding (TRIM) the freed {}",
                           formatIec(journal().fromPartitionSize - journal().toPartitionSize));
    }
    Expected<void> run() override {
        const Journal& j = journal();
        if (j.toPartitionSize >= j.fromPartitionSize) {
            return {};
        }
        auto discarded = editor().discard(j.devicePath, j.partitionStart + j.toPartitionSize,
                                          j.fromPartitionSize - j.toPartitionSize);
        if (!discarded && discarded.error().code() == ErrorCode::Unsupported) {
            log::get("overprovision")->warn("{}", discarded.error().describe());
            return {};
        }
        return discarded;
    }
};

// The partition on disk and the filesystem in it have the journal's new sizes, and the
// filesystem checks clean.
class VerifyJob final : public SpareAreaJob {
public:
    using SpareAreaJob::SpareAreaJob;
    std::string describe() const override { return "Verifying " + journal().partitionPath; }
    Expected<void> run() override {
        const Journal& j = journal();
        auto extent = editor().partitionOnDisk(j.devicePath, j.partitionNumber);
        if (!extent) {
            return std::unexpected(extent.error());
        }
        if (extent->size != j.toPartitionSize) {
            return fail(ErrorCode::Io,
                        fmt::format("partition {} has {} bytes on disk, not {}", j.partitionNumber,
                                    extent->size.value, j.toPartitionSize.value));
        }
        auto fsSize = filesystems().size(location());
        if (!fsSize) {
            return std::unexpected(fsSize.error());
        }
        if (!sameSize(*fsSize, j.toFilesystemSize)) {
            return fail(ErrorCode::Io, fmt::format("the filesystem has {} bytes, not {}",
                                                   fsSize->value, j.toFilesystemSize.value));
        }
        return filesystems().verify(location());
    }
};

// The partition where the journal says it is mounted (the shared unmount and remount jobs).
device::TargetOf remountTarget(const Journal& journal) {
    return [&journal] {
        return device::MountTarget{journal.partitionPath, journal.remountPoint,
                                   journal.filesystemType, journal.remountOptions};
    };
}

device::Mounter mounter(FilesystemTool& filesystems) {
    return {
        [&filesystems](const device::MountTarget& where) {
            return filesystems.mount({where.fsType, where.device, where.mountPoint}, where.options);
        },
        [&filesystems](const device::MountTarget& where) {
            return filesystems.unmount(where.device, where.mountPoint);
        }};
}

} // namespace

std::unique_ptr<Job> makeJob(Step step, const JobContext& context) {
    switch (step) {
    case Step::BackupTable:
        return std::make_unique<BackupTableJob>(step, context);
    case Step::Unmount:
        return device::makeUnmountJob(remountTarget(context.journal), mounter(context.filesystems));
    case Step::Remount:
        return device::makeRemountJob(remountTarget(context.journal), mounter(context.filesystems));
    case Step::CheckFilesystem:
        return std::make_unique<CheckFilesystemJob>(step, context);
    case Step::ShrinkFilesystem:
    case Step::GrowFilesystem:
        return std::make_unique<ResizeFilesystemJob>(step, context);
    case Step::ShrinkPartition:
    case Step::GrowPartition:
        return std::make_unique<ResizePartitionJob>(step, context);
    case Step::InformKernel:
        return std::make_unique<InformKernelJob>(step, context);
    case Step::Discard:
        return std::make_unique<DiscardJob>(step, context);
    case Step::Verify:
        return std::make_unique<VerifyJob>(step, context);
    }
    return std::make_unique<VerifyJob>(Step::Verify, context);
}

} // namespace ssdk::overprovision
