// "Unmount, shrink and remount": the planner's offer and refusals, the journal's extra steps,
// the remount options taken from mountinfo, and finding processes that hold a mount.
#include <catch2/catch.hpp>
#include <fstream>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/overprovision/journal.h"
#include "core/overprovision/mounts.h"
#include "core/overprovision/planner.h"
#include "tests/support/spare_area.h"

using namespace ssdk;
using namespace ssdk::overprovision;

namespace {

device::Device mountedExt4(std::size_t mountCount = 1) {
    device::Device device = test::spareAreaLoop7();
    for (std::size_t i = 0; i < mountCount; ++i) {
        device.partitions[0].mounts.push_back(
            {"/mnt/data" + std::to_string(i), "ext4", "rw,relatime"});
    }
    return device;
}

const FilesystemUsage kUsage{"ext4",          Bytes::mib(510), Bytes::mib(100),
                             Bytes::mib(100), Bytes(4096),     "test"};

bool said(const std::vector<std::string>& lines, const std::string& text) {
    for (const auto& line : lines) {
        if (line.find(text) != std::string::npos) {
            return true;
        }
    }
    return false;
}

} // namespace

TEST_CASE("a mounted ext4 is offered an unmount for the shrink", "[overprovision]") {
    const auto device = mountedExt4();
    auto offered = plan(device, kUsage, 20.0);
    REQUIRE(offered);
    CHECK_FALSE(offered->possible);
    CHECK(offered->unmountOffered);
    CHECK_FALSE(offered->unmountAndRemount);
    CHECK(said(offered->refusals, "Unmount, shrink and remount"));

    auto chosen = plan(device, kUsage, 20.0, PlanOptions{.unmountAndRemount = true});
    REQUIRE(chosen);
    CHECK(chosen->possible);
    CHECK(chosen->unmountAndRemount);
    CHECK(said(chosen->notes, "mounted there again"));

    SECTION("refused while in use, naming who holds it") {
        auto busy = plan(device, kUsage, 20.0,
                         PlanOptions{.unmountAndRemount = true, .mountUsers = {"4242 (bash)"}});
        REQUIRE(busy);
        CHECK_FALSE(busy->possible);
        CHECK(said(busy->refusals, "in use"));
        CHECK(said(busy->refusals, "4242 (bash)"));
    }
    SECTION("refused on the system disk") {
        auto system = device;
        system.partitions[0].mounts = {{"/", "ext4", "rw"}};
        auto refused = plan(system, kUsage, 20.0, PlanOptions{.unmountAndRemount = true});
        REQUIRE(refused);
        CHECK_FALSE(refused->possible);
        CHECK_FALSE(refused->unmountOffered);
        CHECK(said(refused->refusals, "running system"));
    }
    SECTION("not offered when mounted in several places") {
        auto twice = plan(mountedExt4(2), kUsage, 20.0, PlanOptions{.unmountAndRemount = true});
        REQUIRE(twice);
        CHECK_FALSE(twice->possible);
        CHECK_FALSE(twice->unmountOffered);
        CHECK(said(twice->refusals, "2 places"));
    }
    SECTION("growing needs no unmount") {
        auto smaller = device;
        smaller.partitions[0].size = Bytes::mib(300);
        auto grow = plan(smaller, kUsage, 0.0);
        REQUIRE(grow);
        CHECK(grow->possible);
        CHECK_FALSE(grow->unmountOffered);
    }
}

TEST_CASE("an unmounting journal unmounts first, remounts last and survives JSON",
          "[overprovision]") {
    auto chosen = plan(mountedExt4(), kUsage, 20.0, PlanOptions{.unmountAndRemount = true});
    REQUIRE(chosen);
    auto journal = journalForPlan(*chosen, "lab-x", "lab-x-apply-1.sfdisk");
    REQUIRE(journal);
    CHECK(journal->mountPoint.empty()); // resized unmounted
    CHECK(journal->remountPoint == "/mnt/data0");
    REQUIRE(journal->steps.size() == stepsFor(Direction::Shrink).size() + 2);
    CHECK(journal->steps[1].step == Step::Unmount);
    CHECK(journal->steps.back().step == Step::Remount);
    journal->remountOptions = "rw,relatime,errors=remount-ro";
    auto back = journalFromJson(toJson(*journal));
    REQUIRE(back);
    CHECK(back->remountOptions == journal->remountOptions);
    CHECK(back->steps.size() == journal->steps.size());

    auto rollBack = journalToRollBack(*back, "lab-x-rollback-2.sfdisk");
    CHECK(rollBack.steps[1].step == Step::Unmount);
    CHECK(rollBack.steps.back().step == Step::Remount);

    back->phase = Phase::Completed;
    auto undo = journalForUndo(*back, "lab-x-undo-3.sfdisk");
    REQUIRE(undo);
    CHECK(undo->remountPoint.empty());
    CHECK(undo->steps.size() == stepsFor(Direction::Grow).size());
}

TEST_CASE("remount options come from mountinfo", "[overprovision]") {
    const std::string mountInfo =
        "36 25 7:3 / /mnt/other rw,relatime shared:1 - ext4 /dev/loop3p1 rw\n"
        "37 25 7:1 / /mnt/my\\040data rw,nosuid,nodev,noatime shared:2 - ext4 /dev/loop1p1 "
        "rw,seclabel,errors=remount-ro,stripe=4\n";
    auto entry = findMount(mountInfo, "/dev/loop1p1", "/mnt/my data");
    REQUIRE(entry);
    CHECK(remountOptions(*entry) == "rw,nosuid,nodev,noatime,errors=remount-ro,stripe=4");
    CHECK_FALSE(findMount(mountInfo, "/dev/loop1p1", "/mnt/other"));
    device::MountInfoEntry readOnly;
    readOnly.mountOptions = "ro,relatime";
    readOnly.superOptions = "rw";
    CHECK(remountOptions(readOnly) == "ro,relatime");
}

TEST_CASE("mapped files are matched by device number", "[overprovision]") {
    const std::string maps = "55d0c0a00000-55d0c0a02000 r--p 00000000 fd:01 1234 /usr/bin/cat\n"
                             "7f00-7f10 rw-p 00000000 00:00 0 \n"
                             "7f20-7f30 r--s 00000000 103:0a 99 /mnt/data/file\n";
    CHECK(mapsUseDevice(maps, 0xfd, 1));
    CHECK(mapsUseDevice(maps, 259, 10));
    CHECK_FALSE(mapsUseDevice(maps, 7, 1));
    CHECK_FALSE(mapsUseDevice("garbage\n\n", 0, 0));
}

TEST_CASE("a process with a file open on a device is found", "[overprovision][linux]") {
    // This test process holds a file on the filesystem of the current directory.
    const std::filesystem::path file =
        std::filesystem::temp_directory_path() / ("ssdk-mount-users-" + std::to_string(::getpid()));
    std::ofstream held(file);
    struct stat info {};
    REQUIRE(::stat(file.c_str(), &info) == 0);
    // The scan skips the calling process itself: a fake /proc holding only this process's
    // entry under another number shows it is seen through its fd links.
    const auto fakeProc =
        std::filesystem::temp_directory_path() / ("ssdk-fake-proc-" + std::to_string(::getpid()));
    std::filesystem::create_directories(fakeProc / "1" / "fd");
    std::filesystem::create_symlink(file, fakeProc / "1" / "fd" / "3");
    { std::ofstream(fakeProc / "1" / "comm") << "holder\n"; }
    const auto users = findMountUsers(fakeProc, major(info.st_dev), minor(info.st_dev));
    const auto others = findMountUsers(fakeProc, 4095, 4095);
    std::filesystem::remove_all(fakeProc);
    std::filesystem::remove(file);
    REQUIRE(users.size() == 1);
    CHECK(users[0] == "1 (holder)");
    CHECK(others.empty());
}
