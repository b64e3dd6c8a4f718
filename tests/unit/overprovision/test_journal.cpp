// The journal: its JSON form, atomic storage, and the journals for finish, roll back and undo.
#include <catch2/catch.hpp>
#include <fstream>
#include <unistd.h>

#include "core/device/drive_key.h"
#include "core/overprovision/journal.h"
#include "tests/support/spare_area.h"

using namespace ssdk;
using namespace ssdk::overprovision;
namespace fs = std::filesystem;

namespace {

Journal shrinkJournal() {
    return test::loop7ShrinkJournal("lab-op-apply-1.sfdisk");
}

} // namespace

TEST_CASE("a journal survives its JSON form", "[overprovision]") {
    Journal journal = shrinkJournal();
    journal.steps[2].state = StepState::Started;
    journal.steps[0].state = StepState::Done;
    auto back = journalFromJson(toJson(journal));
    REQUIRE(back);
    CHECK(back->steps.size() == 7);
    CHECK(back->steps[0].state == StepState::Done);
    CHECK(back->steps[2].state == StepState::Started);
    CHECK(back->steps[2].step == Step::ShrinkFilesystem);
    CHECK(back->toPartitionSize == Bytes::mib(408));
    CHECK(back->pending());

    Json bad = toJson(journal);
    bad["steps"][1]["name"] = "format-disk";
    CHECK_FALSE(journalFromJson(bad));
    bad = toJson(journal);
    bad["version"] = 2;
    CHECK_FALSE(journalFromJson(bad));
}

TEST_CASE("finishing reruns everything but a taken backup", "[overprovision]") {
    Journal journal = shrinkJournal();
    for (std::size_t i = 0; i < 4; ++i) {
        journal.steps[i].state = StepState::Done;
    }
    journal.steps[4].state = StepState::Started;
    Journal finish = journalToFinish(journal);
    CHECK(finish.steps[0].state == StepState::Done);
    for (std::size_t i = 1; i < finish.steps.size(); ++i) {
        CHECK(finish.steps[i].state == StepState::Pending);
    }
}

TEST_CASE("rolling back a shrink grows towards the original sizes", "[overprovision]") {
    Journal journal = shrinkJournal();
    journal.steps[0].state = StepState::Done;
    journal.steps[1].state = StepState::Started;
    Journal back = journalToRollBack(journal, "lab-op-y.sfdisk");
    CHECK(back.phase == Phase::RollingBack);
    CHECK(back.direction == Direction::Grow);
    CHECK(back.toPartitionSize == Bytes::mib(510));
    CHECK(back.toFilesystemSize == Bytes::mib(510));
    CHECK(back.steps[2].step == Step::GrowPartition);
    CHECK(back.tableBackup == "lab-op-y.sfdisk");
}

TEST_CASE("only a completed apply can be undone", "[overprovision]") {
    Journal journal = shrinkJournal();
    CHECK_FALSE(journalForUndo(journal, "lab-op-z.sfdisk"));
    journal.phase = Phase::Completed;
    auto undo = journalForUndo(journal, "lab-op-z.sfdisk");
    REQUIRE(undo);
    CHECK(undo->purpose == "undo");
    CHECK(undo->direction == Direction::Grow);
    CHECK(undo->toPartitionSize == Bytes::mib(510));
    CHECK_FALSE(undo->undoable());
}

TEST_CASE("the store writes atomically and reads back", "[overprovision]") {
    const fs::path dir = fs::temp_directory_path() / ("ssdk-op-unit-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    auto files = StateStore::open(dir / "op");
    REQUIRE(files);
    JournalStore store(*files);
    auto none = store.load("lab-op");
    REQUIRE(none);
    CHECK_FALSE(none->has_value());
    REQUIRE(store.save(shrinkJournal()));
    CHECK(fs::exists(dir / "op" / "lab-op.json"));
    CHECK(fs::status(dir / "op" / "lab-op.json").permissions() ==
          (fs::perms::owner_read | fs::perms::owner_write));
    CHECK(fs::status(dir / "op").permissions() == fs::perms::owner_all);
    auto loaded = store.load("lab-op");
    REQUIRE(loaded);
    REQUIRE(loaded->has_value());
    CHECK((*loaded)->partitionPath == "/dev/loop7p1");
    CHECK((*loaded)->tableBackup == "lab-op-apply-1.sfdisk");
    std::ofstream(files->pathOf("lab-bad.json")) << "{ torn";
    CHECK_FALSE(store.load("lab-bad"));
    CHECK(StateStore::validName(store.newBackupName("lab-op", "apply")));
    fs::remove_all(dir);
}

TEST_CASE("a journal naming a backup or a drive outside its store is refused", "[overprovision]") {
    for (const std::string backup : {"/etc/ld.so.preload", "../../etc/passwd", ".hidden", "a/b"}) {
        INFO(backup);
        Json json = toJson(shrinkJournal());
        json["table_backup"] = backup;
        auto parsed = journalFromJson(json);
        REQUIRE_FALSE(parsed);
        CHECK_THAT(parsed.error().message(), Catch::Contains("table backup"));
    }
    Json json = toJson(shrinkJournal());
    json["device_id"] = "../x";
    CHECK_FALSE(journalFromJson(json));
    json = toJson(shrinkJournal());
    json["remount_point"] = "relative/dir";
    json["steps"] = toJson(Journal{.steps = stepsFor(Direction::Shrink, true)})["steps"];
    auto relative = journalFromJson(json);
    REQUIRE_FALSE(relative);
    CHECK_THAT(relative.error().message(), Catch::Contains("remount point"));
}

TEST_CASE("drive keys are stable and safe file names", "[overprovision]") {
    device::Device device;
    device.name = "nvme0n1";
    CHECK(device::driveKey(device) == "nvme0n1");
    device.model = "Samsung SSD 980";
    device.serial = "S64/ABC";
    CHECK(device::driveKey(device) == "Samsung_SSD_980-S64_ABC");
    device.labName = "op1";
    CHECK(device::driveKey(device) == "lab-op1");
    device.labName = "../..";
    CHECK(StateStore::validName(device::driveKey(device) + ".json"));
}
