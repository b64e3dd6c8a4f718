#include "core/maintenance/erase/journal.h"

#include <algorithm>
#include <fmt/format.h>
#include <utility>

#include "core/device/drive_key.h"

namespace ssdk::maintenance::erase {

EraseJournal newJournal(const device::Device& device, std::string method, std::string now) {
    EraseJournal journal;
    journal.deviceId = device::driveKey(device);
    journal.devicePath = device.path;
    journal.model = device.model;
    journal.serial = device.serial;
    journal.sizeBytes = device.size.value;
    journal.method = std::move(method);
    journal.started = now;
    journal.updated = std::move(now);
    journal.step = "starting";
    return journal;
}

std::string_view toString(EraseState state) {
    switch (state) {
    case EraseState::Running:
        return "running";
    case EraseState::Completed:
        return "completed";
    case EraseState::Failed:
        return "failed";
    }
    return "running";
}

Json toJson(const EraseJournal& j) {
    return Json{{"version", j.version},
                {"device_id", j.deviceId},
                {"device", j.devicePath},
                {"model", j.model},
                {"serial", j.serial},
                {"size", j.sizeBytes},
                {"method", j.method},
                {"state", toString(j.state)},
                {"started", j.started},
                {"updated", j.updated},
                {"finished", j.finished},
                {"fraction", j.fraction},
                {"step", j.step},
                {"error", j.error},
                {"ata_password", j.ataPassword},
                {"ata_password_withheld", j.ataPasswordWithheld},
                {"verified", j.verified},
                {"steps", jobStatesToJson(kEraseJobs, j.jobs)}};
}

Expected<EraseJournal> eraseJournalFromJson(const Json& json) {
    const auto version = json.is_object() ? json.find("version") : json.end();
    if (version == json.end() || !version->is_number_integer() || *version != 1) {
        return fail(ErrorCode::Parse, "not an erase journal of version 1");
    }
    EraseJournal j;
    try {
        j.deviceId = json.at("device_id").get<std::string>();
        j.devicePath = json.value("device", "");
        j.model = json.value("model", "");
        j.serial = json.value("serial", "");
        if (const auto size = json.find("size"); size != json.end()) {
            // get<>() casts a float out of range (1e300) with undefined behaviour.
            if (!size->is_number_unsigned()) {
                return fail(ErrorCode::Parse, "erase journal: \"size\" is not a byte count");
            }
            j.sizeBytes = size->get<std::uint64_t>();
        }
        j.method = json.at("method").get<std::string>();
        const auto state = json.at("state").get<std::string>();
        bool known = false;
        for (const EraseState candidate :
             {EraseState::Running, EraseState::Completed, EraseState::Failed}) {
            if (toString(candidate) == state) {
                j.state = candidate;
                known = true;
            }
        }
        if (!known) {
            return fail(ErrorCode::Parse, "erase journal: unknown state '" + state + "'");
        }
        j.started = json.value("started", "");
        j.updated = json.value("updated", "");
        j.finished = json.value("finished", "");
        j.fraction = json.value("fraction", 0.0);
        j.step = json.value("step", "");
        j.error = json.value("error", "");
        j.ataPassword = json.value("ata_password", "");
        j.ataPasswordWithheld = json.value("ata_password_withheld", false);
        j.verified = json.value("verified", false);
        if (const auto steps = json.find("steps"); steps != json.end()) {
            auto states = jobStatesFromJson(*steps, kEraseJobs);
            if (!states) {
                return std::unexpected(Error(states.error()).addContext("erase journal"));
            }
            std::ranges::copy(*states, j.jobs.begin());
        }
    } catch (const Json::exception& e) {
        return fail(ErrorCode::Parse, std::string("erase journal: ") + e.what());
    }
    if (!StateStore::validName(j.deviceId + ".json")) {
        return fail(ErrorCode::Parse, "erase journal: '" + j.deviceId + "' is not a drive key");
    }
    return j;
}

std::string interruptedMessage(const EraseJournal& j) {
    const auto erased = std::ranges::find(kEraseJobs, kJobErase) - std::begin(kEraseJobs);
    const bool eraseFinished = j.jobs[static_cast<std::size_t>(erased)] == JobState::Done;
    std::string message = fmt::format(
        "an erase of {} ({}, {}) with {} was interrupted at {} ({:.0f}%: {}): {}; run the erase "
        "again",
        j.serial.empty() ? j.deviceId : j.serial, j.model.empty() ? "no model" : j.model,
        j.devicePath, j.method, j.updated, j.fraction * 100, j.step,
        eraseFinished ? "the erase itself had finished, its verification had not, so nothing "
                        "proves it"
                      : "the drive's contents are undefined");
    if (!j.ataPassword.empty()) {
        message += fmt::format(" (the drive may still hold the temporary ATA user password "
                               "'{}': running the erase again uses it)",
                               j.ataPassword);
    } else if (j.ataPasswordWithheld) {
        message += fmt::format(" (the drive may still hold the temporary ATA user password the "
                               "erase set: running the erase again uses it; root can read it "
                               "in the helper's erase journal, {}.json)",
                               j.deviceId);
    }
    return message;
}

EraseJournal redacted(EraseJournal journal) {
    if (journal.ataPassword.empty()) {
        return journal;
    }
    const std::string password = std::exchange(journal.ataPassword, {});
    journal.ataPasswordWithheld = true;
    for (std::string* text : {&journal.error, &journal.step}) {
        for (auto at = text->find(password); at != std::string::npos;
             at = text->find(password, at)) {
            text->replace(at, password.size(), "(withheld)");
        }
    }
    return journal;
}

EraseJournalStore::EraseJournalStore(StateStore files)
    : m_files(std::move(files)) {}

std::filesystem::path EraseJournalStore::pathFor(const std::string& deviceId) const {
    return m_files.pathOf(deviceId + ".json");
}

Expected<void> EraseJournalStore::write(const EraseJournal& journal) const {
    return m_files.write(journal.deviceId + ".json", toJson(journal).dump(2) + "\n");
}

Expected<EraseJournalStore::Active> EraseJournalStore::begin(EraseJournal journal) const {
    auto lock = m_files.lock(journal.deviceId + ".lock");
    if (!lock) {
        if (lock.error().code() == ErrorCode::Busy) {
            return fail(ErrorCode::Busy,
                        "an erase of " + journal.devicePath + " is running already");
        }
        return std::unexpected(lock.error());
    }
    Active active(*this, std::move(journal), std::move(*lock));
    if (auto saved = active.save(); !saved) {
        return std::unexpected(saved.error());
    }
    return active;
}

Expected<void> EraseJournalStore::Active::save() {
    return m_store->write(m_journal);
}

Expected<EraseJournalStore::Status> EraseJournalStore::status(const std::string& deviceId) const {
    Status status;
    auto text = m_files.read(deviceId + ".json");
    if (!text) {
        return std::unexpected(text.error());
    }
    if (!*text) {
        return status;
    }
    const auto path = pathFor(deviceId).string();
    auto json = parseJson(**text, path);
    if (!json) {
        return std::unexpected(json.error());
    }
    auto journal = eraseJournalFromJson(*json);
    if (!journal) {
        return std::unexpected(Error(journal.error()).addContext("reading " + path));
    }
    if (journal->deviceId != deviceId) {
        return fail(ErrorCode::Parse, path + " is the erase journal of " + journal->deviceId);
    }
    status.journal = std::move(*journal);
    auto running = m_files.isLocked(deviceId + ".lock");
    if (!running) {
        return std::unexpected(running.error());
    }
    status.runningNow = *running;
    return status;
}

} // namespace ssdk::maintenance::erase
