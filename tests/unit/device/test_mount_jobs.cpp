#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "core/device/mount_jobs.h"

using namespace ssdk;
using namespace ssdk::device;

namespace {

// Records each mount and unmount as "mount dev@point (options)" / "unmount dev@point".
Mounter recordingMounter(std::vector<std::string>& calls) {
    return {[&calls](const MountTarget& where) -> Expected<void> {
                calls.push_back("mount " + where.device + "@" + where.mountPoint + " " +
                                where.fsType + " (" + where.options + ")");
                return {};
            },
            [&calls](const MountTarget& where) -> Expected<void> {
                calls.push_back("unmount " + where.device + "@" + where.mountPoint);
                return {};
            }};
}

} // namespace

TEST_CASE("the unmount job unmounts its target, and its undo mounts it back", "[mount-jobs]") {
    std::vector<std::string> calls;
    const MountTarget target{"/dev/loop3p1", "/mnt/data", "ext4", "rw,noatime"};
    auto job = makeUnmountJob([target] { return target; }, recordingMounter(calls));
    CHECK(job->name() == "unmount");
    CHECK(job->describe() == "Unmounting /dev/loop3p1 from /mnt/data");
    REQUIRE(job->run());
    REQUIRE(job->undo());
    CHECK(calls == std::vector<std::string>{"unmount /dev/loop3p1@/mnt/data",
                                            "mount /dev/loop3p1@/mnt/data ext4 (rw,noatime)"});
}

TEST_CASE("the remount job reads its target when it runs, and its undo unmounts", "[mount-jobs]") {
    std::vector<std::string> calls;
    // The cached device a filesystem moves to is known only once the cache was stacked.
    std::string cachedDevice;
    auto job = makeRemountJob(
        [&cachedDevice] {
            return MountTarget{cachedDevice, "/mnt/data", "ext4", "rw"};
        },
        recordingMounter(calls));
    cachedDevice = "/dev/mapper/ssdk-loop3";
    CHECK(job->name() == "remount");
    CHECK(job->describe() == "Mounting /dev/mapper/ssdk-loop3 at /mnt/data again (rw)");
    REQUIRE(job->run());
    REQUIRE(job->undo());
    CHECK(calls == std::vector<std::string>{"mount /dev/mapper/ssdk-loop3@/mnt/data ext4 (rw)",
                                            "unmount /dev/mapper/ssdk-loop3@/mnt/data"});
}

TEST_CASE("a mount job returns what the mounter says", "[mount-jobs]") {
    Mounter refusing{[](const MountTarget&) -> Expected<void> {
                         return fail(ErrorCode::Busy, "target is busy");
                     },
                     [](const MountTarget&) -> Expected<void> {
                         return fail(ErrorCode::Busy, "target is busy");
                     }};
    auto job = makeUnmountJob(
        [] {
            return MountTarget{"/dev/sdz1", "/mnt", "ext4", "rw"};
        },
        refusing);
    auto ran = job->run();
    REQUIRE_FALSE(ran);
    CHECK(ran.error().code() == ErrorCode::Busy);
}
