// Every shared fixture's assessment, verdict and every reason in order, equals the one recorded
// in tests/data/smart/health_verdicts.json. The file was written by the assessment as it stood
// before its rules became a table, so any change of verdict, reason, wording or order shows up
// here, named by fixture and options.
//
// To record it again after a deliberate change of the rules:
//   SSDK_WRITE_HEALTH_VERDICTS=1 build/release/bin/test_smart "[health-verdicts]"
// (the run writes the file and fails, so a recording run never passes as a check).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "core/smart/atasmart_parser.h"
#include "core/smart/health.h"
#include "core/smart/smartctl_parser.h"
#include "tests/unit/smart/smart_test_support.h"

using namespace ssdk::smart;
using namespace ssdk::smart::test;

namespace {

std::filesystem::path healthVerdictsFile() {
    return smartData() / "health_verdicts.json";
}

// The report as a later reading of the same drive would find it earlier: error logs and the
// CRC count at zero, so any count the fixture holds is growth.
SmartReport earlierReadingOf(const SmartReport& report) {
    SmartReport earlier = report;
    if (earlier.nvme && earlier.nvme->numErrLogEntries) {
        earlier.nvme->numErrLogEntries = UInt128(0);
    }
    if (earlier.ataErrorLogCount) {
        earlier.ataErrorLogCount = 0;
    }
    for (auto& attribute : earlier.attributes) {
        if (attribute.id == 199) {
            attribute.raw = 0;
            attribute.rawText = "0";
        }
    }
    return earlier;
}

nlohmann::json assessmentJson(const Assessment& assessment) {
    nlohmann::json reasons = nlohmann::json::array();
    for (const auto& reason : assessment.reasons) {
        reasons.push_back({{"code", reason.code},
                           {"severity", std::string(toString(reason.severity))},
                           {"message", reason.message}});
    }
    return {{"verdict", std::string(toString(assessment.verdict))}, {"reasons", reasons}};
}

// One fixture's assessments under each set of options that can change a verdict.
nlohmann::json assessmentsOf(const SmartReport& report) {
    nlohmann::json entry;
    entry["default"] = assessmentJson(assessHealth(report));

    AssessmentOptions strict;
    strict.thresholds.wearCautionPercentUsed = 1;
    strict.thresholds.spareCautionMarginPercent = 100;
    entry["strict-thresholds"] = assessmentJson(assessHealth(report, strict));

    const SmartReport earlier = earlierReadingOf(report);
    AssessmentOptions withHistory;
    withHistory.previous = &earlier;
    withHistory.previousReadAt = "2026-11-22 13:05 UTC";
    withHistory.firmwareWarnings = {"this firmware may lose data after a power loss"};
    withHistory.knownFirmwareProblems = {"Firmware 1.0 bricks the drive after 3.2 years."};
    entry["previous-report-and-firmware-notes"] = assessmentJson(assessHealth(report, withHistory));
    return entry;
}

// Every fixture the smart tests load, by "folder/file name"; a fixture that fails to load is
// recorded as such, so it is compared too.
nlohmann::json currentVerdicts() {
    nlohmann::json fixtures = nlohmann::json::object();
    for (const auto& file : filesIn(sharedFixtures() / "smartctl")) {
        const auto report = parseSmartctlJson(readText(file));
        fixtures["smartctl/" + file.filename().string()] =
            report ? assessmentsOf(*report) : nlohmann::json("does not load");
    }
    for (const auto& blob : filesIn(sharedFixtures() / "atasmart")) {
        const auto report = parseAtasmartBlob(readBytes(blob));
        fixtures["atasmart/" + blob.filename().string()] =
            report ? assessmentsOf(*report) : nlohmann::json("does not load");
    }
    return fixtures;
}

// Lines naming what differs between two assessments of one fixture under one set of options.
std::string assessmentDifference(const std::string& where, const nlohmann::json& expected,
                                 const nlohmann::json& actual) {
    if (expected == actual) {
        return {};
    }
    if (!expected.is_object() || !actual.is_object()) {
        return where + ": expected " + expected.dump() + "\n" + std::string(where.size(), ' ') +
               "  actual   " + actual.dump() + "\n";
    }
    std::string lines;
    if (expected.value("verdict", "") != actual.value("verdict", "")) {
        lines += where + ": verdict expected " + expected.value("verdict", "") + ", actual " +
                 actual.value("verdict", "") + "\n";
    }
    const auto& expectedReasons = expected.at("reasons");
    const auto& actualReasons = actual.at("reasons");
    const std::size_t count = std::max(expectedReasons.size(), actualReasons.size());
    for (std::size_t i = 0; i < count; ++i) {
        const auto expectedReason =
            i < expectedReasons.size() ? expectedReasons[i].dump() : std::string("(none)");
        const auto actualReason =
            i < actualReasons.size() ? actualReasons[i].dump() : std::string("(none)");
        if (expectedReason != actualReason) {
            lines += where + ": reason " + std::to_string(i + 1) + "\n    expected " +
                     expectedReason + "\n    actual   " + actualReason + "\n";
        }
    }
    return lines;
}

} // namespace

TEST_CASE("every fixture's health assessment equals the recorded one", "[health-verdicts][linux]") {
    const nlohmann::json current = currentVerdicts();
    if (std::getenv("SSDK_WRITE_HEALTH_VERDICTS") != nullptr) {
        std::ofstream(healthVerdictsFile(), std::ios::binary) << current.dump(2) << '\n';
        FAIL("recorded " << current.size() << " fixtures to " << healthVerdictsFile().string()
                         << "; run again without SSDK_WRITE_HEALTH_VERDICTS to compare");
    }
    REQUIRE(std::filesystem::exists(healthVerdictsFile()));
    const nlohmann::json golden = nlohmann::json::parse(readText(healthVerdictsFile()));
    REQUIRE(golden.is_object());

    std::string differences;
    std::size_t compared = 0;
    for (const auto& [name, expected] : golden.items()) {
        if (!current.contains(name)) {
            differences += name + ": recorded, but no such fixture is loaded now\n";
            continue;
        }
        const auto& actual = current.at(name);
        ++compared;
        if (!expected.is_object() || !actual.is_object()) {
            differences += assessmentDifference(name, expected, actual);
            continue;
        }
        for (const auto& [options, expectedAssessment] : expected.items()) {
            differences += assessmentDifference(
                name + " [" + options + "]", expectedAssessment,
                actual.contains(options) ? actual.at(options) : nlohmann::json("(not assessed)"));
        }
        for (const auto& [options, actualAssessment] : actual.items()) {
            if (!expected.contains(options)) {
                differences += name + " [" + options + "]: assessed, but not recorded\n";
            }
        }
    }
    for (const auto& [name, actual] : current.items()) {
        if (!golden.contains(name)) {
            differences += name + ": a fixture the recording does not have\n";
        }
    }
    if (!differences.empty()) {
        FAIL_CHECK(differences);
    }
    CHECK(compared > 0);
    CHECK(compared == golden.size());
    CHECK(current.size() == golden.size());
}
