// Sources and self-test commands against a ReplayProcessRunner: the argv smartctl gets and
// how its answers are judged. Answers are shaped like smartctl 7.3's JSON.
#include <catch2/catch.hpp>

#include "core/base/replay_process_runner.h"
#include "core/smart/device_reader.h"
#include "core/smart/selftest.h"
#include "core/smart/smartctl_parser.h"
#include "core/smart/smartctl_source.h"
#include "tests/unit/smart/smart_test_support.h"

using namespace ssdk;
using namespace ssdk::smart;
using namespace ssdk::smart::test;

namespace {

ProcessResult output(std::string text, int exitCode = 0) {
    ProcessResult result;
    result.exitCode = exitCode;
    result.standardOutput = std::move(text);
    return result;
}

const char* kUnknownBridge =
    R"({"json_format_version":[1,0],"smartctl":{"version":[7,3],"messages":[{"string":)"
    R"("/dev/sdc: Unknown USB bridge [0x152d:0x0578 (0x209)]","severity":"error"}],)"
    R"("exit_status":1}})";

void expectVersion(ReplayProcessRunner& runner) {
    runner.expect({"smartctl", "--version"},
                  output("smartctl 7.3 2022-02-28 r5338 [x86_64-linux-6.1.0] (local build)\n"));
}

device::Device usbDisk() {
    device::Device device;
    device.name = "sdc";
    device.path = "/dev/sdc";
    device.bus = device::Bus::Usb;
    return device;
}

} // namespace

TEST_CASE("smartctl is run with JSON, -x and without waking a sleeping disk") {
    ReplayProcessRunner runner;
    const auto fixture = readText(sharedFixtures() / "smartctl" / "ST3500418AS_11.json");
    runner.expect({"smartctl", "--json=c", "-x", "-n", "standby", "/dev/sda"}, output(fixture));
    SmartctlSource source(runner);
    auto raw = source.capture("/dev/sda", {});
    REQUIRE(raw.has_value());
    CHECK(raw->format == RawReport::Format::SmartctlJson);
    auto report = parseRawReport(*raw);
    REQUIRE(report.has_value());
    CHECK(report->model == "ST3500418AS");

    runner.expect({"smartctl", "--json=c", "-x", "/dev/sda"}, output(fixture));
    CHECK(source.capture("/dev/sda", {.wakeSleepingDisk = true}).has_value());
}

TEST_CASE("a sleeping disk is left asleep and reported as Busy") {
    ReplayProcessRunner runner;
    runner.expect({"smartctl", "--json=c", "-x", "-n", "standby", "/dev/sdb"},
                  output(R"j({"json_format_version":[1,0],"smartctl":{"version":[7,3],)j"
                         R"j("messages":[{"string":"Device is in STANDBY mode, exit(2)",)j"
                         R"j("severity":"information"}],"exit_status":2}})j",
                         2));
    SmartctlSource source(runner);
    auto raw = source.capture("/dev/sdb", {});
    REQUIRE_FALSE(raw.has_value());
    CHECK(raw.error().code() == ErrorCode::Busy);
}

TEST_CASE("USB bridges are tried in order: sat, sntjmicron, sntasmedia, sntrealtek") {
    ReplayProcessRunner runner;
    const auto base = std::vector<std::string>{"smartctl", "--json=c", "-x", "-n", "standby"};
    auto with = [&](std::vector<std::string> extra) {
        auto argv = base;
        argv.insert(argv.end(), extra.begin(), extra.end());
        return argv;
    };
    expectVersion(runner);
    runner.expect(with({"/dev/sdc"}), output(kUnknownBridge, 1));
    runner.expect(with({"-d", "sat", "/dev/sdc"}), output(kUnknownBridge, 1));
    runner.expect(with({"-d", "sntjmicron", "/dev/sdc"}),
                  output(readText(sharedFixtures() / "smartctl" /
                                  "nvme-null-Samsung_SSD_970_EVO_Plus_250GB-nvme0.json")));
    SmartctlSource source(runner);
    auto raw = captureDevice(usbDisk(), {&source});
    REQUIRE(raw.has_value());
    const auto requests = runner.requests();
    REQUIRE(requests.size() == 4); // --version, plain, sat, sntjmicron
    CHECK(requests[2].argv == with({"-d", "sat", "/dev/sdc"}));
    CHECK(requests[3].argv == with({"-d", "sntjmicron", "/dev/sdc"}));
}

TEST_CASE("a bridge nobody can pass through means no SMART, with smartctl's reason") {
    ReplayProcessRunner runner;
    expectVersion(runner);
    SmartctlSource source(runner);
    for (const char* type : {"", "sat", "sntjmicron", "sntasmedia", "sntrealtek"}) {
        runner.expect(source.readCommand("/dev/sdc", {}, type), output(kUnknownBridge, 1));
    }
    auto raw = captureDevice(usbDisk(), {&source});
    REQUIRE_FALSE(raw.has_value());
    CHECK(raw.error().code() == ErrorCode::Unsupported);
    CHECK_THAT(raw.error().describe(), Catch::Contains("Unknown USB bridge"));
}

TEST_CASE("loop devices and other virtual disks are not asked at all") {
    ReplayProcessRunner runner;
    SmartctlSource source(runner);
    device::Device loop;
    loop.path = "/dev/loop3";
    loop.bus = device::Bus::Loop;
    loop.labName = "demo";
    auto raw = captureDevice(loop, {&source});
    REQUIRE_FALSE(raw.has_value());
    CHECK(raw.error().code() == ErrorCode::Unsupported);
    CHECK_THAT(raw.error().message(), Catch::Contains("lab drive 'demo'"));
    CHECK(runner.requests().empty());
}

TEST_CASE("smartctl's availability needs version 7 or newer") {
    ReplayProcessRunner runner;
    runner.expectOnce({"smartctl", "--version"},
                      output("smartctl 7.3 2022-02-28 r5338 [x86_64-linux-6.1.0] (local build)\n"));
    runner.expectOnce(
        {"smartctl", "--version"},
        output("smartctl 6.6 2016-05-31 r4324 [x86_64-linux-4.19.0] (local build)\n"));
    SmartctlSource source(runner);
    CHECK(source.availability().available);
    const auto old = source.availability();
    CHECK_FALSE(old.available);
    CHECK_THAT(old.reason, Catch::Contains("too old"));
    const auto missing = SmartctlSource(runner, "no-such-smartctl").availability();
    CHECK_FALSE(missing.available);
    CHECK_THAT(missing.reason, Catch::Contains("smartmontools"));
}

TEST_CASE("self-tests are started and aborted with smartctl -t / -X") {
    ReplayProcessRunner runner;
    runner.expect({"smartctl", "--json=c", "-t", "short", "/dev/sda"},
                  output(R"({"json_format_version":[1,0],"smartctl":{"version":[7,3],)"
                         R"("messages":[{"string":"Testing has begun.","severity":"information"}],)"
                         R"("exit_status":0}})"));
    runner.expect({"smartctl", "--json=c", "-X", "/dev/sda"},
                  output(R"({"json_format_version":[1,0],"smartctl":{"exit_status":0}})"));
    runner.expect({"smartctl", "--json=c", "-t", "long", "/dev/sdq"},
                  output(R"({"json_format_version":[1,0],"smartctl":{"messages":[{"string":)"
                         R"("Self-test not supported","severity":"error"}],"exit_status":4}})",
                         4));
    auto started = runSelfTestCommand(runner, SelfTestAction::Short, "/dev/sda");
    REQUIRE(started.has_value());
    CHECK(*started == std::vector<std::string>{"Testing has begun."});
    CHECK(runSelfTestCommand(runner, SelfTestAction::Abort, "/dev/sda").has_value());
    auto refused = runSelfTestCommand(runner, SelfTestAction::Long, "/dev/sdq");
    REQUIRE_FALSE(refused.has_value());
    CHECK(refused.error().code() == ErrorCode::Unsupported);
    CHECK(parseSelfTestAction("long") == SelfTestAction::Long);
    CHECK_FALSE(parseSelfTestAction("conveyance").has_value());
}

TEST_CASE("self-test progress and log are read from smartctl's JSON") {
    const char* json = R"({"json_format_version":[1,0],"smartctl":{"exit_status":0},
      "device":{"name":"/dev/sda","protocol":"ATA"},"model_name":"X","serial_number":"1",
      "smart_status":{"passed":true},
      "ata_smart_data":{"self_test":{"status":{"value":249,"string":"in progress, 90% remaining",
        "remaining_percent":90},"polling_minutes":{"short":2,"extended":85}}},
      "ata_smart_self_test_log":{"standard":{"revision":1,"table":[
        {"type":{"value":1,"string":"Short offline"},"status":{"value":0,"string":"Completed without error","passed":true},"lifetime_hours":1200},
        {"type":{"value":2,"string":"Extended offline"},"status":{"value":121,"string":"Completed: read failure","remaining_percent":90,"passed":false},"lifetime_hours":1100}]}}})";
    auto report = parseSmartctlJson(json);
    REQUIRE(report.has_value());
    REQUIRE(report->selfTest.has_value());
    CHECK(report->selfTest->running);
    CHECK(report->selfTest->percentRemaining == 90);
    CHECK(report->selfTest->extendedMinutes == 85);
    REQUIRE(report->selfTest->log.size() == 2);
    CHECK_FALSE(report->selfTest->log[1].passed);

    const char* nvme = R"({"json_format_version":[1,0],"smartctl":{"exit_status":0},
      "device":{"name":"/dev/nvme0","protocol":"NVMe"},"model_name":"N",
      "nvme_self_test_log":{"current_self_test_operation":{"value":1,"string":"Short self-test in progress"},
        "current_self_test_completion_percent":40,
        "table":[{"self_test_code":{"value":1,"string":"Short"},"self_test_result":{"value":0,"string":"Completed without error"},"power_on_hours":10}]}})";
    auto nvmeReport = parseSmartctlJson(nvme);
    REQUIRE(nvmeReport.has_value());
    CHECK(nvmeReport->selfTest->running);
    CHECK(nvmeReport->selfTest->percentRemaining == 60);
    CHECK(nvmeReport->selfTest->log.front().passed);
}
