#pragma once
// The erase journal: what is being erased, how, since when and how far it got, written to
// the helper's own store (/var/lib/ssdkeeper/erase/<drive key>.json, root, 0700; never a
// directory the user can write) before the first command reaches the drive and
// at every progress step. A helper killed mid-erase leaves it in state "running" with nobody
// holding its lock: that is an interrupted erase, shown to the user until an erase of the
// same drive completes. Every method can be run again from the start; an ATA security erase
// records its temporary password so a re-run (or the user) can still clear it.

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>

#include "core/base/error.h"
#include "core/base/job.h"
#include "core/base/json.h"
#include "core/base/state_store.h"
#include "core/base/unique_fd.h"
#include "core/device/device.h"

namespace ssdk::maintenance::erase {

// An erase is an Operation of three Jobs (eraser.h), in this order: reading a spread of blocks
// before, the erase itself, and reading the same blocks back to verify it. The journal records
// how far each got; an interrupted erase is always run again from the start, but whether the
// erase job itself had finished is what the user is told.
inline constexpr std::string_view kJobSampleBefore = "sample-before";
inline constexpr std::string_view kJobErase = "erase";
inline constexpr std::string_view kJobVerify = "verify";
inline constexpr std::string_view kEraseJobs[] = {kJobSampleBefore, kJobErase, kJobVerify};
inline constexpr std::size_t kEraseJobCount = std::size(kEraseJobs);

// Where an erase is: running (or interrupted, when nobody holds its lock), completed or failed.
enum class EraseState { Running, Completed, Failed };
std::string_view toString(EraseState state); // "running", "completed", "failed"

struct EraseJournal {
    int version = 1;
    std::string deviceId; // device::driveKey(): the file name, stable across reboots
    std::string devicePath, model, serial;
    std::uint64_t sizeBytes = 0;
    std::string method;
    EraseState state = EraseState::Running;
    std::string started, updated, finished; // ISO 8601 UTC
    double fraction = 0;
    std::string step;        // the last progress text
    std::string error;       // why a failed erase stopped
    std::string ataPassword; // the temporary ATA user password while it may be set
    // A password is on record but left out of this copy (redacted()).
    bool ataPasswordWithheld = false;
    bool verified = false; // completed: did the verification pass
    // How far each of kEraseJobs got ("steps": [{name, state}], as the spare area journal
    // has them; all pending in a journal written before erases were journaled job by job).
    std::array<JobState, kEraseJobCount> jobs{};
};

// A journal for an erase about to start.
EraseJournal newJournal(const device::Device& device, std::string method, std::string now);

Json toJson(const EraseJournal& journal);
Expected<EraseJournal> eraseJournalFromJson(const Json& json);

// The journal as any caller may see it (erase.probe is a read every user may run): the
// temporary ATA password, which unlocks the drive, is withheld, and so is any text that quotes
// it; ataPasswordWithheld says one is on record (root reads it in the journal's file).
EraseJournal redacted(EraseJournal journal);

// "An erase of S6PXNS0T123 (Samsung SSD 870 EVO, /dev/sda) with nvme-format was interrupted
// at 2026-11-23T13:40:02Z (41%: zeroout: 1 GiB of 2 GiB): the drive's contents are undefined;
// run the erase again."
std::string interruptedMessage(const EraseJournal& journal);

class EraseJournalStore {
public:
    explicit EraseJournalStore(StateStore files);

    std::filesystem::path pathFor(const std::string& deviceId) const;

    // The erase of one drive while it runs: holds an exclusive lock on <id>.lock (released by
    // the kernel when the process dies) and rewrites the journal on every update.
    class Active {
    public:
        EraseJournal& journal() { return m_journal; }
        // Writes the journal (atomically: temporary file, fsync, rename).
        Expected<void> save();

    private:
        friend class EraseJournalStore;
        Active(const EraseJournalStore& store, EraseJournal journal, UniqueFd lock)
            : m_store(&store)
            , m_journal(std::move(journal))
            , m_lock(std::move(lock)) {}
        const EraseJournalStore* m_store;
        EraseJournal m_journal;
        UniqueFd m_lock;
    };

    // Locks the drive's journal and writes `journal`. Busy when another process is erasing it.
    Expected<Active> begin(EraseJournal journal) const;

    // The drive's last journal, if any, and whether an erase of it runs right now.
    struct Status {
        std::optional<EraseJournal> journal;
        bool runningNow = false;
        // A journal in state "running" that nobody holds: the helper died mid-erase.
        bool interrupted() const {
            return journal && journal->state == EraseState::Running && !runningNow;
        }
    };
    Expected<Status> status(const std::string& deviceId) const;

private:
    Expected<void> write(const EraseJournal& journal) const;

    StateStore m_files;
};

} // namespace ssdk::maintenance::erase
