#include "core/maintenance/erase/journal.h"

#include <cerrno>
#include <fcntl.h>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <sys/file.h>
#include <unistd.h>

#include "core/base/atomic_file.h"

namespace ssdk::maintenance::erase {

namespace {

std::string sanitize(std::string_view text) {
    std::string out;
    for (const char c : text) {
        const bool safe = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                          (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
        out += safe ? c : '_';
    }
    return out.empty() || out.starts_with('.') ? "_" + out : out;
}

} // namespace

std::string eraseDeviceId(const device::Device& device) {
    if (!device.serial.empty()) {
        return sanitize(device.model.empty() ? device.serial : device.model + "-" + device.serial);
    }
    if (!device.wwn.empty()) {
        return sanitize(device.wwn);
    }
    return sanitize(device.name);
}

EraseJournal newJournal(const device::Device& device, std::string method, std::string now) {
    EraseJournal journal;
    journal.deviceId = eraseDeviceId(device);
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

Json toJson(const EraseJournal& j) {
    return Json{{"version", j.version},  {"device_id", j.deviceId}, {"device", j.devicePath},
                {"model", j.model},      {"serial", j.serial},      {"size", j.sizeBytes},
                {"method", j.method},    {"state", j.state},        {"started", j.started},
                {"updated", j.updated},  {"finished", j.finished},  {"fraction", j.fraction},
                {"step", j.step},        {"error", j.error},        {"ata_password", j.ataPassword},
                {"verified", j.verified}};
}

Expected<EraseJournal> eraseJournalFromJson(const Json& json) {
    if (!json.is_object() || json.value("version", 0) != 1) {
        return fail(ErrorCode::Parse, "not an erase journal of version 1");
    }
    EraseJournal j;
    try {
        j.deviceId = json.at("device_id").get<std::string>();
        j.devicePath = json.value("device", "");
        j.model = json.value("model", "");
        j.serial = json.value("serial", "");
        j.sizeBytes = json.value("size", std::uint64_t{0});
        j.method = json.at("method").get<std::string>();
        j.state = json.at("state").get<std::string>();
        j.started = json.value("started", "");
        j.updated = json.value("updated", "");
        j.finished = json.value("finished", "");
        j.fraction = json.value("fraction", 0.0);
        j.step = json.value("step", "");
        j.error = json.value("error", "");
        j.ataPassword = json.value("ata_password", "");
        j.verified = json.value("verified", false);
    } catch (const Json::exception& e) {
        return fail(ErrorCode::Parse, std::string("erase journal: ") + e.what());
    }
    if (j.state != "running" && j.state != "completed" && j.state != "failed") {
        return fail(ErrorCode::Parse, "erase journal: unknown state '" + j.state + "'");
    }
    return j;
}

std::string interruptedMessage(const EraseJournal& j) {
    std::string message = fmt::format(
        "an erase of {} ({}, {}) with {} was interrupted at {} ({:.0f}%: {}): the drive's "
        "contents are undefined; run the erase again",
        j.serial.empty() ? j.deviceId : j.serial, j.model.empty() ? "no model" : j.model,
        j.devicePath, j.method, j.updated, j.fraction * 100, j.step);
    if (!j.ataPassword.empty()) {
        message += fmt::format(" (the drive may still hold the temporary ATA user password "
                               "'{}': running the erase again uses it)",
                               j.ataPassword);
    }
    return message;
}

EraseJournalStore::EraseJournalStore(std::filesystem::path stateDir,
                                     std::optional<std::pair<std::uint32_t, std::uint32_t>> owner)
    : m_dir(std::move(stateDir) / "ssdkeeper" / "erase")
    , m_owner(owner) {}

std::filesystem::path EraseJournalStore::pathFor(const std::string& deviceId) const {
    return m_dir / (sanitize(deviceId) + ".json");
}

void EraseJournalStore::chown(const std::filesystem::path& file) const {
    if (m_owner) {
        (void)::chown(file.c_str(), m_owner->first, m_owner->second);
    }
}

Expected<void> EraseJournalStore::write(const EraseJournal& journal) const {
    const auto path = pathFor(journal.deviceId);
    if (auto written = writeFileAtomically(path, toJson(journal).dump(2) + "\n", 0600); !written) {
        return written;
    }
    chown(path);
    return {};
}

Expected<EraseJournalStore::Active> EraseJournalStore::begin(EraseJournal journal) const {
    std::error_code ec;
    const bool existed = std::filesystem::exists(m_dir, ec);
    std::filesystem::create_directories(m_dir, ec);
    if (ec) {
        return fail(ErrorCode::Io, "creating " + m_dir.string() + ": " + ec.message());
    }
    if (!existed) {
        chown(m_dir);
        chown(m_dir.parent_path());
    }
    const std::string lockPath = pathFor(journal.deviceId).replace_extension(".lock").string();
    UniqueFd lock(::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600));
    if (!lock.valid()) {
        return failErrno(errno, "creating " + lockPath);
    }
    chown(lockPath);
    if (::flock(lock.get(), LOCK_EX | LOCK_NB) != 0) {
        if (errno == EWOULDBLOCK) {
            return fail(ErrorCode::Busy,
                        "an erase of " + journal.devicePath + " is running already");
        }
        return failErrno(errno, "locking " + lockPath);
    }
    Active active(*this, std::move(journal), std::move(lock));
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
    const auto path = pathFor(deviceId);
    std::ifstream in(path);
    if (!in) {
        return status;
    }
    std::stringstream text;
    text << in.rdbuf();
    auto json = parseJson(text.str(), path.string());
    if (!json) {
        return std::unexpected(json.error());
    }
    auto journal = eraseJournalFromJson(*json);
    if (!journal) {
        return std::unexpected(Error(journal.error()).addContext("reading " + path.string()));
    }
    status.journal = std::move(*journal);
    const std::string lockPath = std::filesystem::path(path).replace_extension(".lock").string();
    UniqueFd lock(::open(lockPath.c_str(), O_RDONLY | O_CLOEXEC));
    if (lock.valid() && ::flock(lock.get(), LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
        status.runningNow = true;
    }
    return status;
}

} // namespace ssdk::maintenance::erase
