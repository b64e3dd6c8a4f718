#pragma once
// zram devices made for a cache (/sys/class/zram-control/hot_add), never the machine's own.
#include <cstdint>
#include <string>

#include "core/cachectl/backend.h"
#include "core/cachectl/host_env.h"

namespace ssdk::cachectl {

// Adds /dev/zramN compressing with lz4 (None/Lz4) or zstd, of that many bytes; returns N.
Expected<int> zramAdd(const HostEnv& env, Compression compression, std::uint64_t bytes);
// Resets and removes /dev/zramN.
Expected<void> zramRemove(const HostEnv& env, int id);
std::string zramPath(int id);

// Adds what the zram devices listed in resources["zram"] hold (mm_stat: original and
// compressed data, RAM used) to stats.
void addZramStats(const HostEnv& env, const Json& resources, CacheStats& stats);

} // namespace ssdk::cachectl
