#include "core/smart/health.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <fmt/format.h>

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

std::string describe(const AtaAttribute& attribute) {
    return fmt::format("{} {}", attribute.id, attribute.name);
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
    return options.previousReadAt.empty() ? std::string("the last report") : options.previousReadAt;
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
                derived.wearSource = "ATA " + describe(*attribute);
                break;
            }
        }
    }
    if (!derived.percentageUsed) {
        for (const auto name : kPercentUsedRawNames) {
            if (const AtaAttribute* attribute = findByName(report, name);
                attribute != nullptr && rawCount(*attribute) <= 1000) {
                derived.percentageUsed = static_cast<int>(rawCount(*attribute));
                derived.wearSource = "ATA " + describe(*attribute);
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
    Assessment assessment;
    auto add = [&](std::string code, std::string message, Severity severity) {
        assessment.reasons.push_back({std::move(code), std::move(message), severity});
    };

    const bool hasData = report.smartOverallPassed.has_value() || !report.attributes.empty() ||
                         report.nvme.has_value() || report.scsiGrownDefects.has_value() ||
                         report.scsiUncorrectedErrors.has_value();
    if (report.smartAvailable == false || !hasData) {
        add("no-smart",
            report.smartAvailable == false
                ? "The drive does not offer SMART, so its health cannot be judged."
                : "No SMART data could be read from the drive, so its health cannot be judged.",
            Severity::Info);
        assessment.verdict = Verdict::Unknown;
        return assessment;
    }

    if (report.smartOverallPassed == false) {
        add("smart-failed", "The drive's own SMART self-assessment says it is FAILING.",
            Severity::Bad);
    }
    for (const auto& attribute : report.attributes) {
        if (attribute.failingNow) {
            add("attribute-failing-now",
                fmt::format("Attribute {} is at or below its failure threshold now ({} ≤ {}).",
                            describe(attribute), attribute.value.value_or(0),
                            attribute.thresh.value_or(0)),
                Severity::Bad);
        } else if (attribute.failedInPast) {
            add("attribute-failed-in-past",
                fmt::format("Attribute {} reached its failure threshold in the past (worst {} ≤ "
                            "{}).",
                            describe(attribute), attribute.worst.value_or(0),
                            attribute.thresh.value_or(0)),
                Severity::Caution);
        }
    }

    struct SectorRule {
        std::uint8_t id;
        std::string_view code;
        std::string_view what;
    };
    static constexpr std::array kSectorRules{
        SectorRule{5, "reallocated-sectors", "sectors have been reallocated to spare area"},
        SectorRule{197, "pending-sectors", "sectors are unreadable and waiting to be reallocated"},
        SectorRule{198, "offline-uncorrectable", "sectors could not be corrected in offline scans"},
        SectorRule{196, "reallocation-events", "reallocation events have happened"},
    };
    for (const auto& rule : kSectorRules) {
        if (const AtaAttribute* attribute = report.attribute(rule.id)) {
            // Some vendors (Seagate) pack other fields into the upper bytes of these raw
            // values; no drive has 2^32 bad sectors, so only the low 32 bits are a count.
            if (const auto count = rawCount(*attribute) & 0xffff'ffffu; count > 0) {
                add(std::string(rule.code),
                    fmt::format("{} {} (attribute {}): the media is wearing or damaged.", count,
                                rule.what, describe(*attribute)),
                    Severity::Caution);
            }
        }
    }
    if (const AtaAttribute* crc = report.attribute(199)) {
        const auto count = rawCount(*crc);
        const AtaAttribute* before = options.previous ? options.previous->attribute(199) : nullptr;
        if (before != nullptr && count > rawCount(*before)) {
            add("interface-crc-errors-growing",
                fmt::format("CRC errors grew by {} since {} (from {} to {}): check the cable "
                            "and connector (this is link trouble, not worn media).",
                            count - rawCount(*before), since(options), rawCount(*before), count),
                Severity::Caution);
        } else if (count > 0) {
            add("interface-crc-errors",
                fmt::format("{} interface CRC errors were counted: they point to the cable or "
                            "connector, not to the media.",
                            count),
                Severity::Info);
        }
    }

    if (report.nvme) {
        const NvmeHealthLog& nvme = *report.nvme;
        for (const auto& bit : nvmeCriticalWarningBits()) {
            if ((nvme.criticalWarning & bit.mask) != 0) {
                add(std::string(bit.code), fmt::format("NVMe critical warning: {}.", bit.meaning),
                    bit.mask == 0x02 ? Severity::Caution : Severity::Bad);
            }
        }
        if (nvme.mediaErrors && *nvme.mediaErrors > UInt128(0)) {
            add("media-errors",
                fmt::format("{} unrecovered media and data-integrity errors were reported.",
                            nvme.mediaErrors->toString()),
                Severity::Caution);
        }
        if (nvme.warningTempTime && *nvme.warningTempTime > 0) {
            add("temperature-history",
                fmt::format("The drive spent {} minutes above its warning temperature and {} "
                            "above its critical temperature.",
                            *nvme.warningTempTime, nvme.criticalCompTime.value_or(0)),
                Severity::Info);
        }
    }
    if (report.scsiGrownDefects && *report.scsiGrownDefects > 0) {
        add("grown-defects",
            fmt::format("{} defects were added to the grown defect list.",
                        *report.scsiGrownDefects),
            Severity::Caution);
    }
    if (report.scsiUncorrectedErrors && *report.scsiUncorrectedErrors > 0) {
        add("media-errors",
            fmt::format("{} uncorrected read/write/verify errors were counted.",
                        *report.scsiUncorrectedErrors),
            Severity::Caution);
    }

    const DerivedValues derived = deriveValues(report);
    if (derived.percentageUsed) {
        const int used = *derived.percentageUsed;
        if (used >= 100) {
            add("wear-out",
                fmt::format("{} % of the rated write endurance is used ({}): the drive is past "
                            "its rated life and may switch to read-only.",
                            used, derived.wearSource),
                Severity::Caution);
        } else if (used >= options.thresholds.wearCautionPercentUsed) {
            add("wear-high",
                fmt::format("{} % of the rated write endurance is used ({}).", used,
                            derived.wearSource),
                Severity::Caution);
        }
    }
    if (report.nvme && report.nvme->availableSpare && report.nvme->availableSpareThreshold) {
        const int spare = *report.nvme->availableSpare;
        const int threshold = *report.nvme->availableSpareThreshold;
        if (spare < threshold) {
            add("spare-below-threshold",
                fmt::format("Available spare is {} %, below the drive's threshold of {} %.", spare,
                            threshold),
                Severity::Bad);
        } else if (spare <= threshold + options.thresholds.spareCautionMarginPercent) {
            add("spare-low",
                fmt::format("Available spare is {} %, close to the drive's threshold of {} %.",
                            spare, threshold),
                Severity::Caution);
        }
    }

    const ErrorLogCount errors = errorLogCount(report);
    const ErrorLogCount before =
        options.previous ? errorLogCount(*options.previous) : ErrorLogCount{};
    if (errors.known && before.known && errors.count > before.count) {
        add("error-log-grew",
            fmt::format("{} new error-log entries since {} (from {} to {}).",
                        errors.count - before.count, since(options), before.count, errors.count),
            Severity::Caution);
    } else if (errors.known && errors.count > 0) {
        add("error-log-entries",
            fmt::format("The drive's error log holds {} entries; watch whether it grows.",
                        errors.count),
            Severity::Info);
    }

    if (report.temperatureC) {
        const int now = *report.temperatureC;
        if (report.temperatureCriticalC && now >= *report.temperatureCriticalC) {
            add("temperature-critical",
                fmt::format("Temperature {} °C is at or above the drive's critical limit of {} °C.",
                            now, *report.temperatureCriticalC),
                Severity::Bad);
        } else if (report.temperatureWarningC && now >= *report.temperatureWarningC) {
            add("temperature-high",
                fmt::format("Temperature {} °C is at or above the drive's warning limit of {} °C.",
                            now, *report.temperatureWarningC),
                Severity::Caution);
        }
    }

    const unsigned exitStatus = report.smartctlExitStatus.value_or(0);
    bool selfTestFailed = (exitStatus & 0x80) != 0;
    if (report.selfTest && !report.selfTest->log.empty() && !report.selfTest->log.front().passed) {
        selfTestFailed = true;
    }
    if (selfTestFailed) {
        add("selftest-failed", "The most recent device self-test reported errors.",
            Severity::Caution);
    }
    for (const auto& warning : options.firmwareWarnings) {
        add("firmware-warning", "Known firmware issue (smartctl drive database): " + warning,
            Severity::Caution);
    }
    for (const auto& problem : options.knownFirmwareProblems) {
        add("firmware-known-problem", problem, Severity::Caution);
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
