#pragma once
// Turns caches on and off over the backends and remembers what it did. Every enabled cache
// has a journal file (<stateDir>/<name>.json) written before anything changes and updated
// after each step, so disable() undoes exactly what enable() did — also from a new process
// after a restart or a crash halfway.
//
// Enabling over a mounted filesystem needs applyNow: the filesystem is unmounted, the cache
// stacked, and the cached device mounted at the same mount point with the same options.
// Disabling unmounts the cached device, disables the backend (which flushes first) and mounts
// the origin back where it was.
#include <filesystem>

#include "core/cachectl/backend.h"
#include "core/cachectl/backend_host.h"

namespace ssdk::cachectl {

struct MountRecord {
    std::string mountPoint;
    std::string fsType;
    std::string options;
};

// One journal: the cache, where its filesystem was mounted, and how far enabling got.
struct CacheRecord {
    std::string phase; // "enabling", "active", "disabling"
    ActiveCache active;
    std::optional<MountRecord> mount;
};

Json toJson(const CacheRecord& record);
Expected<CacheRecord> cacheRecordFromJson(const Json& json);

// The options to mount with again: per-mount and per-superblock options of a mountinfo line,
// without duplicates and without ones mount(8) does not take back (seclabel).
std::string remountOptions(const std::string& mountOptions, const std::string& superOptions);

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

class CacheManager {
public:
    CacheManager(const BackendRegistry& registry, HostEnv env, std::filesystem::path stateDir);

    std::vector<BackendReport> probeAll() const;
    Expected<CacheRecord> enable(const std::string& backend, const CachePlan& plan, bool applyNow);
    // device: the origin or the cached device.
    Expected<void> disable(const std::string& device);
    Expected<void> flush(const std::string& device);
    Expected<CacheRecord> setMode(const std::string& device, CacheMode mode);
    Expected<CacheRecord> resize(const std::string& device, std::uint64_t cacheBytes);
    // Every journaled cache, with live statistics where the backend answers.
    std::vector<CacheStatus> status() const;
    Expected<CacheRecord> find(const std::string& device) const;

private:
    std::filesystem::path journalPath(const std::string& name) const;
    Expected<void> save(const CacheRecord& record) const;
    Expected<void> mount(const std::string& device, const MountRecord& mount) const;
    Expected<void> unmount(const std::string& mountPoint) const;
    Expected<Backend*> backendOf(const CacheRecord& record) const;

    const BackendRegistry& m_registry;
    HostEnv m_env;
    std::filesystem::path m_stateDir;
};

} // namespace ssdk::cachectl
