#include "core/cachectl/cache_manager.h"

#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "core/base/atomic_file.h"
#include "core/base/log.h"
#include "core/base/mount_options.h"
#include "core/base/private_dir.h"

namespace ssdk::cachectl {

CacheManager::CacheManager(const BackendRegistry& registry, HostEnv env,
                           std::filesystem::path stateDir)
    : m_registry(registry)
    , m_env(std::move(env))
    , m_stateDir(std::move(stateDir)) {}

std::vector<BackendReport> CacheManager::probeAll() const {
    std::vector<BackendReport> reports;
    for (const auto* backend : m_registry.all()) {
        reports.push_back(
            {backend->name(), backend->title(), backend->probe(), backend->capabilities()});
    }
    return reports;
}

std::filesystem::path CacheManager::journalPath(const std::string& name) const {
    return m_stateDir / (name + ".json");
}

Expected<void> CacheManager::save(const CacheRecord& record) const {
    // The helper acts on what the journals say: they live in a directory only root can touch
    // (core/base/private_dir.h), made 0700 whatever the umask, and an existing one of another
    // owner, writable by others or a symlink is refused.
    if (auto ready = ensurePrivateDirectory(m_stateDir); !ready) {
        return std::unexpected(
            std::move(ready.error()).addContext("preparing the cache journal directory"));
    }
    return writeFileAtomically(journalPath(record.active.plan.name), toJson(record).dump(2) + "\n");
}

Expected<CacheRecord> CacheManager::commit(const CacheRecord& record) const {
    if (auto saved = save(record); !saved) {
        return std::unexpected(saved.error());
    }
    return record;
}

Expected<CacheRecord> CacheManager::find(const std::string& device) const {
    const std::string name = kernelName(device);
    std::error_code error;
    // Journals are trusted only from a private directory (none yet: no cache).
    if (std::filesystem::exists(std::filesystem::symlink_status(m_stateDir, error))) {
        if (auto ready = ensurePrivateDirectory(m_stateDir); !ready) {
            return std::unexpected(
                std::move(ready.error()).addContext("reading the cache journal directory"));
        }
    }
    for (const auto& entry : std::filesystem::directory_iterator(m_stateDir, error)) {
        if (entry.path().extension() != ".json") {
            continue;
        }
        std::ifstream in(entry.path());
        std::stringstream text;
        text << in.rdbuf();
        auto json = parseJson(text.str(), entry.path().string());
        if (!json) {
            continue;
        }
        auto record = cacheRecordFromJson(*json);
        if (!record) {
            continue;
        }
        const auto& active = record->active;
        if (active.plan.origin == device || active.cachedDevice == device ||
            kernelName(active.plan.origin) == name || active.plan.name == device ||
            (record->boot && record->boot->device == device)) {
            return record;
        }
    }
    return fail(ErrorCode::NotFound, "no cache is enabled on " + device);
}

Expected<std::pair<CacheRecord, Backend*>>
CacheManager::findWithBackend(const std::string& device) const {
    auto record = find(device);
    if (!record) {
        return std::unexpected(record.error());
    }
    auto backend = backendOf(*record);
    if (!backend) {
        return std::unexpected(backend.error());
    }
    return std::pair{std::move(*record), *backend};
}

Expected<Backend*> CacheManager::backendOf(const CacheRecord& record) const {
    auto* backend = m_registry.find(record.active.backend);
    if (backend == nullptr) {
        return fail(ErrorCode::NotFound, "unknown cache backend '" + record.active.backend + "'");
    }
    return backend;
}

Expected<void> CacheManager::mount(const std::string& device, const MountRecord& mount) const {
    auto options = helperMountOptions(mount.options);
    if (!options) {
        return std::unexpected(options.error().addContext("mounting " + device));
    }
    auto result =
        m_env.runChecked({"mount", "-t", mount.fsType, "-o", *options, device, mount.mountPoint});
    if (!result) {
        return std::unexpected(result.error());
    }
    return {};
}

Expected<void> CacheManager::unmount(const std::string& mountPoint) const {
    auto result = m_env.runChecked({"umount", mountPoint});
    if (!result) {
        return std::unexpected(result.error());
    }
    return {};
}

Expected<Backend*> CacheManager::checkEnable(const std::string& backendName,
                                             const CachePlan& plan) const {
    auto* backend = m_registry.find(backendName);
    if (backend == nullptr) {
        return fail(ErrorCode::NotFound, "unknown cache backend '" + backendName + "'");
    }
    if (auto checked = checkPlan(plan, backend->capabilities()); !checked) {
        return std::unexpected(checked.error());
    }
    if (auto probed = backend->probe(); !probed.available) {
        return fail(ErrorCode::Unsupported,
                    backendName + " is unavailable: " + probed.reasonText());
    }
    if (auto existing = find(plan.origin); existing) {
        return fail(ErrorCode::Busy, plan.origin + " is already cached by " +
                                         existing->active.backend + " as " +
                                         existing->active.cachedDevice);
    }
    if (std::filesystem::exists(journalPath(plan.name))) {
        return fail(ErrorCode::Busy, "a cache named '" + plan.name + "' exists already");
    }
    return backend;
}

device::Mounter CacheManager::mounter() const {
    return {
        [this](const device::MountTarget& where) {
            return mount(where.device, MountRecord{where.mountPoint, where.fsType, where.options});
        },
        [this](const device::MountTarget& where) { return unmount(where.mountPoint); }};
}

Expected<CacheRecord> CacheManager::enable(const std::string& backendName, const CachePlan& plan,
                                           bool applyNow, const PowerPolicy& power,
                                           const JobObserver& observer) {
    auto checked = checkEnable(backendName, plan);
    if (!checked) {
        return std::unexpected(checked.error());
    }
    auto* backend = *checked;
    CacheRecord record{CachePhase::Enabling, ActiveCache{backendName, plan, "", Json::object()},
                       std::nullopt, PowerPolicy{power.safeOnBattery, ""}, std::nullopt};
    if (auto entry = m_env.mountOf(plan.origin); entry) {
        if (!applyNow) {
            return fail(ErrorCode::Busy,
                        plan.origin + " is mounted on " + entry->mountPoint +
                            ": apply now (unmount, stack the cache, mount it again there) or "
                            "unmount it first");
        }
        if (entry->source != plan.origin && kernelName(entry->source) != kernelName(plan.origin)) {
            return fail(ErrorCode::Busy, "a partition of " + plan.origin + " is mounted on " +
                                             entry->mountPoint + "; cache that partition");
        }
        record.mount =
            MountRecord{entry->mountPoint, entry->fsType, device::remountOptions(*entry)};
    }
    if (auto saved = save(record); !saved) {
        return std::unexpected(saved.error());
    }
    // Unmount the origin, stack the cache, mount the cached device where the origin was; a
    // step that fails undoes the ones before it and the journal goes: nothing changed.
    const auto mountedFrom = [&record](const std::string& device) {
        return [&record, &device] {
            return device::MountTarget{device, record.mount->mountPoint, record.mount->fsType,
                                       record.mount->options};
        };
    };
    std::vector<std::unique_ptr<Job>> jobs;
    if (record.mount) {
        jobs.push_back(device::makeUnmountJob(mountedFrom(plan.origin), mounter()));
    }
    jobs.push_back(functionJob(
        "stack-cache", "Stacking " + backendName + " over " + plan.origin,
        [&]() -> Expected<void> {
            auto active = backend->enable(plan);
            if (!active) {
                return std::unexpected(active.error());
            }
            record.active = *active;
            if (auto saved = save(record); !saved) {
                log::get("cachectl")->error("journal: {}", saved.error().describe());
            }
            return {};
        },
        [&] { return backend->disable(record.active); }));
    if (record.mount) {
        jobs.push_back(device::makeRemountJob(mountedFrom(record.active.cachedDevice), mounter()));
    }
    if (auto ran = runJobsOrUndo(jobs, observer, "cachectl"); !ran) {
        std::filesystem::remove(journalPath(plan.name));
        return std::unexpected(ran.error());
    }
    record.phase = CachePhase::Active;
    return commit(record);
}

Expected<void> CacheManager::disable(const std::string& device) {
    auto found = findWithBackend(device);
    if (!found) {
        return std::unexpected(found.error());
    }
    CacheRecord& record = found->first;
    Backend* const backend = found->second;
    // At next boot: fstab must go back exactly; check that it can before changing anything.
    bool restoreFstab = false;
    if (record.boot) {
        const auto& boot = *record.boot;
        auto text = readFstabFile(m_env.resolve(boot.fstab));
        if (!text) {
            return std::unexpected(text.error());
        }
        restoreFstab = hasLine(*text, boot.lineAfter);
        if (!restoreFstab && !hasLine(*text, boot.lineBefore)) {
            return fail(ErrorCode::Busy,
                        boot.fstab + " was edited since SSD Keeper changed it: its line '" +
                            boot.lineAfter + "' is gone. Put back '" + boot.lineBefore +
                            "' by hand (" + m_boot.backup.string() +
                            " holds the file before the change), then disable again");
        }
    }
    const bool stacked = record.phase != CachePhase::Scheduled;
    if (stacked) {
        record.phase = CachePhase::Disabling;
        (void)save(record);
    }
    const auto& active = record.active;
    const auto cachedMount =
        stacked && !active.cachedDevice.empty() ? m_env.mountOf(active.cachedDevice) : std::nullopt;
    if (cachedMount) {
        if (auto released = backend->releaseDeadDevice(active); !released) {
            return std::unexpected(Error(released.error()).addContext("disabling the cache"));
        }
    }
    // Unmount the cached device, tear the cache down (the backend flushes first), put fstab
    // back, mount the origin where it was. A step that fails undoes what can be undone before
    // it (the cached device is mounted again when the teardown fails).
    std::vector<std::unique_ptr<Job>> jobs;
    if (cachedMount) {
        const device::MountTarget cached{active.cachedDevice, cachedMount->mountPoint,
                                         cachedMount->fsType, device::remountOptions(*cachedMount)};
        jobs.push_back(device::makeUnmountJob([cached] { return cached; }, mounter()));
    }
    if (stacked) {
        jobs.push_back(functionJob("unstack-cache",
                                   "Flushing and removing the " + active.backend + " cache over " +
                                       active.plan.origin,
                                   [&] { return backend->disable(active); }));
    }
    if (record.boot) {
        const auto boot = *record.boot;
        jobs.push_back(functionJob(
            "restore-fstab", "Putting back the line of " + active.plan.origin + " in " + boot.fstab,
            [this, boot, restoreFstab]() -> Expected<void> {
                if (restoreFstab) {
                    if (auto written = writeFstab(boot.lineAfter, boot.lineBefore); !written) {
                        return written;
                    }
                }
                reloadSystemd();
                return {};
            }));
    }
    // A boot cache's filesystem goes back only where it was mounted from the cache; an applied
    // one where it was mounted before.
    const bool mountBack = record.boot ? cachedMount.has_value() : true;
    // Decided before anything ran: the origin counts as mounted only through another mount
    // than the cached device's, which the first job unmounts (bcache caches a /dev/bcacheN
    // in place: origin and cached device are one device).
    const auto originMount = m_env.mountOf(active.plan.origin);
    const bool originMountedElsewhere =
        originMount && !(cachedMount && originMount->mountPoint == cachedMount->mountPoint);
    if (mountBack && record.mount && !originMountedElsewhere) {
        const device::MountTarget origin{active.plan.origin, record.mount->mountPoint,
                                         record.mount->fsType, record.mount->options};
        jobs.push_back(device::makeRemountJob([origin] { return origin; }, mounter()));
    }
    if (auto ran = runJobsOrUndo(jobs, {}, "cachectl"); !ran) {
        return std::unexpected(ran.error());
    }
    std::error_code error;
    std::filesystem::remove(journalPath(active.plan.name), error);
    return {};
}

Expected<void> CacheManager::flush(const std::string& device) {
    auto found = findWithBackend(device);
    if (!found) {
        return std::unexpected(found.error());
    }
    auto& [record, backend] = *found;
    // Whatever the filesystem still holds goes down to the cache first.
    (void)m_env.run({"blockdev", "--flushbufs", record.active.cachedDevice});
    return backend->flush(record.active);
}

Expected<CacheRecord> CacheManager::setMode(const std::string& device, CacheMode mode) {
    auto found = findWithBackend(device);
    if (!found) {
        return std::unexpected(found.error());
    }
    auto& [record, backend] = *found;
    if (auto changed = backend->setMode(record.active, mode); !changed) {
        return std::unexpected(changed.error());
    }
    record.power.switchedBy.clear(); // the user's choice now, not a power event's
    return commit(record);
}

Expected<CacheRecord> CacheManager::resize(const std::string& device, std::uint64_t cacheBytes) {
    auto found = findWithBackend(device);
    if (!found) {
        return std::unexpected(found.error());
    }
    auto& [record, backend] = *found;
    if (auto resized = backend->resize(record.active, cacheBytes); !resized) {
        (void)save(record);
        return std::unexpected(resized.error());
    }
    return commit(record);
}

std::vector<CacheStatus> CacheManager::status() const {
    std::vector<CacheStatus> result;
    std::error_code error;
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(m_stateDir, error)) {
        if (entry.path().extension() == ".json") {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
        auto record = find(file.stem().string());
        if (!record) {
            continue;
        }
        CacheStatus status{*record, std::nullopt, ""};
        if (record->phase == CachePhase::Scheduled) {
            status.statsError = "not stacked now: " +
                                (record->boot ? record->boot->unit : std::string("the boot unit")) +
                                " stacks it at the next boot";
        } else if (auto backend = backendOf(*record); !backend) {
            status.statsError = backend.error().describe();
        } else if (auto stats = (*backend)->stats(record->active); stats) {
            status.stats = *stats;
        } else {
            status.statsError = stats.error().describe();
        }
        result.push_back(std::move(status));
    }
    return result;
}

} // namespace ssdk::cachectl
