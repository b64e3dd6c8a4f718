// The earlier report each drive keeps in the state directory, and the growth the assessment
// tells from it: real fixtures and copies with grown counters.
#include <catch2/catch.hpp>
#include <unistd.h>

#include "core/base/json.h"
#include "core/base/replay_process_runner.h"
#include "core/smart/health.h"
#include "core/smart/health_history.h"
#include "core/smart/health_service.h"
#include "tests/unit/smart/smart_test_support.h"

using namespace ssdk;
using namespace ssdk::smart;
using namespace ssdk::smart::test;
using namespace std::chrono_literals;

namespace {

struct TempDir {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() /
        ("ssdk-history-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
    TempDir() { std::filesystem::create_directories(path); }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    static int& counter() {
        static int n = 0;
        return n;
    }
};

RawReport rawOf(const Json& json) {
    const std::string text = json.dump();
    return RawReport{RawReport::Format::SmartctlJson, {text.begin(), text.end()}};
}

Json fixture(const std::string& name) {
    auto json = parseJson(readText(sharedFixtures() / "smartctl" / name), name);
    REQUIRE(json);
    return *json;
}

// The SATA SSD fixture with attribute 199 and the error-log summary set.
Json sataWith(std::uint64_t crcErrors, std::uint64_t errorLogEntries) {
    Json json = fixture("SAMSUNG_MZ7WD240HAFV-00003_21.json");
    for (auto& attribute : json["ata_smart_attributes"]["table"]) {
        if (attribute["id"] == 199) {
            attribute["raw"]["value"] = crcErrors;
            attribute["raw"]["string"] = std::to_string(crcErrors);
        }
    }
    json["ata_smart_error_log"]["summary"]["count"] = errorLogEntries;
    return json;
}

SmartReport parsed(const Json& json) {
    auto report = parseRawReport(rawOf(json));
    REQUIRE(report);
    return *report;
}

const Reason* reason(const Assessment& assessment, const std::string& code) {
    for (const auto& found : assessment.reasons) {
        if (found.code == code) {
            return &found;
        }
    }
    return nullptr;
}

const auto kThen = std::chrono::system_clock::time_point(std::chrono::seconds(1'795'000'000));

} // namespace

TEST_CASE("CRC and error-log growth since the stored report", "[smart]") {
    const TempDir dir;
    const HealthHistory history(dir.path);
    const Json before = sataWith(2, 1);
    auto recorded = history.record(parsed(before), rawOf(before), kThen);
    REQUIRE(recorded);
    CHECK(*recorded);
    CHECK(std::filesystem::exists(dir.path / "ssdkeeper" / "health"));

    const Json after = sataWith(9, 4);
    const SmartReport now = parsed(after);
    auto previous = history.load(now);
    REQUIRE(previous);
    REQUIRE(*previous);
    CHECK((*previous)->readAt == kThen);
    AssessmentOptions options;
    options.previous = &(*previous)->report;
    options.previousReadAt = formatReportTime((*previous)->readAt);
    CHECK(options.previousReadAt == "2026-11-18 11:06 UTC");
    const Assessment assessment = assessHealth(now, options);
    const Reason* crc = reason(assessment, "interface-crc-errors-growing");
    REQUIRE(crc != nullptr);
    CHECK(crc->message.find("CRC errors grew by 7 since 2026-11-18 11:06 UTC") == 0);
    CHECK(crc->message.find("check the cable") != std::string::npos);
    const Reason* log = reason(assessment, "error-log-grew");
    REQUIRE(log != nullptr);
    CHECK(log->message.find("3 new error-log entries since 2026-11-18 11:06 UTC") == 0);
    CHECK(assessment.verdict == Verdict::Caution);

    // Without growth: no such reasons.
    options.previous = &now;
    const Assessment steady = assessHealth(now, options);
    CHECK(reason(steady, "interface-crc-errors-growing") == nullptr);
    CHECK(reason(steady, "error-log-grew") == nullptr);
}

TEST_CASE("the stored report is a baseline for a day, and follows resets", "[smart]") {
    const TempDir dir;
    const HealthHistory history(dir.path);
    const Json first = sataWith(2, 1);
    REQUIRE(history.record(parsed(first), rawOf(first), kThen).value_or(false));
    const Json grown = sataWith(5, 1);
    CHECK_FALSE(history.record(parsed(grown), rawOf(grown), kThen + 1h).value_or(true));
    auto baseline = history.load(parsed(grown));
    REQUIRE(baseline);
    REQUIRE(*baseline);
    CHECK((*baseline)->readAt == kThen);
    CHECK(history.record(parsed(grown), rawOf(grown), kThen + 25h).value_or(false));
    auto moved = history.load(parsed(grown));
    REQUIRE(moved);
    REQUIRE(*moved);
    CHECK((*moved)->readAt == kThen + 25h);
    // A counter that went down: another drive with the same name, or a reset.
    const Json reset = sataWith(0, 1);
    CHECK(history.record(parsed(reset), rawOf(reset), kThen + 26h).value_or(false));

    // Another drive (other serial) has no history; no serial, nothing stored.
    Json other = sataWith(2, 1);
    other["serial_number"] = "S1234567";
    CHECK_FALSE(
        history.load(parsed(other)).value_or(std::optional<PreviousReport>{PreviousReport{}}));
    Json anonymous = sataWith(2, 1);
    anonymous["serial_number"] = "";
    CHECK_FALSE(history.record(parsed(anonymous), rawOf(anonymous), kThen).value_or(true));
    CHECK_FALSE(HealthHistory::keyFor(parsed(anonymous)));
}

TEST_CASE("a damaged history file is an error, not a verdict", "[smart]") {
    const TempDir dir;
    const HealthHistory history(dir.path);
    const SmartReport report = parsed(sataWith(0, 0));
    std::filesystem::create_directories(history.directory());
    std::ofstream(history.directory() / (*HealthHistory::keyFor(report) + ".json")) << "{oops";
    CHECK_FALSE(history.load(report));
}

TEST_CASE("the health service compares with the earlier report and records it (NVMe)", "[smart]") {
    const TempDir dir;
    ReplayProcessRunner runner;
    HealthService service(runner, {}, true);
    service.setHistory(HealthHistory(dir.path));
    Json nvme = fixture("SAMSUNG_MZVL21T0HCLR-00B00_23.json");
    auto first = service.evaluate("/dev/nvme0n1", rawOf(nvme));
    REQUIRE(first);
    CHECK(reason(first->assessment, "error-log-grew") == nullptr);
    nvme["nvme_smart_health_information_log"]["num_err_log_entries"] = 6;
    auto second = service.evaluate("/dev/nvme0n1", rawOf(nvme));
    REQUIRE(second);
    const Reason* log = reason(second->assessment, "error-log-grew");
    REQUIRE(log != nullptr);
    CHECK(log->message.find("6 new error-log entries since ") == 0);
    CHECK(log->message.find("UTC") != std::string::npos);
}
