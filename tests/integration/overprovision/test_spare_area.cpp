// Spare area on real lab drives (root): apply 20 % on GPT and MBR drives filled to 60 % with
// files of known checksums, check the partition, the filesystem, the discarded range of the
// sparse image and every file; undo; the refusals; and a shrink refused after the plan.
#include "core/overprovision/mounts.h"
#include "core/overprovision/spare_area.h"
#include "tests/integration/overprovision/op_lab.h"
#include "tests/support/run_tool.h"
#include "tests/support/skip.h"

using namespace ssdk;
using namespace ssdk::overprovision;
using namespace ssdk::test;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> mountCommand(const std::string& fsType, const std::string& partition,
                                      const fs::path& mountPoint) {
    if (fsType == "ntfs") {
        return {"ntfs-3g", partition, mountPoint.string()};
    }
    return {"mount", partition, mountPoint.string()};
}

void mountFs(const std::string& fsType, const std::string& partition, const fs::path& mountPoint) {
    fs::create_directories(mountPoint);
    auto mounted = mustRun(mountCommand(fsType, partition, mountPoint));
    INFO(mounted.standardError);
    REQUIRE(mounted.exitCode == 0);
}

void unmountFs(const fs::path& mountPoint) {
    auto result = mustRun({"umount", mountPoint.string()});
    INFO(result.standardError);
    REQUIRE(result.exitCode == 0);
}

// Apply 20 % and undo on a fresh drive; btrfs stays mounted (it resizes online), the others
// are unmounted while they shrink.
void applyAndUndo(const std::string& table, const std::string& fsType, bool throughCli) {
    if (fsType == "ntfs" && !fs::exists("/dev/fuse")) {
        skipTest("NTFS is mounted with ntfs-3g, which needs /dev/fuse (a container without it)");
    }
    REQUIRE(filesystemToolsFor(fsType)); // scripts/setup installs ntfs-3g and btrfs-progs
    const OpScratch scratch;
    const auto lab = makeOpLab("op-" + table + "-" + fsType,
                               Bytes::mib(fsType == "btrfs" ? 512 : 256), table, fsType);
    const fs::path mnt = scratch.dir() / "mnt";
    mountFs(fsType, lab.partition, mnt);
    // btrfs on a 512 MiB drive fails to relocate its chunks into 408 MiB at 60 % and 40 %
    // (ENOSPC from the resize; the filesystem stays as it was): it is filled to 25 %.
    const auto files = fillTo(mnt, fsType == "btrfs" ? 0.25 : 0.60);
    REQUIRE(files.size() > 10);
    const bool online = fsType == "btrfs";
    if (!online) {
        unmountFs(mnt);
    }
    const std::uint64_t oldSize = kernelPartitionSize(lab.device);
    REQUIRE(oldSize > Bytes::mib(200).value);

    SpareAreaHarness harness(scratch);
    auto status = harness.spare.inspect(lab.device);
    REQUIRE(status);
    INFO(status->usageError);
    REQUIRE(status->usage);
    auto planned = plan(status->device, status->usage, 20.0);
    REQUIRE(planned);
    INFO(planned->describe());
    REQUIRE(planned->possible);
    const std::uint64_t freedStart = planned->changedStart.value;
    const std::uint64_t freedEnd = freedStart + planned->changedLength.value;
    const std::uint64_t allocatedBefore = allocatedTotal(lab.drive.image);
    const std::uint64_t rangeBefore = allocatedInRange(lab.drive.image, freedStart, freedEnd);

    if (throughCli) {
        auto applied = runCtl({"--json", "op", "apply", lab.device, "--spare", "20", "--yes"});
        INFO(applied.standardOutput << applied.standardError);
        REQUIRE(applied.exitCode == 0);
        CHECK(stdoutJson(applied)["journal"]["phase"] == "completed");
    } else {
        std::vector<std::string> progress;
        // The image's allocation just before and just after the discard step: it must drop by
        // what the freed range held then.
        std::uint64_t beforeDiscard = 0, rangeAtDiscard = 0, afterDiscard = 0;
        auto applied =
            harness.spare.apply(lab.device, 20.0, lab.partition, [&](const StepEvent& event) {
                if (!event.finished) {
                    progress.push_back(event.name);
                }
                if (event.name == "discard" && !event.finished) {
                    beforeDiscard = allocatedTotal(lab.drive.image);
                    rangeAtDiscard = allocatedInRange(lab.drive.image, freedStart, freedEnd);
                } else if (event.name == "discard") {
                    afterDiscard = allocatedTotal(lab.drive.image);
                }
            });
        INFO((applied ? std::string() : applied.error().describe()));
        REQUIRE(applied);
        CHECK(applied->phase == Phase::Completed);
        CHECK(progress.size() == 7);
        CHECK(fs::is_regular_file(scratch.privilegedDir() / "op" / applied->tableBackup));
        CHECK(rangeAtDiscard > 0);
        CHECK(beforeDiscard - afterDiscard == rangeAtDiscard);
        WARN(fsType << "/" << table << ": the discard step dropped the image's allocation from "
                    << beforeDiscard << " to " << afterDiscard << " bytes; the freed range held "
                    << rangeAtDiscard);
    }
    const std::uint64_t newSize = kernelPartitionSize(lab.device);
    CHECK(newSize == planned->newPartitionSize.value);
    CHECK(newSize < oldSize);
    // The freed range is a hole in the sparse image now: the drive really got it back.
    CHECK(allocatedInRange(lab.drive.image, freedStart, freedEnd) == 0);
    const std::uint64_t allocatedAfter = allocatedTotal(lab.drive.image);
    UNSCOPED_INFO("image allocation " << allocatedBefore << " -> " << allocatedAfter
                                      << " bytes; freed range held " << rangeBefore);
    WARN(fsType << "/" << table << ": partition " << oldSize << " -> " << newSize
                << " bytes; freed range allocation " << rangeBefore << " -> 0; image "
                << allocatedBefore << " -> " << allocatedAfter << " bytes");
    if (fsType.starts_with("ext")) {
        CHECK(fsckExit(lab.partition) == 0);
    }
    if (!online) {
        mountFs(fsType, lab.partition, mnt);
    }
    checkFiles(mnt, files);
    if (!online) {
        unmountFs(mnt);
    }

    if (throughCli) {
        auto undone = runCtl({"--json", "op", "undo", lab.device, "--yes"});
        INFO(undone.standardOutput << undone.standardError);
        REQUIRE(undone.exitCode == 0);
    } else {
        auto undone = harness.spare.undo(lab.device, {});
        INFO((undone ? std::string() : undone.error().describe()));
        REQUIRE(undone);
        CHECK(undone->purpose == "undo");
    }
    CHECK(kernelPartitionSize(lab.device) == oldSize);
    if (fsType.starts_with("ext")) {
        CHECK(fsckExit(lab.partition) == 0);
        auto dump = mustRun({"dumpe2fs", "-h", lab.partition});
        auto usage = parseDumpe2fs(dump.standardOutput);
        REQUIRE(usage);
        CHECK(usage->size.value == status->usage->size.value);
    }
    if (!online) {
        mountFs(fsType, lab.partition, mnt);
    }
    checkFiles(mnt, files);
    unmountFs(mnt);
}

} // namespace

TEST_CASE("GPT ext4 at 60 %: apply 20 % and undo keep every file", "[overprovision]") {
    applyAndUndo("gpt", "ext4", false);
}

TEST_CASE("MBR ext4 at 60 %: apply 20 % and undo through ssdkeeperctl and the helper",
          "[overprovision]") {
    applyAndUndo("dos", "ext4", true);
}

TEST_CASE("GPT NTFS at 60 %: apply 20 % and undo", "[overprovision]") {
    applyAndUndo("gpt", "ntfs", false);
}

TEST_CASE("GPT btrfs at 25 %, mounted: apply 20 % and undo online", "[overprovision]") {
    applyAndUndo("gpt", "btrfs", false);
}

TEST_CASE("refusals change nothing", "[overprovision]") {
    const OpScratch scratch;
    SpareAreaHarness harness(scratch);
    const fs::path mnt = scratch.dir() / "mnt";

    SECTION("XFS cannot shrink") {
        const auto lab = makeOpLab("op-xfs", Bytes::mib(512), "gpt", "xfs");
        const std::uint64_t before = kernelPartitionSize(lab.device);
        auto result = harness.spare.apply(lab.device, 20.0, "", {});
        REQUIRE_FALSE(result);
        CHECK(result.error().message().find("XFS, which cannot shrink") != std::string::npos);
        CHECK(kernelPartitionSize(lab.device) == before);
        CHECK(fs::is_empty(scratch.privilegedDir() / "op"));
    }
    SECTION("a too-full filesystem") {
        const auto lab = makeOpLab("op-full", Bytes::mib(256), "gpt", "ext4");
        mountFs("ext4", lab.partition, mnt);
        fillTo(mnt, 0.90);
        unmountFs(mnt);
        const std::uint64_t before = kernelPartitionSize(lab.device);
        auto result = harness.spare.apply(lab.device, 20.0, "", {});
        REQUIRE_FALSE(result);
        CHECK(result.error().message().find("too full") != std::string::npos);
        CHECK(kernelPartitionSize(lab.device) == before);
        CHECK(fsckExit(lab.partition) == 0);
    }
    SECTION("a mounted ext4 does not shrink") {
        const auto lab = makeOpLab("op-mounted", Bytes::mib(256), "gpt", "ext4");
        MountGuard mount(lab.partition, mnt);
        const std::uint64_t before = kernelPartitionSize(lab.device);
        auto result = harness.spare.apply(lab.device, 20.0, "", {});
        REQUIRE_FALSE(result);
        CHECK(result.error().message().find("shrinks only unmounted") != std::string::npos);
        CHECK(kernelPartitionSize(lab.device) == before);
        // Through the helper as a user would: refused the same way.
        auto cli = runCtl({"--json", "op", "apply", lab.device, "--spare", "20", "--yes"});
        CHECK(cli.exitCode == 1);
        CHECK(cli.standardOutput.find("shrinks only unmounted") != std::string::npos);
    }
    SECTION("a confirmation naming another partition") {
        const auto lab = makeOpLab("op-confirm", Bytes::mib(256), "gpt", "ext4");
        auto result = harness.spare.apply(lab.device, 20.0, "/dev/sda1", {});
        REQUIRE_FALSE(result);
        CHECK(result.error().message().find("the confirmation names") != std::string::npos);
    }
}

TEST_CASE("the disk holding / is refused (planned from live sysfs, no tool run on it)",
          "[overprovision]") {
    const SysfsRoot root;
    const device::Discovery discovery(root, device::makeSystemFsProber(root));
    auto devices = discovery.discover();
    REQUIRE(devices);
    const device::Device* system = nullptr;
    for (const auto& device : *devices) {
        if (device.holdsRootFilesystem()) {
            system = &device;
        }
    }
    if (system == nullptr) {
        skipTest("no block device holds / here (a container's root)");
    }
    // A usage as if read, so only the disk itself can be the reason.
    FilesystemUsage usage{"ext4", system->size, Bytes::mib(1), Bytes::mib(1), Bytes(4096), "test"};
    auto result = plan(*system, usage, 20.0);
    REQUIRE(result);
    CHECK_FALSE(result->possible);
    bool named = false;
    for (const auto& reason : result->refusals) {
        named = named || reason.find("running system") != std::string::npos;
    }
    CHECK(named);
    // The helper refuses it before planning.
    auto cli = runCtl({"--json", "op", "apply", system->path, "--spare", "20", "--yes"});
    CHECK(cli.exitCode == 1);
}

TEST_CASE("a mounted ext4: unmount, shrink and remount through ssdkeeperctl and the helper",
          "[overprovision]") {
    const OpScratch scratch;
    const auto lab = makeOpLab("op-remount", Bytes::mib(256), "gpt", "ext4");
    const fs::path mnt = scratch.dir() / "mnt";
    MountGuard mounted(lab.partition, mnt, "noatime,nosuid");
    const auto files = fillTo(mnt, 0.60);
    auto mountOptions = [&] {
        auto entry = mountInfoOf(lab.partition, mnt);
        return entry ? remountOptions(*entry) : std::string("not mounted");
    };
    const std::string optionsBefore = mountOptions();
    const std::uint64_t oldSize = kernelPartitionSize(lab.device);

    {
        // In use (this process holds a file open): refused, naming the holder; nothing changes.
        std::ifstream held(mnt / files.begin()->first);
        REQUIRE(held);
        auto plan = runCtl({"--json", "op", "plan", lab.device, "--spare", "20", "--unmount"});
        INFO(plan.standardOutput << plan.standardError);
        REQUIRE(plan.exitCode == 0);
        const Json planned = stdoutJson(plan)["plan"];
        CHECK(planned["possible"] == false);
        CHECK(planned["unmount_offered"] == true);
        CHECK(planned["refusals"].dump().find("is in use") != std::string::npos);
        CHECK(planned["refusals"].dump().find(std::to_string(::getpid())) != std::string::npos);
        auto refused =
            runCtl({"--json", "op", "apply", lab.device, "--spare", "20", "--unmount", "--yes"});
        CHECK(refused.exitCode == 1);
        CHECK(refused.standardOutput.find("is in use") != std::string::npos);
        CHECK(kernelPartitionSize(lab.device) == oldSize);
        CHECK(mountOptions() == optionsBefore);
    }

    auto applied =
        runCtl({"--json", "op", "apply", lab.device, "--spare", "20", "--unmount", "--yes"});
    INFO(applied.standardOutput << applied.standardError);
    REQUIRE(applied.exitCode == 0);
    const Json journal = stdoutJson(applied)["journal"];
    CHECK(journal["phase"] == "completed");
    CHECK(journal["remount_point"] == mnt.string());
    CHECK(journal["steps"].front()["name"] == "backup-table");
    CHECK(journal["steps"][1]["name"] == "unmount");
    CHECK(journal["steps"].back()["name"] == "remount");
    const std::uint64_t newSize = kernelPartitionSize(lab.device);
    CHECK(newSize < oldSize);
    CHECK(newSize == journal["to_partition_size"].get<std::uint64_t>());
    // Mounted again at the same place with the same options, and nosuid,nodev as every mount
    // the helper makes; every file intact.
    CHECK(optionSet(mountOptions()) == remountedOptions(optionsBefore));
    CHECK(optionsBefore.find("noatime") != std::string::npos);
    checkFiles(mnt, files);
    WARN("unmount, shrink and remount: " << oldSize << " -> " << newSize << " bytes, options "
                                         << optionsBefore);

    // Undo grows it back while mounted where ext4 may be resized online; else it says why and
    // grows it unmounted.
    if (!canResizeExtOnline()) {
        auto refused = runCtl({"--json", "op", "undo", lab.device, "--yes"});
        CHECK(refused.exitCode == 1);
        CHECK(refused.standardOutput.find("CAP_SYS_RESOURCE") != std::string::npos);
        WARN("no CAP_SYS_RESOURCE: ext4 cannot grow mounted here; undo unmounted");
        unmountFs(mnt);
    }
    auto undone = runCtl({"--json", "op", "undo", lab.device, "--yes"});
    INFO(undone.standardOutput << undone.standardError);
    REQUIRE(undone.exitCode == 0);
    CHECK(kernelPartitionSize(lab.device) == oldSize);
    if (!canResizeExtOnline()) {
        mountFs("ext4", lab.partition, mnt);
    }
    checkFiles(mnt, files);
    unmountFs(mnt);
    CHECK(fsckExit(lab.partition) == 0);
}

TEST_CASE("data written after the plan makes resize2fs refuse: the apply rolls back at once and "
          "mounts the filesystem again",
          "[overprovision]") {
    const OpScratch scratch;
    SpareAreaHarness harness(scratch);
    const auto lab = makeOpLab("op-grown", Bytes::mib(256), "gpt", "ext4");
    const fs::path mnt = scratch.dir() / "mnt";
    MountGuard mounted(lab.partition, mnt, "noatime");
    const auto files = fillTo(mnt, 0.50);
    const std::uint64_t oldSize = kernelPartitionSize(lab.device);
    const fs::path late = mnt / "written-after-the-plan.bin";

    // Right before the unmount (after the plan was made from the figures read then), the
    // filesystem fills to about 95 %: 20 % spare no longer fits and resize2fs refuses.
    std::vector<std::string> started;
    auto applied = harness.spare.apply(
        lab.device, 20.0, lab.partition,
        [&](const StepEvent& event) {
            if (event.finished) {
                return;
            }
            started.push_back(event.name);
            if (event.name == "unmount" && !fs::exists(late)) {
                struct statvfs info {};
                REQUIRE(::statvfs(mnt.c_str(), &info) == 0);
                const auto room = static_cast<off_t>(info.f_bavail * info.f_frsize);
                const int fd = ::open(late.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
                REQUIRE(fd >= 0);
                const int allocated = ::posix_fallocate(fd, 0, room - (off_t{12} << 20));
                ::close(fd);
                REQUIRE(allocated == 0);
                mustRun({"sync"});
            }
        },
        true);
    REQUIRE_FALSE(applied);
    const std::string message = applied.error().describe();
    INFO(message);
    CHECK(message.find("nothing was changed") != std::string::npos);
    CHECK(message.find("mounted again at " + mnt.string()) != std::string::npos);
    // The rollback ran its own steps after the refused shrink.
    CHECK(std::ranges::count(started, std::string("shrink-filesystem")) == 1);
    CHECK(std::ranges::count(started, std::string("remount")) == 1);

    // Ground truth: the partition keeps its size, the filesystem is mounted where it was with
    // every file (the late one too), and no change is left pending.
    CHECK(kernelPartitionSize(lab.device) == oldSize);
    CHECK(mountInfoOf(lab.partition, mnt));
    checkFiles(mnt, files);
    CHECK(fs::exists(late));
    auto status = harness.spare.inspect(lab.device);
    REQUIRE(status);
    REQUIRE(status->journal);
    CHECK_FALSE(status->journal->pending());
    CHECK(status->journal->phase == Phase::RolledBack);
    fs::remove(late);
    unmountFs(mnt);
    CHECK(fsckExit(lab.partition) == 0);
}
