#pragma once
// Pluggable RAM/SSD cache backends (docs/ram-cache.md). A Backend stacks a cache in front of
// an origin block device (a partition holding a filesystem) and hands back the device to mount
// instead (/dev/mapper/…, /dev/nbdN, /dev/bcacheN). What it set up is described by an
// ActiveCache, which the caller journals so that disable() undoes exactly that, also from
// another process after a restart.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"
#include "core/base/json.h"

namespace ssdk::cachectl {

enum class CacheMode { WriteThrough, WriteBack };
enum class Compression { None, Lz4, Zstd };

std::string_view toString(CacheMode mode);
std::string_view toString(Compression compression);
Expected<CacheMode> parseCacheMode(std::string_view text);
Expected<Compression> parseCompression(std::string_view text);

// Whether a backend can be used here, and if not, exactly why (every reason found).
struct ProbeResult {
    bool available = false;
    std::vector<std::string> reasons; // empty when available
    std::string reasonText() const;   // the reasons joined with "; "
};

struct Capabilities {
    bool writeBack = false;                // can absorb writes (else write-through only)
    bool compression = false;              // stores blocks compressed
    bool resizeLive = false;               // the cache size changes without detaching
    bool persistent = false;               // the stack survives a reboot by itself
    bool ramBacked = true;                 // the cache lives in RAM (else on a cache drive)
    bool needsCacheDevice = false;         // the plan must name a cache device (SSD-for-HDD)
    std::vector<Compression> compressions; // what a plan may choose (None when uncompressed)
    // Tuning a plan may set (CachePlan::sequentialCutoff / writebackPercent); when a knob is
    // missing, the reason says why, and a plan that sets it anyway is refused with that reason.
    bool sequentialCutoff = false;
    bool writebackPercent = false;
    std::string noSequentialCutoffReason;
    std::string noWritebackPercentReason;
};

// The largest sequential cutoff a plan may ask for.
inline constexpr std::uint64_t kMaxSequentialCutoff = 1ULL << 30;

// What the user asked for.
struct CachePlan {
    std::string origin; // the block device to cache, e.g. /dev/sdb1
    std::string name;   // a short name for the stack (dm name, export name), [a-z0-9_-]
    std::uint64_t cacheBytes = 0;
    Compression compression = Compression::None;
    CacheMode mode = CacheMode::WriteThrough;
    std::string cacheDevice; // SSD-for-HDD: the cache drive; empty for RAM
    // Sequential I/O longer than this (bytes) bypasses the cache; 0 = never bypass, absent =
    // the backend's default (bcache: 4 MiB). At most kMaxSequentialCutoff.
    std::optional<std::uint64_t> sequentialCutoff;
    // Write-back: the share of the cache (percent, 0–100) dirty data is written back down to;
    // absent = the backend's default (bcache: 10).
    std::optional<unsigned> writebackPercent;
};

// What a backend set up; enough to operate and to undo it. `resources` is backend-specific
// (zram ids, dm names, daemon pid, nbd device…), kept as JSON so it round-trips a journal.
struct ActiveCache {
    std::string backend;
    CachePlan plan;
    std::string cachedDevice; // what to mount instead of plan.origin
    Json resources = Json::object();
};

struct CacheStats {
    std::uint64_t hits = 0;
    std::uint64_t misses = 0;
    std::uint64_t dirtyBytes = 0;
    std::uint64_t ramUsedBytes = 0;
    std::uint64_t cacheBytes = 0;    // the cache's capacity
    std::uint64_t logicalBytes = 0;  // data held, uncompressed
    std::uint64_t physicalBytes = 0; // what it takes after compression (0: not compressed)
    CacheMode mode = CacheMode::WriteThrough;
    // The tuning in effect, as the backend reports it (absent: not known or not applicable).
    std::optional<std::uint64_t> sequentialCutoff;
    std::optional<unsigned> writebackPercent;
    double hitRatio() const;         // 0–1; 0 with no requests
    double compressionRatio() const; // logical / physical; 1 when not compressed
};

Json toJson(const CachePlan& plan);
Expected<CachePlan> planFromJson(const Json& json);
Json toJson(const ActiveCache& active);
Expected<ActiveCache> activeCacheFromJson(const Json& json);
Json toJson(const CacheStats& stats);
Expected<CacheStats> cacheStatsFromJson(const Json& json);
Json toJson(const ProbeResult& probe);
Json toJson(const Capabilities& capabilities);
Capabilities capabilitiesFromJson(const Json& json);

class Backend {
public:
    virtual ~Backend() = default;

    virtual std::string name() const = 0;  // "zram-writecache"
    virtual std::string title() const = 0; // "zram + device-mapper cache"
    virtual Capabilities capabilities() const = 0;
    // Can it run on this machine (modules, tools, privileges, kernel)? Cheap, no changes.
    virtual ProbeResult probe() const = 0;
    // Stacks the cache; the origin must not be mounted (the manager unmounts it first).
    virtual Expected<ActiveCache> enable(const CachePlan& plan) = 0;
    // Writes everything dirty to the origin, then tears the stack down.
    virtual Expected<void> disable(const ActiveCache& active) = 0;
    // Called by disable's caller before it unmounts the cached device. A backend whose device
    // can no longer complete I/O (the engine after its daemon died: the kernel would hold the
    // requests that were in flight forever, and the unmount would wait for them) fails that
    // I/O here, so the unmount finishes. Nothing to do for a healthy stack.
    virtual Expected<void> releaseDeadDevice(const ActiveCache& /*active*/) { return {}; }
    virtual Expected<void> flush(const ActiveCache& active) = 0;
    // Switching to write-through first writes every dirty block back; nothing is dirty once it
    // returns, also when writes go on meanwhile.
    virtual Expected<void> setMode(ActiveCache& active, CacheMode mode) = 0;
    virtual Expected<void> resize(ActiveCache& active, std::uint64_t cacheBytes) = 0;
    virtual Expected<CacheStats> stats(const ActiveCache& active) const = 0;
};

// The backends known to this process, built at start-up and handed to whoever needs them.
class BackendRegistry {
public:
    void add(std::unique_ptr<Backend> backend);
    Backend* find(std::string_view name) const;
    std::vector<Backend*> all() const;

private:
    std::vector<std::unique_ptr<Backend>> m_backends;
};

// RAPID's default size: a quarter of the RAM, at most 4 GiB, rounded down to whole MiB.
std::uint64_t suggestedCacheBytes(std::uint64_t totalRamBytes);

// The tuning's ranges (sequential cutoff at most 1 GiB, writeback percent 0–100):
// InvalidArgument that names the value otherwise.
Expected<void> checkTuning(const CachePlan& plan);

// Validates a plan against a backend's capabilities (size, mode, compression, cache device,
// tuning: checkTuning, then Unsupported with the backend's reason for a knob it lacks).
Expected<void> checkPlan(const CachePlan& plan, const Capabilities& capabilities);

} // namespace ssdk::cachectl
