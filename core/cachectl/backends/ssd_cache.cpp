#include <fmt/format.h>

#include "core/cachectl/backends/dm_cache.h"

namespace ssdk::cachectl {

Capabilities SsdCacheBackend::capabilities() const {
    Capabilities capabilities;
    capabilities.writeBack = true;
    capabilities.compression = false;
    capabilities.resizeLive = false;
    capabilities.persistent = false;
    capabilities.ramBacked = false;
    capabilities.needsCacheDevice = true;
    capabilities.compressions = {Compression::None};
    withoutDmCacheTuning(capabilities);
    return capabilities;
}

ProbeResult SsdCacheBackend::probe() const {
    ProbeResult result;
    result.reasons = dmProblems();
    result.available = result.reasons.empty();
    return result;
}

Expected<DmCacheBackend::CacheDevices> SsdCacheBackend::createCacheDevices(const CachePlan& plan) {
    if (auto mounted = env().mountPointOf(plan.cacheDevice); mounted) {
        return fail(ErrorCode::Busy, plan.cacheDevice + " is mounted on " + *mounted +
                                         "; a cache drive is overwritten");
    }
    auto driveBytes = env().deviceBytes(plan.cacheDevice);
    if (!driveBytes) {
        return std::unexpected(driveBytes.error());
    }
    std::uint64_t usable = *driveBytes;
    if (plan.cacheBytes != 0 && plan.cacheBytes < usable) {
        usable = plan.cacheBytes;
    }
    const std::uint64_t metaSectors = dmCacheMetadataBytes(usable) / 512;
    const std::uint64_t blockSectors = kDmCacheBlockSectors;
    const std::uint64_t totalSectors = usable / 512;
    if (totalSectors <= metaSectors + blockSectors * 16) {
        return fail(ErrorCode::NoSpace, plan.cacheDevice + " is too small for a cache");
    }
    const std::uint64_t dataSectors = (totalSectors - metaSectors) / blockSectors * blockSectors;
    const std::string metaName = plan.name + "-cmeta";
    const std::string dataName = plan.name + "-cdata";
    const Json resources{{"linear", {metaName, dataName}}};
    auto removeCreated = [&] {
        for (const auto& dm : {dataName, metaName}) {
            (void)env().run({"dmsetup", "remove", "--retry", dm});
        }
    };
    auto meta = env().runChecked({"dmsetup", "create", metaName, "--table",
                                  fmt::format("0 {} linear {} 0", metaSectors, plan.cacheDevice)});
    if (!meta) {
        return std::unexpected(meta.error());
    }
    auto data = env().runChecked(
        {"dmsetup", "create", dataName, "--table",
         fmt::format("0 {} linear {} {}", dataSectors, plan.cacheDevice, metaSectors)});
    if (!data) {
        removeCreated();
        return std::unexpected(data.error());
    }
    (void)env().run({"udevadm", "settle", "--timeout=10"});
    (void)env().run({"dmsetup", "mknodes", metaName});
    (void)env().run({"dmsetup", "mknodes", dataName});
    // A fresh dm-cache needs zeroed metadata, or it would trust what the drive held before.
    auto zeroed = env().runChecked({"dd", "if=/dev/zero", "of=/dev/mapper/" + metaName, "bs=1M",
                                    fmt::format("count={}", metaSectors * 512 / (1024 * 1024)),
                                    "oflag=direct", "status=none"});
    if (!zeroed) {
        removeCreated();
        return std::unexpected(zeroed.error());
    }
    return CacheDevices{"/dev/mapper/" + metaName, "/dev/mapper/" + dataName, resources};
}

Expected<void> SsdCacheBackend::removeCacheDevices(const Json& resources) {
    Expected<void> result;
    const auto names = resources.value("linear", Json::array());
    for (auto it = names.rbegin(); it != names.rend(); ++it) {
        const std::string name = it->get<std::string>();
        auto removed = env().runChecked({"dmsetup", "remove", "--retry", name});
        if (!removed && result) {
            result = std::unexpected(removed.error());
        }
        // Without udev the /dev/mapper node stays behind; mknodes drops it (found in the lab).
        (void)env().run({"dmsetup", "mknodes", name});
    }
    return result;
}

void SsdCacheBackend::addDeviceStats(const Json& /*resources*/, CacheStats& stats) const {
    stats.ramUsedBytes = 0;
}

} // namespace ssdk::cachectl
