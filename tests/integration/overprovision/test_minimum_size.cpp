// How small an ext4 filesystem may become, checked against what resize2fs really accepts (root,
// lab drives): 2 GiB drives filled to 20, 40, 60 and 75 %. The planner's minimum is resize2fs
// -P's figure with no margin on top (docs/spare-area.md, "How small a filesystem can get"):
// resize2fs refuses one block less and changes nothing, and accepts exactly that size. Where
// the planner allows 20 % spare, applying it succeeds with a clean fsck and every checksum
// intact; where it refuses, resize2fs to the size the plan would give really fails.
#include <sys/statvfs.h>

#include "core/overprovision/spare_area.h"
#include "tests/integration/overprovision/op_lab.h"
#include "tests/support/skip.h"

using namespace ssdk;
using namespace ssdk::overprovision;
using namespace ssdk::test;
namespace fs = std::filesystem;

// Named, not anonymous: integration tests compile in unity batches, where file-local names
// of the other files (mentions, …) share the translation unit.
namespace minimum_size_test {

// e2fsck -f -y, required clean: resize2fs refuses a filesystem mounted since its last check
// ("Please run 'e2fsck -f' first"), which must not pass for a refusal of the size.
void checkForResize(const std::string& partition) {
    auto checked = mustRun({"e2fsck", "-f", "-y", partition});
    INFO(checked.standardOutput << checked.standardError);
    REQUIRE(checked.exitCode == 0);
}

// resize2fs PARTITION SIZE, never forced, as the helper runs it.
ProcessResult resizeTo(const std::string& partition, Bytes size) {
    checkForResize(partition);
    return mustRun({"resize2fs", partition, std::to_string(size.value / 1024) + "K"});
}

bool refusedAsTooSmall(const ProcessResult& result) {
    return result.exitCode != 0 &&
           result.standardError.find("New size smaller than minimum") != std::string::npos;
}

Bytes filesystemSize(const std::string& partition) {
    auto usage = parseDumpe2fs(mustRun({"dumpe2fs", "-h", partition}).standardOutput);
    REQUIRE(usage);
    return usage->size;
}

Bytes resize2fsMinimum(const std::string& partition, Bytes blockSize) {
    auto blocks =
        parseResize2fsMinimumBlocks(mustRun({"resize2fs", "-P", partition}).standardOutput);
    REQUIRE(blocks);
    return Bytes(*blocks * blockSize.value);
}

bool mentions(const Plan& plan, const std::string& text) {
    for (const auto& reason : plan.refusals) {
        if (reason.find(text) != std::string::npos) {
            return true;
        }
    }
    return false;
}

// Fills a fresh 2 GiB ext4 lab drive to `percent` %, plans 20 % spare and holds the plan
// against resize2fs itself.
void checkFill(int percent) {
    const OpScratch scratch;
    const auto lab = makeOpLab("op-min-" + std::to_string(percent), Bytes::gib(2), "gpt", "ext4");
    const fs::path mnt = scratch.dir() / "mnt";
    std::map<std::string, std::uint64_t> files;
    std::uint64_t dfUsed = 0;
    {
        MountGuard mount(lab.partition, mnt);
        // Written files are 2 MiB of every 16: checksummed data all over the filesystem at a
        // small part of the cost of writing the whole fill.
        files = fillMixedTo(mnt, percent / 100.0, Bytes::mib(14));
        struct statvfs info {};
        REQUIRE(::statvfs(mnt.c_str(), &info) == 0);
        dfUsed = (info.f_blocks - info.f_bfree) * info.f_frsize;
    }
    REQUIRE(files.size() > 5);

    SpareAreaHarness harness(scratch);
    auto status = harness.spare.inspect(lab.device);
    REQUIRE(status);
    INFO(status->usageError);
    REQUIRE(status->usage);
    const FilesystemUsage usage = *status->usage;
    // "In use" is what df counted while mounted; the minimum is resize2fs -P's own figure.
    CHECK(usage.used == Bytes(dfUsed));
    CHECK(usage.minimumExact);
    CHECK(usage.minimumSource == "resize2fs -P");
    CHECK(usage.minimumSize == resize2fsMinimum(lab.partition, usage.blockSize));
    const Bytes sizeBefore = filesystemSize(lab.partition);

    auto planned = plan(status->device, usage, 20.0);
    REQUIRE(planned);
    INFO(planned->describe());
    CHECK(planned->margin == Bytes(0));
    CHECK(planned->requiredSize == usage.minimumSize);
    WARN("2 GiB ext4 at " << percent << " %: in use " << usage.used.value << " bytes (df " << dfUsed
                          << "), resize2fs -P " << usage.minimumSize.value << ", 20 % spare leaves "
                          << planned->newPartitionSize.value << ": "
                          << (planned->possible ? "planned" : "refused"));

    // One block below the minimum: resize2fs refuses, changing nothing.
    CHECK(refusedAsTooSmall(resizeTo(lab.partition, usage.minimumSize - usage.blockSize)));
    CHECK(filesystemSize(lab.partition) == sizeBefore);

    if (percent <= 40) {
        // The lab report: 20 % spare at 39 % full was refused although resize2fs took it.
        REQUIRE(planned->possible);
    }
    if (planned->possible) {
        auto applied = harness.spare.apply(lab.device, 20.0, lab.partition, {});
        INFO((applied ? std::string() : applied.error().describe()));
        REQUIRE(applied);
        CHECK(kernelPartitionSize(lab.device) == planned->newPartitionSize.value);
        CHECK(filesystemSize(lab.partition) == planned->newPartitionSize);
        CHECK(fsckExit(lab.partition) == 0);

        // And the exact figure of the shrunk filesystem: refused one block below, taken as is.
        const Bytes minimum = resize2fsMinimum(lab.partition, usage.blockSize);
        if (minimum < planned->newPartitionSize) {
            CHECK(refusedAsTooSmall(resizeTo(lab.partition, minimum - usage.blockSize)));
            auto exact = resizeTo(lab.partition, minimum);
            INFO(exact.standardOutput << exact.standardError);
            CHECK(exact.exitCode == 0);
            CHECK(filesystemSize(lab.partition) == minimum);
            CHECK(fsckExit(lab.partition) == 0);
        }
    } else {
        CHECK(mentions(*planned, "is too full for 20 % spare"));
        // Where -P's figure is the whole filesystem (60 and 75 % here), it says so.
        CHECK((mentions(*planned, "resize2fs accepts no less than " + formatIec(usage.minimumSize) +
                                      " (resize2fs -P)") ||
               (usage.minimumSize >= usage.size &&
                mentions(*planned, "resize2fs will not shrink it at all (resize2fs -P: " +
                                       formatIec(usage.minimumSize) + ", its whole size)"))));
        CHECK(mentions(*planned, "in use: " + formatIec(usage.used)));
        // resize2fs agrees: the size the plan would give is below what it accepts.
        CHECK(refusedAsTooSmall(resizeTo(lab.partition, planned->newPartitionSize)));
        CHECK(filesystemSize(lab.partition) == sizeBefore);
        CHECK(fsckExit(lab.partition) == 0);
    }
    MountGuard mount(lab.partition, mnt);
    checkFiles(mnt, files);
}

} // namespace minimum_size_test

TEST_CASE("2 GiB ext4 at 20 %: the minimum is what resize2fs accepts", "[overprovision]") {
    minimum_size_test::checkFill(20);
}

TEST_CASE("2 GiB ext4 at 40 %: 20 % spare is applied, as resize2fs accepts it", "[overprovision]") {
    minimum_size_test::checkFill(40);
}

TEST_CASE("2 GiB ext4 at 60 %: the minimum is what resize2fs accepts", "[overprovision]") {
    minimum_size_test::checkFill(60);
}

TEST_CASE("2 GiB ext4 at 75 %: the minimum is what resize2fs accepts", "[overprovision]") {
    minimum_size_test::checkFill(75);
}

TEST_CASE("NTFS: the minimum is what ntfsresize accepts", "[overprovision]") {
    if (!fs::exists("/dev/fuse")) {
        skipTest("NTFS is mounted with ntfs-3g, which needs /dev/fuse");
    }
    REQUIRE(filesystemToolsFor("ntfs")); // scripts/setup installs ntfs-3g
    const OpScratch scratch;
    const auto lab = makeOpLab("op-min-ntfs", Bytes::mib(256), "gpt", "ntfs");
    const fs::path mnt = scratch.dir() / "mnt";
    fs::create_directories(mnt);
    REQUIRE(mustRun({"ntfs-3g", lab.partition, mnt.string()}).exitCode == 0);
    const auto files = fillTo(mnt, 0.60);
    REQUIRE(mustRun({"umount", mnt.string()}).exitCode == 0);

    SpareAreaHarness harness(scratch);
    auto status = harness.spare.inspect(lab.device);
    REQUIRE(status);
    INFO(status->usageError);
    REQUIRE(status->usage);
    const FilesystemUsage usage = *status->usage;
    CHECK(usage.minimumExact);
    CHECK(usage.minimumSource == "ntfsresize --info");
    CHECK(usage.used <= usage.minimumSize);
    auto planned = plan(status->device, usage, 20.0);
    REQUIRE(planned);
    CHECK(planned->margin == Bytes(0));
    WARN("256 MiB NTFS at 60 %: in use " << usage.used.value << " bytes, ntfsresize's minimum "
                                         << usage.minimumSize.value);

    // ntfsresize's test run (-n: nothing written): a cluster less is refused, the figure taken.
    auto testRun = [&](Bytes size) {
        return mustRun({"ntfsresize", "-n", "--force", "--no-progress-bar", "--size",
                        std::to_string(size.value), lab.partition},
                       "y\n");
    };
    const auto below = testRun(usage.minimumSize - Bytes(4096));
    INFO(below.standardOutput << below.standardError);
    CHECK(below.exitCode != 0);
    CHECK((below.standardOutput + below.standardError).find("can't be less than") !=
          std::string::npos);
    const auto exact = testRun(usage.minimumSize);
    INFO(exact.standardOutput << exact.standardError);
    CHECK(exact.exitCode == 0);
    REQUIRE(mustRun({"ntfs-3g", lab.partition, mnt.string()}).exitCode == 0);
    checkFiles(mnt, files);
    REQUIRE(mustRun({"umount", mnt.string()}).exitCode == 0);
}
