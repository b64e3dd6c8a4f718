// The maintenance verdicts on both sides of each threshold: one block more or fewer than the
// bar flips the verdict (tests/mutation/mutate.py checks that each comparison is pinned down).
#include <catch2/catch.hpp>

#include "core/maintenance/erase/eraser.h"
#include "core/maintenance/trim/format_verify.h"

using namespace ssdk;
using namespace ssdk::maintenance;
using namespace ssdk::maintenance::erase;
using namespace ssdk::maintenance::trim;

namespace {

// The checksum sampleSpread takes of a 4 KiB block (FNV-1a, 64 bit).
std::uint64_t blockChecksum(std::uint8_t fill) {
    std::uint64_t hash = 1469598103934665603ULL;
    for (int i = 0; i < 4096; ++i) {
        hash = (hash ^ fill) * 1099511628211ULL;
    }
    return hash;
}

FormatResult formatCounts(std::uint32_t sampled, std::uint32_t discarded, std::uint32_t kept,
                          std::uint32_t rewritten, std::uint32_t inUse = 0) {
    FormatResult result;
    result.sampled = sampled;
    result.fsType = "vfat";
    result.freeMapSource = "the FAT";
    result.counts = {discarded, kept, rewritten, inUse};
    decideFormat(result, "mkfs.test");
    return result;
}

} // namespace

TEST_CASE("erase verification: one unchanged data block fails it, none passes", "[erase-verify]") {
    const std::vector<SpreadSample> before{{0, 111, false}, {4096, 222, false}};
    std::vector<SpreadSample> after{{0, 111, false}, {4096, 999, false}};
    auto one = judge(before, after, Method::BlkDiscard);
    CHECK(one.unchangedData == 1);
    CHECK_FALSE(one.passed);
    after[0].checksum = 998;
    CHECK(judge(before, after, Method::BlkDiscard).passed);
}

TEST_CASE("erase verification counts zeros, ones and other data", "[erase-verify]") {
    const std::vector<SpreadSample> before{
        {0, 1, false}, {4096, 2, false}, {8192, 3, false}, {12288, 4, false}};
    const std::vector<SpreadSample> after{{0, blockChecksum(0), true},
                                          {4096, blockChecksum(0xFF), true},
                                          {8192, blockChecksum(0xFF), true},
                                          {12288, 5, false}};
    const auto v = judge(before, after, Method::BlkDiscard);
    CHECK(v.samples == 4);
    CHECK(v.zeros == 1);
    CHECK(v.ones == 2);
    CHECK(v.other == 1);
    CHECK(v.passed);
}

TEST_CASE("a zero-out passes when every sampled block reads as zeros, not one fewer",
          "[erase-verify]") {
    const std::vector<SpreadSample> before{{0, 1, false}, {4096, 2, false}};
    std::vector<SpreadSample> after{{0, blockChecksum(0), true}, {4096, blockChecksum(0), true}};
    CHECK(judge(before, after, Method::BlkZeroOut).passed);
    after[1].checksum = blockChecksum(0xFF);
    CHECK_FALSE(judge(before, after, Method::BlkZeroOut).passed);
}

TEST_CASE("erase verification: a block read after but not before is not 'unchanged'",
          "[erase-verify]") {
    // The before list ends early (fewer blocks read): only the blocks it has are compared.
    const std::vector<SpreadSample> before;
    const std::vector<SpreadSample> after{{0, 7, false}};
    const auto v = judge(before, after, Method::BlkDiscard);
    CHECK(v.unchangedData == 0);
    CHECK(v.passed);
}

TEST_CASE("format verify: nothing sampled, or only rewritten blocks, has no outcome",
          "[format-verify]") {
    CHECK_FALSE(formatCounts(0, 0, 0, 0).outcome);
    const auto rewritten = formatCounts(3, 0, 0, 3);
    CHECK_FALSE(rewritten.outcome);
    CHECK_THAT(rewritten.reason, Catch::Contains("nothing to check"));
}

TEST_CASE("format verify: one discarded block and none kept is reached", "[format-verify]") {
    const auto one = formatCounts(1, 1, 0, 0);
    REQUIRE(one.outcome);
    CHECK(*one.outcome == VerifyOutcome::Reached);
    CHECK_FALSE(one.offerBlkdiscard);
    const auto withOther = formatCounts(4, 2, 0, 2);
    REQUIRE(withOther.outcome);
    CHECK(*withOther.outcome == VerifyOutcome::Reached);
    CHECK_THAT(withOther.reason, Catch::Contains("2 judged blocks hold other data now"));
}

TEST_CASE("format verify: one kept block and none discarded is not reached", "[format-verify]") {
    const auto one = formatCounts(1, 0, 1, 0);
    REQUIRE(one.outcome);
    CHECK(*one.outcome == VerifyOutcome::NotReached);
    CHECK(one.offerBlkdiscard);
    CHECK_THAT(one.reason, Catch::Contains("mkfs.test did not discard"));
}

TEST_CASE("format verify: one discarded and one kept block is inconclusive", "[format-verify]") {
    const auto mixed = formatCounts(2, 1, 1, 0);
    REQUIRE(mixed.outcome);
    CHECK(*mixed.outcome == VerifyOutcome::Inconclusive);
    CHECK(mixed.offerBlkdiscard);
}

// Issue 28: mkfs.fat zeroed 32 sampled blocks in its FAT area and they counted as discards.
TEST_CASE("format verify: blocks the new filesystem uses are never counted as discarded",
          "[format-verify]") {
    const auto vfat = formatCounts(255, 0, 223, 0, 32);
    REQUIRE(vfat.outcome);
    CHECK(*vfat.outcome == VerifyOutcome::NotReached);
    CHECK(vfat.offerBlkdiscard);
    CHECK_THAT(vfat.reason, Catch::Contains("all 223 sampled data blocks the new vfat leaves free "
                                            "still hold the old data"));
    CHECK_THAT(
        vfat.reason,
        Catch::Contains("32 sampled blocks are now used by the new vfat and were not judged"));
    // The fresh-ext4 case: 8 of 9 blocks in use, the one judged kept its data: not "reached".
    const auto fresh = formatCounts(9, 0, 1, 0, 8);
    REQUIRE(fresh.outcome);
    CHECK(*fresh.outcome == VerifyOutcome::NotReached);
    CHECK_THAT(fresh.reason, Catch::Contains("8 sampled blocks are now used"));
    const auto one = formatCounts(2, 1, 0, 0, 1);
    REQUIRE(one.outcome);
    CHECK(*one.outcome == VerifyOutcome::Reached);
    CHECK_THAT(one.reason, Catch::Contains("1 sampled block is now used by the new vfat and was "
                                           "not judged"));
}

TEST_CASE("format verify: every sampled block in use by the new filesystem has no outcome",
          "[format-verify]") {
    const auto allUsed = formatCounts(9, 0, 0, 0, 9);
    CHECK_FALSE(allUsed.outcome);
    CHECK_FALSE(allUsed.offerBlkdiscard);
    CHECK_THAT(allUsed.reason,
               Catch::Contains("all 9 sampled blocks are now used by the new vfat"));
}

TEST_CASE("format verify: an unreadable free map gives no verdict and says why",
          "[format-verify]") {
    FormatResult result;
    result.fsType = "xfs";
    result.sampled = 100;
    result.freeMapError = "xfs_db: cannot read the superblock";
    decideFormat(result, "mkfs.xfs");
    CHECK_FALSE(result.outcome);
    CHECK_FALSE(result.offerBlkdiscard);
    CHECK_THAT(result.reason, Catch::Contains("the new xfs's free space could not be read "
                                              "(xfs_db: cannot read the superblock)"));
    CHECK_THAT(result.reason, Catch::Contains("no verdict"));
}

TEST_CASE("format verify: the lab image disagreeing on one judged block is a loud bug",
          "[format-verify]") {
    auto agreeing = formatCounts(10, 4, 0, 0, 6);
    compareWithImage(agreeing, 4, 4);
    CHECK(agreeing.groundTruthAgreements == 4U);
    CHECK_FALSE(agreeing.groundTruthDisagrees);
    CHECK(agreeing.groundTruthWarning.empty());
    auto oneOff = formatCounts(10, 4, 1, 0, 5);
    compareWithImage(oneOff, 4, 4); // the kept block is a hole in the image, or vice versa
    CHECK(oneOff.groundTruthDisagrees);
    CHECK_THAT(oneOff.groundTruthWarning, Catch::StartsWith("BUG:"));
    CHECK_THAT(oneOff.groundTruthWarning, Catch::Contains("on 1 of 5 judged blocks"));
    const Json json = toJson(oneOff);
    CHECK(json["ground_truth_disagrees"] == true);
    CHECK(json["judged"] == 5);
    CHECK(json["in_use_by_new_fs"] == 5);
}
