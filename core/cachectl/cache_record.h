#pragma once
// What CacheManager journals about each cache (<stateDir>/<name>.json) and reports: the
// record of one cache and its phase, the backends' reports, the status of each cache and what
// a power event did; each with its JSON, which the cache verbs (verbs.h) carry too.
#include <optional>
#include <string>
#include <string_view>

#include "core/base/error.h"
#include "core/base/json.h"
#include "core/cachectl/backend.h"
#include "core/cachectl/power.h"

namespace ssdk::cachectl {

struct MountRecord {
    std::string mountPoint;
    std::string fsType;
    std::string options;
};

// "At next boot": the boot unit stacks the cache before the filesystem is mounted, and the
// fstab line mounts the cache device. What is needed to undo it exactly.
struct BootRecord {
    std::string device; // the origin by a name that survives reboots (/dev/disk/by-partuuid/…)
    std::string unit;   // ssdkeeper-cache@….service
    std::string fstab;  // the file changed, "/etc/fstab"
    std::string lineBefore;
    std::string lineAfter;
};

// How far a cache got. Scheduled: an at-next-boot cache not stacked now (before the first
// reboot, or between the boot unit's stop and its next start).
enum class CachePhase { Enabling, Active, Disabling, Scheduled };
std::string_view toString(CachePhase phase); // "enabling", "active", "disabling", "scheduled"

// One journal: the cache, where its filesystem was mounted, and how far enabling got.
struct CacheRecord {
    CachePhase phase = CachePhase::Active;
    ActiveCache active;
    std::optional<MountRecord> mount;
    PowerPolicy power;
    std::optional<BootRecord> boot;
};

Json toJson(const CacheRecord& record);
Expected<CacheRecord> cacheRecordFromJson(const Json& json);

struct BackendReport {
    std::string name;
    std::string title;
    ProbeResult probe;
    Capabilities capabilities;
};
Json toJson(const BackendReport& report);

struct CacheStatus {
    CacheRecord record;
    std::optional<CacheStats> stats;
    std::string statsError;
};
Json toJson(const CacheStatus& status);

// What a power event did to one cache.
struct PowerOutcome {
    std::string name;
    std::string origin;
    std::string action; // PowerDecision::reason, empty when nothing was to do
    std::string error;  // empty on success
};
Json toJson(const PowerOutcome& outcome);

} // namespace ssdk::cachectl
