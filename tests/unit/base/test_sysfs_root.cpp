#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "core/base/sysfs_root.h"

namespace fs = std::filesystem;

TEST_CASE("SysfsRoot reads attributes from a recorded tree", "[sysfs]") {
    const fs::path root = fs::temp_directory_path() / "ssdk-sysfs-root-test";
    fs::remove_all(root);
    fs::create_directories(root / "sys/block/sda/queue");
    std::ofstream(root / "sys/block/sda/size") << "  976773168\n";
    std::ofstream(root / "sys/block/sda/queue/rotational") << "0\n";
    std::ofstream(root / "sys/block/sda/model") << "Samsung SSD 860\n";
    std::ofstream(root / "sys/block/sda/bad") << "12ab\n";

    const ssdk::SysfsRoot sysfs(root);
    CHECK_FALSE(sysfs.isLive());
    CHECK(sysfs.readU64(sysfs.sys() / "block/sda/size").value() == 976773168);
    CHECK(sysfs.readString(sysfs.sys() / "block/sda/model").value() == "Samsung SSD 860");
    CHECK(sysfs.tryU64(sysfs.sys() / "block/sda/queue/rotational") == 0u);
    CHECK_FALSE(sysfs.tryU64(sysfs.sys() / "block/sda/missing"));
    auto bad = sysfs.readU64(sysfs.sys() / "block/sda/bad");
    REQUIRE_FALSE(bad);
    CHECK(bad.error().code() == ssdk::ErrorCode::Parse);
    CHECK(sysfs.list(sysfs.sys() / "block") == std::vector<std::string>{"sda"});
    CHECK(sysfs.list(sysfs.sys() / "nope").empty());
    CHECK(sysfs.readString(sysfs.sys() / "nope").error().code() == ssdk::ErrorCode::NotFound);
    fs::remove_all(root);
}
