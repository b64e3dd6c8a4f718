// Parsers over real output of dumpe2fs, resize2fs, ntfsresize and btrfs-progs, recorded on
// freshly made filesystems (tests/data/overprovision).
#include <catch2/catch.hpp>

#include "core/overprovision/filesystem_tool.h"
#include "core/overprovision/filesystem_usage.h"
#include "tests/support/test_data.h"

using namespace ssdk;
using namespace ssdk::overprovision;

namespace {

// dumpe2fs, resize2fs -P and btrfs answering as on the 2 GiB lab drive at 40 %
// (docs/spare-area.md); every command line kept.
class RecordedFilesystemTools final : public ProcessRunner {
public:
    std::vector<std::string> commands;

    Expected<ProcessResult> run(const ProcessRequest& request) override {
        std::string line;
        for (const auto& word : request.argv) {
            line += (line.empty() ? "" : " ") + word;
        }
        commands.push_back(line);
        const std::string& tool = request.argv.front();
        if (tool == "dumpe2fs") {
            return ProcessResult{0,
                                 "Block count:              524288\n"
                                 "Overhead clusters:        26150\n"
                                 "Free blocks:              297428\n"
                                 "Block size:               4096\n",
                                 ""};
        }
        if (tool == "resize2fs") {
            return ProcessResult{0, "Estimated minimum size of the filesystem: 391736\n", ""};
        }
        if (tool == "btrfs") {
            return ProcessResult{0, "    Device size:  2147483648\n    Used:  838860800\n", ""};
        }
        return ProcessResult{0, "", ""};
    }
};

} // namespace

TEST_CASE("dumpe2fs -h gives the size and the used space of ext4", "[overprovision]") {
    auto usage = parseDumpe2fs(test::readTestData("overprovision/dumpe2fs-h.txt"));
    REQUIRE(usage);
    CHECK(usage->size == Bytes(262144ULL * 1024));
    // In use as df counts it: neither free nor the overhead (bitmaps, inode tables, journal).
    CHECK(usage->used == Bytes((262144ULL - 235417ULL - 26713ULL) * 1024));
    CHECK(usage->usedSource == "dumpe2fs -h: blocks − free − overhead, as df counts");
    CHECK(usage->blockSize == Bytes(1024));
    CHECK_FALSE(usage->minimumExact); // resize2fs -P gives that (FilesystemTool::inspect)
}

TEST_CASE("dumpe2fs without an overhead line counts every allocated block", "[overprovision]") {
    auto usage = parseDumpe2fs("Block count: 1000\nFree blocks: 600\nBlock size: 4096\n");
    REQUIRE(usage);
    CHECK(usage->used == Bytes(400ULL * 4096));
    CHECK(usage->usedSource == "dumpe2fs -h: allocated blocks, metadata included");
    // Overhead in clusters of a bigalloc filesystem.
    auto bigalloc = parseDumpe2fs("Block count: 1000\nOverhead clusters: 10\nFree blocks: "
                                  "600\nBlock size: 4096\nCluster size: 65536\n");
    REQUIRE(bigalloc);
    CHECK(bigalloc->used == Bytes(400ULL * 4096 - 10ULL * 65536));
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
    CHECK(usage->minimumExact);
    CHECK(usage->minimumSource == "ntfsresize --info");
    // "Space in use: 3 MB" is rounded up past the exact minimum: the minimum stands in.
    CHECK(usage->used == usage->minimumSize);
    CHECK(usage->type == "ntfs");
    auto spread = parseNtfsresizeInfo("Current volume size: 2147480064 bytes (2148 MB)\n"
                                      "Space in use       : 851 MB (39.6%)\n"
                                      "You might resize at 1500000000 bytes or 1500 MB\n");
    REQUIRE(spread);
    CHECK(spread->used == Bytes(851'000'000ULL));
    CHECK(spread->usedSource == "ntfsresize --info: space in use, rounded up to MB");
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
    FilesystemUsage usage{"ext4",        Bytes(100),    Bytes(40),      Bytes(50), Bytes(4096),
                          "dumpe2fs -h", "dumpe2fs -h", "resize2fs -P", true};
    auto back = filesystemUsageFromJson(toJson(usage));
    REQUIRE(back);
    CHECK(back->usedSource == "dumpe2fs -h");
    CHECK(back->minimumSource == "resize2fs -P");
    CHECK(back->minimumExact);
    CHECK(back->type == "ext4");
    CHECK(back->size == Bytes(100));
    CHECK(back->used == Bytes(40));
    CHECK(back->minimumSize == Bytes(50));
    CHECK_FALSE(filesystemUsageFromJson(Json{{"type", "ext4"}}));
}

TEST_CASE("inspect: ext's minimum is resize2fs -P's exact figure and in use is df's",
          "[overprovision]") {
    RecordedFilesystemTools tools;
    FilesystemTool filesystems(tools);
    auto usage = filesystems.inspect({"ext4", "/dev/loop7p1", ""});
    REQUIRE(usage);
    CHECK(tools.commands ==
          std::vector<std::string>{"dumpe2fs -h /dev/loop7p1", "resize2fs -P /dev/loop7p1"});
    CHECK(usage->used == Bytes(200710ULL * 4096)); // 784 MiB, as df showed
    CHECK(usage->minimumSize == Bytes(391736ULL * 4096));
    CHECK(usage->minimumExact);
    CHECK(usage->minimumSource == "resize2fs -P");
    CHECK(usage->usedSource == "dumpe2fs -h: blocks − free − overhead, as df counts");

    // Mounted, its bitmaps on disk are written out first, or they read emptier than it is.
    tools.commands.clear();
    REQUIRE(filesystems.inspect({"ext4", "/dev/loop7p1", "/mnt/data"}));
    REQUIRE_FALSE(tools.commands.empty());
    CHECK(tools.commands.front() == "sync --file-system /mnt/data");
}

TEST_CASE("inspect: btrfs's minimum is an estimate", "[overprovision]") {
    RecordedFilesystemTools tools;
    FilesystemTool filesystems(tools);
    auto usage = filesystems.inspect({"btrfs", "/dev/loop7p1", "/mnt/data"});
    REQUIRE(usage);
    CHECK(usage->used == Bytes(838860800));
    CHECK(usage->minimumSize == Bytes(838860800ULL + 838860800ULL / 4));
    CHECK_FALSE(usage->minimumExact);
    CHECK(usage->minimumSource == "in use + 25 % to relocate chunks (an estimate)");
}
