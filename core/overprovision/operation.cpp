#include "core/overprovision/operation.h"

#include <fmt/format.h>

#include "core/base/log.h"

namespace ssdk::overprovision {

Operation::Operation(Journal journal, DiskEditor& editor, FilesystemTool& filesystems,
                     const JournalStore& store)
    : m_journal(std::move(journal))
    , m_editor(editor)
    , m_filesystems(filesystems)
    , m_store(store) {}

FilesystemLocation Operation::location() const {
    return {m_journal.filesystemType, m_journal.partitionPath, m_journal.mountPoint};
}

Expected<void> Operation::save() {
    return withContext(m_store.save(m_journal), "recording the spare-area journal");
}

std::string Operation::describe(const Journal& journal, const JournalStep& step) {
    const std::string& part = journal.partitionPath;
    const std::string& fs = journal.filesystemType;
    if (step.name == "backup-table") {
        return "Backing up the partition table of " + journal.devicePath;
    }
    if (step.name == "unmount") {
        return "Unmounting " + part + " from " + journal.remountPoint;
    }
    if (step.name == "remount") {
        return "Mounting " + part + " at " + journal.remountPoint + " again (" +
               journal.remountOptions + ")";
    }
    if (step.name == "check-filesystem") {
        return journal.mountPoint.empty() ? "Checking the " + fs + " filesystem on " + part
                                          : "Skipping the check of mounted " + part;
    }
    if (step.name == "shrink-filesystem" || step.name == "grow-filesystem") {
        return fmt::format("{} the {} filesystem on {} to {}",
                           step.name == "shrink-filesystem" ? "Shrinking" : "Growing", fs, part,
                           formatIec(journal.toFilesystemSize));
    }
    if (step.name == "shrink-partition" || step.name == "grow-partition") {
        return fmt::format("{} partition {} from {} to {}",
                           step.name == "shrink-partition" ? "Shrinking" : "Growing", part,
                           formatIec(journal.fromPartitionSize),
                           formatIec(journal.toPartitionSize));
    }
    if (step.name == "inform-kernel") {
        return "Telling the kernel the new size of " + part;
    }
    if (step.name == "discard") {
        return fmt::format("Discarding (TRIM) the freed {}",
                           formatIec(journal.fromPartitionSize - journal.toPartitionSize));
    }
    return "Verifying " + part;
}

Expected<void> Operation::runStep(const std::string& name) {
    const Journal& j = m_journal;
    const auto where = location();
    if (name == "backup-table") {
        auto taken = m_store.files().exists(j.tableBackup);
        if (!taken || *taken) {
            return taken ? Expected<void>() : Expected<void>(std::unexpected(taken.error()));
        }
        auto table = m_editor.dumpTable(j.devicePath);
        if (!table) {
            return std::unexpected(table.error());
        }
        return m_store.files().write(j.tableBackup, *table);
    }
    if (name == "unmount") {
        return m_filesystems.unmount(j.partitionPath, j.remountPoint);
    }
    if (name == "remount") {
        return m_filesystems.mount({j.filesystemType, j.partitionPath, j.remountPoint},
                                   j.remountOptions);
    }
    if (name == "check-filesystem") {
        return m_filesystems.check(where);
    }
    if (name == "shrink-filesystem" || name == "grow-filesystem") {
        return m_filesystems.resize(where, j.toFilesystemSize);
    }
    if (name == "shrink-partition" || name == "grow-partition") {
        auto extent = m_editor.partitionOnDisk(j.devicePath, j.partitionNumber);
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
        // Never cut into a filesystem: it must already fit the smaller partition.
        auto fsSize = m_filesystems.size(where);
        if (!fsSize) {
            return std::unexpected(fsSize.error());
        }
        if (*fsSize > j.toPartitionSize) {
            return fail(ErrorCode::Internal,
                        fmt::format("the filesystem ({} bytes) is larger than the new partition "
                                    "({} bytes); not resizing the partition",
                                    fsSize->value, j.toPartitionSize.value));
        }
        return m_editor.resizePartition(j.devicePath, j.partitionNumber, j.toPartitionSize);
    }
    if (name == "inform-kernel") {
        return m_editor.informKernel(j.devicePath, j.partitionNumber, j.partitionStart,
                                     j.toPartitionSize);
    }
    if (name == "discard") {
        if (j.toPartitionSize >= j.fromPartitionSize) {
            return {};
        }
        auto discarded = m_editor.discard(j.devicePath, j.partitionStart + j.toPartitionSize,
                                          j.fromPartitionSize - j.toPartitionSize);
        if (!discarded && discarded.error().code() == ErrorCode::Unsupported) {
            log::get("overprovision")->warn("{}", discarded.error().describe());
            return {};
        }
        return discarded;
    }
    if (name == "verify") {
        auto extent = m_editor.partitionOnDisk(j.devicePath, j.partitionNumber);
        if (!extent) {
            return std::unexpected(extent.error());
        }
        if (extent->size != j.toPartitionSize) {
            return fail(ErrorCode::Io,
                        fmt::format("partition {} has {} bytes on disk, not {}", j.partitionNumber,
                                    extent->size.value, j.toPartitionSize.value));
        }
        auto fsSize = m_filesystems.size(where);
        if (!fsSize) {
            return std::unexpected(fsSize.error());
        }
        if (!sameSize(*fsSize, j.toFilesystemSize)) {
            return fail(ErrorCode::Io, fmt::format("the filesystem has {} bytes, not {}",
                                                   fsSize->value, j.toFilesystemSize.value));
        }
        return m_filesystems.verify(where);
    }
    return fail(ErrorCode::Internal, "unknown step \"" + name + "\"");
}

Expected<Journal> Operation::run(const StepObserver& observer) {
    if (auto saved = save(); !saved) {
        return std::unexpected(saved.error());
    }
    const std::size_t count = m_journal.steps.size();
    for (std::size_t i = 0; i < count; ++i) {
        if (m_journal.steps[i].state == StepState::Done) {
            continue;
        }
        const std::string name = m_journal.steps[i].name;
        StepEvent event{i, count, name, describe(m_journal, m_journal.steps[i]), false};
        m_journal.steps[i].state = StepState::Started;
        if (auto saved = save(); !saved) {
            return std::unexpected(saved.error());
        }
        if (observer) {
            observer(event);
        }
        log::get("overprovision")->info("{}", event.description);
        if (auto done = runStep(name); !done) {
            Error error = done.error();
            error.addContext(event.description);
            m_journal.lastError = error.describe();
            (void)save();
            return std::unexpected(std::move(error));
        }
        m_journal.steps[i].state = StepState::Done;
        if (auto saved = save(); !saved) {
            return std::unexpected(saved.error());
        }
        event.finished = true;
        if (observer) {
            observer(event);
        }
    }
    m_journal.phase = m_journal.phase == Phase::RollingBack ? Phase::RolledBack : Phase::Completed;
    m_journal.lastError.clear();
    if (auto saved = save(); !saved) {
        return std::unexpected(saved.error());
    }
    return m_journal;
}

} // namespace ssdk::overprovision
