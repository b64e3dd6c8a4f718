// Verify TRIM end to end on lab drives: the sparse image's holes are the ground truth.
#include <ctime>

#include "core/maintenance/trim/fstrim.h"
#include "core/maintenance/trim/verify.h"
#include "tests/integration/maintenance/maintenance_scratch.h"

using namespace ssdk;
using namespace ssdk::maintenance::trim;
using namespace ssdk::test;
namespace fs = std::filesystem;

namespace {

VerifyOptions options(TrimMode mode) {
    VerifyOptions o;
    o.markerBlocks = 128;
    o.mode = mode;
    o.stack.timer.unavailableReason = "not asked in tests";
    return o;
}

void requireNoMarkerFileLeft(const fs::path& dir) {
    for (const auto& entry : fs::directory_iterator(dir)) {
        CHECK_FALSE(entry.path().filename().string().starts_with(".ssdkeeper-trim-verify"));
    }
}

} // namespace

TEST_CASE("verify TRIM reaches a lab drive: ext4 without discard, trimmed by FITRIM",
          "[maintenance]") {
    const MaintenanceScratch scratch;
    const auto drive = makeLabDrive("maint-fstrim", Bytes::gib(1), "gpt-ext4");
    MountGuard mount(drive.devicePath + "p1", scratch.dir() / "mnt");
    auto result =
        verifyTrim((scratch.dir() / "mnt").string(), SysfsRoot(), options(TrimMode::Fstrim));
    REQUIRE(result);
    INFO(result->reason);
    CHECK(result->outcome == VerifyOutcome::Reached);
    CHECK(result->before.markers == 128);
    CHECK(result->after.zeros == 128);
    CHECK(result->returned == "zeros");
    REQUIRE(result->backingHoles);
    CHECK(*result->backingHoles == 128); // every marker block became a hole in the image
    REQUIRE(result->trimmed);
    CHECK(result->trimmed->value > 0);
    CHECK(result->audit.reachesDrive);
    CHECK(toJson(*result)["result"] == "reached");
    requireNoMarkerFileLeft(scratch.dir() / "mnt");
}

TEST_CASE("verify TRIM reaches a lab drive: ext4 mounted with online discard", "[maintenance]") {
    const MaintenanceScratch scratch;
    const auto drive = makeLabDrive("maint-online", Bytes::gib(1), "gpt-ext4");
    const fs::path dir = scratch.dir() / "mnt";
    fs::create_directories(dir);
    SystemProcessRunner runner;
    auto mounted =
        runner.run({.argv = {"mount", "-o", "discard", drive.devicePath + "p1", dir.string()}});
    REQUIRE(mounted);
    REQUIRE(mounted->exitCode == 0);
    auto result = verifyTrim(dir.string(), SysfsRoot(), options(TrimMode::OnlineDiscard));
    (void)runner.run({.argv = {"umount", dir.string()}});
    REQUIRE(result);
    INFO(result->reason);
    CHECK(result->outcome == VerifyOutcome::Reached);
    CHECK_FALSE(result->trimmed); // no FITRIM in this mode
    REQUIRE(result->backingHoles);
    CHECK(*result->backingHoles == 128);
    CHECK(result->audit.filesystemDiscards);
}

// The lab image sits on an NTFS volume served by ntfs-3g (FUSE): the loop device accepts
// discards, but the FUSE filesystem cannot punch holes, so they never reach the image.
TEST_CASE("verify TRIM reports not-reached when a layer below drops discards", "[maintenance]") {
    if (!haveProgram("ntfs-3g") || !haveProgram("mkfs.ntfs")) {
        WARN("ntfs-3g is not installed; skipping");
        return;
    }
    const MaintenanceScratch scratch;
    SystemProcessRunner runner;
    const auto host = makeLabDrive("maint-ntfshost", Bytes::mib(512), "empty");
    REQUIRE(runChecked(runner, {.argv = {"mkfs.ntfs", "-Q", "-F", "-q", host.devicePath}}));
    const fs::path hostDir = scratch.dir() / "ntfs";
    fs::create_directories(hostDir);
    REQUIRE(runChecked(runner, {.argv = {"ntfs-3g", host.devicePath, hostDir.string()}}));
    struct Cleanup {
        SystemProcessRunner& runner;
        fs::path hostDir, innerDir;
        std::string innerLoop;
        ~Cleanup() {
            (void)runner.run({.argv = {"umount", innerDir.string()}});
            if (!innerLoop.empty()) {
                (void)runner.run({.argv = {"losetup", "-d", innerLoop}});
            }
            (void)runner.run({.argv = {"umount", hostDir.string()}});
        }
    } cleanup{runner, hostDir, scratch.dir() / "inner", {}};
    const fs::path image = hostDir / "inner.img";
    REQUIRE(runChecked(runner, {.argv = {"truncate", "-s", "200M", image.string()}}));
    auto attached = runChecked(runner, {.argv = {"losetup", "-f", "--show", image.string()}});
    REQUIRE(attached);
    cleanup.innerLoop = attached->standardOutput.substr(0, attached->standardOutput.find('\n'));
    REQUIRE(runChecked(
        runner, {.argv = {"mkfs.ext4", "-q", "-b", "4096", "-E", "nodiscard", cleanup.innerLoop}}));
    fs::create_directories(cleanup.innerDir);
    REQUIRE(runChecked(runner, {.argv = {"mount", cleanup.innerLoop, cleanup.innerDir.string()}}));

    auto result = verifyTrim(cleanup.innerDir.string(), SysfsRoot(), options(TrimMode::Fstrim));
    REQUIRE(result);
    INFO(result->reason);
    CHECK(result->outcome == VerifyOutcome::NotReached);
    CHECK(result->after.markers == 128);
    CHECK(result->returned == "old data");
    // FITRIM itself may succeed: the discards are dropped silently below the loop device.
    bool loopWarned = false;
    for (const auto& layer : result->audit.layers) {
        loopWarned = loopWarned ||
                     (layer.layer == "loop" && layer.detail.find("fuseblk") != std::string::npos);
    }
    CHECK(loopWarned);
    requireNoMarkerFileLeft(cleanup.innerDir);
}

TEST_CASE("verify TRIM refuses a directory that is not a mount point", "[maintenance]") {
    const MaintenanceScratch scratch;
    fs::create_directories(scratch.dir() / "plain");
    auto result =
        verifyTrim((scratch.dir() / "plain").string(), SysfsRoot(), options(TrimMode::Fstrim));
    REQUIRE_FALSE(result);
    CHECK(result.error().code() == ErrorCode::InvalidArgument);
    // fstrim refuses it too rather than trimming the filesystem the directory lives on.
    auto trimmed = runFstrim((scratch.dir() / "plain").string(), SysfsRoot());
    REQUIRE_FALSE(trimmed);
    CHECK(trimmed.error().code() == ErrorCode::InvalidArgument);
}

TEST_CASE("manual fstrim reports progress and the trimmed amount", "[maintenance]") {
    const MaintenanceScratch scratch;
    const auto drive = makeLabDrive("maint-manual", Bytes::gib(1), "gpt-ext4");
    MountGuard mount(drive.devicePath + "p1", scratch.dir() / "mnt");
    writeRandomFiles(scratch.dir() / "mnt", 2, 4 << 20);
    for (const auto& entry : fs::directory_iterator(scratch.dir() / "mnt")) {
        if (entry.is_regular_file()) {
            fs::remove(entry.path());
        }
    }
    SystemProcessRunner runner;
    (void)runner.run({.argv = {"sync"}});
    std::vector<double> fractions;
    auto result = runFstrim((scratch.dir() / "mnt").string(), SysfsRoot(), 8,
                            [&](double fraction, Bytes) { fractions.push_back(fraction); });
    REQUIRE(result);
    CHECK(result->slices >= 8);
    CHECK(result->trimmed.value >= Bytes::mib(8).value);
    REQUIRE_FALSE(fractions.empty());
    CHECK(fractions.back() == Approx(1.0));
}
