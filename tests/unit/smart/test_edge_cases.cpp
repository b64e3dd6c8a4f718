// Project-made edge cases under tests/data/smart (see its README.md).
#include <catch2/catch.hpp>

#include "core/smart/atasmart_parser.h"
#include "core/smart/health.h"
#include "core/smart/report_loader.h"
#include "core/smart/smartctl_parser.h"
#include "tests/unit/smart/smart_test_support.h"

using namespace ssdk;
using namespace ssdk::smart;
using namespace ssdk::smart::test;

namespace {
Expected<SmartReport> loadData(const char* name) {
    return parseSavedReport(readBytes(smartData() / name));
}
} // namespace

TEST_CASE("smartctl JSON of another format version is refused") {
    for (const char* name : {"json-format-version-2.json", "json-format-version-0.json"}) {
        INFO(name);
        auto report = loadData(name);
        REQUIRE_FALSE(report.has_value());
        CHECK(report.error().code() == ErrorCode::Unsupported);
        CHECK_THAT(report.error().message(), Catch::Contains("format version"));
    }
}

TEST_CASE("smartctl exit bits 0-2 without data are errors carrying smartctl's message") {
    auto openFailed = loadData("exit-status-open-failed.json");
    REQUIRE_FALSE(openFailed.has_value());
    CHECK(openFailed.error().code() == ErrorCode::ProcessFailed);
    CHECK_THAT(openFailed.error().message(), Catch::Contains("No such device"));

    auto noType = loadData("exit-status-command-line.json");
    REQUIRE_FALSE(noType.has_value());
    CHECK(noType.error().code() == ErrorCode::Unsupported);
    CHECK_THAT(noType.error().message(), Catch::Contains("Unable to detect device type"));

    auto commandFailed = loadData("exit-status-command-failed-no-identity.json");
    REQUIRE_FALSE(commandFailed.has_value());
    CHECK_THAT(commandFailed.error().message(), Catch::Contains("Read Device Identity failed"));
}

TEST_CASE("exit bit 2 with a drive that was read loads with a warning") {
    // A real fixture: smartctl exited 4 on a Kingston SA400 but printed its data.
    auto report = parseSmartctlJson(readText(
        sharedFixtures() / "smartctl" / "sat-Phison_Driven_SSDs-KINGSTON_SA400M8120G-sda.json"));
    REQUIRE(report.has_value());
    CHECK(report->smartctlExitStatus == 4);
    REQUIRE_FALSE(report->warnings.empty());
    CHECK_THAT(report->warnings.front(), Catch::Contains("command failed"));
}

TEST_CASE("empty and malformed output are parse errors, not crashes") {
    for (const char* name : {"empty.json", "malformed.json"}) {
        INFO(name);
        auto report = loadData(name);
        REQUIRE_FALSE(report.has_value());
        CHECK(report.error().code() == ErrorCode::Parse);
    }
    CHECK_FALSE(parseSmartctlJson("   \n").has_value());
    CHECK_FALSE(parseSmartctlJson("[1,2]").has_value());
    CHECK_FALSE(parseSmartctlJson("{}").has_value());
    CHECK_FALSE(parseSavedReport(std::vector<std::uint8_t>{0x7f, 'E', 'L', 'F'}).has_value());
}

TEST_CASE("a truncated libatasmart blob is refused with the reason") {
    auto report = loadData("atasmart-truncated.bin");
    REQUIRE_FALSE(report.has_value());
    CHECK(report.error().code() == ErrorCode::Parse);
    CHECK_THAT(report.error().message(), Catch::Contains("truncated"));

    // Every shorter prefix of a real blob is refused too, never read out of bounds.
    const auto blob = readBytes(sharedFixtures() / "atasmart" / "INTEL_SSDSA2CW120G3--4PC10302");
    for (std::size_t size = 0; size < blob.size(); size += 37) {
        CHECK_FALSE(parseAtasmartBlob(std::span(blob).first(size)).has_value());
    }
}

TEST_CASE("a blob without the SMST section loads with the overall status unknown", "[linux]") {
    auto report = loadData("atasmart-no-smst.bin");
    REQUIRE(report.has_value());
    CHECK(report->model == "INTEL SSDSA2CW120G3"); // as skdump --load prints for this blob
    CHECK_FALSE(report->smartOverallPassed.has_value());
    REQUIRE_FALSE(report->warnings.empty());
    CHECK_THAT(report->warnings.front(), Catch::Contains("SMST"));
    CHECK_FALSE(report->attributes.empty());
    CHECK(assessHealth(*report).verdict == Verdict::Good);
}

TEST_CASE("blob sections are checked: unknown, duplicate and wrongly sized sections") {
    const auto blob = readBytes(sharedFixtures() / "atasmart" / "INTEL_SSDSA2CW120G3--4PC10302");
    auto unknown = blob;
    std::copy_n("XXXX", 4, unknown.begin() + 520); // the second section's tag
    CHECK_THAT(parseAtasmartBlob(unknown).error().message(), Catch::Contains("unknown section"));

    auto duplicate = blob;
    duplicate.insert(duplicate.end(), blob.begin() + 520, blob.begin() + 532); // SMST again
    CHECK_THAT(parseAtasmartBlob(duplicate).error().message(), Catch::Contains("twice"));

    auto wrongSize = blob;
    wrongSize[527] = 5; // SMST length 4 → 5
    CHECK_FALSE(parseAtasmartBlob(wrongSize).has_value());
}

TEST_CASE("128-bit NVMe counters keep every digit") {
    auto report = loadData("nvme-128bit-counters.json");
    REQUIRE(report.has_value());
    REQUIRE(report->nvme.has_value());
    const auto& nvme = *report->nvme;
    CHECK(nvme.dataUnitsRead->toString() == "340282366920938463463374607431768211455");
    CHECK(nvme.dataUnitsWritten->toString() == "18446744073709551616");
    CHECK(nvme.dataUnitsWritten->high() == 1);
    // 2^53 + 1 cannot be a double: only the _s string has it exactly.
    CHECK(nvme.hostReads->toString() == "9007199254740993");
    CHECK(nvme.hostWrites->toString() == "12345");
    const auto derived = deriveValues(*report);
    // 2^64 data units × 512000 bytes
    CHECK(derived.hostWritesBytes->toString() == "9444732965739290427392000");
}

TEST_CASE("temperatures of 0 and -273 are unknown, never a verdict") {
    auto report = loadData("temperature-zero.json");
    REQUIRE(report.has_value());
    CHECK_FALSE(report->temperatureC.has_value());
    CHECK_FALSE(report->temperatureLifetimeMinC.has_value());
    CHECK_FALSE(report->temperatureLifetimeMaxC.has_value());
    CHECK(report->temperatureWarningC == 70);
    const auto assessment = assessHealth(*report);
    CHECK(assessment.verdict == Verdict::Good);
    for (const auto& reason : assessment.reasons) {
        CHECK(reason.code.find("temperature") == std::string::npos);
    }
}

TEST_CASE("a number too large for a double is a parse error (found by fuzzing)") {
    auto report = loadData("number-overflow.json");
    REQUIRE_FALSE(report.has_value());
    CHECK(report.error().code() == ErrorCode::Parse);
}
