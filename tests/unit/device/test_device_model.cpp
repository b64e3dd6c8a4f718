#include <catch2/catch.hpp>

#include "core/device/device.h"

using namespace ssdk::device;

TEST_CASE("lab drives are recognised by their backing file", "[device][lab]") {
    CHECK(labNameFromBackingFile("/home/ada/.local/state/ssdkeeper/lab/demo.img") == "demo");
    CHECK(labNameFromBackingFile("/root/.local/state/ssdkeeper/lab/t-1.img (deleted)") == "t-1");
    CHECK_FALSE(labNameFromBackingFile("/var/lib/images/demo.img"));
    CHECK_FALSE(labNameFromBackingFile("/home/a/.local/state/ssdkeeper/lab/demo.raw"));
    CHECK_FALSE(labNameFromBackingFile("/home/a/.local/state/ssdkeeper/lab/.img"));
    CHECK_FALSE(labNameFromBackingFile("/x/ssdkeeper/lab/sub/dir.img"));
    CHECK_FALSE(labNameFromBackingFile(""));
}

TEST_CASE("a device is in use when it or a partition is mounted or held", "[device]") {
    Device device;
    CHECK_FALSE(device.inUse());
    CHECK_FALSE(device.holdsRootFilesystem());
    device.partitions.push_back(Partition{.name = "sda1"});
    CHECK_FALSE(device.inUse());
    device.partitions[0].holders.push_back(Holder{Holder::Kind::DeviceMapper, "dm-0", "luks"});
    CHECK(device.inUse());
    CHECK_FALSE(device.holdsRootFilesystem());
    device.partitions[0].mounts.push_back(Mount{"/", "ext4", "rw"});
    CHECK(device.holdsRootFilesystem());
}

TEST_CASE("bus and holder kinds have stable names", "[device]") {
    CHECK(toString(Bus::Nvme) == "nvme");
    CHECK(toString(Bus::Sata) == "sata");
    CHECK(toString(Bus::DeviceMapper) == "dm");
    CHECK(toString(Holder::Kind::Bcache) == "bcache");
}
