#include "core/smart/health_history.h"

#include <cstdio>
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

#include "core/base/atomic_file.h"
#include "core/base/json.h"
#include "core/smart/health_service.h"

namespace ssdk::smart {

namespace {

std::string sanitize(std::string_view text) {
    std::string result;
    for (char c : text) {
        const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                          (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
        result += safe ? c : '_';
    }
    if (result.empty() || result.front() == '.') {
        result.insert(result.begin(), '_');
    }
    return result.substr(0, 120);
}

// The counters whose growth the assessment reports; a decrease means another drive or a reset.
struct WatchedCounters {
    std::optional<std::uint64_t> crcErrors, errorLogEntries;
};

WatchedCounters watched(const SmartReport& report) {
    WatchedCounters counters;
    if (const AtaAttribute* crc = report.attribute(199)) {
        counters.crcErrors = rawCount(*crc);
    }
    if (report.nvme && report.nvme->numErrLogEntries && report.nvme->numErrLogEntries->fitsIn64()) {
        counters.errorLogEntries = report.nvme->numErrLogEntries->low();
    } else if (report.ataErrorLogCount) {
        counters.errorLogEntries = *report.ataErrorLogCount;
    }
    return counters;
}

bool wentDown(const std::optional<std::uint64_t>& before, const std::optional<std::uint64_t>& now) {
    return before && now && *now < *before;
}

} // namespace

std::string formatReportTime(std::chrono::system_clock::time_point time) {
    const auto seconds = std::chrono::time_point_cast<std::chrono::seconds>(time);
    return fmt::format("{:%Y-%m-%d %H:%M} UTC",
                       fmt::gmtime(std::chrono::system_clock::to_time_t(seconds)));
}

HealthHistory::HealthHistory(std::filesystem::path stateDir)
    : m_dir(std::move(stateDir) / "ssdkeeper" / "health") {}

std::optional<std::string> HealthHistory::keyFor(const SmartReport& report) {
    if (report.serial.empty()) {
        return std::nullopt;
    }
    return sanitize(report.model.empty() ? report.serial : report.model + "-" + report.serial);
}

Expected<std::optional<PreviousReport>> HealthHistory::load(const SmartReport& current) const {
    const auto key = keyFor(current);
    if (!key) {
        return std::optional<PreviousReport>{};
    }
    const auto path = m_dir / (*key + ".json");
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        return std::optional<PreviousReport>{};
    }
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    auto json = parseJson(text.str(), path.string());
    if (!json) {
        return std::unexpected(json.error());
    }
    if (!json->is_object() || json->value("version", 0) != 1 || !json->contains("read_at") ||
        !(*json)["read_at"].is_number_integer() || !json->contains("raw")) {
        return fail(ErrorCode::Parse, path.string() + " is not a saved health report");
    }
    auto raw = rawReportFromJson((*json)["raw"]);
    if (!raw) {
        return std::unexpected(raw.error().addContext("reading " + path.string()));
    }
    auto report = parseRawReport(*raw);
    if (!report) {
        return std::unexpected(report.error().addContext("reading " + path.string()));
    }
    if (report->serial != current.serial || report->model != current.model) {
        return std::optional<PreviousReport>{};
    }
    const auto readAt = std::chrono::system_clock::time_point(
        std::chrono::seconds((*json)["read_at"].get<std::int64_t>()));
    return std::optional<PreviousReport>(PreviousReport{std::move(*report), readAt});
}

Expected<bool> HealthHistory::record(const SmartReport& parsed, const RawReport& raw,
                                     std::chrono::system_clock::time_point now) const {
    const auto key = keyFor(parsed);
    if (!key) {
        return false;
    }
    auto previous = load(parsed);
    if (previous && *previous) {
        const auto before = watched((*previous)->report);
        const auto current = watched(parsed);
        const bool reset = wentDown(before.crcErrors, current.crcErrors) ||
                           wentDown(before.errorLogEntries, current.errorLogEntries);
        if (!reset && now - (*previous)->readAt < kBaselineAge) {
            return false;
        }
    }
    std::error_code ec;
    std::filesystem::create_directories(m_dir, ec);
    if (ec) {
        return fail(ErrorCode::Io, "creating " + m_dir.string() + ": " + ec.message());
    }
    const Json json{
        {"version", 1},
        {"read_at",
         std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count()},
        {"raw", toJson(raw)}};
    const auto path = m_dir / (*key + ".json");
    if (auto written = writeFileAtomically(path, json.dump() + "\n"); !written) {
        return std::unexpected(written.error());
    }
    return true;
}

} // namespace ssdk::smart
