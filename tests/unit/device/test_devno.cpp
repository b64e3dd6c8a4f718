#include <catch2/catch.hpp>
#include <sys/stat.h>

#include "core/device/devno.h"

using ssdk::device::devnoText;

// glibc's dev_t layout (bits/sysmacros.h): minor bits 0-7 in bits 0-7 and 8-31 in bits 20-43,
// major bits 0-11 in bits 8-19 and 12-31 in bits 44-63.
TEST_CASE("devnoText splits a device number into MAJ:MIN", "[devno]") {
    CHECK(devnoText(0) == "0:0");
    CHECK(devnoText(0x0801) == "8:1");     // sda1
    CHECK(devnoText(0x10300) == "259:0");  // nvme0n1
    CHECK(devnoText(0x100801) == "8:257"); // a minor past 255
    CHECK(devnoText(0xfff00000ULL | 0xffULL) ==
          "0:1048575");                              // the kernel's largest minor (20 bits)
    CHECK(devnoText(0x100000000000ULL) == "4096:0"); // a major past 4095
    CHECK(devnoText(0xfffff00000000000ULL | 0xfff00ULL) == "4294967295:0");
}

TEST_CASE("devnoText names a device node as sysfs does", "[devno]") {
    struct stat info {};
    REQUIRE(::stat("/dev/null", &info) == 0);
    CHECK(devnoText(info.st_rdev) == "1:3"); // Linux's fixed number of /dev/null
}
