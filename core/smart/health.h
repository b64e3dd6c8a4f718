#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/smart/report.h"

namespace ssdk::smart {

enum class Verdict { Good, Caution, Bad, Unknown };
std::string_view toString(Verdict verdict); // "good", "caution", "bad", "unknown"

// How much one finding weighs: Info is told but does not change the verdict.
enum class Severity { Info, Caution, Bad };
std::string_view toString(Severity severity); // "info", "caution", "bad"

// One finding: a stable code for scripts ("reallocated-sectors") and a sentence for people.
struct Reason {
    std::string code;
    std::string message;
    Severity severity = Severity::Info;
};

struct Assessment {
    Verdict verdict = Verdict::Unknown;
    std::vector<Reason> reasons; // worst first
};

// Every threshold the assessment uses, in one place (documented in docs/health.md).
struct HealthThresholds {
    // Percentage of rated endurance used from which wear is a caution (NVMe percentage_used,
    // ATA wear attributes as 100 - normalized value).
    std::uint8_t wearCautionPercentUsed = 90;
    // Available spare within this many points above the drive's own threshold is a caution;
    // below the threshold is bad.
    std::uint8_t spareCautionMarginPercent = 10;
};

// Values worked out from a report, in the units people read. Empty when unknown.
struct DerivedValues {
    std::optional<UInt128> hostWritesBytes;
    std::optional<std::uint64_t> powerOnHours;
    std::optional<std::uint64_t> powerCycles;
    std::optional<int> temperatureC, temperatureMinC, temperatureMaxC;
    std::optional<int> percentageUsed; // of rated endurance; may exceed 100
    std::string wearSource;            // "nvme percentage_used", "ATA 233 Media_Wearout_Indicator"
    std::optional<int> availableSparePercent;
    // Days until percentageUsed reaches 100 at the wear rate so far (percent used per
    // power-on hour); empty without wear data or before 1 % is used.
    std::optional<double> remainingLifeDays;
};

DerivedValues deriveValues(const SmartReport& report);

struct AssessmentOptions {
    HealthThresholds thresholds;
    // An earlier report of the same drive, to notice error-log and CRC-count growth.
    const SmartReport* previous = nullptr;
    // When `previous` was read, as people read it ("2026-11-22 13:05 UTC"); empty: unknown.
    std::string previousReadAt;
    // Warnings from smartctl's drive database for this model and firmware (drivedb.h).
    std::vector<std::string> firmwareWarnings;
    // Known firmware problems from SSD Keeper's own catalog, as sentences (core/firmware).
    std::vector<std::string> knownFirmwareProblems;
};

// Judges a report: pure, no I/O. Unknown when the source read no SMART data at all.
Assessment assessHealth(const SmartReport& report, const AssessmentOptions& options = {});

// The first decimal number in an attribute's decoded raw text ("34 (Min/Max 20/45)" → 34),
// else its raw value: counts as the source decoded them.
std::uint64_t rawCount(const AtaAttribute& attribute);

// An attribute name in one spelling for lookups: lower case, '-' as '_'
// ("Media_Wearout_Indicator" and libatasmart's "media-wearout-indicator" match).
std::string normalizedAttributeName(std::string_view name);

} // namespace ssdk::smart
