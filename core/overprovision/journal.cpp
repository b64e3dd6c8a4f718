#include "core/overprovision/journal.h"

#include <chrono>
#include <fmt/format.h>

namespace ssdk::overprovision {

namespace {

Expected<Phase> phaseFromString(std::string_view text) {
    for (Phase phase : {Phase::Running, Phase::RollingBack, Phase::Completed, Phase::RolledBack}) {
        if (toString(phase) == text) {
            return phase;
        }
    }
    return fail(ErrorCode::Parse, "journal: unknown phase \"" + std::string(text) + "\"");
}

} // namespace

std::string_view toString(Phase phase) {
    switch (phase) {
    case Phase::Running:
        return "running";
    case Phase::RollingBack:
        return "rolling-back";
    case Phase::Completed:
        return "completed";
    case Phase::RolledBack:
        return "rolled-back";
    }
    return "running";
}

std::string_view toString(Step step) {
    switch (step) {
    case Step::BackupTable:
        return "backup-table";
    case Step::Unmount:
        return "unmount";
    case Step::CheckFilesystem:
        return "check-filesystem";
    case Step::ShrinkFilesystem:
        return "shrink-filesystem";
    case Step::GrowFilesystem:
        return "grow-filesystem";
    case Step::ShrinkPartition:
        return "shrink-partition";
    case Step::GrowPartition:
        return "grow-partition";
    case Step::InformKernel:
        return "inform-kernel";
    case Step::Discard:
        return "discard";
    case Step::Verify:
        return "verify";
    case Step::Remount:
        return "remount";
    }
    return "verify";
}

std::vector<JournalStep> stepsFor(Direction direction, bool remount) {
    std::vector<Step> order;
    if (direction == Direction::Shrink) {
        order = {Step::BackupTable,     Step::CheckFilesystem, Step::ShrinkFilesystem,
                 Step::ShrinkPartition, Step::InformKernel,    Step::Discard,
                 Step::Verify};
    } else {
        order = {Step::BackupTable,  Step::CheckFilesystem, Step::GrowPartition,
                 Step::InformKernel, Step::GrowFilesystem,  Step::Verify};
    }
    if (remount) {
        order.insert(order.begin() + 1, Step::Unmount);
        order.push_back(Step::Remount);
    }
    std::vector<JournalStep> steps;
    for (const Step step : order) {
        steps.push_back({step, StepState::Pending});
    }
    return steps;
}

Expected<Journal> journalForPlan(const Plan& plan, const std::string& deviceId,
                                 const std::string& backupName) {
    if (!plan.possible || plan.direction == Direction::None || !plan.usage) {
        return fail(ErrorCode::InvalidArgument, "the plan cannot be carried out");
    }
    Journal journal;
    journal.deviceId = deviceId;
    journal.devicePath = plan.devicePath;
    journal.purpose = "apply";
    journal.direction = plan.direction;
    journal.partitionNumber = plan.partitionNumber;
    journal.partitionPath = plan.partitionPath;
    journal.filesystemType = plan.filesystemType;
    journal.mountPoint = plan.mountPoint;
    if (plan.unmountAndRemount) {
        journal.remountPoint = plan.mountPoint;
        journal.mountPoint.clear();
    }
    journal.partitionStart = plan.partitionStart;
    journal.fromPartitionSize = plan.oldPartitionSize;
    journal.toPartitionSize = plan.newPartitionSize;
    journal.fromFilesystemSize = plan.usage->size;
    journal.toFilesystemSize = plan.newPartitionSize;
    journal.tableBackup = backupName;
    journal.steps = stepsFor(plan.direction, !journal.remountPoint.empty());
    return journal;
}

Expected<Journal> journalForUndo(const Journal& completed, const std::string& backupName) {
    if (!completed.undoable()) {
        return fail(ErrorCode::InvalidArgument, "only a completed spare-area change can be undone");
    }
    Journal journal = completed;
    journal.purpose = "undo";
    journal.direction = Direction::Grow;
    journal.phase = Phase::Running;
    std::swap(journal.fromPartitionSize, journal.toPartitionSize);
    std::swap(journal.fromFilesystemSize, journal.toFilesystemSize);
    journal.tableBackup = backupName;
    // Undo re-reads where the filesystem is mounted: it grows online.
    journal.remountPoint.clear();
    journal.remountOptions.clear();
    journal.steps = stepsFor(Direction::Grow);
    journal.lastError.clear();
    return journal;
}

Journal journalToFinish(Journal pending) {
    for (auto& step : pending.steps) {
        if (step.step != Step::BackupTable || step.state != StepState::Done) {
            step.state = StepState::Pending;
        }
    }
    pending.lastError.clear();
    return pending;
}

Journal journalToRollBack(const Journal& pending, const std::string& backupName) {
    Journal journal = pending;
    journal.phase = Phase::RollingBack;
    journal.direction =
        pending.direction == Direction::Shrink ? Direction::Grow : Direction::Shrink;
    std::swap(journal.fromPartitionSize, journal.toPartitionSize);
    std::swap(journal.fromFilesystemSize, journal.toFilesystemSize);
    journal.tableBackup = backupName;
    journal.steps = stepsFor(journal.direction, !journal.remountPoint.empty());
    journal.lastError.clear();
    return journal;
}

Json toJson(const Journal& journal) {
    std::vector<std::string_view> names;
    std::vector<JobState> states;
    for (const auto& step : journal.steps) {
        names.push_back(toString(step.step));
        states.push_back(step.state);
    }
    return Json{{"version", journal.version},
                {"device_id", journal.deviceId},
                {"device", journal.devicePath},
                {"purpose", journal.purpose},
                {"direction", toString(journal.direction)},
                {"phase", toString(journal.phase)},
                {"partition_number", journal.partitionNumber},
                {"partition", journal.partitionPath},
                {"filesystem", journal.filesystemType},
                {"mount_point", journal.mountPoint},
                {"remount_point", journal.remountPoint},
                {"remount_options", journal.remountOptions},
                {"partition_start", journal.partitionStart.value},
                {"from_partition_size", journal.fromPartitionSize.value},
                {"to_partition_size", journal.toPartitionSize.value},
                {"from_filesystem_size", journal.fromFilesystemSize.value},
                {"to_filesystem_size", journal.toFilesystemSize.value},
                {"table_backup", journal.tableBackup},
                {"steps", jobStatesToJson(names, states)},
                {"last_error", journal.lastError}};
}

Expected<Journal> journalFromJson(const Json& json) {
    // get<>() casts a float out of range (1e300) to an integer with undefined behaviour: the
    // integer fields must be integers.
    for (const char* key : {"version", "partition_number", "partition_start", "from_partition_size",
                            "to_partition_size", "from_filesystem_size", "to_filesystem_size"}) {
        const auto field = json.is_object() ? json.find(key) : json.end();
        if (field != json.end() && !field->is_number_integer()) {
            return fail(ErrorCode::Parse,
                        std::string("journal: \"") + key + "\" is not an integer");
        }
    }
    try {
        Journal journal;
        journal.version = json.at("version").get<int>();
        if (journal.version != 1) {
            return fail(ErrorCode::Parse,
                        fmt::format("journal version {} is not supported", journal.version));
        }
        journal.deviceId = json.at("device_id").get<std::string>();
        if (!StateStore::validName(journal.deviceId + ".json")) {
            return fail(ErrorCode::Parse,
                        "journal: \"" + journal.deviceId + "\" is not a drive key");
        }
        journal.devicePath = json.at("device").get<std::string>();
        journal.purpose = json.at("purpose").get<std::string>();
        const auto direction = json.at("direction").get<std::string>();
        if (direction != "shrink" && direction != "grow") {
            return fail(ErrorCode::Parse, "journal: unknown direction \"" + direction + "\"");
        }
        journal.direction = direction == "shrink" ? Direction::Shrink : Direction::Grow;
        auto phase = phaseFromString(json.at("phase").get<std::string>());
        if (!phase) {
            return std::unexpected(phase.error());
        }
        journal.phase = *phase;
        journal.partitionNumber = json.at("partition_number").get<std::uint32_t>();
        journal.partitionPath = json.at("partition").get<std::string>();
        journal.filesystemType = json.at("filesystem").get<std::string>();
        journal.mountPoint = json.value("mount_point", "");
        journal.remountPoint = json.value("remount_point", "");
        journal.remountOptions = json.value("remount_options", "");
        journal.partitionStart = Bytes(json.at("partition_start").get<std::uint64_t>());
        journal.fromPartitionSize = Bytes(json.at("from_partition_size").get<std::uint64_t>());
        journal.toPartitionSize = Bytes(json.at("to_partition_size").get<std::uint64_t>());
        journal.fromFilesystemSize = Bytes(json.at("from_filesystem_size").get<std::uint64_t>());
        journal.toFilesystemSize = Bytes(json.at("to_filesystem_size").get<std::uint64_t>());
        journal.tableBackup = json.value("table_backup", "");
        if (!journal.tableBackup.empty() && !StateStore::validName(journal.tableBackup)) {
            return fail(ErrorCode::Parse, "journal: the table backup \"" + journal.tableBackup +
                                              "\" is not a file name in the journal's store");
        }
        if (!journal.remountPoint.empty() && !journal.remountPoint.starts_with('/')) {
            return fail(ErrorCode::Parse, "journal: the remount point \"" + journal.remountPoint +
                                              "\" is not an absolute path");
        }
        journal.lastError = json.value("last_error", "");
        const auto expected = stepsFor(journal.direction, !journal.remountPoint.empty());
        std::vector<std::string_view> names;
        for (const auto& step : expected) {
            names.push_back(toString(step.step));
        }
        auto states = jobStatesFromJson(json.at("steps"), names);
        if (!states) {
            return std::unexpected(Error(states.error())
                                       .addContext("journal: the steps of a " +
                                                   std::string(toString(journal.direction))));
        }
        for (std::size_t i = 0; i < expected.size(); ++i) {
            journal.steps.push_back({expected[i].step, (*states)[i]});
        }
        return journal;
    } catch (const Json::exception& error) {
        return fail(ErrorCode::Parse, std::string("journal: ") + error.what());
    }
}

JournalStore::JournalStore(StateStore files)
    : m_files(std::move(files)) {}

std::string JournalStore::newBackupName(const std::string& deviceId,
                                        const std::string& purpose) const {
    const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
    return fmt::format("{}-{}-{}.sfdisk", deviceId, purpose, now);
}

Expected<std::optional<Journal>> JournalStore::load(const std::string& deviceId) const {
    const std::string name = deviceId + ".json";
    auto text = m_files.read(name);
    if (!text) {
        return std::unexpected(text.error());
    }
    if (!*text) {
        return std::optional<Journal>{};
    }
    const auto path = m_files.pathOf(name).string();
    auto json = parseJson(**text, path);
    if (!json) {
        return std::unexpected(json.error());
    }
    auto journal = journalFromJson(*json);
    if (!journal) {
        return std::unexpected(journal.error().addContext("reading " + path));
    }
    if (journal->deviceId != deviceId) {
        return fail(ErrorCode::Parse, path + " is the journal of " + journal->deviceId);
    }
    return std::optional<Journal>(std::move(*journal));
}

Expected<void> JournalStore::save(const Journal& journal) const {
    return m_files.write(journal.deviceId + ".json", toJson(journal).dump(2) + "\n");
}

} // namespace ssdk::overprovision
