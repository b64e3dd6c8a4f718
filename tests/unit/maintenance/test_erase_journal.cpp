// The erase journal: its JSON, the interrupted message, and the lock that tells a running
// erase from one whose helper died.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

#include "core/device/drive_key.h"
#include "core/maintenance/erase/journal.h"
#include "core/maintenance/erase/methods.h"
#include "tests/unit/maintenance/identify_builder.h"

using namespace ssdk;
using namespace ssdk::maintenance;
using namespace ssdk::maintenance::erase;
namespace fs = std::filesystem;

namespace {

device::Device sampleDevice() {
    device::Device device;
    device.name = "sdx";
    device.path = "/dev/sdx";
    device.model = "Samsung SSD 870 EVO 1TB";
    device.serial = "S6P/XNS0T123";
    device.size = Bytes(1000204886016);
    return device;
}

struct TempDir {
    fs::path path =
        fs::temp_directory_path() / ("ssdk-erase-journal-" + std::to_string(::getpid()));
    TempDir() { fs::create_directories(path); }
    ~TempDir() { fs::remove_all(path); }
};

} // namespace

TEST_CASE("an erase journal round-trips through JSON and names the drive safely") {
    auto journal = newJournal(sampleDevice(), "nvme-format", "2026-11-23T13:40:02Z");
    CHECK(journal.deviceId == "Samsung_SSD_870_EVO_1TB-S6P_XNS0T123");
    journal.fraction = 0.41;
    journal.step = "zeroout: 410 GB of 1 TB";
    journal.ataPassword = "SSDK0badf00d";
    auto back = eraseJournalFromJson(toJson(journal));
    REQUIRE(back);
    CHECK(back->serial == "S6P/XNS0T123");
    CHECK(back->state == EraseState::Running);
    CHECK(toJson(journal)["state"] == "running");
    CHECK(back->fraction == Approx(0.41));
    CHECK(back->ataPassword == "SSDK0badf00d");
    CHECK(back->sizeBytes == 1000204886016);

    const std::string message = interruptedMessage(journal);
    CHECK_THAT(message, Catch::StartsWith("an erase of S6P/XNS0T123 (Samsung SSD 870 EVO 1TB, "
                                          "/dev/sdx) with nvme-format was interrupted at "
                                          "2026-11-23T13:40:02Z (41%: zeroout"));
    CHECK_THAT(message, Catch::Contains("the drive's contents are undefined; run the erase again"));
    CHECK_THAT(message, Catch::Contains("SSDK0badf00d"));

    Json bad = toJson(journal);
    bad["state"] = "half";
    CHECK_FALSE(eraseJournalFromJson(bad));
    CHECK_FALSE(eraseJournalFromJson(Json{{"version", 2}}));
}

TEST_CASE(
    "an erase journal records its jobs, and one interrupted while verifying says the erase ran") {
    auto journal = newJournal(sampleDevice(), "zeroout", "2026-11-23T13:40:02Z");
    const Json fresh = toJson(journal);
    REQUIRE(fresh["steps"].size() == kEraseJobCount);
    CHECK(fresh["steps"][1] == Json{{"name", "erase"}, {"state", "pending"}});

    journal.jobs = {JobState::Done, JobState::Done, JobState::Started};
    auto back = eraseJournalFromJson(toJson(journal));
    REQUIRE(back);
    CHECK(back->jobs == journal.jobs);
    CHECK_THAT(interruptedMessage(journal),
               Catch::Contains("the erase itself had finished, its verification had not"));
    journal.jobs = {JobState::Done, JobState::Started, JobState::Pending};
    CHECK_THAT(interruptedMessage(journal), Catch::Contains("the drive's contents are undefined"));

    // A journal written before erases were journaled job by job: every job pending.
    Json old = toJson(journal);
    old.erase("steps");
    auto oldBack = eraseJournalFromJson(old);
    REQUIRE(oldBack);
    CHECK(oldBack->jobs == std::array<JobState, kEraseJobCount>{});

    for (const char* bad : {R"([{"name": "erase", "state": "done"}])",
                            R"([{"name": "sample-before", "state": "done"},
                                {"name": "verify", "state": "done"},
                                {"name": "erase", "state": "done"}])",
                            R"([{"name": "sample-before", "state": "done"},
                                {"name": "erase", "state": "half"},
                                {"name": "verify", "state": "pending"}])",
                            R"({"erase": "done"})"}) {
        INFO(bad);
        Json corrupt = toJson(journal);
        corrupt["steps"] = Json::parse(bad);
        auto refused = eraseJournalFromJson(corrupt);
        REQUIRE_FALSE(refused);
        CHECK(refused.error().code() == ErrorCode::Parse);
        CHECK_THAT(refused.error().describe(), Catch::Contains("erase journal"));
    }
}

TEST_CASE("a journal shown to any caller withholds the temporary ATA password") {
    auto journal = newJournal(sampleDevice(), "ata-security-erase", "2026-11-23T13:40:02Z");
    const auto plain = redacted(journal);
    CHECK_FALSE(plain.ataPasswordWithheld);
    CHECK(toJson(plain) == toJson(journal));

    journal.ataPassword = "SSDK0badf00d";
    journal.step = "SECURITY ERASE UNIT running";
    journal.error = "the drive still has the temporary password 'SSDK0badf00d' after SECURITY "
                    "ERASE UNIT; SSDK0badf00d";
    const auto shown = redacted(journal);
    CHECK(shown.ataPassword.empty());
    CHECK(shown.ataPasswordWithheld);
    CHECK(shown.error == "the drive still has the temporary password '(withheld)' after "
                         "SECURITY ERASE UNIT; (withheld)");
    CHECK(toJson(shown).dump().find("SSDK0badf00d") == std::string::npos);
    CHECK(toJson(shown)["ata_password_withheld"] == true);
    const std::string message = interruptedMessage(shown);
    CHECK(message.find("SSDK0badf00d") == std::string::npos);
    CHECK_THAT(message, Catch::Contains("may still hold the temporary ATA user password the "
                                        "erase set") &&
                            Catch::Contains("Samsung_SSD_870_EVO_1TB-S6P_XNS0T123.json"));
    auto back = eraseJournalFromJson(toJson(shown));
    REQUIRE(back);
    CHECK(back->ataPasswordWithheld);
}

TEST_CASE("the journal lock tells a running erase from an interrupted one", "[linux]") {
    const TempDir dir;
    const EraseJournalStore store(StateStore::open(dir.path / "erase").value());
    const auto device = sampleDevice();
    const std::string id = device::driveKey(device);
    auto none = store.status(id);
    REQUIRE(none);
    CHECK_FALSE(none->journal);
    CHECK_FALSE(none->interrupted());
    {
        auto active = store.begin(newJournal(device, "discard", "2026-11-23T13:00:00Z"));
        REQUIRE(active);
        CHECK(fs::exists(store.pathFor(id)));
        auto running = store.status(id);
        REQUIRE(running);
        CHECK(running->runningNow);
        CHECK_FALSE(running->interrupted());
        // A second erase of the same drive is refused while the first holds the lock.
        auto second = store.begin(newJournal(device, "discard", "2026-11-23T13:00:01Z"));
        REQUIRE_FALSE(second);
        CHECK(second.error().code() == ErrorCode::Busy);
        active->journal().fraction = 0.5;
        active->journal().step = "discard: half";
        REQUIRE(active->save());
    }
    // The lock went with its holder (as when the helper is killed); the journal says running.
    auto left = store.status(id);
    REQUIRE(left);
    REQUIRE(left->journal);
    CHECK_FALSE(left->runningNow);
    CHECK(left->interrupted());
    CHECK(left->journal->step == "discard: half");
    {
        auto again = store.begin(newJournal(device, "discard", "2026-11-23T13:05:00Z"));
        REQUIRE(again);
        again->journal().state = EraseState::Completed;
        REQUIRE(again->save());
    }
    auto done = store.status(id);
    REQUIRE(done);
    CHECK_FALSE(done->interrupted());

    std::ofstream(store.pathFor(id)) << "{ not json";
    CHECK_FALSE(store.status(id));
}

TEST_CASE("the erase journal store follows no link and reads no special file", "[linux]") {
    const TempDir dir;
    const EraseJournalStore store(StateStore::open(dir.path / "erase").value());
    const auto device = sampleDevice();
    const std::string id = device::driveKey(device);
    const fs::path victim = dir.path / "victim";
    std::ofstream(victim) << "root's";
    fs::permissions(victim, fs::perms::owner_read | fs::perms::owner_write);

    SECTION("a link planted as the journal is neither read nor written through") {
        fs::create_symlink(victim, store.pathFor(id));
        CHECK_FALSE(store.status(id));
        auto active = store.begin(newJournal(device, "discard", "2026-11-23T13:00:00Z"));
        REQUIRE(active); // the link is replaced by the journal, never written through
        CHECK_FALSE(fs::is_symlink(store.pathFor(id)));
    }
    SECTION("a link planted as the lock is refused") {
        fs::create_symlink(dir.path / "elsewhere",
                           fs::path(store.pathFor(id)).replace_extension(".lock"));
        auto active = store.begin(newJournal(device, "discard", "2026-11-23T13:00:00Z"));
        REQUIRE_FALSE(active);
        CHECK_FALSE(fs::exists(dir.path / "elsewhere"));
    }
    SECTION("a FIFO planted as the journal is refused without blocking") {
        REQUIRE(::mkfifo(store.pathFor(id).c_str(), 0600) == 0);
        auto status = store.status(id);
        REQUIRE_FALSE(status);
        CHECK_THAT(status.error().message(), Catch::Contains("not a regular file"));
    }
    std::ifstream in(victim);
    CHECK(std::string(std::istreambuf_iterator<char>(in), {}) == "root's");
    CHECK(fs::status(victim).permissions() == (fs::perms::owner_read | fs::perms::owner_write));
}

TEST_CASE("a temporary password left by an interrupted erase makes security erase available") {
    EraseCapabilities caps;
    caps.bus = "sata";
    caps.size = Bytes::gib(1);
    // Security supported and enabled (a user password is set), not frozen, not locked.
    auto id = parseAtaIdentify(ssdk::test::AtaIdentifyBuilder().word(128, 0x0001 | 0x0002).build());
    REQUIRE(id);
    caps.ata = *id;
    auto refused = chooseMethod(caps, "ata-security-erase");
    REQUIRE_FALSE(refused);
    CHECK_THAT(refused.error().describe(), Catch::Contains("password is already set"));
    caps.knownAtaPassword = true;
    CHECK(chooseMethod(caps, "ata-security-erase") == Method::AtaSecurityErase);
    // Frozen stays frozen, password or not, and says how to unfreeze.
    caps.ata->security.frozen = true;
    auto frozen = chooseMethod(caps, "ata-security-erase");
    REQUIRE_FALSE(frozen);
    CHECK_THAT(frozen.error().describe(), Catch::Contains("frozen") &&
                                              Catch::Contains("suspend and resume") &&
                                              Catch::Contains("hot-plug"));
}
