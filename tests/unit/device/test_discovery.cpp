#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <set>
#include <sstream>

#include "core/base/json.h"
#include "core/device/discovery.h"

using namespace ssdk;
using namespace ssdk::device;

namespace {

Discovery discoveryFor(const std::string& tree) {
    SysfsRoot root(std::filesystem::path(SSDK_TEST_DATA_DIR) / "sysfs" / tree);
    return Discovery(root, makeSystemFsProber(root));
}

const Device& named(const std::vector<Device>& devices, const std::string& name) {
    for (const auto& device : devices) {
        if (device.name == name) {
            return device;
        }
    }
    FAIL("no device " << name);
    throw std::logic_error("unreachable");
}

} // namespace

TEST_CASE("discovery lists what lsblk lists, real drives first", "[discovery]") {
    auto devices = discoveryFor("workstation").discover();
    REQUIRE(devices);
    std::vector<std::string> names;
    for (const auto& device : *devices) {
        names.push_back(device.name);
    }
    // ram0 (major 1) and loop1 (nothing attached) are left out, as lsblk does.
    CHECK(names == std::vector<std::string>{"nvme0n1", "sda", "sdb", "dm-0", "loop0"});
}

TEST_CASE("an NVMe system disk: identity, geometry, partitions and mounts", "[discovery]") {
    auto devices = discoveryFor("workstation").discover();
    REQUIRE(devices);
    const Device& nvme = named(*devices, "nvme0n1");
    CHECK(nvme.bus == Bus::Nvme);
    CHECK(nvme.path == "/dev/nvme0n1");
    CHECK(nvme.devno == "259:0");
    CHECK(nvme.model == "Samsung SSD 970 EVO Plus 500GB");
    CHECK(nvme.serial == "S4EVNX0R612345A");
    CHECK(nvme.firmware == "2B2QEXM7");
    CHECK(nvme.wwn == "eui.0025385891b0a1b2");
    CHECK(nvme.size == Bytes(976773168ULL * 512));
    CHECK(nvme.logicalSectorSize == 512);
    CHECK_FALSE(nvme.rotational);
    CHECK(nvme.supportsDiscard());
    CHECK(nvme.discardGranularity == Bytes(512));
    CHECK(nvme.partitionTableType == "gpt");
    CHECK(nvme.holdsRootFilesystem());
    REQUIRE(nvme.partitions.size() == 2);
    const Partition& efi = nvme.partitions[0];
    CHECK(efi.number == 1);
    CHECK(efi.start == Bytes::mib(1));
    CHECK(efi.size == Bytes::mib(512));
    REQUIRE(efi.filesystem);
    CHECK(efi.filesystem->type == "vfat");
    CHECK(efi.filesystem->label == "EFI");
    CHECK(efi.partitionLabel == "EFI system partition");
    REQUIRE(efi.mounts.size() == 1);
    CHECK(efi.mounts[0].mountPoint == "/boot/efi");
    CHECK(nvme.partitions[1].mounts.at(0).mountPoint == "/");
}

TEST_CASE("a SATA SSD behind LUKS shows its holder, the dm device is listed too", "[discovery]") {
    auto devices = discoveryFor("workstation").discover();
    REQUIRE(devices);
    const Device& sda = named(*devices, "sda");
    CHECK(sda.bus == Bus::Sata);
    CHECK(sda.vendor.empty()); // libata's "ATA" is not a vendor
    CHECK(sda.model == "CT1000MX500SSD1");
    CHECK(sda.firmware == "M3CR046");
    CHECK(sda.physicalSectorSize == 4096);
    CHECK(sda.inUse());
    CHECK_FALSE(sda.holdsRootFilesystem());
    REQUIRE(sda.partitions.size() == 1);
    REQUIRE(sda.partitions[0].holders.size() == 1);
    CHECK(sda.partitions[0].holders[0].kind == Holder::Kind::DeviceMapper);
    CHECK(sda.partitions[0].holders[0].displayName == "luks-data");
    CHECK(sda.partitions[0].filesystem->type == "crypto_LUKS");

    const Device& dm = named(*devices, "dm-0");
    CHECK(dm.bus == Bus::DeviceMapper);
    CHECK(dm.model == "Device-mapper: luks-data");
    REQUIRE(dm.mounts.size() == 1);
    CHECK(dm.mounts[0].mountPoint == "/data");
}

TEST_CASE("a USB stick is removable, has no TRIM and a mount with a space", "[discovery]") {
    auto devices = discoveryFor("workstation").discover();
    REQUIRE(devices);
    const Device& sdb = named(*devices, "sdb");
    CHECK(sdb.bus == Bus::Usb);
    CHECK(sdb.vendor == "SanDisk");
    CHECK(sdb.model == "Ultra");
    CHECK(sdb.removable);
    CHECK_FALSE(sdb.supportsDiscard());
    CHECK(sdb.partitionTableType == "dos");
    CHECK(sdb.partitions.at(0).mounts.at(0).mountPoint == "/media/ada/My Stick");
    CHECK(sdb.partitions.at(0).filesystem->label == "My Stick");
}

TEST_CASE("a lab drive is marked with its name", "[discovery][lab]") {
    auto devices = discoveryFor("workstation").discover();
    REQUIRE(devices);
    const Device& loop = named(*devices, "loop0");
    CHECK(loop.bus == Bus::Loop);
    CHECK(loop.isLab());
    CHECK(loop.labName == "demo");
    CHECK(loop.loopBackingFile == "/home/ada/.local/state/ssdkeeper/lab/demo.img");
    CHECK(loop.partitions.at(0).filesystem->label == "demo");
}

TEST_CASE("find accepts names, /dev paths and partitions", "[discovery]") {
    const Discovery discovery = discoveryFor("workstation");
    CHECK(discovery.find("sda").value().name == "sda");
    CHECK(discovery.find("/dev/nvme0n1").value().name == "nvme0n1");
    CHECK(discovery.find("nvme0n1p2").value().name == "nvme0n1");
    CHECK(discovery.find("/dev/sdb1").value().name == "sdb");
    auto missing = discovery.find("sdz");
    REQUIRE_FALSE(missing);
    CHECK(missing.error().code() == ErrorCode::NotFound);
    CHECK(discovery.find("ram0").error().code() == ErrorCode::NotFound);
    CHECK(discovery.find("/etc/passwd").error().code() == ErrorCode::InvalidArgument);
}

TEST_CASE("find accepts a lab drive's name, as the GUI's --select does", "[discovery]") {
    const Discovery discovery = discoveryFor("workstation");
    const auto lab = discovery.find("demo");
    REQUIRE(lab);
    CHECK(lab->labName == "demo");
    CHECK(lab->name.starts_with("loop"));
    const auto missing = discovery.find("no-such-lab");
    REQUIRE_FALSE(missing);
    CHECK(missing.error().message() == "no block device or lab drive named 'no-such-lab'");
}

TEST_CASE("a live path that is not a block device is a usage error, wherever it is",
          "[discovery]") {
    const SysfsRoot live;
    const Discovery discovery(live, makeSystemFsProber(live));
    for (const char* path : {"/dev/null", "/etc/passwd", "/tmp", "/dev"}) {
        const auto found = discovery.find(path);
        REQUIRE_FALSE(found);
        CHECK(found.error().code() == ErrorCode::InvalidArgument);
        CHECK(found.error().message() == std::string(path) + " is not a block device");
    }
    CHECK(discovery.find("/no/such/path").error().code() == ErrorCode::NotFound);
}

TEST_CASE("the change token changes with devices, partition sizes and mounts, not otherwise",
          "[discovery]") {
    const auto scratch = std::filesystem::temp_directory_path() / "ssdk-change-token";
    std::filesystem::remove_all(scratch);
    std::filesystem::copy(
        std::filesystem::path(SSDK_TEST_DATA_DIR) / "sysfs" / "workstation", scratch,
        std::filesystem::copy_options::recursive | std::filesystem::copy_options::copy_symlinks);
    const Discovery discovery(SysfsRoot(scratch), makeSystemFsProber(SysfsRoot(scratch)));
    const auto first = discovery.changeToken();
    CHECK(discovery.changeToken() == first);

    std::ofstream(scratch / "proc/self/mountinfo", std::ios::app)
        << "40 22 259:3 / /mnt rw - ext4 /dev/loop0p1 rw\n";
    const auto mounted = discovery.changeToken();
    CHECK(mounted != first);

    // A partition resized in place keeps its name; its size is what changed.
    std::ofstream(scratch / "sys/block/sda/sda1/size", std::ios::trunc) << "1024\n";
    const auto resized = discovery.changeToken();
    CHECK(resized != mounted);

    std::filesystem::remove(scratch / "sys/block/sdb");
    CHECK(discovery.changeToken() != resized);
    auto devices = discovery.discover();
    REQUIRE(devices);
    CHECK(devices->size() == 4);
    std::filesystem::remove_all(scratch);
}

TEST_CASE("a recorded machine matches what lsblk printed at the same moment", "[discovery]") {
    auto devices = discoveryFor("this-vm").discover();
    REQUIRE(devices);
    std::ifstream in(std::filesystem::path(SSDK_TEST_DATA_DIR) / "sysfs/this-vm/lsblk.json");
    std::stringstream text;
    text << in.rdbuf();
    const Json lsblk = parseJson(text.str(), "lsblk.json").value();
    std::size_t compared = 0;
    for (const auto& entry : lsblk["blockdevices"]) {
        const Device& device = named(*devices, entry["name"].get<std::string>());
        INFO(device.name);
        CHECK(device.size.value == entry["size"].get<std::uint64_t>());
        CHECK(device.logicalSectorSize == entry["log-sec"].get<std::uint32_t>());
        CHECK(device.physicalSectorSize == entry["phy-sec"].get<std::uint32_t>());
        CHECK(device.rotational == entry["rota"].get<bool>());
        CHECK(device.discardGranularity.value == entry["disc-gran"].get<std::uint64_t>());
        CHECK(device.discardMaxBytes.value == entry["disc-max"].get<std::uint64_t>());
        if (entry.contains("children")) {
            REQUIRE(device.partitions.size() == entry["children"].size());
            CHECK(device.partitions[0].size.value ==
                  entry["children"][0]["size"].get<std::uint64_t>());
        }
        ++compared;
    }
    CHECK(compared == devices->size());
    const Device& vda = named(*devices, "vda");
    CHECK(vda.bus == Bus::Virtio);
    CHECK(vda.holdsRootFilesystem());
    const Device& lab = named(*devices, "loop0");
    CHECK(lab.labName == "recorded");
    CHECK(lab.partitions.at(0).mounts.at(0).mountPoint == "/tmp/rec mnt");
}

namespace {

// The names of the devices a tree's discovery marks as system disks.
std::vector<std::string> systemDisksOf(const std::string& tree) {
    auto devices = discoveryFor(tree).discover();
    REQUIRE(devices);
    std::vector<std::string> names;
    for (const auto& device : *devices) {
        if (device.holdsRootFilesystem()) {
            names.push_back(device.name);
        }
    }
    std::ranges::sort(names);
    return names;
}

} // namespace

TEST_CASE("root on LVM on a partition: the disk under the PV is the system disk",
          "[discovery][system-disk]") {
    CHECK(systemDisksOf("stack-lvm") == std::vector<std::string>{"dm-0", "nvme0n1"});
}

TEST_CASE("root on LUKS on a partition: the disk under the mapping is the system disk",
          "[discovery][system-disk]") {
    CHECK(systemDisksOf("stack-luks") == std::vector<std::string>{"dm-0", "nvme0n1"});
}

TEST_CASE("root on md RAID1 over two disks: both disks are system disks",
          "[discovery][system-disk]") {
    // btrfs at "/" shows an anonymous device number: the array is found from the source.
    CHECK(systemDisksOf("stack-md") == std::vector<std::string>{"md0", "sda", "sdb"});
}

TEST_CASE("/boot, a swap partition and a swap file's disk count, a data disk does not",
          "[discovery][system-disk]") {
    // sda: /boot; sdb: swap partition; sdc: holds /srv with a swap file; sdd: data only
    // (mounted at "/srv/data disk", which does not hold "/srv/swap file").
    CHECK(systemDisksOf("stack-spread") ==
          std::vector<std::string>{"nvme0n1", "sda", "sdb", "sdc"});
}

TEST_CASE("the system disk walk names every layer and ignores what is not there",
          "[discovery][system-disk]") {
    const SysfsRoot root(std::filesystem::path(SSDK_TEST_DATA_DIR) / "sysfs" / "stack-lvm");
    const auto mounts = [](const std::string& text) { return parseMountInfo(text); };
    CHECK(systemDiskNames(root, {}).empty());
    // A root filesystem on something the tree does not know (overlay, tmpfs) names nothing.
    CHECK(systemDiskNames(root, mounts("1 0 0:40 / / rw - overlay overlay rw\n")).empty());
    // Found by source when the number is anonymous, through the dm name.
    CHECK(systemDiskNames(root, mounts("1 0 0:40 / / rw - ext4 /dev/mapper/sys-root rw\n")) ==
          std::set<std::string>{"dm-0", "nvme0n1"});
    // Only the system's own mount points count.
    CHECK(systemDiskNames(root, mounts("1 0 8:1 / /data rw - ext4 /dev/sda1 rw\n")).empty());
    CHECK(systemDiskNames(root, mounts("1 0 8:1 / /usr rw - ext4 /dev/sda1 rw\n")) ==
          std::set<std::string>{"sda"});
}

TEST_CASE("describeDrive names the disk behind a path from sysfs alone", "[discovery]") {
    const Discovery discovery = discoveryFor("workstation");
    CHECK(discovery.describeDrive("/dev/nvme0n1") ==
          "Samsung SSD 970 EVO Plus 500GB (S4EVNX0R612345A)");
    CHECK(discovery.describeDrive("/dev/nvme0n1p2") ==
          "Samsung SSD 970 EVO Plus 500GB (S4EVNX0R612345A)");
    CHECK(discovery.describeDrive("sda1") == "CT1000MX500SSD1");
    CHECK(discovery.describeDrive("/dev/sdzz").empty());
    CHECK(discovery.describeDrive("/etc/passwd").empty());
    CHECK(discovery.describeDrive("/dev/..").empty());
    CHECK(discovery.describeDrive("").empty());
}
