#include "core/cachectl/backend_manager.h"

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

namespace {

// A switch to write-through writes every dirty block back itself (Backend::setMode), in a way
// that keeps new writes from dirtying blocks meanwhile; a write-back flush before it would
// only chase the writes that keep coming.
bool drainsBySwitch(const PowerDecision& decision) {
    return decision.mode == CacheMode::WriteThrough;
}

Expected<std::string> readWhole(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return failErrno(errno, "reading " + path.string());
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

bool hasLine(const std::string& text, const std::string& line) {
    std::istringstream in(text);
    for (std::string each; std::getline(in, each);) {
        if (each == line) {
            return true;
        }
    }
    return false;
}

// Replaced through a synced temporary file, keeping its mode (0644 for a new file).
Expected<void> replaceFileAtomically(const std::filesystem::path& path, const std::string& text) {
    std::error_code error;
    const auto status = std::filesystem::status(path, error);
    const mode_t mode =
        std::filesystem::exists(status)
            ? static_cast<mode_t>(status.permissions() & std::filesystem::perms::mask)
            : 0644;
    return writeFileAtomically(path, text, mode);
}

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

Json toJson(const CacheRecord& record) {
    Json json{{"phase", record.phase},
              {"cache", toJson(record.active)},
              {"mount", nullptr},
              {"power", toJson(record.power)},
              {"boot", nullptr}};
    if (record.mount) {
        json["mount"] = Json{{"mount_point", record.mount->mountPoint},
                             {"fs_type", record.mount->fsType},
                             {"options", record.mount->options}};
    }
    if (record.boot) {
        json["boot"] = Json{{"device", record.boot->device},
                            {"unit", record.boot->unit},
                            {"fstab", record.boot->fstab},
                            {"line_before", record.boot->lineBefore},
                            {"line_after", record.boot->lineAfter}};
    }
    return json;
}

Json toJson(const PowerOutcome& outcome) {
    return Json{{"name", outcome.name},
                {"origin", outcome.origin},
                {"action", outcome.action},
                {"error", outcome.error}};
}

Expected<CacheRecord> cacheRecordFromJson(const Json& json) {
    if (!json.is_object() || !json.contains("cache")) {
        return fail(ErrorCode::Parse, "a cache journal needs 'cache'");
    }
    auto active = activeCacheFromJson(json["cache"]);
    if (!active) {
        return std::unexpected(active.error());
    }
    CacheRecord record{json.value("phase", "active"), *active, std::nullopt};
    if (json.contains("mount") && json["mount"].is_object()) {
        const auto& mount = json["mount"];
        record.mount = MountRecord{mount.value("mount_point", ""), mount.value("fs_type", ""),
                                   mount.value("options", "")};
    }
    if (json.contains("power")) {
        record.power = powerPolicyFromJson(json["power"]);
    }
    if (json.contains("boot") && json["boot"].is_object()) {
        const auto& boot = json["boot"];
        record.boot =
            BootRecord{boot.value("device", ""), boot.value("unit", ""), boot.value("fstab", ""),
                       boot.value("line_before", ""), boot.value("line_after", "")};
    }
    return record;
}

Json toJson(const BackendReport& report) {
    return Json{{"name", report.name},
                {"title", report.title},
                {"probe", toJson(report.probe)},
                {"capabilities", toJson(report.capabilities)}};
}

Json toJson(const CacheStatus& status) {
    Json json = toJson(status.record);
    json["stats"] = status.stats ? toJson(*status.stats) : Json(nullptr);
    json["stats_error"] = status.statsError;
    return json;
}

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

Expected<CacheRecord> CacheManager::enable(const std::string& backendName, const CachePlan& plan,
                                           bool applyNow, const PowerPolicy& power) {
    auto checked = checkEnable(backendName, plan);
    if (!checked) {
        return std::unexpected(checked.error());
    }
    auto* backend = *checked;
    CacheRecord record{"enabling", ActiveCache{backendName, plan, "", Json::object()}, std::nullopt,
                       PowerPolicy{power.safeOnBattery, ""}, std::nullopt};
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
    auto forget = [&] { std::filesystem::remove(journalPath(plan.name)); };
    if (record.mount) {
        if (auto unmounted = unmount(record.mount->mountPoint); !unmounted) {
            forget();
            return std::unexpected(
                Error(unmounted.error()).addContext("unmounting " + plan.origin));
        }
    }
    auto active = backend->enable(plan);
    if (!active) {
        if (record.mount) {
            (void)mount(plan.origin, *record.mount);
        }
        forget();
        return std::unexpected(active.error());
    }
    record.active = *active;
    if (auto saved = save(record); !saved) {
        log::get("cachectl")->error("journal: {}", saved.error().describe());
    }
    if (record.mount) {
        if (auto mounted = mount(active->cachedDevice, *record.mount); !mounted) {
            // Leave the system as it was: tear the cache down, mount the origin back.
            (void)backend->disable(*active);
            (void)mount(plan.origin, *record.mount);
            forget();
            return std::unexpected(Error(mounted.error())
                                       .addContext("mounting " + active->cachedDevice + " on " +
                                                   record.mount->mountPoint));
        }
    }
    record.phase = "active";
    return commit(record);
}

Expected<void> CacheManager::disable(const std::string& device) {
    auto record = find(device);
    if (!record) {
        return std::unexpected(record.error());
    }
    auto backend = backendOf(*record);
    if (!backend) {
        return std::unexpected(backend.error());
    }
    // At next boot: fstab must go back exactly; check that it can before changing anything.
    bool restoreFstab = false;
    if (record->boot) {
        const auto& boot = *record->boot;
        auto text = readWhole(m_env.resolve(boot.fstab));
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
    const bool stacked = record->phase != "scheduled";
    if (stacked) {
        record->phase = "disabling";
        (void)save(*record);
    }
    const auto& active = record->active;
    bool wasMounted = false;
    if (stacked && !active.cachedDevice.empty()) {
        if (auto mounted = m_env.mountOf(active.cachedDevice); mounted) {
            wasMounted = true;
            if (auto released = (*backend)->releaseDeadDevice(active); !released) {
                return std::unexpected(Error(released.error()).addContext("disabling the cache"));
            }
            if (auto unmounted = unmount(mounted->mountPoint); !unmounted) {
                return std::unexpected(Error(unmounted.error()).addContext("disabling the cache"));
            }
        }
        // Set up (fully, or the journal would not name it): the backend tears it down.
        if (auto disabled = (*backend)->disable(active); !disabled) {
            return std::unexpected(disabled.error());
        }
    }
    if (record->boot) {
        if (restoreFstab) {
            if (auto written = writeFstab(record->boot->lineAfter, record->boot->lineBefore);
                !written) {
                return std::unexpected(
                    Error(written.error()).addContext("the cache is off; restoring fstab"));
            }
        }
        reloadSystemd();
    }
    // A boot cache's filesystem goes back only where it was mounted from the cache; an applied
    // one where it was mounted before.
    const bool mountBack = record->boot ? wasMounted : true;
    if (mountBack && record->mount && !m_env.mountOf(active.plan.origin)) {
        if (auto mounted = mount(active.plan.origin, *record->mount); !mounted) {
            return std::unexpected(
                Error(mounted.error())
                    .addContext("the cache is off; mounting " + active.plan.origin + " back"));
        }
    }
    std::error_code error;
    std::filesystem::remove(journalPath(active.plan.name), error);
    return {};
}

Expected<void> CacheManager::flush(const std::string& device) {
    auto record = find(device);
    if (!record) {
        return std::unexpected(record.error());
    }
    auto backend = backendOf(*record);
    if (!backend) {
        return std::unexpected(backend.error());
    }
    // Whatever the filesystem still holds goes down to the cache first.
    (void)m_env.run({"blockdev", "--flushbufs", record->active.cachedDevice});
    return (*backend)->flush(record->active);
}

Expected<CacheRecord> CacheManager::setMode(const std::string& device, CacheMode mode) {
    auto record = find(device);
    if (!record) {
        return std::unexpected(record.error());
    }
    auto backend = backendOf(*record);
    if (!backend) {
        return std::unexpected(backend.error());
    }
    if (auto changed = (*backend)->setMode(record->active, mode); !changed) {
        return std::unexpected(changed.error());
    }
    record->power.switchedBy.clear(); // the user's choice now, not a power event's
    return commit(*record);
}

Expected<CacheRecord> CacheManager::resize(const std::string& device, std::uint64_t cacheBytes) {
    auto record = find(device);
    if (!record) {
        return std::unexpected(record.error());
    }
    auto backend = backendOf(*record);
    if (!backend) {
        return std::unexpected(backend.error());
    }
    if (auto resized = (*backend)->resize(record->active, cacheBytes); !resized) {
        (void)save(*record);
        return std::unexpected(resized.error());
    }
    return commit(*record);
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
        if (record->phase == "scheduled") {
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
    auto text = readWhole(path);
    if (!text) {
        return std::unexpected(text.error());
    }
    auto changed = replaceFstabLine(*text, from, to);
    if (!changed) {
        return std::unexpected(Error(changed.error()).addContext(m_boot.fstab.string()));
    }
    if (auto backedUp = replaceFileAtomically(m_env.resolve(m_boot.backup), *text); !backedUp) {
        return std::unexpected(backedUp.error());
    }
    return replaceFileAtomically(path, *changed);
}

Expected<std::pair<FstabEntry, FstabChange>>
CacheManager::fstabChangeFor(const std::string& backendName, const CachePlan& plan) const {
    auto cachedDevice = predictedCachedDevice(backendName, plan);
    if (!cachedDevice) {
        return std::unexpected(cachedDevice.error());
    }
    auto text = readWhole(m_env.resolve(m_boot.fstab));
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
        "scheduled",
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
    if (record->phase == "active" && m_env.exists(record->active.cachedDevice)) {
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
    record->phase = "enabling";
    if (auto saved = save(*record); !saved) {
        return std::unexpected(saved.error());
    }
    auto active = (*backend)->enable(plan);
    if (!active) {
        record->phase = "scheduled";
        (void)save(*record);
        return std::unexpected(Error(active.error()).addContext("stacking the cache at boot"));
    }
    record->active = *active;
    record->phase = "active";
    return commit(*record);
}

Expected<CacheRecord> CacheManager::detach(const std::string& device) {
    auto record = findAtBoot(device);
    if (!record) {
        return std::unexpected(record.error());
    }
    if (record->phase == "scheduled") {
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
    record->phase = "scheduled";
    record->active.resources = Json::object();
    return commit(*record);
}

PowerOutcome CacheManager::applyPower(CacheRecord& record, PowerEvent event, bool onBattery) {
    const auto decision = decidePower(record.active.plan.mode, record.power, event, onBattery);
    PowerOutcome outcome{record.active.plan.name, record.active.plan.origin, decision.reason, ""};
    auto backend = backendOf(record);
    if (!backend) {
        outcome.error = backend.error().describe();
        return outcome;
    }
    if (decision.flush) {
        (void)m_env.run({"blockdev", "--flushbufs", record.active.cachedDevice});
        if (!drainsBySwitch(decision)) {
            if (auto flushed = (*backend)->flush(record.active); !flushed) {
                outcome.error = flushed.error().describe();
            }
        }
    }
    if (decision.mode && outcome.error.empty()) {
        if (auto changed = (*backend)->setMode(record.active, *decision.mode); !changed) {
            outcome.error = changed.error().describe();
        }
    }
    if (outcome.error.empty()) {
        record.power.switchedBy = decision.switchedBy;
    }
    if (auto saved = save(record); !saved && outcome.error.empty()) {
        outcome.error = saved.error().describe();
    }
    if (!outcome.error.empty()) {
        log::get("cachectl")->error("{} on {}: {}", toString(event), outcome.name, outcome.error);
    } else if (!outcome.action.empty()) {
        log::get("cachectl")->info("{}: {}", outcome.name, outcome.action);
    }
    return outcome;
}

std::vector<PowerOutcome> CacheManager::powerEvent(PowerEvent event, bool onBattery) {
    std::vector<PowerOutcome> outcomes;
    for (const auto& status : status()) {
        CacheRecord record = status.record;
        if (record.phase == "active") {
            outcomes.push_back(applyPower(record, event, onBattery));
        }
    }
    return outcomes;
}

Expected<CacheRecord> CacheManager::setPowerPolicy(const std::string& device, bool safeOnBattery,
                                                   bool onBattery) {
    auto record = find(device);
    if (!record) {
        return std::unexpected(record.error());
    }
    record->power.safeOnBattery = safeOnBattery;
    std::optional<PowerDecision> decision;
    if (record->phase == "active") {
        const bool heldByPower =
            record->power.switchedBy == "battery" || record->power.switchedBy == "suspend";
        if (!safeOnBattery && heldByPower) {
            decision = decidePower(record->active.plan.mode, record->power, PowerEvent::Ac, false);
        } else if (safeOnBattery && onBattery) {
            decision =
                decidePower(record->active.plan.mode, record->power, PowerEvent::Battery, true);
        }
    }
    if (decision && decision->acts()) {
        auto backend = backendOf(*record);
        if (!backend) {
            return std::unexpected(backend.error());
        }
        if (decision->flush && !drainsBySwitch(*decision)) {
            if (auto flushed = (*backend)->flush(record->active); !flushed) {
                return std::unexpected(flushed.error());
            }
        }
        if (decision->mode) {
            if (auto changed = (*backend)->setMode(record->active, *decision->mode); !changed) {
                return std::unexpected(changed.error());
            }
        }
        record->power.switchedBy = decision->switchedBy;
    }
    return commit(*record);
}

} // namespace ssdk::cachectl
