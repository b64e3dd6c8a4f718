// The free-space parsers of a freshly made filesystem (core/maintenance/trim/free_space.h): on
// recorded tool output, and on images made by each mkfs in the test (a sparse file; [linux]: the
// replay platform runs no programs): whatever the formatter wrote into the image (its allocated
// blocks) must not be called free, most of a new filesystem is free, and the free total matches
// what the filesystem itself records.
#include <catch2/catch.hpp>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <unistd.h>

#include "core/base/system_process_runner.h"
#include "core/maintenance/trim/free_space.h"
#include "tests/support/sparse_file.h"
#include "tests/support/temp_dir.h"

using namespace ssdk;
using namespace ssdk::maintenance::trim;
namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kMiB = 1ULL << 20;

// A fresh sparse image of `size` bytes made by argv (the image's path is appended).
fs::path makeImage(const test::TempDir& dir, std::uint64_t size, std::vector<std::string> argv) {
    const fs::path image = dir.path / "image";
    fs::remove(image);
    { std::ofstream create(image); }
    fs::resize_file(image, size);
    argv.push_back(image.string());
    SystemProcessRunner runner;
    auto made = runChecked(runner, {.argv = argv});
    INFO((made ? std::string() : made.error().describe()));
    REQUIRE(made);
    return image;
}

std::string toolText(std::vector<std::string> argv) {
    SystemProcessRunner runner;
    auto ran = runChecked(runner, {.argv = std::move(argv), .environment = {{"LC_ALL", "C"}}});
    INFO((ran ? std::string() : ran.error().describe()));
    REQUIRE(ran);
    return ran->standardOutput;
}

ReadBytes fileBytes(const fs::path& image) {
    return
        [image](std::uint64_t offset, std::size_t length) -> Expected<std::vector<std::uint8_t>> {
            std::vector<std::uint8_t> bytes(length);
            std::ifstream in(image, std::ios::binary);
            in.seekg(static_cast<std::streamoff>(offset));
            in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(length));
            if (!in) {
                return fail(ErrorCode::Io, "short read");
            }
            return bytes;
        };
}

// Every 4 KiB block of the image the formatter wrote (allocated, zeros or not: zeros it wrote
// would read like a discard) must be outside the free map; and most of the new filesystem is free.
void checkAgainstWrites(const FreeMap& map, const fs::path& image) {
    constexpr std::uint64_t kBlock = 4096;
    const std::uint64_t size = fs::file_size(image);
    std::uint32_t written = 0;
    std::vector<std::uint64_t> wronglyFree;
    for (const test::DataRange& range : test::dataRanges(image, 0, size)) {
        for (std::uint64_t at = range.start / kBlock * kBlock; at < range.end; at += kBlock) {
            ++written;
            if (map.whollyFree(at, kBlock)) {
                wronglyFree.push_back(at);
            }
        }
    }
    CHECK(written > 0);
    std::string runs; // "[start, end)" of each run of such blocks
    for (std::size_t i = 0; i < wronglyFree.size(); ++i) {
        if (i == 0 || wronglyFree[i - 1] + kBlock != wronglyFree[i]) {
            runs += (i == 0 ? "[" : ") [") + std::to_string(wronglyFree[i]) + ", ";
        }
        if (i + 1 == wronglyFree.size()) {
            runs += std::to_string(wronglyFree[i] + kBlock) + ")";
        } else if (wronglyFree[i] + kBlock != wronglyFree[i + 1]) {
            runs += std::to_string(wronglyFree[i] + kBlock);
        }
    }
    INFO("written but called free: " << wronglyFree.size() << " blocks: " << runs);
    CHECK(wronglyFree.empty());
    CHECK(map.freeBytes() > size / 2);
    CHECK(map.freeBytes() < size);
}

std::uint64_t headerNumber(const std::string& text, const std::string& key) {
    const auto at = text.find("\n" + key);
    REQUIRE(at != std::string::npos);
    return std::stoull(text.substr(at + key.size() + 1));
}

} // namespace

TEST_CASE("free map: merges, finds wholly free blocks, complements", "[free-space]") {
    const FreeMap map({{8192, 12288}, {0, 4096}, {4096, 6000}, {12288, 16384}});
    REQUIRE(map.ranges().size() == 2);
    CHECK(map.ranges()[0] == ByteRange{0, 6000});
    CHECK(map.ranges()[1] == ByteRange{8192, 16384});
    CHECK(map.freeBytes() == 6000 + 8192);
    CHECK(map.whollyFree(0, 4096));
    CHECK_FALSE(map.whollyFree(4096, 4096)); // ends in the used gap
    CHECK(map.whollyFree(8192, 8192));
    CHECK_FALSE(map.whollyFree(12288, 8192)); // runs past the end
    CHECK_FALSE(map.whollyFree(6000, 1));
    const FreeMap outside = FreeMap::outside({{100, 200}, {150, 300}, {900, 2000}}, 1000);
    REQUIRE(outside.ranges().size() == 2);
    CHECK(outside.ranges()[0] == ByteRange{0, 100});
    CHECK(outside.ranges()[1] == ByteRange{300, 900});
    CHECK_FALSE(FreeMap().whollyFree(0, 1));
    const FreeMap cut = map.without({{0, 100}, {5000, 9000}, {10000, 10001}});
    CHECK(cut.ranges() == std::vector<ByteRange>{{100, 5000}, {9000, 10000}, {10001, 16384}});
}

TEST_CASE("dumpe2fs: block size and every group's free ranges", "[free-space]") {
    const auto map = parseDumpe2fs("Block count:              307200\n"
                                   "Free blocks:              277609\n"
                                   "First block:              1\n"
                                   "Block size:               1024\n"
                                   "Group 0: (Blocks 1-8192) csum 0x1234\n"
                                   "  Free blocks: 7897-8192\n"
                                   "Group 1: (Blocks 8193-16384)\n"
                                   "  Free blocks: 8959-9000, 9002, 9004-16384\n"
                                   "Group 2: (Blocks 16385-24576)\n"
                                   "  Free blocks: \n");
    REQUIRE(map);
    CHECK(map->ranges() == std::vector<ByteRange>{{7897 * 1024, 8193 * 1024},
                                                  {8959 * 1024, 9001 * 1024},
                                                  {9002 * 1024, 9003 * 1024},
                                                  {9004 * 1024, 16385 * 1024}});
    CHECK_FALSE(parseDumpe2fs("Block size: 4096\n"));                        // no groups
    CHECK_FALSE(parseDumpe2fs("  Free blocks: 1-2\n"));                      // no block size
    CHECK_FALSE(parseDumpe2fs("Block size: 4096\n  Free blocks: 9-2\n"));    // backwards
    CHECK_FALSE(parseDumpe2fs("Block size: 4096\n  Free blocks: 1-x, 4\n")); // not a number
}

TEST_CASE("dumpe2fs on a new ext4", "[free-space][linux]") {
    const test::TempDir dir("ssdk-free-ext4");
    for (const std::string blockSize : {"1024", "4096"}) {
        DYNAMIC_SECTION("block size " << blockSize) {
            const auto image =
                makeImage(dir, 128 * kMiB, {"mkfs.ext4", "-F", "-q", "-b", blockSize});
            const std::string text = toolText({"dumpe2fs", image.string()});
            auto map = parseDumpe2fs(text);
            REQUIRE(map);
            // The superblock's own count of free blocks.
            CHECK(map->freeBytes() ==
                  headerNumber(text, "Free blocks:") * headerNumber(text, "Block size:"));
            checkAgainstWrites(*map, image);
        }
    }
}

TEST_CASE("xfs_db freesp: AG-relative extents to bytes", "[free-space]") {
    const auto map = parseXfsFreesp("agblocks = 19200\n"
                                    "blocksize = 4096\n"
                                    "dblocks = 38400\n"
                                    "    agno    agbno      len\n"
                                    "       0       24    19176\n"
                                    "       1       10        6\n"
                                    "       1       16        2\n"
                                    "       1    19000      200\n"
                                    "   from      to extents  blocks    pct\n"
                                    "      1       1      16      16   0.03\n");
    REQUIRE(map);
    // The first and last 128 KiB (zeroed by mkfs.xfs) are cut off the free extents.
    CHECK(map->ranges() == std::vector<ByteRange>{{128 * 1024, 19200 * 4096},
                                                  {19210 * 4096, 19218 * 4096},
                                                  {38200 * 4096, 38400 * 4096 - 128 * 1024}});
    CHECK_FALSE(parseXfsFreesp("agblocks = 19200\ndblocks = 1\n    agno    agbno      len\n"));
    CHECK_FALSE(parseXfsFreesp("agblocks = 19200\nblocksize = 4096\n    agno    agbno      len\n"));
    CHECK_FALSE(parseXfsFreesp("agblocks = 19200\nblocksize = 4096\ndblocks = 38400\n"));
}

TEST_CASE("xfs_db freesp on a new xfs", "[free-space][linux]") {
    const test::TempDir dir("ssdk-free-xfs");
    const auto image = makeImage(dir, 320 * kMiB, {"mkfs.xfs", "-f", "-q"});
    const std::string text =
        toolText({"xfs_db", "-r", "-c", "sb 0", "-c", "p agblocks blocksize dblocks", "-c",
                  "freesp -d", image.string()});
    auto map = parseXfsFreesp(text);
    INFO(text);
    REQUIRE(map);
    checkAgainstWrites(*map, image);
}

TEST_CASE("btrfs dev tree: outside the dev extents and superblocks, above the first extent, "
          "below the last 2 MiB",
          "[free-space]") {
    const std::string text = "device tree key (DEV_TREE ROOT_ITEM 0)\n"
                             "leaf 30556160 items 2 free space 15918 generation 6 owner DEV_TREE\n"
                             "\titem 0 key (1 DEV_EXTENT 13631488) itemoff 16235 itemsize 48\n"
                             "\t\tdev extent chunk_tree 3\n"
                             "\t\tchunk_objectid 256 chunk_offset 13631488 length 8388608\n"
                             "\titem 1 key (1 DEV_EXTENT 30408704) itemoff 16139 itemsize 48\n"
                             "\t\tdev extent chunk_tree 3\n"
                             "\t\tchunk_objectid 256 chunk_offset 22020096 length 8388608\n";
    const auto map = parseBtrfsDevTree(text, 100 * kMiB);
    REQUIRE(map);
    CHECK(map->ranges() == std::vector<ByteRange>{{13631488 + 8388608, 30408704},
                                                  {30408704 + 8388608, 64 * kMiB},
                                                  {64 * kMiB + 4096, 98 * kMiB}});
    CHECK_FALSE(parseBtrfsDevTree("no tree here\n", kMiB));
    CHECK_FALSE(parseBtrfsDevTree("leaf 1 items 1\n\titem 0 key (1 DEV_EXTENT 4096)\n", kMiB));
}

TEST_CASE("btrfs dev tree of a new btrfs", "[free-space][linux]") {
    const test::TempDir dir("ssdk-free-btrfs");
    const auto image = makeImage(dir, 256 * kMiB, {"mkfs.btrfs", "-f", "-q"});
    auto map = parseBtrfsDevTree(
        toolText({"btrfs", "inspect-internal", "dump-tree", "-t", "dev", image.string()}),
        256 * kMiB);
    REQUIRE(map);
    checkAgainstWrites(*map, image);
}

TEST_CASE("NTFS $Bitmap: clusters of the boot sector's size, bits set = used", "[free-space]") {
    std::vector<std::uint8_t> boot(512);
    std::memcpy(&boot[3], "NTFS    ", 8);
    boot[11] = 0x00; // 512-byte sectors
    boot[12] = 0x02;
    boot[13] = 8;      // 4 KiB clusters
    boot[40] = 8 * 20; // 20 clusters
    const std::vector<std::uint8_t> bitmap{0b0000'0111, 0b1000'0000, 0x00};
    const auto map = parseNtfsBitmap(boot, bitmap);
    REQUIRE(map);
    CHECK(map->ranges() == std::vector<ByteRange>{{3 * 4096, 15 * 4096}, {16 * 4096, 20 * 4096}});
    CHECK_FALSE(parseNtfsBitmap(boot, std::vector<std::uint8_t>{0x00})); // too short
    boot[3] = 'X';
    CHECK_FALSE(parseNtfsBitmap(boot, bitmap));
}

TEST_CASE("NTFS $Bitmap of a new NTFS", "[free-space][linux]") {
    const test::TempDir dir("ssdk-free-ntfs");
    const auto image = makeImage(dir, 128 * kMiB, {"mkfs.ntfs", "-Q", "-F", "-q"});
    auto boot = fileBytes(image)(0, 512);
    REQUIRE(boot);
    const std::string bitmap = toolText({"ntfscat", image.string(), "$Bitmap"});
    auto map = parseNtfsBitmap(
        *boot, std::span(reinterpret_cast<const std::uint8_t*>(bitmap.data()), bitmap.size()));
    REQUIRE(map);
    checkAgainstWrites(*map, image);
}

TEST_CASE("FAT12, FAT16 and FAT32 made by mkfs.fat", "[free-space][linux]") {
    const test::TempDir dir("ssdk-free-fat");
    struct Case {
        std::string name;
        std::uint64_t size;
        std::vector<std::string> argv;
    };
    for (const Case& c : {Case{"FAT12", 4 * kMiB, {"mkfs.fat", "-F", "12"}},
                          Case{"FAT16", 64 * kMiB, {"mkfs.fat", "-F", "16"}},
                          Case{"FAT32", 64 * kMiB, {"mkfs.fat", "-F", "32", "-s", "1"}}}) {
        DYNAMIC_SECTION(c.name) {
            const auto image = makeImage(dir, c.size, c.argv);
            auto map = readFatFreeMap(fileBytes(image));
            REQUIRE(map);
            checkAgainstWrites(*map, image);
            if (c.name == "FAT32") {
                // FSInfo (sector 1) records the free cluster count; clusters are 512 bytes.
                auto info = fileBytes(image)(512, 512);
                REQUIRE(info);
                const std::uint64_t freeClusters = (*info)[488] | ((*info)[489] << 8U) |
                                                   ((*info)[490] << 16U) |
                                                   (std::uint64_t{(*info)[491]} << 24U);
                CHECK(map->freeBytes() == freeClusters * 512);
            }
        }
    }
    std::vector<std::uint8_t> notFat(512);
    CHECK_FALSE(readFatFreeMap(
        [&](std::uint64_t, std::size_t) -> Expected<std::vector<std::uint8_t>> { return notFat; }));
}

TEST_CASE("exFAT allocation bitmap made by mkfs.exfat", "[free-space][linux]") {
    const test::TempDir dir("ssdk-free-exfat");
    for (const std::string cluster : {"4096", "32768"}) {
        DYNAMIC_SECTION("cluster size " << cluster) {
            const auto image = makeImage(dir, 128 * kMiB, {"mkfs.exfat", "-c", cluster});
            auto map = readExfatFreeMap(fileBytes(image));
            REQUIRE(map);
            checkAgainstWrites(*map, image);
        }
    }
    std::vector<std::uint8_t> notExfat(512);
    CHECK_FALSE(
        readExfatFreeMap([&](std::uint64_t, std::size_t) -> Expected<std::vector<std::uint8_t>> {
            return notExfat;
        }));
}
