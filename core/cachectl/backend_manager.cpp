#include "core/cachectl/backend_manager.h"

#include <fstream>
#include <set>
#include <sstream>

#include "core/base/log.h"

namespace ssdk::cachectl {

namespace {

std::vector<std::string> splitOptions(const std::string& text) {
    std::vector<std::string> options;
    std::stringstream in(text);
    for (std::string option; std::getline(in, option, ',');) {
        if (!option.empty()) {
            options.push_back(option);
        }
    }
    return options;
}

} // namespace

Json toJson(const CacheRecord& record) {
    Json json{{"phase", record.phase}, {"cache", toJson(record.active)}, {"mount", nullptr}};
    if (record.mount) {
        json["mount"] = Json{{"mount_point", record.mount->mountPoint},
                             {"fs_type", record.mount->fsType},
                             {"options", record.mount->options}};
    }
    return json;
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
    return record;
}

std::string remountOptions(const std::string& mountOptions, const std::string& superOptions) {
    std::vector<std::string> result;
    std::set<std::string> seen;
    const bool readOnly = std::ranges::count(splitOptions(mountOptions), std::string("ro")) > 0;
    for (const auto& list : {mountOptions, superOptions}) {
        for (const auto& option : splitOptions(list)) {
            if (option == "seclabel" || option == "rw" || option == "ro" || seen.contains(option)) {
                continue;
            }
            seen.insert(option);
            result.push_back(option);
        }
    }
    std::string text = readOnly ? "ro" : "rw";
    for (const auto& option : result) {
        text += "," + option;
    }
    return text;
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
    std::error_code error;
    std::filesystem::create_directories(m_stateDir, error);
    if (error) {
        return failErrno(error.value(), "creating " + m_stateDir.string());
    }
    const auto path = journalPath(record.active.plan.name);
    const auto temporary = path.string() + ".tmp";
    {
        std::ofstream out(temporary, std::ios::trunc);
        out << toJson(record).dump(2) << "\n";
        out.flush();
        if (!out) {
            return failErrno(errno, "writing " + temporary);
        }
    }
    std::filesystem::rename(temporary, path, error);
    if (error) {
        return failErrno(error.value(), "replacing " + path.string());
    }
    return {};
}

Expected<CacheRecord> CacheManager::find(const std::string& device) const {
    const std::string name = kernelName(device);
    std::error_code error;
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
            kernelName(active.plan.origin) == name || active.plan.name == device) {
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
    auto result = m_env.runChecked(
        {"mount", "-t", mount.fsType, "-o", mount.options, device, mount.mountPoint});
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

Expected<CacheRecord> CacheManager::enable(const std::string& backendName, const CachePlan& plan,
                                           bool applyNow) {
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
    CacheRecord record{"enabling", ActiveCache{backendName, plan, "", Json::object()},
                       std::nullopt};
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
        record.mount = MountRecord{entry->mountPoint, entry->fsType,
                                   remountOptions(entry->mountOptions, entry->superOptions)};
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
    if (auto saved = save(record); !saved) {
        return std::unexpected(saved.error());
    }
    return record;
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
    record->phase = "disabling";
    (void)save(*record);
    const auto& active = record->active;
    if (!active.cachedDevice.empty()) {
        if (auto mounted = m_env.mountOf(active.cachedDevice); mounted) {
            if (auto unmounted = unmount(mounted->mountPoint); !unmounted) {
                return std::unexpected(Error(unmounted.error()).addContext("disabling the cache"));
            }
        }
        // Set up (fully, or the journal would not name it): the backend tears it down.
        if (auto disabled = (*backend)->disable(active); !disabled) {
            return std::unexpected(disabled.error());
        }
    }
    if (record->mount && !m_env.mountOf(active.plan.origin)) {
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
    if (auto saved = save(*record); !saved) {
        return std::unexpected(saved.error());
    }
    return record;
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
    if (auto saved = save(*record); !saved) {
        return std::unexpected(saved.error());
    }
    return record;
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
        if (auto backend = backendOf(*record); !backend) {
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
