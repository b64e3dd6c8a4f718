// Each health rule on its own, fed the smallest report that shows what it finds and misses.
#include <catch2/catch.hpp>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/smart/health.h"
#include "core/smart/health_rules.h"

using namespace ssdk::smart;

namespace {

// "code:severity" per finding, in order: what a rule found, without its wording.
std::vector<std::string> findingsOf(const std::vector<Reason>& found) {
    std::vector<std::string> summary;
    for (const auto& reason : found) {
        summary.push_back(reason.code + ":" + std::string(toString(reason.severity)));
    }
    return summary;
}

using Findings = std::vector<std::string>;

// The one finding a rule made, after checking it is the expected "code:severity".
Reason onlyFinding(const std::vector<Reason>& found, const std::string& expected) {
    REQUIRE(findingsOf(found) == Findings{expected});
    return found.front();
}

SmartReport bareAtaReport() {
    SmartReport report;
    report.protocol = Protocol::Ata;
    report.smartOverallPassed = true;
    return report;
}

SmartReport bareNvmeReport() {
    SmartReport report;
    report.protocol = Protocol::Nvme;
    report.smartOverallPassed = true;
    report.nvme = NvmeHealthLog{};
    return report;
}

AtaAttribute counterAttribute(std::uint8_t id, std::string name, std::uint64_t raw) {
    AtaAttribute counter;
    counter.id = id;
    counter.name = std::move(name);
    counter.value = 100;
    counter.worst = 100;
    counter.thresh = 0;
    counter.raw = raw;
    counter.rawText = std::to_string(raw);
    return counter;
}

const AssessmentOptions kDefaultOptions{};

// What `check` finds with one NVMe health log field set to each value in turn.
void checkNvmeFieldValues(SmartReport report, std::optional<std::uint8_t> NvmeHealthLog::*field,
                          HealthCheck* check,
                          const std::vector<std::pair<std::uint8_t, Findings>>& valuesAndFindings) {
    for (const auto& [value, expected] : valuesAndFindings) {
        INFO("field set to " << static_cast<int>(value));
        (*report.nvme).*field = value;
        CHECK(findingsOf(check(report, kDefaultOptions)) == expected);
    }
}

} // namespace

TEST_CASE("health rules run in the order their findings were always listed", "[health-rules]") {
    std::vector<std::string> names;
    for (const auto& rule : healthRules()) {
        REQUIRE(rule.check != nullptr);
        names.emplace_back(rule.name);
    }
    CHECK(names == std::vector<std::string>{
                       "overall-status", "attribute-thresholds", "sector-counts",
                       "interface-crc-errors", "nvme-critical-warning", "nvme-media-errors",
                       "nvme-temperature-history", "scsi-grown-defects", "scsi-uncorrected-errors",
                       "wear", "nvme-available-spare", "error-log", "temperature", "self-test",
                       "drive-database-warnings", "known-firmware-problems"});
    // A report with nothing wrong gives no finding from any rule.
    for (const auto& rule : healthRules()) {
        INFO(rule.name);
        CHECK(rule.check(bareAtaReport(), kDefaultOptions).empty());
        CHECK(rule.check(bareNvmeReport(), kDefaultOptions).empty());
    }
}

TEST_CASE("missing SMART data: not offered, or nothing read", "[health-rules]") {
    SmartReport report;
    auto missing = missingSmartData(report);
    REQUIRE(missing);
    CHECK(missing->code == "no-smart");
    CHECK(missing->severity == Severity::Info);
    CHECK(missing->message.find("No SMART data could be read") != std::string::npos);

    report.smartAvailable = false;
    report.smartOverallPassed = true;
    missing = missingSmartData(report);
    REQUIRE(missing);
    CHECK(missing->message.find("does not offer SMART") != std::string::npos);

    // Any one kind of data is something to judge.
    CHECK_FALSE(missingSmartData(bareAtaReport()));
    SmartReport attributesOnly;
    attributesOnly.attributes.push_back(counterAttribute(9, "Power_On_Hours", 1));
    CHECK_FALSE(missingSmartData(attributesOnly));
    CHECK_FALSE(missingSmartData(bareNvmeReport()));
    SmartReport scsi;
    scsi.scsiGrownDefects = 0;
    CHECK_FALSE(missingSmartData(scsi));
    scsi = {};
    scsi.scsiUncorrectedErrors = 0;
    CHECK_FALSE(missingSmartData(scsi));
}

TEST_CASE("overall status rule: FAILING is bad, PASSED or unknown says nothing", "[health-rules]") {
    SmartReport report = bareAtaReport();
    CHECK(checkOverallStatus(report, kDefaultOptions).empty());
    report.smartOverallPassed.reset();
    CHECK(checkOverallStatus(report, kDefaultOptions).empty());
    report.smartOverallPassed = false;
    CHECK(findingsOf(checkOverallStatus(report, kDefaultOptions)) == Findings{"smart-failed:bad"});
}

TEST_CASE("attribute threshold rule: failing now is bad, failed in the past a caution",
          "[health-rules]") {
    SmartReport report = bareAtaReport();
    AtaAttribute now = counterAttribute(4, "Start_Stop_Count", 0);
    now.value = 20;
    now.thresh = 20;
    now.failingNow = true;
    now.failedInPast = true; // failing now wins: one finding per attribute
    AtaAttribute past = counterAttribute(3, "Spin_Up_Time", 0);
    past.worst = 21;
    past.thresh = 21;
    past.failedInPast = true;
    report.attributes = {now, past, counterAttribute(5, "Reallocated_Sector_Ct", 0)};
    const auto found = checkAttributeThresholds(report, kDefaultOptions);
    REQUIRE(findingsOf(found) ==
            Findings{"attribute-failing-now:bad", "attribute-failed-in-past:caution"});
    CHECK(found[0].message ==
          "Attribute 4 Start_Stop_Count is at or below its failure threshold now (20 ≤ 20).");
    CHECK(found[1].message == "Attribute 3 Spin_Up_Time reached its failure threshold in the "
                              "past (worst 21 ≤ 21).");
}

TEST_CASE("sector count rule: ATA 5, 197, 198, 196 in that order, low 32 bits only",
          "[health-rules]") {
    SmartReport report = bareAtaReport();
    report.attributes = {counterAttribute(196, "Reallocated_Event_Count", 1),
                         counterAttribute(198, "Offline_Uncorrectable", 2),
                         counterAttribute(197, "Current_Pending_Sector", 3),
                         counterAttribute(5, "Reallocated_Sector_Ct", 4)};
    const auto found = checkSectorCounts(report, kDefaultOptions);
    REQUIRE(findingsOf(found) == Findings{"reallocated-sectors:caution", "pending-sectors:caution",
                                          "offline-uncorrectable:caution",
                                          "reallocation-events:caution"});
    CHECK(found[0].message == "4 sectors have been reallocated to spare area (attribute 5 "
                              "Reallocated_Sector_Ct): the media is wearing or damaged.");

    // Seagate packs other fields above bit 31: a zero low half is no damage.
    report.attributes = {counterAttribute(5, "Reallocated_Sector_Ct", 0x1'0000'0000ull),
                         counterAttribute(197, "Current_Pending_Sector", 0)};
    CHECK(checkSectorCounts(report, kDefaultOptions).empty());
    // The decoded text counts, not the raw field.
    AtaAttribute decoded = counterAttribute(5, "Reallocated_Sector_Ct", 0);
    decoded.rawText = "7 (0 1)";
    report.attributes = {decoded};
    CHECK(onlyFinding(checkSectorCounts(report, kDefaultOptions), "reallocated-sectors:caution")
              .message.starts_with("7 sectors"));
}

TEST_CASE("interface CRC rule: a count is told, growth since the last report a caution",
          "[health-rules]") {
    SmartReport report = bareAtaReport();
    report.attributes = {counterAttribute(199, "UDMA_CRC_Error_Count", 0)};
    CHECK(checkInterfaceCrcErrors(report, kDefaultOptions).empty());

    report.attributes = {counterAttribute(199, "UDMA_CRC_Error_Count", 12)};
    CHECK(findingsOf(checkInterfaceCrcErrors(report, kDefaultOptions)) ==
          Findings{"interface-crc-errors:info"});

    SmartReport earlier = bareAtaReport();
    earlier.attributes = {counterAttribute(199, "UDMA_CRC_Error_Count", 10)};
    AssessmentOptions options;
    options.previous = &earlier;
    CHECK(onlyFinding(checkInterfaceCrcErrors(report, options),
                      "interface-crc-errors-growing:caution")
              .message.starts_with("CRC errors grew by 2 since the last report (from 10 to "
                                   "12)"));
    options.previousReadAt = "2026-11-22 13:05 UTC";
    CHECK(onlyFinding(checkInterfaceCrcErrors(report, options),
                      "interface-crc-errors-growing:caution")
              .message.starts_with("CRC errors grew by 2 since 2026-11-22 13:05 UTC"));

    // No growth: the count alone is told.
    earlier.attributes = {counterAttribute(199, "UDMA_CRC_Error_Count", 12)};
    CHECK(findingsOf(checkInterfaceCrcErrors(report, options)) ==
          Findings{"interface-crc-errors:info"});
}

TEST_CASE("NVMe critical warning rule: one finding per bit, temperature only a caution",
          "[health-rules]") {
    SmartReport report = bareNvmeReport();
    report.nvme->criticalWarning = 0x3f;
    const auto found = checkNvmeCriticalWarning(report, kDefaultOptions);
    REQUIRE(findingsOf(found) ==
            Findings{"nvme-spare-below-threshold:bad", "nvme-temperature-threshold:caution",
                     "nvme-reliability-degraded:bad", "nvme-read-only:bad",
                     "nvme-volatile-backup-failed:bad", "nvme-pmr-read-only:bad"});
    CHECK(found[3].message == "NVMe critical warning: media has been placed in read-only mode.");

    report.nvme->criticalWarning = 0x02;
    CHECK(findingsOf(checkNvmeCriticalWarning(report, kDefaultOptions)) ==
          Findings{"nvme-temperature-threshold:caution"});
    CHECK(checkNvmeCriticalWarning(bareAtaReport(), kDefaultOptions).empty());
}

TEST_CASE("NVMe media error rule: any unrecovered error is a caution", "[health-rules]") {
    SmartReport report = bareNvmeReport();
    report.nvme->mediaErrors = UInt128(0);
    CHECK(checkNvmeMediaErrors(report, kDefaultOptions).empty());
    report.nvme->mediaErrors = UInt128(1, 0); // 2^64: counted in full
    CHECK(onlyFinding(checkNvmeMediaErrors(report, kDefaultOptions), "media-errors:caution")
              .message == "18446744073709551616 unrecovered media and data-integrity errors "
                          "were reported.");
}

TEST_CASE("NVMe temperature history rule: time above the warning temperature is told",
          "[health-rules]") {
    SmartReport report = bareNvmeReport();
    report.nvme->warningTempTime = 0;
    report.nvme->criticalCompTime = 3;
    CHECK(checkNvmeTemperatureHistory(report, kDefaultOptions).empty());
    report.nvme->warningTempTime = 45;
    CHECK(onlyFinding(checkNvmeTemperatureHistory(report, kDefaultOptions),
                      "temperature-history:info")
              .message == "The drive spent 45 minutes above its warning temperature and 3 "
                          "above its critical temperature.");
}

TEST_CASE("SCSI rules: grown defects and uncorrected errors are cautions", "[health-rules]") {
    SmartReport report;
    report.protocol = Protocol::Scsi;
    report.scsiGrownDefects = 0;
    report.scsiUncorrectedErrors = 0;
    CHECK(checkScsiGrownDefects(report, kDefaultOptions).empty());
    CHECK(checkScsiUncorrectedErrors(report, kDefaultOptions).empty());
    report.scsiGrownDefects = 8;
    report.scsiUncorrectedErrors = 2;
    CHECK(findingsOf(checkScsiGrownDefects(report, kDefaultOptions)) ==
          Findings{"grown-defects:caution"});
    CHECK(onlyFinding(checkScsiUncorrectedErrors(report, kDefaultOptions), "media-errors:caution")
              .message == "2 uncorrected read/write/verify errors were counted.");
}

TEST_CASE("wear rule: high from the threshold, worn out from 100 %", "[health-rules]") {
    SmartReport report = bareNvmeReport();
    const std::vector<std::pair<std::uint8_t, Findings>> percentUsedFindings{
        {89, {}},
        {90, {"wear-high:caution"}},
        {100, {"wear-out:caution"}},
        {130, {"wear-out:caution"}}};
    checkNvmeFieldValues(report, &NvmeHealthLog::percentageUsed, checkWear, percentUsedFindings);
    report.nvme->percentageUsed = 90;
    CHECK(onlyFinding(checkWear(report, kDefaultOptions), "wear-high:caution").message ==
          "90 % of the rated write endurance is used (NVMe percentage_used).");

    AssessmentOptions strict;
    strict.thresholds.wearCautionPercentUsed = 50;
    report.nvme->percentageUsed = 50;
    CHECK(findingsOf(checkWear(report, strict)) == Findings{"wear-high:caution"});

    // ATA: 100 minus the normalized value of a remaining-life attribute.
    SmartReport ata = bareAtaReport();
    AtaAttribute wearout = counterAttribute(233, "Media_Wearout_Indicator", 0);
    wearout.value = 5;
    ata.attributes = {wearout};
    CHECK(onlyFinding(checkWear(ata, kDefaultOptions), "wear-high:caution").message ==
          "95 % of the rated write endurance is used (ATA 233 Media_Wearout_Indicator).");
}

TEST_CASE("NVMe spare rule: below the threshold is bad, close above it a caution",
          "[health-rules]") {
    SmartReport report = bareNvmeReport();
    report.nvme->availableSpareThreshold = 10;
    const std::vector<std::pair<std::uint8_t, Findings>> spareFindings{
        {21, {}},
        {20, {"spare-low:caution"}},
        {10, {"spare-low:caution"}},
        {9, {"spare-below-threshold:bad"}}};
    checkNvmeFieldValues(report, &NvmeHealthLog::availableSpare, checkNvmeAvailableSpare,
                         spareFindings);
    report.nvme->availableSpare = 9;
    CHECK(onlyFinding(checkNvmeAvailableSpare(report, kDefaultOptions), "spare-below-threshold:bad")
              .message == "Available spare is 9 %, below the drive's threshold of 10 %.");

    AssessmentOptions wideMargin;
    wideMargin.thresholds.spareCautionMarginPercent = 90;
    report.nvme->availableSpare = 100;
    CHECK(findingsOf(checkNvmeAvailableSpare(report, wideMargin)) == Findings{"spare-low:caution"});
    // Without the drive's threshold there is nothing to compare with.
    report.nvme->availableSpareThreshold.reset();
    report.nvme->availableSpare = 1;
    CHECK(checkNvmeAvailableSpare(report, kDefaultOptions).empty());
}

TEST_CASE("error log rule: entries are told, growth since the last report a caution",
          "[health-rules]") {
    SmartReport ata = bareAtaReport();
    ata.ataErrorLogCount = 0;
    CHECK(checkErrorLog(ata, kDefaultOptions).empty());
    ata.ataErrorLogCount = 4;
    CHECK(findingsOf(checkErrorLog(ata, kDefaultOptions)) == Findings{"error-log-entries:info"});

    SmartReport earlier = bareAtaReport();
    AssessmentOptions options;
    options.previous = &earlier;
    // An earlier report without an error log cannot show growth.
    CHECK(findingsOf(checkErrorLog(ata, options)) == Findings{"error-log-entries:info"});
    earlier.ataErrorLogCount = 1;
    CHECK(onlyFinding(checkErrorLog(ata, options), "error-log-grew:caution").message ==
          "3 new error-log entries since the last report (from 1 to 4).");

    // NVMe num_err_log_entries, when it fits in 64 bits.
    SmartReport nvme = bareNvmeReport();
    nvme.nvme->numErrLogEntries = UInt128(7);
    CHECK(findingsOf(checkErrorLog(nvme, kDefaultOptions)) == Findings{"error-log-entries:info"});
    nvme.nvme->numErrLogEntries = UInt128(1, 0);
    CHECK(checkErrorLog(nvme, kDefaultOptions).empty());
}

TEST_CASE("temperature rule: against the drive's own critical and warning limits",
          "[health-rules]") {
    SmartReport report = bareNvmeReport();
    report.temperatureC = 90; // no limits known: nothing to judge against
    CHECK(checkTemperature(report, kDefaultOptions).empty());
    report.temperatureWarningC = 70;
    report.temperatureCriticalC = 80;
    report.temperatureC = 69;
    CHECK(checkTemperature(report, kDefaultOptions).empty());
    report.temperatureC = 70;
    CHECK(findingsOf(checkTemperature(report, kDefaultOptions)) ==
          Findings{"temperature-high:caution"});
    report.temperatureC = 80;
    CHECK(onlyFinding(checkTemperature(report, kDefaultOptions), "temperature-critical:bad")
              .message == "Temperature 80 °C is at or above the drive's critical limit of 80 °C.");
}

TEST_CASE("self-test rule: smartctl exit bit 7 or a failed newest log entry", "[health-rules]") {
    SmartReport report = bareAtaReport();
    report.smartctlExitStatus = 0x40; // error log bit only
    CHECK(checkSelfTest(report, kDefaultOptions).empty());
    report.smartctlExitStatus = 0x80;
    CHECK(findingsOf(checkSelfTest(report, kDefaultOptions)) ==
          Findings{"selftest-failed:caution"});

    report.smartctlExitStatus.reset();
    SelfTestState state;
    SelfTestEntry older;
    older.passed = false;
    state.log = {SelfTestEntry{}, older}; // newest first: only the newest counts
    report.selfTest = state;
    CHECK(checkSelfTest(report, kDefaultOptions).empty());
    std::swap(report.selfTest->log[0], report.selfTest->log[1]);
    CHECK(findingsOf(checkSelfTest(report, kDefaultOptions)) ==
          Findings{"selftest-failed:caution"});
}

TEST_CASE("firmware rules: drive database warnings and known problems, one caution each",
          "[health-rules]") {
    AssessmentOptions options;
    options.firmwareWarnings = {"update to 0309", "data loss after 40000 hours"};
    options.knownFirmwareProblems = {"Firmware 1.0 bricks the drive."};
    const auto warnings = checkDriveDatabaseWarnings(bareAtaReport(), options);
    REQUIRE(findingsOf(warnings) ==
            Findings{"firmware-warning:caution", "firmware-warning:caution"});
    CHECK(warnings[1].message ==
          "Known firmware issue (smartctl drive database): data loss after 40000 hours");
    const auto problems = checkKnownFirmwareProblems(bareAtaReport(), options);
    REQUIRE(findingsOf(problems) == Findings{"firmware-known-problem:caution"});
    CHECK(problems[0].message == "Firmware 1.0 bricks the drive.");
}

TEST_CASE("assessHealth combines the rules' findings worst first, in rule order within a "
          "severity",
          "[health-rules]") {
    SmartReport report = bareNvmeReport();
    report.nvme->numErrLogEntries = UInt128(2); // error-log-entries: info
    report.nvme->percentageUsed = 95;           // wear-high: caution
    report.nvme->criticalWarning = 0x02;        // nvme-temperature-threshold: caution
    report.nvme->availableSpare = 5;            // spare-below-threshold: bad
    report.nvme->availableSpareThreshold = 10;
    report.nvme->mediaErrors = UInt128(1); // media-errors: caution
    const Assessment assessment = assessHealth(report);
    CHECK(assessment.verdict == Verdict::Bad);
    CHECK(findingsOf(assessment.reasons) ==
          Findings{"spare-below-threshold:bad", "nvme-temperature-threshold:caution",
                   "media-errors:caution", "wear-high:caution", "error-log-entries:info"});

    report.nvme->availableSpare = 100;
    CHECK(assessHealth(report).verdict == Verdict::Caution);
    report.nvme = NvmeHealthLog{};
    report.nvme->numErrLogEntries = UInt128(2);
    CHECK(assessHealth(report).verdict == Verdict::Good);
    CHECK(assessHealth(SmartReport{}).verdict == Verdict::Unknown);
}

// Boundaries: every comparison of every rule at its limit, one below and one above, so that
// flipping >= to >, < to <=, && to ||, or a limit by one changes a finding. Run
// tests/mutation/mutate.py to see that they do.
namespace {

// What `check` finds for each report `vary` makes from `base` with one value each.
template <typename Value>
void checkBoundary(const SmartReport& base, HealthCheck* check, const AssessmentOptions& options,
                   const std::function<void(SmartReport&, Value)>& vary,
                   const std::vector<std::pair<Value, Findings>>& valuesAndFindings) {
    for (const auto& [value, expected] : valuesAndFindings) {
        INFO("value " << +value);
        SmartReport report = base;
        vary(report, value);
        CHECK(findingsOf(check(report, options)) == expected);
    }
}

AssessmentOptions boundaryOptions(std::uint8_t wearCaution, std::uint8_t spareMargin) {
    AssessmentOptions options;
    options.thresholds.wearCautionPercentUsed = wearCaution;
    options.thresholds.spareCautionMarginPercent = spareMargin;
    return options;
}

} // namespace

TEST_CASE("boundaries: wear-out at 100 %, wear-high at the caution threshold", "[health-rules]") {
    auto setUsed = [](SmartReport& report, int used) {
        report.nvme->percentageUsed = static_cast<std::uint8_t>(used);
    };
    const Findings none, high{"wear-high:caution"}, out{"wear-out:caution"};
    checkBoundary<int>(bareNvmeReport(), checkWear, kDefaultOptions, setUsed,
                       {{0, none},
                        {89, none},
                        {90, high},
                        {91, high},
                        {99, high},
                        {100, out},
                        {101, out},
                        {255, out}});
    checkBoundary<int>(bareNvmeReport(), checkWear, boundaryOptions(50, 10), setUsed,
                       {{49, none}, {50, high}, {51, high}});
    // A caution threshold at or above 100 %: only wear-out is left, and it starts at 100.
    checkBoundary<int>(bareNvmeReport(), checkWear, boundaryOptions(100, 10), setUsed,
                       {{99, none}, {100, out}, {101, out}});
    checkBoundary<int>(bareNvmeReport(), checkWear, boundaryOptions(101, 10), setUsed,
                       {{99, none}, {100, out}});
    // No wear figure at all: nothing to judge.
    CHECK(checkWear(bareNvmeReport(), boundaryOptions(0, 10)).empty());
}

TEST_CASE("boundaries: spare below the drive's threshold, and within the caution margin",
          "[health-rules]") {
    SmartReport base = bareNvmeReport();
    base.nvme->availableSpareThreshold = 10;
    auto setSpare = [](SmartReport& report, int spare) {
        report.nvme->availableSpare = static_cast<std::uint8_t>(spare);
    };
    const Findings none, low{"spare-low:caution"}, below{"spare-below-threshold:bad"};
    checkBoundary<int>(base, checkNvmeAvailableSpare, kDefaultOptions, setSpare,
                       {{0, below},
                        {9, below},
                        {10, low},
                        {11, low},
                        {19, low},
                        {20, low},
                        {21, none},
                        {100, none}});
    // No margin: only the threshold itself is close.
    checkBoundary<int>(base, checkNvmeAvailableSpare, boundaryOptions(90, 0), setSpare,
                       {{9, below}, {10, low}, {11, none}});
    // A threshold of 0: nothing is below it.
    base.nvme->availableSpareThreshold = 0;
    checkBoundary<int>(base, checkNvmeAvailableSpare, boundaryOptions(90, 0), setSpare,
                       {{0, low}, {1, none}});
    // The spare unknown (the threshold unknown: see the spare rule's own test).
    base.nvme->availableSpare.reset();
    CHECK(checkNvmeAvailableSpare(base, kDefaultOptions).empty());
}

TEST_CASE("boundaries: temperature at, below and above the warning and critical limits",
          "[health-rules]") {
    SmartReport base = bareNvmeReport();
    base.temperatureWarningC = 70;
    base.temperatureCriticalC = 80;
    auto setNow = [](SmartReport& report, int now) { report.temperatureC = now; };
    const Findings none, high{"temperature-high:caution"}, critical{"temperature-critical:bad"};
    checkBoundary<int>(base, checkTemperature, kDefaultOptions, setNow,
                       {{-40, none},
                        {69, none},
                        {70, high},
                        {71, high},
                        {79, high},
                        {80, critical},
                        {81, critical}});
    // Only one limit known: the other never fires.
    SmartReport warningOnly = base;
    warningOnly.temperatureCriticalC.reset();
    checkBoundary<int>(warningOnly, checkTemperature, kDefaultOptions, setNow,
                       {{69, none}, {70, high}, {120, high}});
    SmartReport criticalOnly = base;
    criticalOnly.temperatureWarningC.reset();
    checkBoundary<int>(criticalOnly, checkTemperature, kDefaultOptions, setNow,
                       {{75, none}, {79, none}, {80, critical}, {81, critical}});
    // No current temperature: no finding whatever the limits.
    CHECK(checkTemperature(base, kDefaultOptions).empty());
}

TEST_CASE("boundaries: each sector counter at 0 and 1, and the 32-bit mask", "[health-rules]") {
    const std::vector<std::pair<std::uint8_t, std::string>> counters{
        {5, "reallocated-sectors:caution"},
        {197, "pending-sectors:caution"},
        {198, "offline-uncorrectable:caution"},
        {196, "reallocation-events:caution"}};
    for (const auto& [id, finding] : counters) {
        INFO("attribute " << +id);
        auto withRaw = [id = id](SmartReport& report, std::uint64_t raw) {
            report.attributes = {counterAttribute(id, "Counter", raw)};
        };
        checkBoundary<std::uint64_t>(bareAtaReport(), checkSectorCounts, kDefaultOptions, withRaw,
                                     {{0, {}},
                                      {1, {finding}},
                                      {2, {finding}},
                                      {0xffff'ffffULL, {finding}},
                                      {0x1'0000'0000ULL, {}},
                                      {0x1'0000'0001ULL, {finding}},
                                      {0xffff'ffff'0000'0000ULL, {}}});
    }
    SmartReport report = bareAtaReport();
    report.attributes = {counterAttribute(5, "Reallocated_Sector_Ct", 0x7'0000'0001ULL)};
    CHECK(onlyFinding(checkSectorCounts(report, kDefaultOptions), "reallocated-sectors:caution")
              .message.starts_with("1 sectors"));
    report.attributes = {counterAttribute(5, "Reallocated_Sector_Ct", 0xffff'ffffULL)};
    CHECK(onlyFinding(checkSectorCounts(report, kDefaultOptions), "reallocated-sectors:caution")
              .message.starts_with("4294967295 sectors"));
    // Other attributes are not sector counters.
    report.attributes = {counterAttribute(4, "Start_Stop_Count", 9),
                         counterAttribute(199, "UDMA_CRC_Error_Count", 9)};
    CHECK(checkSectorCounts(report, kDefaultOptions).empty());
}

TEST_CASE("boundaries: CRC errors 0 and 1, growth by 0 and 1, and a counter that went back",
          "[health-rules]") {
    auto withCrc = [](SmartReport& report, std::uint64_t raw) {
        report.attributes = {counterAttribute(199, "UDMA_CRC_Error_Count", raw)};
    };
    const Findings none, told{"interface-crc-errors:info"},
        growing{"interface-crc-errors-growing:caution"};
    checkBoundary<std::uint64_t>(bareAtaReport(), checkInterfaceCrcErrors, kDefaultOptions, withCrc,
                                 {{0, none}, {1, told}, {2, told}});
    SmartReport earlier = bareAtaReport();
    withCrc(earlier, 5);
    AssessmentOptions options;
    options.previous = &earlier;
    checkBoundary<std::uint64_t>(bareAtaReport(), checkInterfaceCrcErrors, options, withCrc,
                                 {{4, told}, {5, told}, {6, growing}, {7, growing}});
    withCrc(earlier, 0);
    checkBoundary<std::uint64_t>(bareAtaReport(), checkInterfaceCrcErrors, options, withCrc,
                                 {{0, none}, {1, growing}});
    // A counter that went back (a reset, another drive): told, not growing.
    withCrc(earlier, 3);
    checkBoundary<std::uint64_t>(bareAtaReport(), checkInterfaceCrcErrors, options, withCrc,
                                 {{0, none}, {2, told}});
    // The earlier report had no attribute 199: no growth to judge.
    earlier.attributes.clear();
    checkBoundary<std::uint64_t>(bareAtaReport(), checkInterfaceCrcErrors, options, withCrc,
                                 {{0, none}, {1, told}});
}

TEST_CASE("boundaries: error log entries 0 and 1, growth by 0 and 1, ATA and NVMe",
          "[health-rules]") {
    auto ataEntries = [](SmartReport& report, std::uint64_t count) {
        report.ataErrorLogCount = count;
    };
    const Findings none, told{"error-log-entries:info"}, grew{"error-log-grew:caution"};
    checkBoundary<std::uint64_t>(bareAtaReport(), checkErrorLog, kDefaultOptions, ataEntries,
                                 {{0, none}, {1, told}, {2, told}});
    SmartReport earlier = bareAtaReport();
    earlier.ataErrorLogCount = 4;
    AssessmentOptions options;
    options.previous = &earlier;
    checkBoundary<std::uint64_t>(bareAtaReport(), checkErrorLog, options, ataEntries,
                                 {{3, told}, {4, told}, {5, grew}, {6, grew}});
    earlier.ataErrorLogCount = 0;
    checkBoundary<std::uint64_t>(bareAtaReport(), checkErrorLog, options, ataEntries,
                                 {{0, none}, {1, grew}});
    // The current report without a log: nothing, whatever the earlier one held.
    CHECK(checkErrorLog(bareAtaReport(), options).empty());

    auto nvmeEntries = [](SmartReport& report, std::uint64_t count) {
        report.nvme->numErrLogEntries = UInt128(count);
    };
    checkBoundary<std::uint64_t>(bareNvmeReport(), checkErrorLog, kDefaultOptions, nvmeEntries,
                                 {{0, none}, {1, told}});
    SmartReport earlierNvme = bareNvmeReport();
    earlierNvme.nvme->numErrLogEntries = UInt128(7);
    AssessmentOptions nvmeOptions;
    nvmeOptions.previous = &earlierNvme;
    checkBoundary<std::uint64_t>(bareNvmeReport(), checkErrorLog, nvmeOptions, nvmeEntries,
                                 {{6, told}, {7, told}, {8, grew}});
    // NVMe's count wins over an ATA count in the same report.
    SmartReport both = bareNvmeReport();
    both.nvme->numErrLogEntries = UInt128(0);
    both.ataErrorLogCount = 9;
    CHECK(checkErrorLog(both, kDefaultOptions).empty());
    // A count beyond 64 bits is not read; the ATA one is used instead.
    both.nvme->numErrLogEntries = UInt128(1, 0);
    CHECK(onlyFinding(checkErrorLog(both, kDefaultOptions), "error-log-entries:info")
              .message.find("holds 9 entries") != std::string::npos);
}

TEST_CASE("boundaries: each NVMe critical warning bit alone, and the bits no rule knows",
          "[health-rules]") {
    auto setWarning = [](SmartReport& report, int bits) {
        report.nvme->criticalWarning = static_cast<std::uint8_t>(bits);
    };
    checkBoundary<int>(
        bareNvmeReport(), checkNvmeCriticalWarning, kDefaultOptions, setWarning,
        {{0x00, {}},
         {0x01, {"nvme-spare-below-threshold:bad"}},
         {0x02, {"nvme-temperature-threshold:caution"}},
         {0x04, {"nvme-reliability-degraded:bad"}},
         {0x08, {"nvme-read-only:bad"}},
         {0x10, {"nvme-volatile-backup-failed:bad"}},
         {0x20, {"nvme-pmr-read-only:bad"}},
         {0x40, {}},
         {0x80, {}},
         {0x03, {"nvme-spare-below-threshold:bad", "nvme-temperature-threshold:caution"}}});
}

TEST_CASE("boundaries: media errors, temperature history and SCSI counts at 0 and 1",
          "[health-rules]") {
    auto setMedia = [](SmartReport& report, std::uint64_t count) {
        report.nvme->mediaErrors = UInt128(count);
    };
    checkBoundary<std::uint64_t>(bareNvmeReport(), checkNvmeMediaErrors, kDefaultOptions, setMedia,
                                 {{0, {}}, {1, {"media-errors:caution"}}});
    auto setWarningTime = [](SmartReport& report, std::uint64_t minutes) {
        report.nvme->warningTempTime = minutes;
    };
    checkBoundary<std::uint64_t>(bareNvmeReport(), checkNvmeTemperatureHistory, kDefaultOptions,
                                 setWarningTime, {{0, {}}, {1, {"temperature-history:info"}}});
    auto setGrown = [](SmartReport& report, std::uint64_t count) {
        report.scsiGrownDefects = count;
    };
    checkBoundary<std::uint64_t>(SmartReport{}, checkScsiGrownDefects, kDefaultOptions, setGrown,
                                 {{0, {}}, {1, {"grown-defects:caution"}}});
    auto setUncorrected = [](SmartReport& report, std::uint64_t count) {
        report.scsiUncorrectedErrors = count;
    };
    checkBoundary<std::uint64_t>(SmartReport{}, checkScsiUncorrectedErrors, kDefaultOptions,
                                 setUncorrected, {{0, {}}, {1, {"media-errors:caution"}}});
}

TEST_CASE("boundaries: self-test exit bit 7 alone, and the newest log entry alone",
          "[health-rules]") {
    auto setExit = [](SmartReport& report, int status) {
        report.smartctlExitStatus = static_cast<std::uint8_t>(status);
    };
    const Findings none, failed{"selftest-failed:caution"};
    checkBoundary<int>(bareAtaReport(), checkSelfTest, kDefaultOptions, setExit,
                       {{0x00, none}, {0x7f, none}, {0x80, failed}, {0xff, failed}});
    auto setNewest = [](SmartReport& report, int newestPassed) {
        SelfTestState state;
        SelfTestEntry newest;
        newest.passed = newestPassed != 0;
        state.log = {newest};
        report.selfTest = state;
    };
    checkBoundary<int>(bareAtaReport(), checkSelfTest, kDefaultOptions, setNewest,
                       {{1, none}, {0, failed}});
    // An empty log, or a passing newest test with exit bit 7 set.
    SmartReport report = bareAtaReport();
    report.selfTest = SelfTestState{};
    CHECK(checkSelfTest(report, kDefaultOptions).empty());
    setNewest(report, 1);
    setExit(report, 0x80);
    CHECK(findingsOf(checkSelfTest(report, kDefaultOptions)) == failed);
}

TEST_CASE("boundaries: overall status and attribute thresholds, each flag alone",
          "[health-rules]") {
    SmartReport report = bareAtaReport();
    AtaAttribute attribute = counterAttribute(3, "Spin_Up_Time", 0);
    report.attributes = {attribute};
    CHECK(checkAttributeThresholds(report, kDefaultOptions).empty());
    report.attributes[0].failingNow = true;
    CHECK(findingsOf(checkAttributeThresholds(report, kDefaultOptions)) ==
          Findings{"attribute-failing-now:bad"});
    report.attributes[0].failingNow = false;
    report.attributes[0].failedInPast = true;
    CHECK(findingsOf(checkAttributeThresholds(report, kDefaultOptions)) ==
          Findings{"attribute-failed-in-past:caution"});
    report.smartOverallPassed = true;
    CHECK(checkOverallStatus(report, kDefaultOptions).empty());
}
