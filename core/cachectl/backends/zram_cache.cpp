#include <fmt/format.h>
#include <sstream>

#include "core/cachectl/backends/dm_cache.h"
#include "core/cachectl/backends/zram.h"

namespace ssdk::cachectl {

namespace {

const std::filesystem::path kControl = "/sys/class/zram-control";

std::filesystem::path zramSys(int id) {
    return "/sys/block/zram" + std::to_string(id);
}

// mm_stat: orig_data_size compr_data_size mem_used_total mem_limit mem_used_max same_pages …
std::vector<std::uint64_t> mmStat(const HostEnv& env, int id) {
    std::vector<std::uint64_t> values;
    if (auto text = env.read(zramSys(id) / "mm_stat"); text) {
        std::istringstream in(*text);
        for (std::uint64_t value = 0; in >> value;) {
            values.push_back(value);
        }
    }
    return values;
}

} // namespace

std::string zramPath(int id) {
    return "/dev/zram" + std::to_string(id);
}

Expected<int> zramAdd(const HostEnv& env, Compression compression, std::uint64_t bytes) {
    if (auto loaded = env.loadModule("zram"); !loaded) {
        return std::unexpected(loaded.error());
    }
    auto added = env.read(kControl / "hot_add");
    if (!added) {
        return std::unexpected(Error(added.error()).addContext("adding a zram device"));
    }
    int id = -1;
    try {
        id = std::stoi(*added);
    } catch (const std::exception&) {
        return fail(ErrorCode::Parse, "zram hot_add answered '" + *added + "'");
    }
    const std::string algorithm = compression == Compression::Zstd ? "zstd" : "lz4";
    // The algorithm must be chosen before the size (which initializes the device).
    auto configured = env.write(zramSys(id) / "comp_algorithm", algorithm);
    if (configured) {
        configured = env.write(zramSys(id) / "disksize", std::to_string(bytes));
    }
    if (!configured) {
        (void)zramRemove(env, id);
        return std::unexpected(
            Error(configured.error())
                .addContext("setting up " + zramPath(id) + " (" + algorithm + ")"));
    }
    return id;
}

Expected<void> zramRemove(const HostEnv& env, int id) {
    (void)env.write(zramSys(id) / "reset", "1");
    return withContext(env.write(kControl / "hot_remove", std::to_string(id)),
                       "removing " + zramPath(id));
}

void addZramStats(const HostEnv& env, const Json& resources, CacheStats& stats) {
    std::uint64_t original = 0;
    std::uint64_t compressed = 0;
    std::uint64_t used = 0;
    for (const auto& id : resources.value("zram", Json::array())) {
        const auto values = mmStat(env, id.get<int>());
        if (values.size() >= 3) {
            original += values[0];
            compressed += values[1];
            used += values[2];
        }
    }
    stats.ramUsedBytes = used;
    if (original > 0) {
        stats.logicalBytes = original;
        stats.physicalBytes = compressed;
    }
}

Capabilities ZramCacheBackend::capabilities() const {
    Capabilities capabilities;
    capabilities.writeBack = true;
    capabilities.compression = true;
    capabilities.resizeLive = true;
    capabilities.persistent = false;
    capabilities.ramBacked = true;
    capabilities.compressions = {Compression::Lz4, Compression::Zstd};
    withoutDmCacheTuning(capabilities);
    return capabilities;
}

ProbeResult ZramCacheBackend::probe() const {
    ProbeResult result;
    if (!env().exists(kControl)) {
        if (auto problem = env().moduleProblem("zram"); problem) {
            result.reasons.push_back(*problem);
        } else if (env().exists("/sys/module/zram")) {
            result.reasons.push_back("zram has no hot_add control (kernel " + env().kernelRelease +
                                     " is older than 4.2)");
        }
    }
    for (auto& problem : dmProblems()) {
        result.reasons.push_back(std::move(problem));
    }
    result.available = result.reasons.empty();
    return result;
}

Expected<DmCacheBackend::CacheDevices> ZramCacheBackend::createCacheDevices(const CachePlan& plan) {
    const std::uint64_t metaBytes = dmCacheMetadataBytes(plan.cacheBytes);
    auto meta = zramAdd(env(), plan.compression, metaBytes);
    if (!meta) {
        return std::unexpected(meta.error());
    }
    // The metadata is part of the RAM budget.
    const std::uint64_t dataBytes =
        plan.cacheBytes > metaBytes ? plan.cacheBytes - metaBytes : plan.cacheBytes;
    auto data = zramAdd(env(), plan.compression, dataBytes);
    if (!data) {
        (void)zramRemove(env(), *meta);
        return std::unexpected(data.error());
    }
    return CacheDevices{zramPath(*meta), zramPath(*data), Json{{"zram", {*meta, *data}}}};
}

Expected<void> ZramCacheBackend::removeCacheDevices(const Json& resources) {
    Expected<void> result;
    for (const auto& id : resources.value("zram", Json::array())) {
        if (auto removed = zramRemove(env(), id.get<int>()); !removed && result) {
            result = std::unexpected(removed.error());
        }
    }
    return result;
}

void ZramCacheBackend::addDeviceStats(const Json& resources, CacheStats& stats) const {
    addZramStats(env(), resources, stats);
}

} // namespace ssdk::cachectl
