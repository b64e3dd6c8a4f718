// Parsers over real output of dumpe2fs, resize2fs, ntfsresize and btrfs-progs, recorded on
// freshly made filesystems (tests/data/overprovision).
#include <catch2/catch.hpp>

#include "core/overprovision/filesystem_usage.h"
#include "tests/support/test_data.h"

using namespace ssdk;
using namespace ssdk::overprovision;

TEST_CASE("dumpe2fs -h gives the size and the used space of ext4", "[overprovision]") {
    auto usage = parseDumpe2fs(test::readTestData("overprovision/dumpe2fs-h.txt"));
    REQUIRE(usage);
    CHECK(usage->size == Bytes(262144ULL * 1024));
    CHECK(usage->used == Bytes((262144ULL - 235417ULL) * 1024));
    CHECK(usage->blockSize == Bytes(1024));
}

TEST_CASE("dumpe2fs output without a field is a Parse error", "[overprovision]") {
    auto usage = parseDumpe2fs("Block count: 100\nBlock size: 4096\n");
    REQUIRE_FALSE(usage);
    CHECK(usage.error().code() == ErrorCode::Parse);
    CHECK(usage.error().message().find("Free blocks") != std::string::npos);
    CHECK_FALSE(parseDumpe2fs("Block count: 10\nFree blocks: 11\nBlock size: 4096\n"));
}

TEST_CASE("resize2fs -P gives the minimum in blocks", "[overprovision]") {
    auto blocks = parseResize2fsMinimumBlocks(test::readTestData("overprovision/resize2fs-P.txt"));
    REQUIRE(blocks);
    CHECK(*blocks == 27049);
    CHECK_FALSE(parseResize2fsMinimumBlocks("resize2fs: Bad magic number\n"));
}

TEST_CASE("ntfsresize --info gives the volume size and the smallest size", "[overprovision]") {
    auto usage = parseNtfsresizeInfo(test::readTestData("overprovision/ntfsresize-info.txt"));
    REQUIRE(usage);
    CHECK(usage->size == Bytes(134214144));
    CHECK(usage->minimumSize == Bytes(2564096));
    CHECK(usage->type == "ntfs");
    CHECK_FALSE(parseNtfsresizeInfo("ERROR: not an NTFS volume\n"));
}

TEST_CASE("btrfs usage gives size and used", "[overprovision]") {
    auto usage = parseBtrfsUsage(test::readTestData("overprovision/btrfs-usage-b.txt"));
    REQUIRE(usage);
    CHECK(usage->size == Bytes(268435456));
    CHECK(usage->used == Bytes(294912));
    CHECK(usage->minimumSize == usage->used);
    CHECK_FALSE(parseBtrfsUsage("ERROR: not a btrfs filesystem"));
}

TEST_CASE("filesystem usage survives its JSON form", "[overprovision]") {
    FilesystemUsage usage{"ext4", Bytes(100), Bytes(40), Bytes(50), Bytes(4096), "dumpe2fs -h"};
    auto back = filesystemUsageFromJson(toJson(usage));
    REQUIRE(back);
    CHECK(back->type == "ext4");
    CHECK(back->size == Bytes(100));
    CHECK(back->used == Bytes(40));
    CHECK(back->minimumSize == Bytes(50));
    CHECK_FALSE(filesystemUsageFromJson(Json{{"type", "ext4"}}));
}
