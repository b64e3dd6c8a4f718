#include "core/smart/health.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <iterator>
#include <optional>
#include <utility>
#include <vector>

#include "core/smart/health_rules.h"

namespace ssdk::smart {

namespace {

// ATA attributes whose normalized value counts down the remaining rated life from 100, by the
// names smartctl's drive database and libatasmart give them (vendor list in docs/health.md).
constexpr std::array kRemainingLifeNames{
    std::string_view("media_wearout_indicator"), // Intel 233
    std::string_view("wear_leveling_count"),     // Samsung 177, Crucial/Micron 173
    std::string_view("ssd_life_left"),           // Kingston/SandForce 231
    std::string_view("percent_lifetime_remain"), // Crucial/Micron 202
    std::string_view("remaining_lifetime_perc"), // WD/SanDisk 169
    std::string_view("percent_life_remaining"),  // WD 230/232
    std::string_view("wear_range_delta"),
};
// ATA attributes whose raw value is the percentage of rated life used.
constexpr std::array kPercentUsedRawNames{
    std::string_view("percent_lifetime_used"),
    std::string_view("perc_rated_life_used"),
};

// Host-write attributes and the bytes one raw unit stands for; 0 means "one logical block".
// Names that carry their unit come first: some drives (Dell-branded Intel S3520) also name the
// same 32 MiB counter "Total_LBAs_Written".
struct WriteUnit {
    std::string_view name;
    std::uint64_t bytesPerUnit;
};
constexpr std::array kHostWriteUnits{
    WriteUnit{"host_writes_32mib", 32ull << 20}, // Intel 225/241
    WriteUnit{"host_writes_gib", 1ull << 30},    // 241 on several SandForce/Kingston
    WriteUnit{"lifetime_writes_gib", 1ull << 30},
    WriteUnit{"total_writes_gib", 1ull << 30},
    WriteUnit{"host_writes_mib", 1ull << 20},
    WriteUnit{"total_lbas_written", 0},      // 241, most vendors
    WriteUnit{"total_host_sector_write", 0}, // Crucial/Micron 246
};

constexpr std::uint64_t kNvmeDataUnitBytes = 512'000; // 1000 × 512 bytes (NVMe base spec)

int rank(Severity severity) {
    return static_cast<int>(severity);
}

const AtaAttribute* findByName(const SmartReport& report, std::string_view wanted) {
    for (const auto& attribute : report.attributes) {
        if (normalizedAttributeName(attribute.name) == wanted) {
            return &attribute;
        }
    }
    return nullptr;
}

std::optional<std::uint64_t> powerOnHoursFromAttribute(const SmartReport& report) {
    const AtaAttribute* attribute = report.attribute(9);
    if (attribute == nullptr) {
        return std::nullopt;
    }
    const std::string name = normalizedAttributeName(attribute->name);
    const std::uint64_t count = rawCount(*attribute);
    // Drive database names carry the unit quirks of attribute 9.
    if (name.find("half_minutes") != std::string::npos) {
        return count / 120;
    }
    if (name.find("minutes") != std::string::npos) {
        return count / 60;
    }
    if (name.find("seconds") != std::string::npos) {
        return count / 3600;
    }
    return count;
}

} // namespace

std::string_view toString(Verdict verdict) {
    switch (verdict) {
    case Verdict::Good:
        return "good";
    case Verdict::Caution:
        return "caution";
    case Verdict::Bad:
        return "bad";
    case Verdict::Unknown:
        break;
    }
    return "unknown";
}

std::string_view toString(Severity severity) {
    switch (severity) {
    case Severity::Info:
        return "info";
    case Severity::Caution:
        return "caution";
    case Severity::Bad:
        break;
    }
    return "bad";
}

std::string normalizedAttributeName(std::string_view name) {
    std::string normalized;
    normalized.reserve(name.size());
    for (const char c : name) {
        normalized.push_back(
            c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
    return normalized;
}

std::uint64_t rawCount(const AtaAttribute& attribute) {
    const std::string& text = attribute.rawText;
    if (!text.empty() && std::isdigit(static_cast<unsigned char>(text.front())) != 0) {
        std::uint64_t value = 0;
        for (const char c : text) {
            if (std::isdigit(static_cast<unsigned char>(c)) == 0) {
                break;
            }
            const auto digit = static_cast<std::uint64_t>(c - '0');
            if (value > (UINT64_MAX - digit) / 10) {
                return attribute.raw;
            }
            value = value * 10 + digit;
        }
        return value;
    }
    return attribute.raw;
}

DerivedValues deriveValues(const SmartReport& report) {
    DerivedValues derived;
    derived.temperatureC = report.temperatureC;
    derived.temperatureMinC = report.temperatureLifetimeMinC;
    derived.temperatureMaxC = report.temperatureLifetimeMaxC;
    derived.powerOnHours =
        report.powerOnHours ? report.powerOnHours : powerOnHoursFromAttribute(report);
    derived.powerCycles = report.powerCycles;
    if (!derived.powerCycles) {
        if (const AtaAttribute* cycles = report.attribute(12)) {
            derived.powerCycles = rawCount(*cycles);
        }
    }

    if (report.nvme) {
        const NvmeHealthLog& nvme = *report.nvme;
        if (nvme.dataUnitsWritten) {
            derived.hostWritesBytes = nvme.dataUnitsWritten->saturatingMultiply(kNvmeDataUnitBytes);
        }
        if (nvme.percentageUsed) {
            derived.percentageUsed = *nvme.percentageUsed;
            derived.wearSource = "NVMe percentage_used";
        }
        if (nvme.availableSpare) {
            derived.availableSparePercent = *nvme.availableSpare;
        }
    }
    if (report.scsiPercentageUsed && !derived.percentageUsed) {
        derived.percentageUsed = *report.scsiPercentageUsed;
        derived.wearSource = "SCSI percentage used endurance indicator";
    }
    if (!derived.hostWritesBytes) {
        const std::uint64_t blockBytes = report.logicalBlockSize.value_or(512);
        for (const auto& unit : kHostWriteUnits) {
            const AtaAttribute* attribute = findByName(report, unit.name);
            if (attribute == nullptr) {
                continue;
            }
            if (attribute->decodedBytes) {
                derived.hostWritesBytes = UInt128(*attribute->decodedBytes);
            } else {
                derived.hostWritesBytes =
                    UInt128(rawCount(*attribute))
                        .saturatingMultiply(unit.bytesPerUnit == 0 ? blockBytes
                                                                   : unit.bytesPerUnit);
            }
            break;
        }
    }
    if (!derived.percentageUsed) {
        for (const auto name : kRemainingLifeNames) {
            const AtaAttribute* attribute = findByName(report, name);
            if (attribute != nullptr && attribute->value && *attribute->value <= 100) {
                derived.percentageUsed = 100 - *attribute->value;
                derived.wearSource = "ATA " + attributeLabel(*attribute);
                break;
            }
        }
    }
    if (!derived.percentageUsed) {
        for (const auto name : kPercentUsedRawNames) {
            if (const AtaAttribute* attribute = findByName(report, name);
                attribute != nullptr && rawCount(*attribute) <= 1000) {
                derived.percentageUsed = static_cast<int>(rawCount(*attribute));
                derived.wearSource = "ATA " + attributeLabel(*attribute);
                break;
            }
        }
    }
    if (!derived.availableSparePercent) {
        const AtaAttribute* spare = findByName(report, "available_reservd_space");
        if (spare == nullptr) {
            spare = findByName(report, "available_reserved_space");
        }
        if (spare != nullptr && spare->value && *spare->value <= 100) {
            derived.availableSparePercent = *spare->value;
        }
    }
    if (derived.percentageUsed && *derived.percentageUsed >= 1 && derived.powerOnHours &&
        *derived.powerOnHours > 0) {
        const double used = *derived.percentageUsed;
        const double hoursPerPercent = static_cast<double>(*derived.powerOnHours) / used;
        derived.remainingLifeDays = std::max(0.0, (100.0 - used) * hoursPerPercent / 24.0);
    }
    return derived;
}

Assessment assessHealth(const SmartReport& report, const AssessmentOptions& options) {
    if (std::optional<Reason> missing = missingSmartData(report)) {
        return {Verdict::Unknown, {std::move(*missing)}};
    }
    Assessment assessment;
    for (const HealthRule& rule : healthRules()) {
        std::vector<Reason> found = rule.check(report, options);
        assessment.reasons.insert(assessment.reasons.end(), std::make_move_iterator(found.begin()),
                                  std::make_move_iterator(found.end()));
    }
    std::stable_sort(
        assessment.reasons.begin(), assessment.reasons.end(),
        [](const Reason& a, const Reason& b) { return rank(a.severity) > rank(b.severity); });
    Severity worst = Severity::Info;
    for (const auto& reason : assessment.reasons) {
        worst = std::max(worst, reason.severity,
                         [](Severity a, Severity b) { return rank(a) < rank(b); });
    }
    assessment.verdict = worst == Severity::Bad       ? Verdict::Bad
                         : worst == Severity::Caution ? Verdict::Caution
                                                      : Verdict::Good;
    return assessment;
}

} // namespace ssdk::smart
