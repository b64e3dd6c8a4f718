#include "core/smart/health_rules.h"

#include <array>
#include <cstdint>
#include <fmt/format.h>

#include "core/base/translate.h"

namespace ssdk::smart {

namespace {

// Entries in the drive's error log: ATA SMART error log count, NVMe num_err_log_entries.
struct ErrorLogCount {
    bool known = false;
    std::uint64_t count = 0;
};

ErrorLogCount errorLogCount(const SmartReport& report) {
    if (report.nvme && report.nvme->numErrLogEntries && report.nvme->numErrLogEntries->fitsIn64()) {
        return {true, report.nvme->numErrLogEntries->low()};
    }
    if (report.ataErrorLogCount) {
        return {true, *report.ataErrorLogCount};
    }
    return {};
}

std::string since(const AssessmentOptions& options) {
    return options.previousReadAt.empty() ? trText("Health", "the last report").str()
                                          : options.previousReadAt;
}

// ATA attributes that count damaged or replaced sectors, in the order they are reported.
struct SectorCounter {
    std::uint8_t id;
    std::string_view code;
    TrText what;
};
constexpr std::array kSectorCounters{
    SectorCounter{5, "reallocated-sectors",
                  trText("Health", "sectors have been reallocated to spare area")},
    SectorCounter{197, "pending-sectors",
                  trText("Health", "sectors are unreadable and waiting to be reallocated")},
    SectorCounter{198, "offline-uncorrectable",
                  trText("Health", "sectors could not be corrected in offline scans")},
    SectorCounter{196, "reallocation-events",
                  trText("Health", "reallocation events have happened")},
};

constexpr std::uint8_t kNvmeTemperatureWarningBit = 0x02;

constexpr std::array kHealthRules{
    HealthRule{"overall-status", checkOverallStatus},
    HealthRule{"attribute-thresholds", checkAttributeThresholds},
    HealthRule{"sector-counts", checkSectorCounts},
    HealthRule{"interface-crc-errors", checkInterfaceCrcErrors},
    HealthRule{"nvme-critical-warning", checkNvmeCriticalWarning},
    HealthRule{"nvme-media-errors", checkNvmeMediaErrors},
    HealthRule{"nvme-temperature-history", checkNvmeTemperatureHistory},
    HealthRule{"scsi-grown-defects", checkScsiGrownDefects},
    HealthRule{"scsi-uncorrected-errors", checkScsiUncorrectedErrors},
    HealthRule{"wear", checkWear},
    HealthRule{"nvme-available-spare", checkNvmeAvailableSpare},
    HealthRule{"error-log", checkErrorLog},
    HealthRule{"temperature", checkTemperature},
    HealthRule{"self-test", checkSelfTest},
    HealthRule{"drive-database-warnings", checkDriveDatabaseWarnings},
    HealthRule{"known-firmware-problems", checkKnownFirmwareProblems},
};

} // namespace

std::span<const HealthRule> healthRules() {
    return kHealthRules;
}

std::string attributeLabel(const AtaAttribute& attribute) {
    return fmt::format("{} {}", attribute.id, attribute.name);
}

std::optional<Reason> missingSmartData(const SmartReport& report) {
    if (report.smartAvailable == false) {
        return Reason{
            "no-smart",
            trText("Health", "The drive does not offer SMART, so its health cannot be judged.")
                .str(),
            Severity::Info};
    }
    const bool hasData = report.smartOverallPassed.has_value() || !report.attributes.empty() ||
                         report.nvme.has_value() || report.scsiGrownDefects.has_value() ||
                         report.scsiUncorrectedErrors.has_value();
    if (!hasData) {
        return Reason{
            "no-smart",
            trText("Health",
                   "No SMART data could be read from the drive, so its health cannot be judged.")
                .str(),
            Severity::Info};
    }
    return std::nullopt;
}

std::vector<Reason> checkOverallStatus(const SmartReport& report, const AssessmentOptions&) {
    if (report.smartOverallPassed == false) {
        return {
            {"smart-failed",
             trText("Health", "The drive's own SMART self-assessment says it is FAILING.").str(),
             Severity::Bad}};
    }
    return {};
}

std::vector<Reason> checkAttributeThresholds(const SmartReport& report, const AssessmentOptions&) {
    std::vector<Reason> found;
    for (const auto& attribute : report.attributes) {
        if (attribute.failingNow) {
            found.push_back(
                {"attribute-failing-now",
                 trText("Health",
                        "Attribute {} is at or below its failure threshold now ({} ≤ {}).")
                     .format(attributeLabel(attribute), attribute.value.value_or(0),
                             attribute.thresh.value_or(0)),
                 Severity::Bad});
        } else if (attribute.failedInPast) {
            found.push_back(
                {"attribute-failed-in-past",
                 trText("Health",
                        "Attribute {} reached its failure threshold in the past (worst {} ≤ "
                        "{}).")
                     .format(attributeLabel(attribute), attribute.worst.value_or(0),
                             attribute.thresh.value_or(0)),
                 Severity::Caution});
        }
    }
    return found;
}

std::vector<Reason> checkSectorCounts(const SmartReport& report, const AssessmentOptions&) {
    std::vector<Reason> found;
    for (const auto& counter : kSectorCounters) {
        if (const AtaAttribute* attribute = report.attribute(counter.id)) {
            // Some vendors (Seagate) pack other fields into the upper bytes of these raw
            // values; no drive has 2^32 bad sectors, so only the low 32 bits are a count.
            if (const auto count = rawCount(*attribute) & 0xffff'ffffu; count > 0) {
                found.push_back(
                    {std::string(counter.code),
                     trText("Health", "{} {} (attribute {}): the media is wearing or damaged.")
                         .format(count, counter.what.str(), attributeLabel(*attribute)),
                     Severity::Caution});
            }
        }
    }
    return found;
}

std::vector<Reason> checkInterfaceCrcErrors(const SmartReport& report,
                                            const AssessmentOptions& options) {
    const AtaAttribute* crc = report.attribute(199);
    if (crc == nullptr) {
        return {};
    }
    const auto count = rawCount(*crc);
    const AtaAttribute* before = options.previous ? options.previous->attribute(199) : nullptr;
    if (before != nullptr && count > rawCount(*before)) {
        return {{"interface-crc-errors-growing",
                 trText("Health", "CRC errors grew by {} since {} (from {} to {}): check the cable "
                                  "and connector (this is link trouble, not worn media).")
                     .format(count - rawCount(*before), since(options), rawCount(*before), count),
                 Severity::Caution}};
    }
    if (count > 0) {
        return {
            {"interface-crc-errors",
             trText("Health", "{} interface CRC errors were counted: they point to the cable or "
                              "connector, not to the media.")
                 .format(count),
             Severity::Info}};
    }
    return {};
}

std::vector<Reason> checkNvmeCriticalWarning(const SmartReport& report, const AssessmentOptions&) {
    std::vector<Reason> found;
    if (!report.nvme) {
        return found;
    }
    for (const auto& bit : nvmeCriticalWarningBits()) {
        if ((report.nvme->criticalWarning & bit.mask) != 0) {
            found.push_back(
                {std::string(bit.code),
                 trText("Health", "NVMe critical warning: {}.").format(bit.meaning),
                 bit.mask == kNvmeTemperatureWarningBit ? Severity::Caution : Severity::Bad});
        }
    }
    return found;
}

std::vector<Reason> checkNvmeMediaErrors(const SmartReport& report, const AssessmentOptions&) {
    if (report.nvme && report.nvme->mediaErrors && *report.nvme->mediaErrors > UInt128(0)) {
        return {{"media-errors",
                 trText("Health", "{} unrecovered media and data-integrity errors were reported.")
                     .format(report.nvme->mediaErrors->toString()),
                 Severity::Caution}};
    }
    return {};
}

std::vector<Reason> checkNvmeTemperatureHistory(const SmartReport& report,
                                                const AssessmentOptions&) {
    if (report.nvme && report.nvme->warningTempTime && *report.nvme->warningTempTime > 0) {
        return {
            {"temperature-history",
             trText("Health", "The drive spent {} minutes above its warning temperature and {} "
                              "above its critical temperature.")
                 .format(*report.nvme->warningTempTime, report.nvme->criticalCompTime.value_or(0)),
             Severity::Info}};
    }
    return {};
}

std::vector<Reason> checkScsiGrownDefects(const SmartReport& report, const AssessmentOptions&) {
    if (report.scsiGrownDefects && *report.scsiGrownDefects > 0) {
        return {{"grown-defects",
                 trText("Health", "{} defects were added to the grown defect list.")
                     .format(*report.scsiGrownDefects),
                 Severity::Caution}};
    }
    return {};
}

std::vector<Reason> checkScsiUncorrectedErrors(const SmartReport& report,
                                               const AssessmentOptions&) {
    if (report.scsiUncorrectedErrors && *report.scsiUncorrectedErrors > 0) {
        return {{"media-errors",
                 trText("Health", "{} uncorrected read/write/verify errors were counted.")
                     .format(*report.scsiUncorrectedErrors),
                 Severity::Caution}};
    }
    return {};
}

std::vector<Reason> checkWear(const SmartReport& report, const AssessmentOptions& options) {
    const DerivedValues derived = deriveValues(report);
    if (!derived.percentageUsed) {
        return {};
    }
    const int used = *derived.percentageUsed;
    if (used >= 100) {
        return {
            {"wear-out",
             trText("Health", "{} % of the rated write endurance is used ({}): the drive is past "
                              "its rated life and may switch to read-only.")
                 .format(used, derived.wearSource),
             Severity::Caution}};
    }
    if (used >= options.thresholds.wearCautionPercentUsed) {
        return {{"wear-high",
                 trText("Health", "{} % of the rated write endurance is used ({}).")
                     .format(used, derived.wearSource),
                 Severity::Caution}};
    }
    return {};
}

std::vector<Reason> checkNvmeAvailableSpare(const SmartReport& report,
                                            const AssessmentOptions& options) {
    if (!report.nvme || !report.nvme->availableSpare || !report.nvme->availableSpareThreshold) {
        return {};
    }
    const int spare = *report.nvme->availableSpare;
    const int threshold = *report.nvme->availableSpareThreshold;
    if (spare < threshold) {
        return {{"spare-below-threshold",
                 trText("Health", "Available spare is {} %, below the drive's threshold of {} %.")
                     .format(spare, threshold),
                 Severity::Bad}};
    }
    if (spare <= threshold + options.thresholds.spareCautionMarginPercent) {
        return {
            {"spare-low",
             trText("Health", "Available spare is {} %, close to the drive's threshold of {} %.")
                 .format(spare, threshold),
             Severity::Caution}};
    }
    return {};
}

std::vector<Reason> checkErrorLog(const SmartReport& report, const AssessmentOptions& options) {
    const ErrorLogCount errors = errorLogCount(report);
    const ErrorLogCount before =
        options.previous ? errorLogCount(*options.previous) : ErrorLogCount{};
    if (errors.known && before.known && errors.count > before.count) {
        return {
            {"error-log-grew",
             trText("Health", "{} new error-log entries since {} (from {} to {}).")
                 .format(errors.count - before.count, since(options), before.count, errors.count),
             Severity::Caution}};
    }
    if (errors.known && errors.count > 0) {
        return {{"error-log-entries",
                 trText("Health", "The drive's error log holds {} entries; watch whether it grows.")
                     .format(errors.count),
                 Severity::Info}};
    }
    return {};
}

std::vector<Reason> checkTemperature(const SmartReport& report, const AssessmentOptions&) {
    if (!report.temperatureC) {
        return {};
    }
    const int now = *report.temperatureC;
    if (report.temperatureCriticalC && now >= *report.temperatureCriticalC) {
        return {{"temperature-critical",
                 trText("Health",
                        "Temperature {} °C is at or above the drive's critical limit of {} °C.")
                     .format(now, *report.temperatureCriticalC),
                 Severity::Bad}};
    }
    if (report.temperatureWarningC && now >= *report.temperatureWarningC) {
        return {{"temperature-high",
                 trText("Health",
                        "Temperature {} °C is at or above the drive's warning limit of {} °C.")
                     .format(now, *report.temperatureWarningC),
                 Severity::Caution}};
    }
    return {};
}

std::vector<Reason> checkSelfTest(const SmartReport& report, const AssessmentOptions&) {
    // smartctl exit status bit 7: the device self-test log contains errors.
    const bool logHasErrors = (report.smartctlExitStatus.value_or(0) & 0x80) != 0;
    const bool newestFailed =
        report.selfTest && !report.selfTest->log.empty() && !report.selfTest->log.front().passed;
    if (logHasErrors || newestFailed) {
        return {{"selftest-failed",
                 trText("Health", "The most recent device self-test reported errors.").str(),
                 Severity::Caution}};
    }
    return {};
}

std::vector<Reason> checkDriveDatabaseWarnings(const SmartReport&,
                                               const AssessmentOptions& options) {
    std::vector<Reason> found;
    for (const auto& warning : options.firmwareWarnings) {
        found.push_back(
            {"firmware-warning",
             trText("Health", "Known firmware issue (smartctl drive database): {}").format(warning),
             Severity::Caution});
    }
    return found;
}

std::vector<Reason> checkKnownFirmwareProblems(const SmartReport&,
                                               const AssessmentOptions& options) {
    std::vector<Reason> found;
    for (const auto& problem : options.knownFirmwareProblems) {
        found.push_back({"firmware-known-problem", problem, Severity::Caution});
    }
    return found;
}

} // namespace ssdk::smart
