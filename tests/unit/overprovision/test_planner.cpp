// The spare-area planner on made-up devices: arithmetic, alignment and every refusal.
#include <catch2/catch.hpp>

#include "core/overprovision/planner.h"
#include "tests/support/spare_area.h"

using namespace ssdk;
using namespace ssdk::overprovision;
using device::Device;
using device::Partition;

namespace {

// A 512 MiB GPT lab-like disk with one partition from 1 MiB to the last usable MiB.
Device gptDisk(const std::string& fsType = "ext4") {
    return test::spareAreaLoop7(fsType);
}

FilesystemUsage usageOf(Bytes size, Bytes minimum) {
    return FilesystemUsage{"ext4", size, minimum, minimum, Bytes(4096), "test"};
}

bool mentions(const Plan& plan, const std::string& text) {
    for (const auto& reason : plan.refusals) {
        if (reason.find(text) != std::string::npos) {
            return true;
        }
    }
    return false;
}

// The plan for `sparePercent` of `device`, which must be a refusal.
Plan refusal(const Device& device, const std::optional<FilesystemUsage>& usage,
             double sparePercent) {
    auto result = plan(device, usage, sparePercent);
    REQUIRE(result);
    CHECK_FALSE(result->possible);
    return *result;
}

} // namespace

TEST_CASE("factory over-provisioning: binary GiB of NAND for decimal GB sold", "[overprovision]") {
    auto factory = factoryOverprovisionFor(Bytes(256'000'000'000ULL));
    REQUIRE(factory);
    CHECK(factory->rawNand == Bytes::gib(256));
    CHECK(factory->percent == Approx(7.37).margin(0.005));
    auto tb = factoryOverprovisionFor(Bytes(1'000'204'886'016ULL)); // a "1 TB" drive
    REQUIRE(tb);
    CHECK(tb->rawNand == Bytes::gib(1024));
    CHECK(tb->percent == Approx(9.93).margin(0.01));
    // 240 GB drives hide 256 GiB: 14.5 %.
    CHECK(factoryOverprovisionFor(Bytes(240'000'000'000ULL))->percent ==
          Approx(14.53).margin(0.01));
    // A capacity far below a power of two is no NAND pattern we can read.
    CHECK_FALSE(factoryOverprovisionFor(Bytes::gib(300)));

    Device loop = gptDisk();
    CHECK_FALSE(estimateFactoryOverprovision(loop));
    Device nvme = loop;
    nvme.bus = device::Bus::Nvme;
    nvme.size = Bytes(256'060'514'304ULL);
    REQUIRE(estimateFactoryOverprovision(nvme));
    nvme.rotational = true;
    CHECK_FALSE(estimateFactoryOverprovision(nvme));
}

TEST_CASE("20 % spare shrinks the last partition to an aligned end", "[overprovision]") {
    auto result = plan(gptDisk(), usageOf(Bytes::mib(510), Bytes::mib(200)), 20.0);
    REQUIRE(result);
    CHECK(result->possible);
    CHECK(result->direction == Direction::Shrink);
    CHECK(result->partitionPath == "/dev/loop7p1");
    CHECK(result->currentSpare == Bytes(0)); // 1 MiB for alignment and the GPT backup
    // 20 % of 512 MiB = 102.4 MiB → the partition ends at or below 409.6 MiB, on a MiB.
    const Bytes end = result->partitionStart + result->newPartitionSize;
    CHECK(end == Bytes::mib(409));
    CHECK(end.value % Bytes::mib(1).value == 0);
    CHECK(result->newPartitionSize == Bytes::mib(408));
    CHECK(result->changedStart == Bytes::mib(409));
    CHECK(result->changedLength == Bytes::mib(102));
    CHECK(result->newSpare == Bytes::mib(103));
    CHECK(result->requiredSize == Bytes::mib(200) + Bytes::mib(20));
    CHECK(result->describe().find("shrinks from 510 MiB to 408 MiB") != std::string::npos);
    auto json = toJson(*result);
    CHECK(json["partition"]["new_size"] == Bytes::mib(408).value);
    CHECK(json["direction"] == "shrink");
}

TEST_CASE("the end is aligned to the discard granularity too", "[overprovision]") {
    Device device = gptDisk();
    device.discardGranularity = Bytes::mib(4);
    auto result = plan(device, usageOf(Bytes::mib(510), Bytes::mib(100)), 20.0);
    REQUIRE(result);
    CHECK(result->alignment == Bytes::mib(4));
    CHECK((result->partitionStart + result->newPartitionSize).value % Bytes::mib(4).value == 0);
}

TEST_CASE("a lower percentage than the current spare grows the partition", "[overprovision]") {
    Device device = gptDisk();
    device.partitions[0].size = Bytes::mib(408);
    auto result = plan(device, usageOf(Bytes::mib(408), Bytes::mib(100)), 0.0);
    REQUIRE(result);
    CHECK(result->possible);
    CHECK(result->direction == Direction::Grow);
    CHECK(result->newPartitionSize == Bytes::mib(510));
    CHECK(result->currentSpare == Bytes::mib(103));
}

TEST_CASE("refusals say why and what to do", "[overprovision]") {
    const auto usage = usageOf(Bytes::mib(510), Bytes::mib(100));
    SECTION("out of range is an error, not a plan") {
        CHECK_FALSE(plan(gptDisk(), usage, 51.0));
        CHECK_FALSE(plan(gptDisk(), usage, -1.0));
    }
    SECTION("XFS cannot shrink") {
        CHECK(mentions(refusal(gptDisk("xfs"), usage, 20.0), "XFS, which cannot shrink"));
    }
    SECTION("too full") {
        CHECK(mentions(refusal(gptDisk(), usageOf(Bytes::mib(510), Bytes::mib(400)), 20.0),
                       "too full"));
    }
    SECTION("the system disk") {
        Device device = gptDisk();
        device.partitions[0].mounts.push_back({"/", "ext4", "rw"});
        CHECK(mentions(refusal(device, usage, 20.0), "running system"));
    }
    SECTION("a mounted ext4 shrinks only unmounted") {
        Device device = gptDisk();
        device.partitions[0].mounts.push_back({"/mnt/data", "ext4", "rw"});
        CHECK(mentions(refusal(device, usage, 20.0), "shrinks only unmounted"));
        device.partitions[0].size = Bytes::mib(400);
        auto grow = plan(device, usage, 0.0);
        REQUIRE(grow);
        CHECK(grow->possible);
    }
    SECTION("encrypted, LVM and RAID members") {
        CHECK(mentions(*plan(gptDisk("crypto_LUKS"), usage, 20.0), "cryptsetup resize"));
        CHECK(mentions(*plan(gptDisk("LVM2_member"), usage, 20.0), "pvresize"));
        CHECK(mentions(*plan(gptDisk("linux_raid_member"), usage, 20.0), "mdadm"));
    }
    SECTION("FAT and unknown partitions at the end") {
        CHECK(mentions(*plan(gptDisk("vfat"), usage, 20.0), "does not shrink FAT"));
        CHECK(mentions(*plan(gptDisk("swap"), usage, 20.0), "does not move partitions"));
    }
    SECTION("no table, no partitions, nothing to change, unknown usage") {
        Device bare = gptDisk();
        bare.partitionTableType.clear();
        bare.partitions.clear();
        CHECK(mentions(*plan(bare, usage, 20.0), "no partition table"));
        Device empty = gptDisk();
        empty.partitions.clear();
        CHECK(mentions(*plan(empty, usage, 20.0), "no partitions"));
        Device spare = gptDisk();
        spare.partitions[0].size = Bytes::mib(408);
        CHECK(mentions(*plan(spare, usage, 20.0), "nothing to change"));
        CHECK(mentions(*plan(gptDisk(), std::nullopt, 20.0), "could not be read"));
    }
}

TEST_CASE("a drive without discard gets a note, not a refusal", "[overprovision]") {
    Device device = gptDisk();
    device.discardGranularity = Bytes(0);
    device.discardMaxBytes = Bytes(0);
    auto result = plan(device, usageOf(Bytes::mib(510), Bytes::mib(100)), 10.0);
    REQUIRE(result);
    CHECK(result->possible);
    REQUIRE_FALSE(result->notes.empty());
    CHECK(result->notes.front().find("does not accept discards") != std::string::npos);
}

TEST_CASE("the partition at the end is the one with the highest end", "[overprovision]") {
    Device device = gptDisk();
    Partition first = device.partitions[0];
    device.partitions[0].number = 2;
    device.partitions[0].start = Bytes::mib(101);
    device.partitions[0].size = Bytes::mib(410);
    first.size = Bytes::mib(100);
    device.partitions.push_back(first);
    CHECK(lastPartitionIndex(device) == 0);
}

namespace {

// The lab report's drive: 2 GiB GPT, one ext4 partition from 1 MiB to the last usable MiB.
Device twoGibDisk() {
    Device device = gptDisk();
    device.size = Bytes::gib(2);
    device.partitions[0].size = Bytes::mib(2046);
    return device;
}

// What FilesystemTool::inspect reads of that ext4 at 39 % full (figures from the 2 GiB lab
// drive of docs/spare-area.md): 784 MiB in use as df counts, resize2fs -P 391736 blocks.
FilesystemUsage ext4AtFortyPercent() {
    FilesystemUsage usage;
    usage.type = "ext4";
    usage.size = Bytes::mib(2046);
    usage.used = Bytes(200710ULL * 4096);
    usage.minimumSize = Bytes(391736ULL * 4096);
    usage.blockSize = Bytes(4096);
    usage.source = "dumpe2fs -h, resize2fs -P";
    usage.usedSource = "dumpe2fs -h: blocks − free − overhead, as df counts";
    usage.minimumSource = "resize2fs -P";
    usage.minimumExact = true;
    return usage;
}

} // namespace

TEST_CASE("resize2fs -P's figure is the minimum, with no margin on top", "[overprovision]") {
    const FilesystemUsage usage = ext4AtFortyPercent();
    CHECK(safetyMargin(usage) == Bytes(0));
    auto result = plan(twoGibDisk(), usage, 20.0);
    REQUIRE(result);
    INFO(result->describe());
    // 20 % of 2 GiB leaves the partition 1637 MiB; resize2fs accepts 1530.2 MiB.
    CHECK(result->newPartitionSize == Bytes::mib(1637));
    CHECK(result->possible);
    CHECK(result->margin == Bytes(0));
    CHECK(result->requiredSize == usage.minimumSize);
    const std::string text = result->describe();
    CHECK(text.find("resize2fs accepts no less than 1.49 GiB (resize2fs -P)") != std::string::npos);
    CHECK(text.find("in use: 784 MiB (dumpe2fs -h: blocks − free − overhead, as df counts)") !=
          std::string::npos);
    auto json = toJson(*result);
    CHECK(json["margin"] == 0);
    CHECK(json["filesystem_usage"]["minimum_exact"] == true);
    CHECK(json["filesystem_usage"]["minimum_source"] == "resize2fs -P");

    // A minimum above what the partition gets is refused, naming each figure and its source;
    // one exactly as large is not.
    FilesystemUsage tooFull = usage;
    tooFull.minimumSize = Bytes::mib(1740);
    auto refused = plan(twoGibDisk(), tooFull, 20.0);
    REQUIRE(refused);
    CHECK_FALSE(refused->possible);
    CHECK(mentions(*refused, "/dev/loop7p1 is too full for 20 % spare: it would get 1.60 GiB, "
                             "but resize2fs accepts no less than 1.70 GiB (resize2fs -P); in "
                             "use: 784 MiB (dumpe2fs -h"));
    tooFull.minimumSize = Bytes::mib(1637) + Bytes(4096);
    CHECK_FALSE(plan(twoGibDisk(), tooFull, 20.0)->possible);
    // resize2fs -P's figure can be the whole filesystem (docs/spare-area.md: 60 % of 2 GiB).
    tooFull.minimumSize = tooFull.size;
    CHECK(mentions(*plan(twoGibDisk(), tooFull, 20.0),
                   "resize2fs will not shrink it at all (resize2fs -P: 2.00 GiB, its whole "
                   "size); in use: 784 MiB"));
    tooFull.minimumSize = Bytes::mib(1637);
    CHECK(plan(twoGibDisk(), tooFull, 20.0)->possible);
}

TEST_CASE("an estimated minimum (btrfs) keeps a margin and says so", "[overprovision]") {
    FilesystemUsage usage;
    usage.type = "btrfs";
    usage.size = Bytes::mib(510);
    usage.used = Bytes::mib(320);
    usage.minimumSize = Bytes::mib(400);
    usage.source = "btrfs filesystem usage -b";
    usage.usedSource = "btrfs filesystem usage -b: Used";
    usage.minimumSource = "in use + 25 % to relocate chunks (an estimate)";
    CHECK(safetyMargin(usage) == Bytes::mib(40));
    usage.minimumSize = Bytes::mib(40);
    CHECK(safetyMargin(usage) == Bytes::mib(8));
    usage.minimumSize = Bytes::mib(400);
    Device device = gptDisk("btrfs");
    device.partitions[0].mounts.push_back({"/mnt/data", "btrfs", "rw"});
    auto result = plan(device, usage, 20.0);
    REQUIRE(result);
    // 400 MiB + 40 MiB > 408 MiB.
    CHECK_FALSE(result->possible);
    CHECK(result->requiredSize == Bytes::mib(440));
    CHECK(mentions(*result, "it needs at least 440 MiB (400 MiB: in use + 25 % to relocate "
                            "chunks (an estimate), plus a 40.0 MiB margin); in use: 320 MiB "
                            "(btrfs filesystem usage -b: Used)"));
}

TEST_CASE("a filesystem left nearly full gets a note", "[overprovision]") {
    FilesystemUsage usage = ext4AtFortyPercent();
    usage.size = Bytes::mib(510);
    usage.used = Bytes::mib(380);
    usage.minimumSize = Bytes::mib(400);
    auto result = plan(gptDisk(), usage, 20.0);
    REQUIRE(result);
    CHECK(result->possible);
    bool noted = false;
    for (const auto& note : result->notes) {
        noted = noted || note.find("/dev/loop7p1 will be 93 % full afterwards (380 MiB in use "
                                   "in 408 MiB)") != std::string::npos;
    }
    CHECK(noted);
}
