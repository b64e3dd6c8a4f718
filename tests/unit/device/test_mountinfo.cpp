#include <catch2/catch.hpp>

#include "core/device/mountinfo.h"

using ssdk::device::parseMountInfo;

TEST_CASE("parseMountInfo reads fields around optional tags", "[mountinfo]") {
    const auto entries = parseMountInfo(
        "22 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw,errors=remount-ro\n"
        "27 22 8:17 / /media/ada/My\\040Stick rw,nosuid master:3 shared:32 - exfat /dev/sdb1 rw\n"
        "30 22 0:45 /@home /home rw - btrfs /dev/sdc2 rw,ssd,space_cache=v2\n");
    REQUIRE(entries.size() == 3);
    CHECK(entries[0].devno == "259:2");
    CHECK(entries[0].mountPoint == "/");
    CHECK(entries[0].fsType == "ext4");
    CHECK(entries[0].source == "/dev/nvme0n1p2");
    CHECK(entries[0].superOptions == "rw,errors=remount-ro");
    CHECK(entries[1].mountPoint == "/media/ada/My Stick");
    CHECK(entries[1].mountOptions == "rw,nosuid");
    CHECK(entries[2].root == "/@home");
    CHECK(entries[2].devno == "0:45");
}

TEST_CASE("parseMountInfo skips cut or malformed lines", "[mountinfo]") {
    const auto entries = parseMountInfo("garbage\n"
                                        "22 1 259:2 / / rw shared:1\n"
                                        "\n"
                                        "23 1 8:1 / /boot rw - vfat /dev/sda1 rw\n"
                                        "24 1 8:2 / /tmp rw - tmp");
    REQUIRE(entries.size() == 1);
    CHECK(entries[0].mountPoint == "/boot");
}

TEST_CASE("unescapeMountField decodes octal escapes only", "[mountinfo]") {
    using ssdk::device::unescapeMountField;
    CHECK(unescapeMountField("a\\040b\\011c\\134d") == "a b\tc\\d");
    CHECK(unescapeMountField("trailing\\04") == "trailing\\04");
    CHECK(unescapeMountField("\\x41") == "\\x41");
}

TEST_CASE("remount options keep what the filesystem was mounted with", "[mountinfo]") {
    using ssdk::device::MountInfoEntry;
    using ssdk::device::remountOptions;
    CHECK(remountOptions(MountInfoEntry{.mountOptions = "rw,relatime",
                                        .superOptions = "rw,errors=remount-ro"}) ==
          "rw,relatime,errors=remount-ro");
    CHECK(remountOptions(MountInfoEntry{.mountOptions = "ro,noatime",
                                        .superOptions = "ro,seclabel,discard"}) ==
          "ro,noatime,discard");
    // "rw" of the superblock does not undo a read-only mount of it.
    CHECK(remountOptions(MountInfoEntry{.mountOptions = "ro,relatime", .superOptions = "rw"}) ==
          "ro,relatime");
}
