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
//
// One class in three files, one concern each: cache_manager.cpp (enable, disable, flush,
// mode, size, status and the journal), cache_manager_boot.cpp ("at next boot": the fstab line
// and the boot unit) and cache_manager_power.cpp (power events and the power-safe policy).
// What a journal holds is in cache_record.h.
#include <filesystem>
#include <utility>

#include "core/base/job.h"
#include "core/cachectl/backend.h"
#include "core/cachectl/cache_record.h"
#include "core/cachectl/fstab.h"
#include "core/cachectl/host_env.h"
#include "core/cachectl/power.h"
#include "core/device/mount_jobs.h"

namespace ssdk::cachectl {

// Where the pieces of "at next boot" are, relative to HostEnv::root.
struct BootPaths {
    std::filesystem::path fstab = "/etc/fstab";
    std::filesystem::path backup = "/etc/fstab.ssdkeeper.bak"; // fstab before our last change
};

class CacheManager {
public:
    CacheManager(const BackendRegistry& registry, HostEnv env, std::filesystem::path stateDir);

    std::vector<BackendReport> probeAll() const;
    // An Operation of Jobs (unmount, stack, remount), reported to observer as each starts and
    // finishes; a failing job undoes the ones before it.
    Expected<CacheRecord> enable(const std::string& backend, const CachePlan& plan, bool applyNow,
                                 const PowerPolicy& power = {}, const JobObserver& observer = {});
    // "At next boot": the fstab change that would be made (nothing is changed).
    Expected<FstabChange> previewAtBoot(const std::string& backend, const CachePlan& plan) const;
    // Journals the cache as "scheduled" and writes the fstab change (atomically, after a
    // backup). confirmedLine: the new line as shown to the user; refused when it differs now.
    Expected<CacheRecord> enableAtBoot(const std::string& backend, const CachePlan& plan,
                                       const PowerPolicy& power, const std::string& confirmedLine);
    // The boot unit: stacks a scheduled cache (the mount follows through fstab) / flushes and
    // tears it down after its filesystem was unmounted, keeping it scheduled for next boot.
    Expected<CacheRecord> attach(const std::string& device, bool onBattery);
    Expected<CacheRecord> detach(const std::string& device);
    // Flushes / switches every active cache as the event and each cache's policy say.
    std::vector<PowerOutcome> powerEvent(PowerEvent event, bool onBattery);
    // The "on battery or before suspend" choice; turning it off while a power event holds the
    // cache in write-through switches it back to write-back.
    Expected<CacheRecord> setPowerPolicy(const std::string& device, bool safeOnBattery,
                                         bool onBattery);
    void setBootPaths(BootPaths paths) { m_boot = std::move(paths); }
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
    // Saves the record and returns it: the last step of every change.
    Expected<CacheRecord> commit(const CacheRecord& record) const;
    // The record of DEVICE, if it is cached at boot; an error otherwise.
    Expected<CacheRecord> findAtBoot(const std::string& device) const;
    Expected<void> mount(const std::string& device, const MountRecord& mount) const;
    Expected<void> unmount(const std::string& mountPoint) const;
    // mount() and unmount() for the shared unmount and remount jobs.
    device::Mounter mounter() const;
    Expected<Backend*> backendOf(const CacheRecord& record) const;
    // find(device) and its backend: what flush, setMode and resize start with.
    Expected<std::pair<CacheRecord, Backend*>> findWithBackend(const std::string& device) const;
    // The checks enable() and enableAtBoot() share: backend, plan, probe, not cached yet.
    Expected<Backend*> checkEnable(const std::string& backend, const CachePlan& plan) const;
    Expected<std::pair<FstabEntry, FstabChange>> fstabChangeFor(const std::string& backend,
                                                                const CachePlan& plan) const;
    Expected<void> writeFstab(const std::string& from, const std::string& to) const;
    // Applies the event's decision to one active cache and journals the result.
    PowerOutcome applyPower(CacheRecord& record, PowerEvent event, bool onBattery);
    std::string stableDevicePath(const std::string& origin) const;
    std::string currentDevice(const std::string& stablePath) const;
    void reloadSystemd() const;

    const BackendRegistry& m_registry;
    HostEnv m_env;
    std::filesystem::path m_stateDir;
    BootPaths m_boot;
};

} // namespace ssdk::cachectl
