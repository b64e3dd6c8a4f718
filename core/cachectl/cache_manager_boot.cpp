#include <cstring>

#include "core/base/log.h"
#include "core/cachectl/cache_manager.h"

// CacheManager's "at next boot": the fstab line and the boot unit (docs/ram-cache.md#at-next-boot).
namespace ssdk::cachectl {

namespace {

// The device an fstab spec names: /dev/… as is, UUID=/LABEL=/PARTUUID=/PARTLABEL= through
// udev's /dev/disk/by-… links.
std::string specPath(const std::string& spec) {
    for (const auto& [prefix, dir] :
         {std::pair{"UUID=", "by-uuid"}, std::pair{"LABEL=", "by-label"},
          std::pair{"PARTUUID=", "by-partuuid"}, std::pair{"PARTLABEL=", "by-partlabel"}}) {
        if (spec.starts_with(prefix)) {
            return std::string("/dev/disk/") + dir + "/" + spec.substr(std::strlen(prefix));
        }
    }
    return spec;
}

// Only device-mapper stacks have a name known before they exist (the plan's name), which is
// what fstab must name.
Expected<std::string> predictedCachedDevice(const std::string& backend, const CachePlan& plan) {
    if (backend == "engine" || backend == "bcache") {
        return fail(ErrorCode::Unsupported,
                    backend +
                        " names its device only when it starts (/dev/nbdN, /dev/bcacheN), so "
                        "fstab cannot name it in advance: use zram-writecache or ssd-cache at "
                        "next boot, or apply now");
    }
    return "/dev/mapper/" + plan.name;
}

} // namespace

std::string CacheManager::stableDevicePath(const std::string& origin) const {
    const std::string name = kernelName(origin);
    for (const char* dir : {"/dev/disk/by-partuuid", "/dev/disk/by-id"}) {
        for (const auto& link : m_env.list(dir)) {
            const std::filesystem::path path = std::filesystem::path(dir) / link;
            std::error_code error;
            const auto target = std::filesystem::read_symlink(m_env.resolve(path), error);
            if (!error && target.filename() == name) {
                return path.string();
            }
        }
    }
    return origin;
}

std::string CacheManager::currentDevice(const std::string& stablePath) const {
    std::error_code error;
    const auto target = std::filesystem::read_symlink(m_env.resolve(stablePath), error);
    return error ? stablePath : "/dev/" + target.filename().string();
}

void CacheManager::reloadSystemd() const {
    // Regenerates the mount units from fstab, as systemd asks after an fstab change.
    if (m_env.exists("/run/systemd/system")) {
        if (auto result = m_env.run({"systemctl", "daemon-reload"}); !result) {
            log::get("cachectl")->warn("systemctl daemon-reload: {}", result.error().describe());
        }
    }
}

Expected<void> CacheManager::writeFstab(const std::string& from, const std::string& to) const {
    const auto path = m_env.resolve(m_boot.fstab);
    auto text = readFstabFile(path);
    if (!text) {
        return std::unexpected(text.error());
    }
    auto changed = replaceFstabLine(*text, from, to);
    if (!changed) {
        return std::unexpected(Error(changed.error()).addContext(m_boot.fstab.string()));
    }
    if (auto backedUp = writeFstabFile(m_env.resolve(m_boot.backup), *text); !backedUp) {
        return std::unexpected(backedUp.error());
    }
    return writeFstabFile(path, *changed);
}

Expected<std::pair<FstabEntry, FstabChange>>
CacheManager::fstabChangeFor(const std::string& backendName, const CachePlan& plan) const {
    auto cachedDevice = predictedCachedDevice(backendName, plan);
    if (!cachedDevice) {
        return std::unexpected(cachedDevice.error());
    }
    auto text = readFstabFile(m_env.resolve(m_boot.fstab));
    if (!text) {
        return std::unexpected(text.error());
    }
    const auto mounted = m_env.mountOf(plan.origin);
    const std::string name = kernelName(plan.origin);
    std::optional<FstabEntry> found;
    for (const auto& entry : parseFstab(*text)) {
        std::error_code error;
        const std::string path = specPath(entry.spec);
        const auto target = std::filesystem::read_symlink(m_env.resolve(path), error);
        const std::string names =
            error ? std::filesystem::path(path).filename().string() : target.filename().string();
        if ((mounted && entry.mountPoint == mounted->mountPoint) ||
            (path.starts_with("/dev/") && names == name)) {
            found = entry;
            break;
        }
    }
    if (!found) {
        return fail(ErrorCode::NotFound,
                    m_boot.fstab.string() + " has no line mounting " + plan.origin +
                        (mounted ? " (mounted on " + mounted->mountPoint + ")" : "") +
                        ": at next boot changes that line; add one, or apply now");
    }
    const std::string& point = found->mountPoint;
    const auto holds = [&](const std::string& path) {
        return point == "/" || path == point || path.starts_with(point + "/");
    };
    // The journal directory as the booting system sees it (under env.root in tests).
    std::string stateDir = m_stateDir.string();
    if (const auto root = m_env.root.string(); root != "/" && stateDir.starts_with(root + "/")) {
        stateDir = stateDir.substr(root.size());
    }
    if (holds(stateDir) || holds("/usr")) {
        return fail(ErrorCode::Unsupported,
                    point + " holds what the boot unit needs before it is mounted (" + stateDir +
                        ", /usr): it cannot be cached at boot");
    }
    if (found->options.find("x-systemd.requires=ssdkeeper-cache@") != std::string::npos) {
        return fail(ErrorCode::Busy, "line " + std::to_string(found->line + 1) + " of " +
                                         m_boot.fstab.string() +
                                         " already mounts an SSD Keeper cache");
    }
    const auto unit = bootUnitName(stableDevicePath(plan.origin));
    auto change = planFstabChange(*text, m_boot.fstab.string(), *found, *cachedDevice, unit);
    if (!change) {
        return std::unexpected(change.error());
    }
    return std::pair{*found, *change};
}

Expected<FstabChange> CacheManager::previewAtBoot(const std::string& backendName,
                                                  const CachePlan& plan) const {
    if (auto checked = checkEnable(backendName, plan); !checked) {
        return std::unexpected(checked.error());
    }
    auto change = fstabChangeFor(backendName, plan);
    if (!change) {
        return std::unexpected(change.error());
    }
    return change->second;
}

Expected<CacheRecord> CacheManager::enableAtBoot(const std::string& backendName,
                                                 const CachePlan& plan, const PowerPolicy& power,
                                                 const std::string& confirmedLine) {
    if (auto checked = checkEnable(backendName, plan); !checked) {
        return std::unexpected(checked.error());
    }
    auto found = fstabChangeFor(backendName, plan);
    if (!found) {
        return std::unexpected(found.error());
    }
    const auto& [entry, change] = *found;
    if (!confirmedLine.empty() && confirmedLine != change.after) {
        return fail(ErrorCode::Busy, change.path + " changed since it was shown: line " +
                                         std::to_string(change.line + 1) + " would now read '" +
                                         change.after + "'; look again");
    }
    MountRecord mountRecord{entry.mountPoint, entry.type, entry.options};
    if (auto mounted = m_env.mountOf(plan.origin); mounted) {
        mountRecord =
            MountRecord{mounted->mountPoint, mounted->fsType, device::remountOptions(*mounted)};
    }
    const std::string stable = stableDevicePath(plan.origin);
    CacheRecord record{
        CachePhase::Scheduled,
        ActiveCache{backendName, plan, *predictedCachedDevice(backendName, plan), Json::object()},
        mountRecord, PowerPolicy{power.safeOnBattery, ""},
        BootRecord{stable, bootUnitName(stable), change.path, change.before, change.after}};
    if (auto saved = save(record); !saved) {
        return std::unexpected(saved.error());
    }
    if (auto written = writeFstab(change.before, change.after); !written) {
        std::error_code error;
        std::filesystem::remove(journalPath(plan.name), error);
        return std::unexpected(written.error());
    }
    reloadSystemd();
    log::get("cachectl")
        ->info("{}: {} at next boot ({}), {} line {} changed", plan.name, backendName,
               record.boot->unit, change.path, change.line + 1);
    return record;
}

Expected<CacheRecord> CacheManager::findAtBoot(const std::string& device) const {
    auto record = find(device);
    if (record && !record->boot) {
        return fail(ErrorCode::InvalidArgument,
                    record->active.plan.origin + " is not cached at boot (it was applied now)");
    }
    return record;
}

Expected<CacheRecord> CacheManager::attach(const std::string& device, bool onBattery) {
    auto record = findAtBoot(device);
    if (!record) {
        return std::unexpected(record.error());
    }
    auto backend = backendOf(*record);
    if (!backend) {
        return std::unexpected(backend.error());
    }
    if (record->phase == CachePhase::Active && m_env.exists(record->active.cachedDevice)) {
        return record;
    }
    // Kernel names move between boots; the stable name says which device it is now.
    CachePlan plan = record->active.plan;
    plan.origin = currentDevice(record->boot->device);
    if (auto mounted = m_env.mountOf(plan.origin); mounted) {
        return fail(ErrorCode::Busy, plan.origin + " is mounted on " + mounted->mountPoint +
                                         ": an at-next-boot cache is stacked at boot, before "
                                         "its filesystem is mounted");
    }
    const auto decision = decidePower(plan.mode, record->power, PowerEvent::Resume, onBattery);
    if (decision.mode) {
        plan.mode = *decision.mode;
    }
    record->power.switchedBy = decision.switchedBy;
    record->active.plan = plan;
    record->phase = CachePhase::Enabling;
    if (auto saved = save(*record); !saved) {
        return std::unexpected(saved.error());
    }
    auto active = (*backend)->enable(plan);
    if (!active) {
        record->phase = CachePhase::Scheduled;
        (void)save(*record);
        return std::unexpected(Error(active.error()).addContext("stacking the cache at boot"));
    }
    record->active = *active;
    record->phase = CachePhase::Active;
    return commit(*record);
}

Expected<CacheRecord> CacheManager::detach(const std::string& device) {
    auto record = findAtBoot(device);
    if (!record) {
        return std::unexpected(record.error());
    }
    if (record->phase == CachePhase::Scheduled) {
        return record;
    }
    auto backend = backendOf(*record);
    if (!backend) {
        return std::unexpected(backend.error());
    }
    if (auto mounted = m_env.mountOf(record->active.cachedDevice); mounted) {
        // Cannot tear down under a mounted filesystem: make it safe to lose the RAM instead.
        if (auto outcome = applyPower(*record, PowerEvent::Shutdown, false);
            !outcome.error.empty()) {
            return fail(ErrorCode::Busy, outcome.error);
        }
        return fail(ErrorCode::Busy, record->active.cachedDevice + " is still mounted on " +
                                         mounted->mountPoint +
                                         ": flushed and switched to write-through instead of "
                                         "tearing the cache down");
    }
    if (auto disabled = (*backend)->disable(record->active); !disabled) {
        return std::unexpected(disabled.error());
    }
    record->phase = CachePhase::Scheduled;
    record->active.resources = Json::object();
    return commit(*record);
}

} // namespace ssdk::cachectl
