#pragma once

#include "core/cachectl/backend_manager.h"
#include "helper/helper_service.h"

namespace ssdk::helper {

// Where the helper journals the caches it set up (system-wide: a cache outlives the session).
inline constexpr const char* kCacheStateDir = "/var/lib/ssdkeeper/cache";

// RAM cache verbs (docs/ram-cache.md), over a CacheManager built at start-up.
//
// cache.probe  {} → {backends: [{name, title, probe: {available, reasons, reason},
//                   capabilities}], ram: {total_bytes, available_bytes, suggested_bytes}}
// cache.status {} → {caches: [{phase, cache, mount, stats, stats_error}]}
// cache.enable {device, backend, size, compression, mode, cache_device?, apply_now?}
//              → {record}; a mounted device needs apply_now: true (unmount, stack, remount)
// cache.disable {device} → {disabled}: flush, tear down, mount the origin back
// cache.flush {device} → {flushed}
// cache.mode {device, mode} → {record}
// cache.resize {device, size} → {record}
// device: the cached partition, the device to mount instead, or the cache's name.
void addCacheVerbs(HelperService& service, cachectl::CacheManager& manager);

// /proc/meminfo's MemTotal and MemAvailable in bytes (0 when unreadable).
struct RamInfo {
    std::uint64_t totalBytes = 0;
    std::uint64_t availableBytes = 0;
};
RamInfo parseMemInfo(std::string_view text);

} // namespace ssdk::helper
