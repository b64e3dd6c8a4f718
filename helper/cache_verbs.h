#pragma once

#include <functional>

#include "core/base/sysfs_root.h"
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
// cache.enable {device, backend, size, compression, mode, cache_device?, apply_now?,
//               power_safe?, at_next_boot?, preview?, fstab_line?, sequential_cutoff? (bytes,
//               0–1 GiB), writeback_percent? (0–100)}
//              → {record}; a mounted device needs apply_now: true (unmount, stack, remount) or
//              at_next_boot: true (fstab and the boot unit; with preview: true only
//              {fstab: {path, line, before, after, diff}} is returned and nothing changes;
//              fstab_line: the new line as shown to the user, refused when it differs now;
//              a tuning value the backend has no knob for is refused with its reason)
// cache.disable {device} → {disabled}: flush, tear down, mount the origin back
// cache.flush {device} → {flushed}
// cache.mode {device, mode} → {record}
// cache.resize {device, size} → {record}
// cache.policy {device, power_safe} → {record}: "on battery or before suspend: flush and
//              switch to write-through"
// cache.boot {device, action: start|stop} → {record}: the boot unit (ssdkeeper-cache@.service)
//              stacks an at-next-boot cache / flushes and tears it down after the unmount
// cache.power {event: auto|battery|ac|suspend|resume|shutdown} → {event, on_battery, power,
//              caches: [{name, origin, action, error}]}; auto: battery or ac from
//              /sys/class/power_supply
// device: the cached partition, the device to mount instead, or the cache's name.
// Whether the machine runs on battery now, and how that was seen.
struct PowerSource {
    bool onBattery = false;
    std::string detail;
};
using PowerReader = std::function<PowerSource()>;
// <sys>/class/power_supply (firmware::readPowerState: Mains/USB online, Battery).
PowerSource powerSourceOf(const SysfsRoot& root);
PowerSource livePowerSource(); // powerSourceOf the live /sys

void addCacheVerbs(HelperService& service, cachectl::CacheManager& manager,
                   PowerReader power = livePowerSource);

// /proc/meminfo's MemTotal and MemAvailable in bytes (0 when unreadable).
struct RamInfo {
    std::uint64_t totalBytes = 0;
    std::uint64_t availableBytes = 0;
};
RamInfo parseMemInfo(std::string_view text);

} // namespace ssdk::helper
