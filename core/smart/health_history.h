#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

#include "core/base/error.h"
#include "core/smart/report.h"
#include "core/smart/smart_source.h"

namespace ssdk::smart {

// An earlier report of a drive and when it was read.
struct PreviousReport {
    SmartReport report;
    std::chrono::system_clock::time_point readAt;
};

// "2026-11-22 13:05 UTC": how the assessment names the time of the earlier report.
std::string formatReportTime(std::chrono::system_clock::time_point time);

// Each drive's earlier report, so the assessment can tell error-log and CRC-count growth.
// Files: <stateDir>/ssdkeeper/health/<model-serial>.json = {version, read_at (Unix seconds),
// raw: {format, data}} (the raw output, parsed again when loaded). A newer report replaces the
// stored one only once that is kBaselineAge old (or when a counter went down: another drive,
// or a reset), so a growth stays visible for a while instead of vanishing at the next refresh.
class HealthHistory {
public:
    static constexpr std::chrono::hours kBaselineAge{24};

    explicit HealthHistory(std::filesystem::path stateDir);

    const std::filesystem::path& directory() const { return m_dir; }
    // The file name of a drive: model and serial, file-name safe; nothing without a serial.
    static std::optional<std::string> keyFor(const SmartReport& report);

    // The stored report of this drive; nothing when there is none (or no serial).
    Expected<std::optional<PreviousReport>> load(const SmartReport& current) const;
    // Stores raw (parsed as `parsed`) as read at `now`, unless the stored one is younger than
    // kBaselineAge and no counter went down. True when written.
    Expected<bool> record(const SmartReport& parsed, const RawReport& raw,
                          std::chrono::system_clock::time_point now) const;

private:
    std::filesystem::path m_dir;
};

} // namespace ssdk::smart
