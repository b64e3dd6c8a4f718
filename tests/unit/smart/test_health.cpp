// The assessment rules and derived values, on reports built for each rule.
#include <algorithm>
#include <catch2/catch.hpp>

#include "core/smart/health.h"

using namespace ssdk::smart;

namespace {

SmartReport ataReport() {
    SmartReport report;
    report.protocol = Protocol::Ata;
    report.model = "Test ATA";
    report.smartOverallPassed = true;
    return report;
}

AtaAttribute attribute(std::uint8_t id, std::string name, std::uint8_t value, std::uint8_t thresh,
                       std::uint64_t raw) {
    AtaAttribute a;
    a.id = id;
    a.name = std::move(name);
    a.value = value;
    a.worst = value;
    a.thresh = thresh;
    a.raw = raw;
    a.rawText = std::to_string(raw);
    a.failingNow = thresh > 0 && value <= thresh;
    a.failedInPast = a.failingNow;
    return a;
}

SmartReport nvmeReport() {
    SmartReport report;
    report.protocol = Protocol::Nvme;
    report.smartOverallPassed = true;
    NvmeHealthLog log;
    log.availableSpare = 100;
    log.availableSpareThreshold = 10;
    log.percentageUsed = 0;
    log.mediaErrors = UInt128(0);
    log.numErrLogEntries = UInt128(0);
    report.nvme = log;
    return report;
}

bool hasReason(const Assessment& assessment, const std::string& code, Severity severity) {
    return std::any_of(assessment.reasons.begin(), assessment.reasons.end(),
                       [&](const Reason& r) { return r.code == code && r.severity == severity; });
}

} // namespace

TEST_CASE("no SMART data gives an unknown verdict with a reason") {
    SmartReport empty;
    auto assessment = assessHealth(empty);
    CHECK(assessment.verdict == Verdict::Unknown);
    CHECK(hasReason(assessment, "no-smart", Severity::Info));

    SmartReport unavailable = ataReport();
    unavailable.smartAvailable = false;
    CHECK(assessHealth(unavailable).verdict == Verdict::Unknown);
}

TEST_CASE("overall failure and attributes failing now are bad, failing in the past a caution") {
    auto failed = ataReport();
    failed.smartOverallPassed = false;
    CHECK(assessHealth(failed).verdict == Verdict::Bad);
    CHECK(hasReason(assessHealth(failed), "smart-failed", Severity::Bad));

    auto failingNow = ataReport();
    failingNow.attributes.push_back(attribute(1, "Raw_Read_Error_Rate", 5, 6, 0));
    CHECK(assessHealth(failingNow).verdict == Verdict::Bad);

    auto past = ataReport();
    auto a = attribute(3, "Spin_Up_Time", 90, 21, 0);
    a.worst = 20;
    a.failedInPast = true;
    past.attributes.push_back(a);
    CHECK(assessHealth(past).verdict == Verdict::Caution);
    CHECK(hasReason(assessHealth(past), "attribute-failed-in-past", Severity::Caution));

    auto healthy = ataReport();
    healthy.attributes.push_back(attribute(1, "Raw_Read_Error_Rate", 100, 6, 0));
    healthy.attributes.push_back(attribute(9, "Power_On_Hours", 99, 0, 1234));
    CHECK(assessHealth(healthy).verdict == Verdict::Good);
    CHECK(assessHealth(healthy).reasons.empty());
}

TEST_CASE("sector counts are cautions, CRC errors are interface trouble") {
    for (const auto& [id, code] :
         std::vector<std::pair<std::uint8_t, std::string>>{{5, "reallocated-sectors"},
                                                           {197, "pending-sectors"},
                                                           {198, "offline-uncorrectable"},
                                                           {196, "reallocation-events"}}) {
        auto report = ataReport();
        report.attributes.push_back(attribute(id, "X", 100, 0, 8));
        const auto assessment = assessHealth(report);
        CHECK(assessment.verdict == Verdict::Caution);
        CHECK(hasReason(assessment, code, Severity::Caution));
    }
    auto crc = ataReport();
    crc.attributes.push_back(attribute(199, "UDMA_CRC_Error_Count", 200, 0, 12));
    auto assessment = assessHealth(crc);
    CHECK(assessment.verdict == Verdict::Good);
    REQUIRE(hasReason(assessment, "interface-crc-errors", Severity::Info));
    CHECK_THAT(assessment.reasons.front().message, Catch::Contains("cable"));

    auto before = ataReport();
    before.attributes.push_back(attribute(199, "UDMA_CRC_Error_Count", 200, 0, 3));
    AssessmentOptions options;
    options.previous = &before;
    CHECK(hasReason(assessHealth(crc, options), "interface-crc-errors-growing", Severity::Caution));
}

TEST_CASE("raw counts use the decoded text: '34 (Min/Max 20/45)' is 34") {
    auto a = attribute(194, "Temperature_Celsius", 66, 0, 0x2d0014000022);
    a.rawText = "34 (Min/Max 20/45)";
    CHECK(rawCount(a) == 34);
    a.rawText = "n/a";
    CHECK(rawCount(a) == 0x2d0014000022);
}

TEST_CASE("NVMe critical warning bits are each named") {
    for (const auto& bit : nvmeCriticalWarningBits()) {
        auto report = nvmeReport();
        report.nvme->criticalWarning = bit.mask;
        const auto assessment = assessHealth(report);
        INFO(bit.code);
        CHECK(assessment.verdict != Verdict::Good);
        REQUIRE_FALSE(assessment.reasons.empty());
        CHECK(assessment.reasons.front().code == bit.code);
        CHECK_THAT(assessment.reasons.front().message, Catch::Contains(std::string(bit.meaning)));
    }
    auto report = nvmeReport();
    report.nvme->criticalWarning = 0x0c;
    CHECK(assessHealth(report).reasons.size() == 2);
}

TEST_CASE("NVMe wear, spare and media errors") {
    auto worn = nvmeReport();
    worn.nvme->percentageUsed = 93;
    CHECK(hasReason(assessHealth(worn), "wear-high", Severity::Caution));
    worn.nvme->percentageUsed = 120;
    CHECK(hasReason(assessHealth(worn), "wear-out", Severity::Caution));

    auto spare = nvmeReport();
    spare.nvme->availableSpare = 15;
    CHECK(hasReason(assessHealth(spare), "spare-low", Severity::Caution));
    spare.nvme->availableSpare = 5;
    CHECK(assessHealth(spare).verdict == Verdict::Bad);

    auto media = nvmeReport();
    media.nvme->mediaErrors = UInt128(3);
    CHECK(hasReason(assessHealth(media), "media-errors", Severity::Caution));
}

TEST_CASE("error log: entries are told, growth is a caution") {
    auto now = nvmeReport();
    now.nvme->numErrLogEntries = UInt128(40);
    CHECK(hasReason(assessHealth(now), "error-log-entries", Severity::Info));
    CHECK(assessHealth(now).verdict == Verdict::Good);
    auto before = nvmeReport();
    before.nvme->numErrLogEntries = UInt128(38);
    AssessmentOptions options;
    options.previous = &before;
    CHECK(hasReason(assessHealth(now, options), "error-log-grew", Severity::Caution));

    auto ata = ataReport();
    ata.attributes.push_back(attribute(1, "Raw_Read_Error_Rate", 100, 6, 0));
    ata.ataErrorLogCount = 2;
    auto ataBefore = ata;
    ataBefore.ataErrorLogCount = 2;
    options.previous = &ataBefore;
    CHECK(assessHealth(ata, options).verdict == Verdict::Good);
}

TEST_CASE("temperature against the drive's own limits") {
    auto report = nvmeReport();
    report.temperatureC = 72;
    CHECK(assessHealth(report).verdict == Verdict::Good); // no limits known: no verdict
    report.temperatureWarningC = 70;
    report.temperatureCriticalC = 80;
    CHECK(hasReason(assessHealth(report), "temperature-high", Severity::Caution));
    report.temperatureC = 81;
    CHECK(hasReason(assessHealth(report), "temperature-critical", Severity::Bad));
}

TEST_CASE("firmware warnings from the drive database are cautions") {
    auto report = ataReport();
    report.attributes.push_back(attribute(1, "Raw_Read_Error_Rate", 100, 6, 0));
    AssessmentOptions options;
    options.firmwareWarnings = {"This firmware may lose data"};
    const auto assessment = assessHealth(report, options);
    CHECK(assessment.verdict == Verdict::Caution);
    CHECK(hasReason(assessment, "firmware-warning", Severity::Caution));
}

TEST_CASE("host writes: NVMe data units and ATA attributes with their units") {
    auto nvme = nvmeReport();
    nvme.nvme->dataUnitsWritten = UInt128(1000);
    CHECK(deriveValues(nvme).hostWritesBytes == UInt128(512'000'000));

    auto lbas = ataReport();
    lbas.attributes.push_back(attribute(241, "Total_LBAs_Written", 100, 0, 2000));
    CHECK(deriveValues(lbas).hostWritesBytes == UInt128(2000 * 512));
    lbas.logicalBlockSize = 4096;
    CHECK(deriveValues(lbas).hostWritesBytes == UInt128(2000 * 4096));

    auto intel = ataReport();
    intel.attributes.push_back(attribute(225, "Host_Writes_32MiB", 100, 0, 820));
    CHECK(deriveValues(intel).hostWritesBytes == UInt128(820ull << 25));

    auto gib = ataReport();
    gib.attributes.push_back(attribute(241, "Lifetime_Writes_GiB", 100, 0, 7));
    CHECK(deriveValues(gib).hostWritesBytes == UInt128(7ull << 30));

    auto decoded = ataReport();
    auto blob = attribute(241, "total-lbas-written", 100, 0, 820);
    blob.decodedBytes = 27'514'000'000;
    decoded.attributes.push_back(blob);
    CHECK(deriveValues(decoded).hostWritesBytes == UInt128(27'514'000'000));
}

TEST_CASE("power-on hours honour the minutes and half-minutes quirks") {
    auto hours = ataReport();
    hours.attributes.push_back(attribute(9, "Power_On_Hours", 99, 0, 1234));
    CHECK(deriveValues(hours).powerOnHours == 1234u);

    auto minutes = ataReport();
    minutes.attributes.push_back(attribute(9, "Power_On_Minutes", 99, 0, 600));
    CHECK(deriveValues(minutes).powerOnHours == 10u);

    auto halfMinutes = ataReport();
    halfMinutes.attributes.push_back(attribute(9, "Power_On_Half_Minutes", 99, 0, 1200));
    CHECK(deriveValues(halfMinutes).powerOnHours == 10u);

    auto packed = ataReport();
    auto a = attribute(9, "Power_On_Hours", 99, 0, 0x0c0000003039);
    a.rawText = "12345h+12m+00.000s";
    packed.attributes.push_back(a);
    CHECK(deriveValues(packed).powerOnHours == 12345u);

    auto reported = ataReport(); // smartctl's power_on_time wins when present
    reported.powerOnHours = 77;
    reported.attributes.push_back(attribute(9, "Power_On_Minutes", 99, 0, 600));
    CHECK(deriveValues(reported).powerOnHours == 77u);
}

TEST_CASE("ATA wear attributes by vendor, and remaining life from the wear rate") {
    auto intel = ataReport();
    intel.attributes.push_back(attribute(233, "Media_Wearout_Indicator", 97, 0, 0));
    intel.powerOnHours = 24 * 300;
    auto derived = deriveValues(intel);
    CHECK(derived.percentageUsed == 3);
    CHECK_THAT(derived.wearSource, Catch::Contains("233"));
    REQUIRE(derived.remainingLifeDays);
    CHECK(*derived.remainingLifeDays == Approx(300.0 / 3 * 97));

    auto samsung = ataReport();
    samsung.attributes.push_back(attribute(177, "Wear_Leveling_Count", 88, 0, 400));
    CHECK(deriveValues(samsung).percentageUsed == 12);

    auto micron = ataReport();
    micron.attributes.push_back(attribute(202, "Percent_Lifetime_Remain", 95, 1, 5));
    CHECK(deriveValues(micron).percentageUsed == 5);

    auto blob = ataReport();
    blob.attributes.push_back(attribute(233, "media-wearout-indicator", 9, 0, 0));
    CHECK(deriveValues(blob).percentageUsed == 91);
    CHECK(hasReason(assessHealth(blob), "wear-high", Severity::Caution));

    auto fresh = ataReport();
    fresh.attributes.push_back(attribute(233, "Media_Wearout_Indicator", 100, 0, 0));
    fresh.powerOnHours = 10;
    CHECK_FALSE(deriveValues(fresh).remainingLifeDays.has_value());
}

TEST_CASE("a write counter named with its unit wins over a Total_LBAs_Written alias") {
    // Dell-branded Intel S3520 (shared fixture): 225 Host_Writes_32MiB and 241
    // Total_LBAs_Written both hold 129493, a count of 32 MiB units.
    auto report = ataReport();
    report.attributes.push_back(attribute(241, "Total_LBAs_Written", 100, 0, 129493));
    report.attributes.push_back(attribute(225, "Host_Writes_32MiB", 100, 0, 129493));
    CHECK(deriveValues(report).hostWritesBytes == UInt128(129493ull << 25));
}
