#pragma once
// The rules assessHealth() runs, one concern each. Every rule is pure: it reads a report (and
// the caller's options) and returns its findings, in the order it found them; none when all is
// well. assessHealth() runs healthRules() in order and ranks the findings worst first.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/smart/health.h"
#include "core/smart/report.h"

namespace ssdk::smart {

// What every rule is: the report and the caller's options in, the findings out. The rules
// below are declared with it ("HealthCheck checkWear;" declares a function).
using HealthCheck = std::vector<Reason>(const SmartReport& report,
                                        const AssessmentOptions& options);

struct HealthRule {
    std::string_view name; // "sector-counts", for tests and logs
    HealthCheck* check;
};

// Every rule, in the order their findings are listed before ranking (equal severities keep it).
std::span<const HealthRule> healthRules();

// The finding that stops the assessment (verdict Unknown): the drive offers no SMART, or the
// source read no SMART data at all. Empty when there is something to judge.
std::optional<Reason> missingSmartData(const SmartReport& report);

// "smart-failed": the drive's own overall self-assessment says FAILING (bad).
HealthCheck checkOverallStatus;
// "attribute-failing-now" (bad) or "attribute-failed-in-past" (caution), per ATA attribute.
HealthCheck checkAttributeThresholds;
// Cautions for ATA reallocated (5), pending (197), offline-uncorrectable (198) sectors and
// reallocation events (196); only the low 32 bits of the raw count are read.
HealthCheck checkSectorCounts;
// ATA 199: growth since options.previous is a caution, a count without growth is told (info).
HealthCheck checkInterfaceCrcErrors;
// One finding per NVMe critical warning bit set; bit 1 (temperature) is a caution, others bad.
HealthCheck checkNvmeCriticalWarning;
// "media-errors": NVMe unrecovered media and data-integrity errors (caution).
HealthCheck checkNvmeMediaErrors;
// "temperature-history": minutes the NVMe drive spent above its warning temperature (info).
HealthCheck checkNvmeTemperatureHistory;
// "grown-defects": SCSI grown defect list entries (caution).
HealthCheck checkScsiGrownDefects;
// "media-errors": SCSI uncorrected read/write/verify errors (caution).
HealthCheck checkScsiUncorrectedErrors;
// Rated endurance used, from deriveValues(): "wear-out" from 100 %, "wear-high" from
// thresholds.wearCautionPercentUsed (both cautions).
HealthCheck checkWear;
// NVMe available spare against the drive's threshold: below is bad, within
// thresholds.spareCautionMarginPercent above it a caution.
HealthCheck checkNvmeAvailableSpare;
// Error-log entries (ATA error log or NVMe num_err_log_entries): growth since
// options.previous is a caution, entries without growth are told (info).
HealthCheck checkErrorLog;
// Current temperature against the drive's own critical (bad) and warning (caution) limits.
HealthCheck checkTemperature;
// "selftest-failed": smartctl exit status bit 7, or the newest logged self-test failed.
HealthCheck checkSelfTest;
// "firmware-warning": one caution per options.firmwareWarnings (smartctl drive database).
HealthCheck checkDriveDatabaseWarnings;
// "firmware-known-problem": one caution per options.knownFirmwareProblems (own catalog).
HealthCheck checkKnownFirmwareProblems;

// An attribute as findings name it: "5 Reallocated_Sector_Ct".
std::string attributeLabel(const AtaAttribute& attribute);

} // namespace ssdk::smart
