// Discovery on this machine's kernel, with loop devices made here by losetup (not by the
// code under test): geometry matches sysfs, hot-plug and mounts are picked up.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "core/base/system_process_runner.h"
#include "core/device/discovery.h"
#include "core/device/platform/linux/fs_probers.h"

using namespace ssdk;
using namespace ssdk::device;
namespace fs = std::filesystem;

namespace {

std::string run(std::vector<std::string> argv, const std::string& input = {}) {
    SystemProcessRunner runner;
    auto result = runChecked(runner, {.argv = std::move(argv), .standardInput = input});
    INFO((result ? "" : result.error().describe()));
    REQUIRE(result);
    std::string out = result->standardOutput;
    while (!out.empty() && out.back() == '\n') {
        out.pop_back();
    }
    return out;
}

// A loop device over a sparse file, detached and removed whatever happens in the test.
class ScratchLoop {
public:
    // With a labName the image sits where a lab drive's does (…/ssdkeeper/lab/NAME.img), so
    // discovery takes it for the lab drive NAME.
    ScratchLoop(const std::string& size, int sectorSize, const std::string& labName = {}) {
        m_dir = fs::temp_directory_path() / ("ssdk-discovery-" + std::to_string(::getpid()) +
                                             (labName.empty() ? "" : "-" + labName));
        const fs::path imageDir = labName.empty() ? m_dir : m_dir / "ssdkeeper" / "lab";
        fs::create_directories(imageDir);
        m_image = imageDir / (labName.empty() ? "disk.img" : labName + ".img");
        run({"truncate", "-s", size, m_image.string()});
        m_device = run({"losetup", "--find", "--show", "--sector-size", std::to_string(sectorSize),
                        m_image.string()});
        // Partitions that partx added on an earlier use of this loop device may outlive its
        // detaching; they are not this image's.
        (void)SystemProcessRunner().run({.argv = {"partx", "-d", m_device}});
    }
    ~ScratchLoop() {
        SystemProcessRunner runner;
        if (!m_mountPoint.empty()) {
            (void)runner.run({.argv = {"umount", m_mountPoint.string()}});
        }
        if (!m_device.empty()) {
            (void)runner.run({.argv = {"losetup", "-d", m_device}});
        }
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }
    void detach() {
        run({"losetup", "-d", m_device});
        m_device.clear();
    }
    // A GPT with one ext4 partition.
    void format() {
        run({"sfdisk", "--quiet", m_device}, "label: gpt\n,,L\n");
        (void)SystemProcessRunner().run({.argv = {"partx", "-a", m_device}});
        run({"mkfs.ext4", "-q", m_device + "p1"});
    }
    void mountFirstPartition() {
        m_mountPoint = m_dir / "mnt";
        fs::create_directories(m_mountPoint);
        run({"mount", m_device + "p1", m_mountPoint.string()});
    }
    void unmount() {
        run({"umount", m_mountPoint.string()});
        m_mountPoint.clear();
    }
    const std::string& device() const { return m_device; }
    std::string name() const { return fs::path(m_device).filename().string(); }
    const fs::path& mountPoint() const { return m_mountPoint; }

private:
    fs::path m_dir;
    fs::path m_image;
    std::string m_device;
    fs::path m_mountPoint;
};

std::uint64_t sysfsValue(const std::string& name, const std::string& attribute) {
    return SysfsRoot().readU64(fs::path("/sys/block") / name / attribute).value();
}

// Sectors read from a block device so far, by the kernel's own count (/sys/block/NAME/stat,
// third field): what reached the device, whoever asked.
std::uint64_t sectorsRead(const std::string& name) {
    const auto stat = SysfsRoot().readString(fs::path("/sys/block") / name / "stat").value();
    std::istringstream fields(stat);
    std::uint64_t ios = 0, merges = 0, sectors = 0;
    fields >> ios >> merges >> sectors;
    REQUIRE(fields);
    return sectors;
}

Discovery liveDiscovery() {
    SysfsRoot root;
    return Discovery(root, makeSystemFsProber(root));
}

} // namespace

TEST_CASE("geometry and discard limits match what the kernel reports", "[discovery][live]") {
    for (const int sectorSize : {512, 4096}) {
        ScratchLoop loop("64M", sectorSize);
        auto device = liveDiscovery().find(loop.device());
        REQUIRE(device);
        INFO(loop.device() << " sector size " << sectorSize);
        CHECK(device->bus == Bus::Loop);
        CHECK(device->size == Bytes::mib(64));
        CHECK(device->logicalSectorSize == static_cast<std::uint32_t>(sectorSize));
        CHECK(device->logicalSectorSize == sysfsValue(loop.name(), "queue/logical_block_size"));
        CHECK(device->physicalSectorSize == sysfsValue(loop.name(), "queue/physical_block_size"));
        CHECK(device->discardGranularity.value ==
              sysfsValue(loop.name(), "queue/discard_granularity"));
        CHECK(device->discardMaxBytes.value == sysfsValue(loop.name(), "queue/discard_max_bytes"));
        CHECK(device->rotational == (sysfsValue(loop.name(), "queue/rotational") != 0));
        CHECK_FALSE(device->isLab());
        CHECK_FALSE(device->inUse());
    }
}

TEST_CASE("a rescan picks up added, partitioned, mounted and removed devices",
          "[discovery][live]") {
    const Discovery discovery = liveDiscovery();
    const auto before = discovery.changeToken();
    ScratchLoop loop("128M", 512);
    const auto attached = discovery.changeToken();
    CHECK(attached != before);
    REQUIRE(discovery.find(loop.name()));

    // This kernel may not scan GPT itself; partx adds the partitions through BLKPG.
    run({"sfdisk", "--quiet", loop.device()}, "label: gpt\n,64M,L\n,,L\n");
    (void)SystemProcessRunner().run({.argv = {"partx", "-a", loop.device()}});
    run({"mkfs.ext4", "-q", "-L", "ssdk-live", loop.device() + "p1"});
    const auto partitioned = discovery.changeToken();
    CHECK(partitioned != attached);
    auto device = discovery.find(loop.device());
    REQUIRE(device);
    REQUIRE(device->partitions.size() == 2);
    CHECK(device->partitionTableType == "gpt");
    CHECK(device->partitions[0].start == Bytes::mib(1));
    CHECK(device->partitions[0].size == Bytes::mib(64));
    REQUIRE(device->partitions[0].filesystem);
    CHECK(device->partitions[0].filesystem->type == "ext4");
    CHECK(device->partitions[0].filesystem->label == "ssdk-live");
    CHECK(discovery.find(loop.device() + "p2").value().name == loop.name());

    loop.mountFirstPartition();
    CHECK(discovery.changeToken() != partitioned);
    device = discovery.find(loop.name());
    REQUIRE(device);
    REQUIRE(device->partitions[0].mounts.size() == 1);
    CHECK(device->partitions[0].mounts[0].mountPoint == loop.mountPoint().string());
    CHECK(device->inUse());
    loop.unmount();
    CHECK_FALSE(discovery.find(loop.name()).value().inUse());

    const std::string name = loop.name();
    loop.detach();
    auto gone = discovery.find(name);
    REQUIRE_FALSE(gone);
    CHECK(gone.error().code() == ErrorCode::NotFound);
}

TEST_CASE("finding one drive reads nothing from the other drives", "[discovery][live]") {
    ScratchLoop selected("64M", 512, "ssdk-find-selected");
    ScratchLoop other("64M", 512, "ssdk-find-other");
    selected.format();
    other.format();
    const Discovery discovery = liveDiscovery();
    // Empty the other drive's cache so any read of it reaches the device and its counter.
    const auto flush = [&other] {
        run({"blockdev", "--flushbufs", other.device()});
        run({"blockdev", "--flushbufs", other.device() + "p1"});
    };

    // The measure works: probing the other drive is seen in its counter.
    flush();
    const std::uint64_t beforeProbe = sectorsRead(other.name());
    (void)makeSystemFsProber(SysfsRoot())->probe(other.device(), "");
    REQUIRE(sectorsRead(other.name()) > beforeProbe);

    flush();
    const std::uint64_t before = sectorsRead(other.name());
    for (const std::string& name :
         {selected.device(), selected.name(), std::string("ssdk-find-selected")}) {
        INFO(name);
        auto device = discovery.find(name);
        REQUIRE(device);
        CHECK(device->name == selected.name());
        REQUIRE(device->partitions.size() == 1);
        REQUIRE(device->partitions[0].filesystem);
        CHECK(device->partitions[0].filesystem->type == "ext4");
    }
    CHECK(sectorsRead(other.name()) == before);
    CHECK(discovery.find("ssdk-find-other").value().name == other.name());
}

TEST_CASE("the system prober reads a drive only when udev keeps no entry for it",
          "[discovery][live]") {
    ScratchLoop loop("64M", 512);
    loop.format();
    const std::string partition = loop.device() + "p1";
    const std::string devno =
        SysfsRoot()
            .readString(fs::path("/sys/block") / loop.name() / (loop.name() + "p1") / "dev")
            .value();
    const fs::path runDir = fs::temp_directory_path() / ("ssdk-udev-" + std::to_string(::getpid()));
    fs::create_directories(runDir / "udev" / "data");
    const UdevOrBlkidProber prober(runDir);

    // No entry: libblkid reads the partition.
    run({"blockdev", "--flushbufs", partition});
    std::uint64_t before = sectorsRead(loop.name());
    auto probed = prober.probe(partition, devno);
    REQUIRE(probed.filesystem);
    CHECK(probed.filesystem->type == "ext4");
    CHECK(sectorsRead(loop.name()) > before);

    // An entry: what udev says, and the partition is not read.
    {
        std::ofstream entry(runDir / "udev" / "data" / ("b" + devno));
        entry << "E:ID_FS_TYPE=xfs\nE:ID_FS_LABEL=from-udev\n";
    }
    run({"blockdev", "--flushbufs", partition});
    before = sectorsRead(loop.name());
    probed = prober.probe(partition, devno);
    REQUIRE(probed.filesystem);
    CHECK(probed.filesystem->type == "xfs");
    CHECK(probed.filesystem->label == "from-udev");
    CHECK(sectorsRead(loop.name()) == before);
    fs::remove_all(runDir);
}
