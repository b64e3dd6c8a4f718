// ssdkeeperctl on recorded sysfs trees: output formats, the JSON schema and exit codes.
#include "tests/support/run_tool.h"

using ssdk::Json;
using ssdk::test::runCtl;
using ssdk::test::stdoutJson;

namespace {

const std::string kWorkstation = std::string(SSDK_TEST_DATA_DIR) + "/sysfs/workstation";

} // namespace

TEST_CASE("list --json follows the documented schema", "[cli]") {
    const auto result = runCtl({"--sysfs-root", kWorkstation, "list", "--json"});
    REQUIRE(result.exitCode == 0);
    const Json json = stdoutJson(result);
    CHECK(json["version"] == 1);
    REQUIRE(json["devices"].size() == 5);
    const Json& nvme = json["devices"][0];
    CHECK(nvme["name"] == "nvme0n1");
    CHECK(nvme["bus"] == "nvme");
    CHECK(nvme["size"] == 976773168ULL * 512);
    CHECK(nvme["logical_sector_size"] == 512);
    CHECK(nvme["rotational"] == false);
    CHECK(nvme["discard"]["supported"] == true);
    CHECK(nvme["discard"]["granularity"] == 512);
    CHECK(nvme["system_disk"] == true);
    CHECK(nvme["lab"].is_null());
    REQUIRE(nvme["partitions"].size() == 2);
    CHECK(nvme["partitions"][1]["mounts"][0]["mount_point"] == "/");
    CHECK(nvme["partitions"][0]["filesystem"]["type"] == "vfat");
    const Json& lab = json["devices"][4];
    CHECK(lab["lab"]["name"] == "demo");
    CHECK(lab["loop_backing_file"] == "/home/ada/.local/state/ssdkeeper/lab/demo.img");
}

TEST_CASE("list prints one aligned row per drive with notes", "[cli]") {
    const auto result = runCtl({"--sysfs-root", kWorkstation, "list"});
    REQUIRE(result.exitCode == 0);
    const auto& out = result.standardOutput;
    CHECK(out.starts_with("DEVICE"));
    CHECK(out.find("/dev/nvme0n1  nvme") != std::string::npos);
    CHECK(out.find("Samsung SSD 970 EVO Plus 500GB") != std::string::npos);
    CHECK(out.find("system disk") != std::string::npos);
    CHECK(out.find("lab drive 'demo'") != std::string::npos);
    CHECK(out.find("ram0") == std::string::npos);
}

TEST_CASE("info shows identity and a partition table", "[cli]") {
    const auto result = runCtl({"--sysfs-root", kWorkstation, "info", "/dev/sdb1"});
    REQUIRE(result.exitCode == 0);
    const auto& out = result.standardOutput;
    CHECK(out.find("Device:           /dev/sdb (8:16)") != std::string::npos);
    CHECK(out.find("Bus:              usb") != std::string::npos);
    CHECK(out.find("TRIM/discard:     not supported") != std::string::npos);
    CHECK(out.find("/media/ada/My Stick") != std::string::npos);
    CHECK(out.find("exfat") != std::string::npos);
}

TEST_CASE("exit codes: 2 for usage, 1 for failures, JSON errors with --json", "[cli]") {
    CHECK(runCtl({}).exitCode == 2);
    CHECK(runCtl({"frobnicate"}).exitCode == 2);
    CHECK(runCtl({"info"}).exitCode == 2);
    CHECK(runCtl({"lab", "create", "--sector-size", "1000"}).exitCode == 2);
    CHECK(runCtl({"lab", "create", "--size", "8X"}).exitCode == 2);
    CHECK(runCtl({"lab", "create", "--name", "no spaces please"}).exitCode == 2);
    CHECK(runCtl({"--sysfs-root", "/nonexistent-tree", "list"}).exitCode == 2);
    CHECK(runCtl({"bench", "/tmp", "--preset", "cdm", "--pick", "median"}).exitCode == 2);
    CHECK(runCtl({"monitor", "sda", "--interval", "10"}).exitCode == 2);
    CHECK(runCtl({"--help"}).exitCode == 0);

    const auto missing = runCtl({"--sysfs-root", kWorkstation, "info", "sdz"});
    CHECK(missing.exitCode == 1);
    CHECK(missing.standardError.find("no block device named 'sdz'") != std::string::npos);

    const auto json = runCtl({"--sysfs-root", kWorkstation, "--json", "info", "sdz"});
    CHECK(json.exitCode == 1);
    CHECK(stdoutJson(json)["error"]["code"] == "not-found");
}
