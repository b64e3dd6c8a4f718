#include "core/cachectl/backend.h"

#include <algorithm>

#include "core/base/bytes.h"

namespace ssdk::cachectl {

namespace {

constexpr std::uint64_t kMiB = 1024ULL * 1024ULL;
constexpr std::uint64_t kGiB = 1024ULL * kMiB;
constexpr std::uint64_t kMinimumCacheBytes = 16 * kMiB;

template <typename T> Expected<T> field(const Json& json, const char* key) {
    if (!json.is_object() || !json.contains(key)) {
        return fail(ErrorCode::Parse, std::string("missing field '") + key + "'");
    }
    try {
        return json.at(key).get<T>();
    } catch (const Json::exception&) {
        return fail(ErrorCode::Parse, std::string("field '") + key + "' has the wrong type");
    }
}

// An optional unsigned field: absent or null → nullopt; anything but a non-negative integer → a
// Parse error naming the field.
Expected<std::optional<std::uint64_t>> optionalUnsigned(const Json& json, const char* key) {
    if (!json.contains(key) || json[key].is_null()) {
        return std::optional<std::uint64_t>{};
    }
    const Json& value = json[key];
    if (value.is_number_unsigned() ||
        (value.is_number_integer() && value.get<std::int64_t>() >= 0)) {
        return std::optional<std::uint64_t>(value.get<std::uint64_t>());
    }
    return fail(ErrorCode::Parse,
                std::string("field '") + key + "' must be a non-negative integer");
}

bool validName(std::string_view name) {
    if (name.empty() || name.size() > 32) {
        return false;
    }
    return std::ranges::all_of(name, [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    });
}

} // namespace

std::string_view toString(CacheMode mode) {
    return mode == CacheMode::WriteBack ? "write-back" : "write-through";
}

std::string_view toString(Compression compression) {
    switch (compression) {
    case Compression::Lz4:
        return "lz4";
    case Compression::Zstd:
        return "zstd";
    case Compression::None:
        break;
    }
    return "none";
}

Expected<CacheMode> parseCacheMode(std::string_view text) {
    if (text == "write-through") {
        return CacheMode::WriteThrough;
    }
    if (text == "write-back") {
        return CacheMode::WriteBack;
    }
    return fail(ErrorCode::InvalidArgument,
                "cache mode must be write-through or write-back, not '" + std::string(text) + "'");
}

Expected<Compression> parseCompression(std::string_view text) {
    if (text == "none") {
        return Compression::None;
    }
    if (text == "lz4") {
        return Compression::Lz4;
    }
    if (text == "zstd") {
        return Compression::Zstd;
    }
    return fail(ErrorCode::InvalidArgument,
                "compression must be none, lz4 or zstd, not '" + std::string(text) + "'");
}

std::string ProbeResult::reasonText() const {
    std::string text;
    for (const auto& reason : reasons) {
        text += (text.empty() ? "" : "; ") + reason;
    }
    return text;
}

double CacheStats::hitRatio() const {
    const std::uint64_t total = hits + misses;
    return total == 0 ? 0.0 : static_cast<double>(hits) / static_cast<double>(total);
}

double CacheStats::compressionRatio() const {
    if (physicalBytes == 0 || logicalBytes == 0) {
        return 1.0;
    }
    return static_cast<double>(logicalBytes) / static_cast<double>(physicalBytes);
}

Json toJson(const CachePlan& plan) {
    Json json{{"origin", plan.origin},          {"name", plan.name},
              {"cache_bytes", plan.cacheBytes}, {"compression", toString(plan.compression)},
              {"mode", toString(plan.mode)},    {"cache_device", plan.cacheDevice}};
    // Only when set: absent means the backend's default (and keeps older readers happy).
    if (plan.sequentialCutoff) {
        json["sequential_cutoff"] = *plan.sequentialCutoff;
    }
    if (plan.writebackPercent) {
        json["writeback_percent"] = *plan.writebackPercent;
    }
    return json;
}

Expected<CachePlan> planFromJson(const Json& json) {
    CachePlan plan;
    auto origin = field<std::string>(json, "origin");
    auto name = field<std::string>(json, "name");
    auto bytes = field<std::uint64_t>(json, "cache_bytes");
    auto compression = field<std::string>(json, "compression");
    auto mode = field<std::string>(json, "mode");
    if (!origin || !name || !bytes || !compression || !mode) {
        return fail(ErrorCode::Parse, "a cache plan needs origin, name, cache_bytes, "
                                      "compression and mode");
    }
    auto parsedCompression = parseCompression(*compression);
    auto parsedMode = parseCacheMode(*mode);
    if (!parsedCompression) {
        return std::unexpected(parsedCompression.error());
    }
    if (!parsedMode) {
        return std::unexpected(parsedMode.error());
    }
    plan.origin = *origin;
    plan.name = *name;
    plan.cacheBytes = *bytes;
    plan.compression = *parsedCompression;
    plan.mode = *parsedMode;
    plan.cacheDevice = json.value("cache_device", "");
    // Journals written before the tuning existed have neither field: backend defaults.
    auto cutoff = optionalUnsigned(json, "sequential_cutoff");
    if (!cutoff) {
        return std::unexpected(cutoff.error());
    }
    auto percent = optionalUnsigned(json, "writeback_percent");
    if (!percent) {
        return std::unexpected(percent.error());
    }
    plan.sequentialCutoff = *cutoff;
    if (*percent) {
        if (**percent > 100) {
            return fail(ErrorCode::Parse, "field 'writeback_percent' must be 0–100, not " +
                                              std::to_string(**percent));
        }
        plan.writebackPercent = static_cast<unsigned>(**percent);
    }
    return plan;
}

Json toJson(const ActiveCache& active) {
    return Json{{"backend", active.backend},
                {"plan", toJson(active.plan)},
                {"cached_device", active.cachedDevice},
                {"resources", active.resources}};
}

Expected<ActiveCache> activeCacheFromJson(const Json& json) {
    auto backend = field<std::string>(json, "backend");
    auto cached = field<std::string>(json, "cached_device");
    if (!backend || !cached || !json.contains("plan")) {
        return fail(ErrorCode::Parse, "an active cache needs backend, plan and cached_device");
    }
    auto plan = planFromJson(json["plan"]);
    if (!plan) {
        return std::unexpected(plan.error());
    }
    return ActiveCache{*backend, *plan, *cached, json.value("resources", Json::object())};
}

Json toJson(const CacheStats& stats) {
    return Json{{"hits", stats.hits},
                {"misses", stats.misses},
                {"hit_ratio", stats.hitRatio()},
                {"dirty_bytes", stats.dirtyBytes},
                {"ram_used_bytes", stats.ramUsedBytes},
                {"cache_bytes", stats.cacheBytes},
                {"logical_bytes", stats.logicalBytes},
                {"physical_bytes", stats.physicalBytes},
                {"compression_ratio", stats.compressionRatio()},
                {"mode", toString(stats.mode)},
                {"sequential_cutoff",
                 stats.sequentialCutoff ? Json(*stats.sequentialCutoff) : Json(nullptr)},
                {"writeback_percent",
                 stats.writebackPercent ? Json(*stats.writebackPercent) : Json(nullptr)}};
}

Expected<CacheStats> cacheStatsFromJson(const Json& json) {
    if (!json.is_object()) {
        return fail(ErrorCode::Parse, "cache statistics must be an object");
    }
    CacheStats stats;
    try {
        stats.hits = json.value("hits", std::uint64_t{0});
        stats.misses = json.value("misses", std::uint64_t{0});
        stats.dirtyBytes = json.value("dirty_bytes", std::uint64_t{0});
        stats.ramUsedBytes = json.value("ram_used_bytes", std::uint64_t{0});
        stats.cacheBytes = json.value("cache_bytes", std::uint64_t{0});
        stats.logicalBytes = json.value("logical_bytes", std::uint64_t{0});
        stats.physicalBytes = json.value("physical_bytes", std::uint64_t{0});
    } catch (const Json::exception& error) {
        return fail(ErrorCode::Parse, std::string("cache statistics: ") + error.what());
    }
    auto cutoff = optionalUnsigned(json, "sequential_cutoff");
    auto percent = optionalUnsigned(json, "writeback_percent");
    if (!cutoff || !percent) {
        return std::unexpected(
            Error(cutoff ? percent.error() : cutoff.error()).addContext("cache statistics"));
    }
    stats.sequentialCutoff = *cutoff;
    if (*percent) {
        stats.writebackPercent = static_cast<unsigned>(std::min<std::uint64_t>(**percent, 100));
    }
    auto mode = parseCacheMode(json.value("mode", "write-through"));
    if (!mode) {
        return std::unexpected(mode.error());
    }
    stats.mode = *mode;
    return stats;
}

Json toJson(const ProbeResult& probe) {
    return Json{
        {"available", probe.available}, {"reasons", probe.reasons}, {"reason", probe.reasonText()}};
}

Json toJson(const Capabilities& capabilities) {
    Json compressions = Json::array();
    for (const auto compression : capabilities.compressions) {
        compressions.push_back(toString(compression));
    }
    return Json{{"write_back", capabilities.writeBack},
                {"compression", capabilities.compression},
                {"resize_live", capabilities.resizeLive},
                {"persistent", capabilities.persistent},
                {"ram_backed", capabilities.ramBacked},
                {"needs_cache_device", capabilities.needsCacheDevice},
                {"compressions", compressions},
                {"sequential_cutoff", capabilities.sequentialCutoff},
                {"writeback_percent", capabilities.writebackPercent},
                {"no_sequential_cutoff_reason", capabilities.noSequentialCutoffReason},
                {"no_writeback_percent_reason", capabilities.noWritebackPercentReason}};
}

Capabilities capabilitiesFromJson(const Json& json) {
    Capabilities capabilities;
    capabilities.writeBack = json.value("write_back", false);
    capabilities.compression = json.value("compression", false);
    capabilities.resizeLive = json.value("resize_live", false);
    capabilities.persistent = json.value("persistent", false);
    capabilities.ramBacked = json.value("ram_backed", true);
    capabilities.needsCacheDevice = json.value("needs_cache_device", false);
    capabilities.sequentialCutoff = json.value("sequential_cutoff", false);
    capabilities.writebackPercent = json.value("writeback_percent", false);
    capabilities.noSequentialCutoffReason = json.value("no_sequential_cutoff_reason", "");
    capabilities.noWritebackPercentReason = json.value("no_writeback_percent_reason", "");
    for (const auto& item : json.value("compressions", Json::array())) {
        if (item.is_string()) {
            if (auto parsed = parseCompression(item.get<std::string>()); parsed) {
                capabilities.compressions.push_back(*parsed);
            }
        }
    }
    return capabilities;
}

void BackendRegistry::add(std::unique_ptr<Backend> backend) {
    m_backends.push_back(std::move(backend));
}

Backend* BackendRegistry::find(std::string_view name) const {
    for (const auto& backend : m_backends) {
        if (backend->name() == name) {
            return backend.get();
        }
    }
    return nullptr;
}

std::vector<Backend*> BackendRegistry::all() const {
    std::vector<Backend*> result;
    for (const auto& backend : m_backends) {
        result.push_back(backend.get());
    }
    return result;
}

std::uint64_t suggestedCacheBytes(std::uint64_t totalRamBytes) {
    const std::uint64_t quarter = std::min(totalRamBytes / 4, 4 * kGiB);
    return quarter / kMiB * kMiB;
}

Expected<void> checkTuning(const CachePlan& plan) {
    if (plan.sequentialCutoff && *plan.sequentialCutoff > kMaxSequentialCutoff) {
        return fail(ErrorCode::InvalidArgument,
                    "the sequential cutoff must be at most 1 GiB (0: never bypass the cache), "
                    "not " +
                        std::to_string(*plan.sequentialCutoff) + " bytes (" +
                        formatIec(Bytes(*plan.sequentialCutoff)) + ")");
    }
    if (plan.writebackPercent && *plan.writebackPercent > 100) {
        return fail(ErrorCode::InvalidArgument,
                    "the writeback percent must be between 0 and 100, not " +
                        std::to_string(*plan.writebackPercent));
    }
    return {};
}

Expected<void> checkPlan(const CachePlan& plan, const Capabilities& capabilities) {
    if (plan.origin.empty() || plan.origin.front() != '/') {
        return fail(ErrorCode::InvalidArgument, "the device to cache must be an absolute path");
    }
    if (!validName(plan.name)) {
        return fail(ErrorCode::InvalidArgument,
                    "cache name must be 1–32 characters of a-z 0-9 - _, not '" + plan.name + "'");
    }
    if (capabilities.ramBacked && plan.cacheBytes < kMinimumCacheBytes) {
        return fail(ErrorCode::InvalidArgument, "a RAM cache needs at least 16 MiB");
    }
    if (plan.cacheBytes % 4096 != 0) {
        return fail(ErrorCode::InvalidArgument, "the cache size must be a multiple of 4 KiB");
    }
    if (plan.mode == CacheMode::WriteBack && !capabilities.writeBack) {
        return fail(ErrorCode::Unsupported, "this backend has no write-back mode");
    }
    if (std::ranges::find(capabilities.compressions, plan.compression) ==
        capabilities.compressions.end()) {
        return fail(ErrorCode::Unsupported, "this backend does not offer compression '" +
                                                std::string(toString(plan.compression)) + "'");
    }
    if (capabilities.needsCacheDevice && plan.cacheDevice.empty()) {
        return fail(ErrorCode::InvalidArgument,
                    "this backend needs a cache drive (--cache-device)");
    }
    if (!plan.cacheDevice.empty() && plan.cacheDevice == plan.origin) {
        return fail(ErrorCode::InvalidArgument, "the cache drive cannot be the cached device");
    }
    if (auto tuning = checkTuning(plan); !tuning) {
        return tuning;
    }
    auto unsupported = [](const char* knob, const std::string& reason) {
        return fail(ErrorCode::Unsupported, std::string("this backend cannot set ") + knob +
                                                (reason.empty() ? std::string() : ": " + reason));
    };
    if (plan.sequentialCutoff && !capabilities.sequentialCutoff) {
        return unsupported("a sequential cutoff", capabilities.noSequentialCutoffReason);
    }
    if (plan.writebackPercent && !capabilities.writebackPercent) {
        return unsupported("a writeback percent", capabilities.noWritebackPercentReason);
    }
    return {};
}

} // namespace ssdk::cachectl
