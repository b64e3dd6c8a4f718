// Quick format + verify TRIM for every formatter (scripts/setup installs them all) on lab drives,
// over three kinds of old data (random bytes, an old ext4 with files, an old ext4 with no files),
// with and without discarding the whole partition first. The truth is measured by the test, not
// taken from the product: before the format, which blocks of the image hold data (its own FIEMAP
// for files, SEEK_DATA and the bytes otherwise) and what they hold; after it, which of those
// blocks of the image are holes (SEEK_DATA / SEEK_HOLE), still hold the old bytes, or hold new
// ones. The product's verdict must agree, its own comparison with the image must agree on every
// block it judged, and a lie about the same run must not agree.
#include <fcntl.h>
#include <random>
#include <unistd.h>

#include "core/maintenance/trim/format_verify.h"
#include "tests/integration/maintenance/maintenance_scratch.h"
#include "tests/integration/maintenance/trim_ground_truth.h"
#include "tests/support/skip.h"

using namespace ssdk;
using namespace ssdk::maintenance::trim;
using namespace ssdk::test;
namespace fs = std::filesystem;

namespace {

// Discards the whole partition, so that what a test case finds there is only what it wrote.
void discardAll(const std::string& partition) {
    SystemProcessRunner runner;
    REQUIRE(runChecked(runner, {.argv = {"blkdiscard", "-f", partition}}));
}

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

// Random bytes over the whole partition; every 4th block of it in the image is the truth's.
OldData fillRandom(const std::string& partition, const fs::path& image) {
    const std::uint64_t size = fillWithRandomBytes(partition, 4242);
    const std::uint64_t base = imageOffsetOf(partition);
    std::vector<std::uint64_t> offsets;
    for (std::uint64_t at = 0; at + kTruthBlock <= size; at += 4 * kTruthBlock) {
        offsets.push_back(base + at);
    }
    return recordOldData(image, std::move(offsets));
}

// A fresh ext4 with no files (its metadata only); the blocks of the image it wrote that hold
// more than zeros are the truth's.
OldData emptyExt4(const std::string& partition, const fs::path& image) {
    SystemProcessRunner runner;
    REQUIRE(runChecked(
        runner, {.argv = {"mkfs.ext4", "-F", "-q", "-b", "4096", "-E", "nodiscard", partition}}));
    const int fd = ::open(partition.c_str(), O_RDONLY | O_CLOEXEC);
    REQUIRE(fd >= 0);
    const auto size = static_cast<std::uint64_t>(::lseek(fd, 0, SEEK_END));
    ::close(fd);
    const std::uint64_t base = imageOffsetOf(partition);
    std::vector<std::uint64_t> offsets;
    const std::vector<char> zeros(kTruthBlock, 0);
    for (const DataRange& range : dataRanges(image, base, base + size)) {
        for (std::uint64_t at = range.start / kTruthBlock * kTruthBlock; at < range.end;
             at += kTruthBlock) {
            if (imageBlock(image, at) != zeros) {
                offsets.push_back(at);
            }
        }
    }
    REQUIRE(offsets.size() >= 8);
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

enum class Old { Random, Ext4WithFiles, Ext4Empty };

const char* name(Old old) {
    switch (old) {
    case Old::Random:
        return "random bytes";
    case Old::Ext4WithFiles:
        return "old ext4 with files";
    case Old::Ext4Empty:
        break;
    }
    return "old ext4 with no files";
}

} // namespace

TEST_CASE("quick format + verify judges only what the new filesystem leaves free, and agrees "
          "with the image, for every formatter, old data and discard-first",
          "[maintenance]") {
    const MaintenanceScratch scratch;
    SystemProcessRunner runner;
    for (const Formatter& formatter : formatters()) {
        REQUIRE(haveProgram(formatter.program)); // scripts/setup installs every formatter
        // The smallest partitions each formatter accepts comfortably (mkfs.xfs wants 300 MiB).
        const auto drive =
            makeLabDrive("maint-fmt-" + formatter.fsType,
                         Bytes::mib(formatter.fsType == "xfs" ? 320 : 160), "gpt-ext4");
        const std::string partition = drive.devicePath + "p1";
        for (const Old old : {Old::Random, Old::Ext4WithFiles, Old::Ext4Empty}) {
            for (const bool discardFirst : {false, true}) {
                INFO(formatter.fsType << " over " << name(old)
                                      << (discardFirst ? ", discard first" : ""));
                discardAll(partition);
                const OldData before =
                    old == Old::Random ? fillRandom(partition, drive.image)
                    : old == Old::Ext4WithFiles
                        ? fillPartition(partition, scratch.dir() / "mnt", drive.image)
                        : emptyExt4(partition, drive.image);
                FormatOptions options;
                options.fsType = formatter.fsType;
                options.discardFirst = discardFirst;
                options.sampleBlocks = 128;
                auto result = quickFormat(partition, options, SysfsRoot(), runner);
                REQUIRE(result);
                INFO(toJson(*result).dump());
                CHECK(result->sampleSource ==
                      (old == Old::Ext4WithFiles ? "old-filesystem-extents" : "non-empty-scan"));
                // The new filesystem's free map was read, every sample is accounted for, and
                // some were judged.
                CHECK(result->freeMapError.empty());
                CHECK_FALSE(result->freeMapSource.empty());
                CHECK(result->counts.judged() + result->counts.inUseByNewFs == result->sampled);
                CHECK(result->counts.discarded + result->counts.kept > 0);
                // What the formatter's documentation says (or the discard first) is what the lab
                // drive shows, and what the product says.
                const bool discards = formatter.discardsByDefault || discardFirst;
                checkAgainstImage(*result, measureFormat(before),
                                  discards ? "reached" : "not-reached");
                CHECK(result->offerBlkdiscard == !discards);
                // The product's own comparison with the image: full agreement on every judged
                // block, and nothing said loudly.
                REQUIRE(result->groundTruthAgreements);
                CHECK(*result->groundTruthAgreements == result->counts.judged());
                CHECK_FALSE(result->groundTruthDisagrees);
                CHECK(result->groundTruthWarning.empty());
                CHECK(probeType(partition) == formatter.fsType);
            }
        }
    }
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

namespace {

// The real programs, except that `tool` fails as a broken or missing tool would.
class OneToolFails : public ProcessRunner {
public:
    explicit OneToolFails(std::string tool)
        : m_tool(std::move(tool)) {}
    Expected<ProcessResult> run(const ProcessRequest& request) override {
        if (!request.argv.empty() && request.argv.front() == m_tool) {
            return ProcessResult{1, "", m_tool + ": cannot read the superblock"};
        }
        return m_real.run(request);
    }

private:
    std::string m_tool;
    SystemProcessRunner m_real;
};

} // namespace

TEST_CASE("when the new filesystem's free space cannot be read there is no verdict",
          "[maintenance]") {
    const MaintenanceScratch scratch;
    const auto drive = makeLabDrive("maint-fmt-nomap", Bytes::mib(160), "gpt-ext4");
    const std::string partition = drive.devicePath + "p1";
    fillRandom(partition, drive.image);
    OneToolFails runner("dumpe2fs");
    FormatOptions options;
    options.fsType = "ext4";
    options.sampleBlocks = 64;
    auto result = quickFormat(partition, options, SysfsRoot(), runner);
    REQUIRE(result);
    INFO(toJson(*result).dump());
    CHECK(probeType(partition) == "ext4"); // the format itself went ahead
    CHECK(result->sampled > 0);
    CHECK_FALSE(result->outcome);
    CHECK(result->counts == SampleCounts{});
    CHECK_THAT(result->freeMapError, Catch::Contains("cannot read the superblock"));
    CHECK_THAT(result->reason, Catch::Contains("the new ext4's free space could not be read"));
    CHECK_THAT(result->reason, Catch::Contains("no verdict"));
    CHECK_FALSE(result->offerBlkdiscard);
    CHECK_FALSE(result->groundTruthDisagrees);
}
