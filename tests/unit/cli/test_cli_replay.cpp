// ssdkeeperctl on recorded sysfs trees: output formats, the JSON schema and exit codes.
#include <filesystem>
#include <fstream>

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
    CHECK(missing.standardError.find("no block device or lab drive named 'sdz'") !=
          std::string::npos);

    const auto json = runCtl({"--sysfs-root", kWorkstation, "--json", "info", "sdz"});
    CHECK(json.exitCode == 1);
    CHECK(stdoutJson(json)["error"]["code"] == "not-found");
}

TEST_CASE("usage errors say what was wrong, as JSON with --json", "[cli]") {
    const auto unknown = runCtl({"frobnicate"});
    CHECK(unknown.exitCode == 2);
    CHECK_THAT(unknown.standardError,
               Catch::Contains("unknown command 'frobnicate'; choose list, info, lab"));
    const auto unknownSub = runCtl({"op", "frob"});
    CHECK(unknownSub.exitCode == 2);
    CHECK_THAT(unknownSub.standardError,
               Catch::Contains("unknown command 'frob' for 'op'; choose plan, apply, undo or "
                               "recover"));
    const auto missing = runCtl({"op"});
    CHECK(missing.exitCode == 2);
    CHECK_THAT(missing.standardError, Catch::Contains("a command is needed for 'op': plan"));

    const std::vector<std::pair<std::string, std::string>> values{
        {"abc", "--spare: 'abc' is not a number; give one from 0 to 50"},
        {"-3", "--spare: -3 is below 0; give a number from 0 to 50"},
        {"2.5", "--spare: 2.5 is not a whole number; give one from 0 to 50"},
        {"51", "--spare: 51 is above 50; give a number from 0 to 50"}};
    for (const auto& [value, says] : values) {
        const auto result = runCtl({"op", "plan", "sda", "--spare", value});
        INFO(value);
        CHECK(result.exitCode == 2);
        CHECK_THAT(result.standardError, Catch::Contains(says));
    }
    const auto json = runCtl({"--json", "op", "plan", "sda", "--spare", "abc"});
    CHECK(json.exitCode == 2);
    const Json error = stdoutJson(json)["error"];
    CHECK(error["code"] == "invalid-argument");
    CHECK(error["message"] == "--spare: 'abc' is not a number; give one from 0 to 50");
    CHECK(stdoutJson(runCtl({"--json", "frobnicate"}))["error"]["code"] == "invalid-argument");
    CHECK(runCtl({"--version"}).exitCode == 0);
}

TEST_CASE("a target that is not a block device is a usage error wherever it is, and a lab drive "
          "goes by its name",
          "[cli]") {
    for (const char* path : {"/dev/null", "/etc/passwd", "/tmp"}) {
        const auto result = runCtl({"info", path});
        INFO(path);
        CHECK(result.exitCode == 2);
        CHECK_THAT(result.standardError,
                   Catch::Contains(std::string(path) + " is not a block device"));
    }
    const auto lab = runCtl({"--sysfs-root", kWorkstation, "--json", "info", "demo"});
    REQUIRE(lab.exitCode == 0);
    CHECK(stdoutJson(lab)["lab"]["name"] == "demo");
}

TEST_CASE("health --replay and cache simulate say plainly what is wrong with their input",
          "[cli]") {
    const auto scratch = std::filesystem::temp_directory_path() / "ssdk-cli-inputs";
    std::filesystem::create_directories(scratch);
    const auto empty = scratch / "empty";
    const auto broken = scratch / "broken.json";
    std::ofstream(empty).flush();
    std::ofstream(broken) << "{\"a\":\n";

    const auto device = runCtl({"health", "--replay", "/dev/null"});
    CHECK(device.exitCode == 2);
    CHECK_THAT(device.standardError, Catch::Contains("/dev/null is not a file"));
    const auto nothing = runCtl({"health", "--replay", empty.string()});
    CHECK(nothing.exitCode == 1);
    CHECK_THAT(nothing.standardError, Catch::Contains(empty.string() + " is empty"));
    const auto malformed = runCtl({"health", "--replay", broken.string()});
    CHECK(malformed.exitCode == 1);
    CHECK_THAT(malformed.standardError,
               Catch::Contains("is not valid JSON (line 2, column 1: unexpected end of input"));
    CHECK_THAT(malformed.standardError, !Catch::Contains("json.exception"));

    const auto noRequests = runCtl({"cache", "simulate", "--trace", empty.string(), "--format",
                                    "lis", "--cache-blocks", "10"});
    CHECK(noRequests.exitCode == 1);
    CHECK_THAT(noRequests.standardError, Catch::Contains("holds no requests"));
    CHECK_THAT(noRequests.standardOutput, !Catch::Contains("hit ratio"));
    std::filesystem::remove_all(scratch);
}

TEST_CASE("health words power-on time and life left in the GUI's unit and figures", "[cli]") {
    // 18376 h: the Health page's card says "18376 h" with "2.1 years" under it.
    const auto nvme = runCtl({"health", "--replay",
                              std::string(SSDK_SHARED_FIXTURES_DIR) +
                                  "/smartctl/nvme-null-SAMSUNG_MZWLL3T2HAJQ-00005-nvme0.json"});
    INFO(nvme.standardOutput << nvme.standardError);
    CHECK_THAT(nvme.standardOutput, Catch::Contains("Power-on time:    18376 h (2.1 years)"));
    CHECK_THAT(nvme.standardOutput, !Catch::Contains("days)"));
}
