#pragma once
// A device-mapper cache target (dm-cache, smq policy) over the origin, with the cache blocks
// and the metadata on devices a subclass provides: zram (RAM) or a cache drive (SSD-for-HDD).
//
//   /dev/mapper/NAME = cache(meta, data, origin)   (`dmsetup create NAME --table …`)
//
// Flushing a write-back cache switches the policy to `cleaner` until no block is dirty, then
// back to smq; disable flushes, then removes the mapping and the cache devices.
#include <optional>

#include "core/cachectl/backend.h"
#include "core/cachectl/host_env.h"

namespace ssdk::cachectl {

// One line of `dmsetup status` for a cache target, the fields we use.
struct DmCacheStatus {
    std::uint64_t cacheBlockSectors = 0;
    std::uint64_t usedBlocks = 0;
    std::uint64_t totalBlocks = 0;
    std::uint64_t readHits = 0;
    std::uint64_t readMisses = 0;
    std::uint64_t writeHits = 0;
    std::uint64_t writeMisses = 0;
    std::uint64_t dirtyBlocks = 0;
    bool writeBack = false;
    std::string policy;
};
Expected<DmCacheStatus> parseDmCacheStatus(std::string_view line);

// dm-cache with smq has neither a sequential cutoff nor a writeback target: marks both
// unsupported in capabilities, with the reasons.
void withoutDmCacheTuning(Capabilities& capabilities);

// The table line for the cache target.
std::string dmCacheTable(std::uint64_t originSectors, const std::string& meta,
                         const std::string& data, const std::string& origin, CacheMode mode,
                         std::string_view policy);

class DmCacheBackend : public Backend {
public:
    explicit DmCacheBackend(HostEnv env)
        : m_env(std::move(env)) {}

    Expected<ActiveCache> enable(const CachePlan& plan) override;
    Expected<void> disable(const ActiveCache& active) override;
    Expected<void> flush(const ActiveCache& active) override;
    Expected<void> setMode(ActiveCache& active, CacheMode mode) override;
    Expected<void> resize(ActiveCache& active, std::uint64_t cacheBytes) override;
    Expected<CacheStats> stats(const ActiveCache& active) const override;

protected:
    struct CacheDevices {
        std::string meta;
        std::string data;
        Json resources; // what removeCacheDevices needs
    };
    // The problems dm-cache itself has here (root, modules, dmsetup).
    std::vector<std::string> dmProblems() const;
    virtual Expected<CacheDevices> createCacheDevices(const CachePlan& plan) = 0;
    virtual Expected<void> removeCacheDevices(const Json& resources) = 0;
    // RAM held by the cache devices and the data they hold before/after compression.
    virtual void addDeviceStats(const Json& resources, CacheStats& stats) const = 0;

    const HostEnv& env() const { return m_env; }

private:
    Expected<DmCacheStatus> status(const std::string& name) const;
    Expected<void> load(const ActiveCache& active, const std::string& table);
    // Writes every dirty block back through the cleaner policy, then returns to smq. With
    // switchTo, both tables are in that mode (and the cleaner runs even when nothing is dirty
    // now); otherwise in the current one.
    Expected<void> clean(const ActiveCache& active,
                         std::optional<CacheMode> switchTo = std::nullopt);
    Expected<void> toLinear(const ActiveCache& active);
    void tune(const std::string& name);

    HostEnv m_env;
};

// zram devices (lz4/zstd) as dm-cache's cache and metadata devices: backend "zram-writecache".
class ZramCacheBackend final : public DmCacheBackend {
public:
    using DmCacheBackend::DmCacheBackend;
    std::string name() const override { return "zram-writecache"; }
    std::string title() const override { return "zram + device-mapper cache"; }
    Capabilities capabilities() const override;
    ProbeResult probe() const override;

protected:
    Expected<CacheDevices> createCacheDevices(const CachePlan& plan) override;
    Expected<void> removeCacheDevices(const Json& resources) override;
    void addDeviceStats(const Json& resources, CacheStats& stats) const override;
};

// A cache drive (SSD) in front of a slow one (HDD), Intel Smart Response style: "enhanced" is
// write-through, "maximized" write-back. Backend "ssd-cache". The cache drive is split by
// dm-linear into metadata (zeroed at enable) and cache blocks; its contents are overwritten.
class SsdCacheBackend final : public DmCacheBackend {
public:
    using DmCacheBackend::DmCacheBackend;
    std::string name() const override { return "ssd-cache"; }
    std::string title() const override { return "SSD caching a hard disk (dm-cache)"; }
    Capabilities capabilities() const override;
    ProbeResult probe() const override;

protected:
    Expected<CacheDevices> createCacheDevices(const CachePlan& plan) override;
    Expected<void> removeCacheDevices(const Json& resources) override;
    void addDeviceStats(const Json& resources, CacheStats& stats) const override;
};

// Metadata device size for a dm-cache of that many bytes (4 MiB + 16 B per block, ≥ 8 MiB).
std::uint64_t dmCacheMetadataBytes(std::uint64_t cacheBytes);
constexpr std::uint64_t kDmCacheBlockSectors = 64;           // 32 KiB cache blocks
constexpr std::uint64_t kMigrationThresholdSectors = 262144; // 128 MiB in flight

} // namespace ssdk::cachectl
