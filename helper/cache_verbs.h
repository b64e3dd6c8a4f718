#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "core/base/sysfs_root.h"
#include "core/cachectl/cache_manager.h"
#include "helper/helper_service.h"
#include "helper/validation.h"

namespace ssdk::helper {

// Where the helper journals the caches it set up (system-wide: a cache outlives the session).
inline constexpr const char* kCacheStateDir = "/var/lib/ssdkeeper/cache";

// Whether the machine runs on battery now, and how that was seen.
struct PowerSource {
    bool onBattery = false;
    std::string detail;
};
using PowerReader = std::function<PowerSource()>;
// <sys>/class/power_supply (firmware::readPowerState: Mains/USB online, Battery).
PowerSource powerSourceOf(const SysfsRoot& root);
PowerSource livePowerSource(); // powerSourceOf the live /sys

// /proc/meminfo's MemTotal and MemAvailable in bytes (0 when unreadable).
struct RamInfo {
    std::uint64_t totalBytes = 0;
    std::uint64_t availableBytes = 0;
};
RamInfo parseMemInfo(std::string_view text);
RamInfo liveRamInfo(); // parseMemInfo of /proc/meminfo

// What the cache verbs need from the machine besides the CacheManager: live() is the real
// one; tests hand in their own (made-up device paths, a fixed RAM size, a power source).
struct CacheVerbEnv {
    // Resolves a device path from a request and checks it (validateBlockDeviceNode): the
    // node to use instead of the path, or why not.
    std::function<Expected<std::string>(std::string_view path, const DeviceRules& rules)>
        validateDevice;
    std::function<RamInfo()> readRam;
    PowerReader power;

    static CacheVerbEnv live();
};

// RAM cache verbs (docs/ram-cache.md), over a CacheManager built at start-up. Their names,
// arguments and results are core/cachectl/verbs.h; every request is parsed there, then the
// device paths it names are validated here (a partition or disk to cache, a cache drive: a
// real block device, not the system disk).
void addCacheVerbs(HelperService& service, cachectl::CacheManager& manager,
                   CacheVerbEnv env = CacheVerbEnv::live());
// The live environment with another power source.
void addCacheVerbs(HelperService& service, cachectl::CacheManager& manager, PowerReader power);

} // namespace ssdk::helper
