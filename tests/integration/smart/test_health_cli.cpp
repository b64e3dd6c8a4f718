// ssdkeeperctl health, selftest and metrics end to end as root: on a lab drive (a loop device,
// which has no SMART) they must say so with a reason instead of failing; replays of the
// shared fixtures print the schema of docs/cli.md.
#include <catch2/catch.hpp>

#include "tests/integration/lab/lab_scratch.h"
#include "tests/support/run_tool.h"

using ssdk::Json;
using ssdk::test::runCtl;
using ssdk::test::stdoutJson;

TEST_CASE("health on a lab drive reports no SMART with a reason, exit 0") {
    ssdk::test::ScratchState scratch;
    const auto created =
        runCtl({"--json", "lab", "create", "--name", "health-itest", "--size", "64M"});
    REQUIRE(created.exitCode == 0);
    const std::string device = stdoutJson(created)["device"];

    const auto health = runCtl({"--json", "health", device});
    INFO(health.standardOutput << health.standardError);
    REQUIRE(health.exitCode == 0);
    const Json json = stdoutJson(health);
    CHECK(json["health"]["verdict"] == "unknown");
    REQUIRE(json["health"]["reasons"].size() == 1);
    CHECK(json["health"]["reasons"][0]["code"] == "no-smart");
    CHECK(json["health"]["reasons"][0]["message"].get<std::string>().find("loop device") !=
          std::string::npos);
    CHECK(json["temperature_c"].is_null());
    CHECK(json["model"].is_null());

    const auto text = runCtl({"health", device});
    CHECK(text.exitCode == 0);
    CHECK(text.standardOutput.find("Health: UNKNOWN") != std::string::npos);

    const auto status = runCtl({"selftest", device, "status"});
    CHECK(status.exitCode == 0);
    CHECK(status.standardOutput.find("No SMART") != std::string::npos);
    const auto start = runCtl({"selftest", device, "short"});
    CHECK(start.exitCode == 1);
    CHECK(start.standardError.find("cannot run a self-test") != std::string::npos);

    const auto metrics = runCtl({"metrics"});
    REQUIRE(metrics.exitCode == 0);
    CHECK(metrics.standardOutput.find("ssdkeeper_health_verdict{device=\"" + device + "\"} 3") !=
          std::string::npos);

    CHECK(runCtl({"lab", "destroy", "health-itest"}).exitCode == 0);
}

TEST_CASE("health --replay prints a saved report, unreadable reports fail with exit 1") {
    const std::string fixture = std::string(SSDK_SHARED_FIXTURES_DIR) +
                                "/smartctl/nvme-null-SAMSUNG_MZWLL3T2HAJQ-00005-nvme0.json";
    const auto replay = runCtl({"--json", "health", "--replay", fixture});
    REQUIRE(replay.exitCode == 0);
    const Json json = stdoutJson(replay);
    CHECK(json["model"] == "SAMSUNG MZWLL3T2HAJQ-00005");
    CHECK(json["protocol"] == "NVMe");
    CHECK(json["health"]["verdict"] == "bad");
    CHECK(json["nvme"]["critical_warning"] == 16);
    CHECK(json["host_writes_bytes"] == 147556750ull * 512000ull);
    CHECK(json["percentage_used"] == 0);
    CHECK(json["attributes"].empty());

    const auto blob = runCtl(
        {"--json", "health", "--replay",
         std::string(SSDK_SHARED_FIXTURES_DIR) + "/atasmart/WDC_WD5000AAKS--00TMA0-12.01C01"});
    REQUIRE(blob.exitCode == 0);
    CHECK(stdoutJson(blob)["serial"] == "WD-WCAPW0493929");

    const auto broken =
        runCtl({"health", "--replay", std::string(SSDK_TEST_DATA_DIR) + "/smart/malformed.json"});
    CHECK(broken.exitCode == 1);
    CHECK(runCtl({"health"}).exitCode == 2); // usage: neither a device nor --replay
}
