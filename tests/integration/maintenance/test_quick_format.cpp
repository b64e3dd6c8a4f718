// Quick format + verify TRIM for every formatter (scripts/setup installs them all), on a lab
// drive whose partition held ext4 files. The truth is measured by the test, not taken from the
// product: before the format, where the files' blocks sit (its own FIEMAP) and what the image holds
// there; after it, which of those blocks of the image are holes (SEEK_DATA / SEEK_HOLE), still hold
// the old bytes, or hold new ones. The product's verdict must agree, and a lie about the same run
// must not.
#include "core/maintenance/trim/format_verify.h"
#include "tests/integration/maintenance/maintenance_scratch.h"
#include "tests/integration/maintenance/trim_ground_truth.h"
#include "tests/support/skip.h"

using namespace ssdk;
using namespace ssdk::maintenance::trim;
using namespace ssdk::test;
namespace fs = std::filesystem;

namespace {

// Fresh ext4 (4 KiB blocks, so each block covers whole blocks of the image on the host)
// holding 24 MiB of random files, unmounted again; where those files' blocks are in the image
// and what they hold.
OldData fillPartition(const std::string& partition, const fs::path& mountPoint,
                      const fs::path& image) {
    SystemProcessRunner runner;
    REQUIRE(runChecked(
        runner, {.argv = {"mkfs.ext4", "-F", "-q", "-b", "4096", "-E", "nodiscard", partition}}));
    std::vector<std::uint64_t> offsets;
    {
        MountGuard mount(partition, mountPoint);
        writeRandomFiles(mountPoint, 6, 4 << 20);
        offsets = fileBlocksInImage(mountPoint, imageOffsetOf(partition));
    }
    REQUIRE(offsets.size() == 6 * (4 << 20) / kTruthBlock);
    return recordOldData(image, std::move(offsets));
}

// The product's verdict against the image, and a lie about the same run against it too.
void checkAgainstImage(const FormatResult& result, const FormatTruth& truth,
                       const std::string& expected) {
    INFO("image: " << truth.holes << " holes, " << truth.kept << " kept, " << truth.rewritten
                   << " rewritten; product: " << toJson(result).dump());
    CHECK(outcomeShownBy(truth) == expected);
    CHECK(formatDisagreements(toJson(result), truth).empty());
    // Negative control: the comparison catches a verifier that says the opposite.
    CHECK_FALSE(formatDisagreements(lyingFormatResult(toJson(result)), truth).empty());
}

} // namespace

TEST_CASE("quick format + verify agrees with the image's allocation for every formatter",
          "[maintenance]") {
    const MaintenanceScratch scratch;
    const auto drive = makeLabDrive("maint-format", Bytes::mib(512), "gpt-ext4");
    const std::string partition = drive.devicePath + "p1";
    SystemProcessRunner runner;
    for (const Formatter& formatter : formatters()) {
        DYNAMIC_SECTION("formatter " << formatter.fsType) {
            REQUIRE(haveProgram(formatter.program)); // scripts/setup installs every formatter
            const OldData old = fillPartition(partition, scratch.dir() / "mnt", drive.image);
            FormatOptions options;
            options.fsType = formatter.fsType;
            options.sampleBlocks = 128;
            auto result = quickFormat(partition, options, SysfsRoot(), runner);
            REQUIRE(result);
            INFO(toJson(*result).dump());
            CHECK(result->sampleSource == "old-filesystem-extents");
            CHECK(result->sampled >= 100);
            // What the formatter's documentation says is what the lab drive shows, and what
            // the product says.
            checkAgainstImage(*result, measureFormat(old),
                              formatter.discardsByDefault ? "reached" : "not-reached");
            CHECK(result->offerBlkdiscard == !formatter.discardsByDefault);
            CHECK(probeType(partition) == formatter.fsType);
        }
    }
}

TEST_CASE("discard first, then a formatter that does not discard", "[maintenance]") {
    REQUIRE(haveProgram("mkfs.vfat")); // scripts/setup installs dosfstools
    const MaintenanceScratch scratch;
    const auto drive = makeLabDrive("maint-discard1st", Bytes::mib(256), "gpt-ext4");
    const std::string partition = drive.devicePath + "p1";
    const OldData old = fillPartition(partition, scratch.dir() / "mnt", drive.image);
    SystemProcessRunner runner;
    FormatOptions options;
    options.fsType = "vfat";
    options.discardFirst = true;
    auto result = quickFormat(partition, options, SysfsRoot(), runner);
    REQUIRE(result);
    INFO(toJson(*result).dump());
    CHECK(result->discardedFirst);
    checkAgainstImage(*result, measureFormat(old), "reached");
}

// mke2fs discards by default, but the loop device's image lives on FUSE (ntfs-3g), which
// drops every discard: the old data stays in the image, and the product must say not-reached
// and offer blkdiscard.
TEST_CASE("a formatter that discards, on a drive whose image drops discards", "[maintenance]") {
    if (!fs::exists("/dev/fuse")) {
        skipTest("the image is hosted on ntfs-3g, which needs /dev/fuse (a container without it)");
    }
    REQUIRE(NtfsHostedLoop::available()); // scripts/setup installs ntfs-3g
    const MaintenanceScratch scratch;
    NtfsHostedLoop hosted(scratch, "200M");
    const OldData old = fillPartition(hosted.loop(), scratch.dir() / "mnt", hosted.image());
    SystemProcessRunner runner;
    FormatOptions options;
    options.fsType = "ext4";
    options.sampleBlocks = 128;
    auto result = quickFormat(hosted.loop(), options, SysfsRoot(), runner);
    REQUIRE(result);
    const FormatTruth truth = measureFormat(old);
    CHECK(truth.holes == 0);
    CHECK(truth.kept > 0);
    checkAgainstImage(*result, truth, "not-reached");
    CHECK(result->offerBlkdiscard);
}
