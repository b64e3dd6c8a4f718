#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "core/maintenance/trim/audit.h"
#include "core/maintenance/trim/stack.h"

#include "identify_builder.h"

using namespace ssdk;
using namespace ssdk::maintenance;
using namespace ssdk::maintenance::trim;
namespace fs = std::filesystem;

namespace {

const AuditLayer* find(const TrimAudit& audit, const std::string& layer) {
    for (const auto& l : audit.layers) {
        if (l.layer == layer) {
            return &l;
        }
    }
    return nullptr;
}

BlockLayer queue(BlockLayer::Kind kind, std::string name, std::uint64_t max) {
    BlockLayer layer;
    layer.kind = kind;
    layer.name = std::move(name);
    layer.discardGranularity = Bytes(max ? 4096 : 0);
    layer.discardMaxBytes = Bytes(max);
    layer.discardMaxHwBytes = Bytes(max);
    return layer;
}

void write(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
}

// A small project-made tree: SATA SSD (ata2) with a partition opened by dm-crypt without
// allow_discards and mounted at /secret; libata reports unqueued TRIM.
class SataCryptTree {
public:
    SataCryptTree() {
        m_root = fs::temp_directory_path() / ("ssdk-maint-tree-" + std::to_string(::getpid()));
        fs::remove_all(m_root);
        const fs::path sys = m_root / "sys";
        const fs::path sdaDir = sys / "devices/pci0000:00/0000:00:17.0/ata2/host1/target1:0:0/"
                                      "1:0:0:0/block/sda";
        write(sdaDir / "dev", "8:0");
        write(sdaDir / "queue/discard_granularity", "512");
        write(sdaDir / "queue/discard_max_bytes", "2147450880");
        write(sdaDir / "queue/discard_max_hw_bytes", "2147450880");
        write(sdaDir / "sda1/dev", "8:1");
        write(sdaDir / "sda1/partition", "1");
        write(sdaDir / "sda1/start", "2048");
        const fs::path dmDir = sys / "devices/virtual/block/dm-0";
        write(dmDir / "dev", "254:0");
        write(dmDir / "dm/name", "luks-secret");
        write(dmDir / "dm/uuid", "CRYPT-LUKS2-abc-luks-secret");
        write(dmDir / "queue/discard_granularity", "0");
        write(dmDir / "queue/discard_max_bytes", "0");
        fs::create_directories(dmDir / "slaves");
        std::ofstream(dmDir / "slaves" / "sda1");
        fs::create_directories(sys / "block");
        fs::create_symlink("../devices/pci0000:00/0000:00:17.0/ata2/host1/target1:0:0/1:0:0:0/"
                           "block/sda",
                           sys / "block/sda");
        fs::create_symlink("../devices/virtual/block/dm-0", sys / "block/dm-0");
        const auto id = test::AtaIdentifyBuilder()
                            .model("Crucial MX500")
                            .word(169, 1)
                            .word(69, 1U << 14)
                            .build();
        write(sys / "class/ata_device/dev2.0/id", test::ataIdHexText(id));
        write(sys / "class/ata_device/dev2.0/trim", "unqueued");
        write(m_root / "proc/self/mountinfo",
              "22 1 253:1 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
              "30 22 254:0 / /secret rw,relatime shared:2 - ext4 /dev/mapper/luks-secret rw\n");
        fs::create_directories(m_root / "run");
    }
    ~SataCryptTree() { fs::remove_all(m_root); }
    SysfsRoot root() const { return SysfsRoot(m_root); }

private:
    fs::path m_root;
};

} // namespace

TEST_CASE("audit: dm-crypt without allow_discards stops discards and says how to fix it") {
    SataCryptTree tree;
    auto stack = snapshotStack("/secret", tree.root(), {});
    REQUIRE(stack);
    REQUIRE(stack->filesystem);
    CHECK(stack->filesystem->fsType == "ext4");
    REQUIRE(stack->layers.size() == 3);
    CHECK(stack->layers[0].kind == BlockLayer::Kind::DmCrypt);
    CHECK(stack->layers[1].kind == BlockLayer::Kind::Partition);
    CHECK(stack->layers[2].kind == BlockLayer::Kind::Disk);
    CHECK(stack->drive.bus == "sata");
    REQUIRE(stack->drive.ata);
    CHECK(stack->drive.ata->model == "Crucial MX500");
    const auto audit = auditTrim(*stack);
    CHECK_FALSE(audit.reachesDrive);
    const auto* crypt = find(audit, "dm-crypt");
    REQUIRE(crypt);
    CHECK(crypt->status == LayerStatus::Blocks);
    CHECK_THAT(crypt->detail, Catch::Contains("allow_discards"));
    CHECK_THAT(audit.verdict, Catch::Contains("dm-crypt"));
    const auto* libata = find(audit, "libata");
    REQUIRE(libata);
    CHECK_THAT(libata->detail, Catch::Contains("NO_NCQ_TRIM"));
    const auto* drive = find(audit, "drive");
    REQUIRE(drive);
    CHECK(drive->status == LayerStatus::Passes);
    CHECK_THAT(drive->detail, Catch::Contains("DRAT, word 69 bit 14): yes"));
    CHECK(audit.readAfterTrim == ReadAfterTrim::Deterministic);
}

TEST_CASE("audit: a directory that is not a mount point is refused") {
    SataCryptTree tree;
    auto stack = snapshotStack("/secret/sub", tree.root(), {});
    REQUIRE_FALSE(stack);
    CHECK(stack.error().code() == ErrorCode::InvalidArgument);
}

TEST_CASE("audit: a partition target walks to the drive") {
    SataCryptTree tree;
    auto stack = snapshotStack("sda1", tree.root(), {});
    REQUIRE(stack);
    CHECK_FALSE(stack->filesystem);
    const auto audit = auditTrim(*stack);
    CHECK(audit.reachesDrive);
    CHECK_THAT(audit.verdict, Catch::Contains("reach the drive"));
}

TEST_CASE("audit: the recorded workstation's LUKS volume with discard reaches the SSD") {
    const auto recorded = fs::path(SSDK_TEST_DATA_DIR) / "sysfs" / "workstation";
    auto stack = snapshotStack("/data", SysfsRoot(recorded), {});
    REQUIRE(stack);
    REQUIRE_FALSE(stack->layers.empty());
    CHECK(stack->layers.front().kind == BlockLayer::Kind::DmCrypt);
    CHECK(stack->layers.back().name == "sda");
    const auto audit = auditTrim(*stack);
    CHECK(audit.reachesDrive);
    CHECK(audit.filesystemDiscards);
}

TEST_CASE("audit: a USB bridge without UNMAP blocks") {
    StackSnapshot s;
    s.target = "/dev/sdb";
    s.layers.push_back(queue(BlockLayer::Kind::Disk, "sdb", 0));
    s.drive.bus = "usb";
    s.drive.provisioningMode = "full";
    const auto audit = auditTrim(s);
    CHECK_FALSE(audit.reachesDrive);
    REQUIRE(find(audit, "usb-bridge"));
    CHECK(find(audit, "usb-bridge")->status == LayerStatus::Blocks);
    CHECK_THAT(find(audit, "queue")->detail, Catch::Contains("discard_max_hw_bytes 0"));
}

TEST_CASE("audit: queue switched off by the admin vs. by the driver") {
    StackSnapshot s;
    auto layer = queue(BlockLayer::Kind::Disk, "sda", 0);
    layer.discardMaxHwBytes = Bytes(1 << 30);
    s.layers.push_back(layer);
    CHECK_THAT(auditTrim(s).layers.front().detail, Catch::Contains("switched off"));
}

TEST_CASE("audit: NVMe DLFEAT says what deallocated blocks read as") {
    StackSnapshot s;
    s.layers.push_back(queue(BlockLayer::Kind::Disk, "nvme0n1", 1 << 30));
    s.drive.bus = "nvme";
    NvmeController ctrl;
    ctrl.model = "QEMU NVMe Ctrl";
    ctrl.dsmSupported = true;
    s.drive.nvmeController = ctrl;
    NvmeNamespace ns;
    ns.deallocateReads = 1;
    s.drive.nvmeNamespace = ns;
    const auto audit = auditTrim(s);
    CHECK(audit.reachesDrive);
    CHECK(audit.readAfterTrim == ReadAfterTrim::Zeros);
    s.drive.nvmeController->dsmSupported = false;
    CHECK_FALSE(auditTrim(s).reachesDrive);
}

TEST_CASE("audit: filesystem without discard and no timer, loop over a FUSE image") {
    StackSnapshot s;
    s.filesystem = FilesystemFacts{"/mnt", "ext4", "rw,relatime"};
    s.timer.available = true;
    s.timer.enabled = false;
    auto loop = queue(BlockLayer::Kind::Loop, "loop3", 1 << 30);
    loop.loopBackingFile = "/media/ntfs/disk.img";
    loop.loopBackingFsType = "fuseblk";
    s.layers.push_back(loop);
    s.drive.bus = "loop";
    const auto audit = auditTrim(s);
    CHECK_FALSE(audit.filesystemDiscards);
    CHECK(find(audit, "filesystem")->status == LayerStatus::Warning);
    CHECK(find(audit, "schedule")->status == LayerStatus::Warning);
    CHECK(find(audit, "loop")->status == LayerStatus::Warning);
    CHECK_THAT(find(audit, "loop")->detail, Catch::Contains("PUNCH_HOLE"));
    CHECK_THAT(audit.verdict, Catch::Contains("nothing issues them"));
    s.filesystem->options = "rw,discard";
    CHECK(auditTrim(s).filesystemDiscards);
}

TEST_CASE("audit: a recent timer run counts as the filesystem discarding") {
    StackSnapshot s;
    s.filesystem = FilesystemFacts{"/", "ext4", "rw"};
    s.timer.available = true;
    s.timer.enabled = true;
    s.timer.lastTriggerEpochSeconds = 1000;
    s.nowEpochSeconds = 1000 + 3 * 24 * 3600;
    s.layers.push_back(queue(BlockLayer::Kind::Disk, "vda", 1 << 30));
    CHECK(auditTrim(s).filesystemDiscards);
    s.nowEpochSeconds = 1000 + 30 * 24 * 3600;
    CHECK_FALSE(auditTrim(s).filesystemDiscards);
    const Json json = toJson(auditTrim(s));
    CHECK(json["layers"].is_array());
    CHECK(json.contains("verdict"));
}
