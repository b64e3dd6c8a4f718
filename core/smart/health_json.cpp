#include "core/smart/health_json.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "core/base/bytes.h"

namespace ssdk::smart {

namespace {

template <typename T> Json optionalJson(const std::optional<T>& value) {
    return value ? Json(*value) : Json(nullptr);
}

Json optionalCounter(const std::optional<UInt128>& value) {
    return value ? counterJson(*value) : Json(nullptr);
}

Json attributesJson(const SmartReport& report) {
    Json rows = Json::array();
    for (const auto& attribute : report.attributes) {
        rows.push_back({{"id", attribute.id},
                        {"name", attribute.name},
                        {"value", optionalJson(attribute.value)},
                        {"worst", optionalJson(attribute.worst)},
                        {"thresh", optionalJson(attribute.thresh)},
                        {"raw", attribute.raw},
                        {"raw_text", attribute.rawText},
                        {"prefailure", attribute.prefailure},
                        {"failing_now", attribute.failingNow},
                        {"failed_in_past", attribute.failedInPast}});
    }
    return rows;
}

Json nvmeJson(const NvmeHealthLog& nvme) {
    Json warnings = Json::array();
    for (const auto& bit : nvmeCriticalWarningBits()) {
        if ((nvme.criticalWarning & bit.mask) != 0) {
            warnings.push_back(bit.code);
        }
    }
    return {{"critical_warning", nvme.criticalWarning},
            {"critical_warning_names", warnings},
            {"temperature_c", optionalJson(nvme.temperatureC)},
            {"available_spare", optionalJson(nvme.availableSpare)},
            {"available_spare_threshold", optionalJson(nvme.availableSpareThreshold)},
            {"percentage_used", optionalJson(nvme.percentageUsed)},
            {"data_units_read", optionalCounter(nvme.dataUnitsRead)},
            {"data_units_written", optionalCounter(nvme.dataUnitsWritten)},
            {"host_reads", optionalCounter(nvme.hostReads)},
            {"host_writes", optionalCounter(nvme.hostWrites)},
            {"controller_busy_time", optionalCounter(nvme.controllerBusyTime)},
            {"power_cycles", optionalCounter(nvme.powerCycles)},
            {"power_on_hours", optionalCounter(nvme.powerOnHours)},
            {"unsafe_shutdowns", optionalCounter(nvme.unsafeShutdowns)},
            {"media_errors", optionalCounter(nvme.mediaErrors)},
            {"num_err_log_entries", optionalCounter(nvme.numErrLogEntries)},
            {"warning_temp_time", optionalJson(nvme.warningTempTime)},
            {"critical_comp_time", optionalJson(nvme.criticalCompTime)},
            {"temperature_sensors", nvme.temperatureSensors}};
}

Json selfTestJson(const SelfTestState& state) {
    Json log = Json::array();
    for (const auto& entry : state.log) {
        log.push_back({{"type", entry.type},
                       {"status", entry.status},
                       {"passed", entry.passed},
                       {"lifetime_hours", optionalJson(entry.lifetimeHours)}});
    }
    return {{"running", state.running},
            {"percent_remaining", optionalJson(state.percentRemaining)},
            {"status", state.statusText},
            {"short_minutes", optionalJson(state.shortMinutes)},
            {"extended_minutes", optionalJson(state.extendedMinutes)},
            {"log", log}};
}

} // namespace

std::string formatByteCount(const UInt128& bytes) {
    if (bytes.fitsIn64()) {
        return formatIec(Bytes(bytes.low()));
    }
    return fmt::format("{:.3g} EiB", bytes.toDouble() / 0x1p60);
}

FriendlyDuration friendlyDuration(double hours) {
    constexpr double kHoursPerDay = 24;
    constexpr double kHoursPerYear = 365 * kHoursPerDay;
    const double positive = std::max(0.0, hours);
    if (std::round(positive) < 2 * kHoursPerDay) {
        return {FriendlyDuration::Unit::Hours, std::round(positive)};
    }
    if (std::round(positive / kHoursPerDay) < 365) {
        return {FriendlyDuration::Unit::Days, std::round(positive / kHoursPerDay)};
    }
    return {FriendlyDuration::Unit::Years, std::round(positive / kHoursPerYear * 10) / 10};
}

Json counterJson(const UInt128& value) {
    constexpr std::uint64_t kExactInDouble = std::uint64_t{1} << 53;
    if (value.fitsIn64() && value.low() < kExactInDouble) {
        return value.low();
    }
    return value.toString();
}

DriveHealth makeDriveHealth(std::string device, SmartReport report,
                            const AssessmentOptions& options) {
    DriveHealth health;
    health.device = std::move(device);
    health.derived = deriveValues(report);
    health.assessment = assessHealth(report, options);
    health.report = std::move(report);
    return health;
}

DriveHealth makeNoSmartHealth(std::string device, const std::string& why) {
    DriveHealth health;
    health.device = std::move(device);
    health.assessment.verdict = Verdict::Unknown;
    health.assessment.reasons.push_back({"no-smart", "No SMART: " + why, Severity::Info});
    return health;
}

Json toJson(const DriveHealth& health) {
    Json reasons = Json::array();
    for (const auto& reason : health.assessment.reasons) {
        reasons.push_back({{"code", reason.code},
                           {"message", reason.message},
                           {"severity", toString(reason.severity)}});
    }
    const DerivedValues& derived = health.derived;
    Json json{
        {"device", health.device},
        {"health", {{"verdict", toString(health.assessment.verdict)}, {"reasons", reasons}}},
        {"temperature_c", optionalJson(derived.temperatureC)},
        {"temperature_min_c", optionalJson(derived.temperatureMinC)},
        {"temperature_max_c", optionalJson(derived.temperatureMaxC)},
        {"power_on_hours", optionalJson(derived.powerOnHours)},
        {"power_cycles", optionalJson(derived.powerCycles)},
        {"host_writes_bytes", optionalCounter(derived.hostWritesBytes)},
        {"percentage_used", optionalJson(derived.percentageUsed)},
        {"wear_source", derived.wearSource.empty() ? Json(nullptr) : Json(derived.wearSource)},
        {"available_spare_percent", optionalJson(derived.availableSparePercent)},
        {"remaining_life_days", optionalJson(derived.remainingLifeDays)}};
    if (!health.report) {
        for (const char* key :
             {"source", "model", "serial", "firmware", "model_family", "protocol", "capacity_bytes",
              "is_ssd", "trim_supported", "smart_overall_passed", "nvme", "self_test",
              "smartctl_exit_status"}) {
            json[key] = nullptr;
        }
        json["attributes"] = Json::array();
        json["warnings"] = Json::array();
        return json;
    }
    const SmartReport& report = *health.report;
    auto text = [](const std::string& value) {
        return value.empty() ? Json(nullptr) : Json(value);
    };
    json["source"] = toString(report.source);
    json["model"] = text(report.model);
    json["serial"] = text(report.serial);
    json["firmware"] = text(report.firmware);
    json["model_family"] = text(report.modelFamily);
    json["protocol"] =
        report.protocol == Protocol::Unknown ? Json(nullptr) : Json(toString(report.protocol));
    json["capacity_bytes"] = optionalJson(report.capacityBytes);
    json["is_ssd"] = optionalJson(report.isSsd);
    json["trim_supported"] = optionalJson(report.trimSupported);
    json["smart_overall_passed"] = optionalJson(report.smartOverallPassed);
    json["attributes"] = attributesJson(report);
    json["nvme"] = report.nvme ? nvmeJson(*report.nvme) : Json(nullptr);
    json["self_test"] = report.selfTest ? selfTestJson(*report.selfTest) : Json(nullptr);
    json["smartctl_exit_status"] = optionalJson(report.smartctlExitStatus);
    json["warnings"] = report.warnings;
    return json;
}

} // namespace ssdk::smart
