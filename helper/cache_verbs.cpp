#include "helper/cache_verbs.h"

#include <fstream>
#include <sstream>

#include "core/firmware/power.h"
#include "helper/validation.h"

namespace ssdk::helper {

namespace {

using namespace ssdk::cachectl;

std::string cacheName(const std::string& origin) {
    std::string name = "ssdk-";
    for (char c : kernelName(origin)) {
        const bool plain = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
        name += plain ? c : '_';
    }
    return name.substr(0, 32);
}

// An optional true/false argument (false when absent).
Expected<bool> boolArg(const Json& args, const char* key) {
    if (!args.contains(key)) {
        return false;
    }
    if (!args[key].is_boolean()) {
        return fail(ErrorCode::InvalidArgument,
                    std::string("argument '") + key + "' must be true or false");
    }
    return args[key].get<bool>();
}

// A partition or disk to cache, or a cache drive: a real block device, not the system disk.
// Returns the device node that was validated (the path resolved once, in /dev), never the
// path as given: a link a user owns (in /dev/shm) could point elsewhere by the time it is used.
Expected<std::string> blockDeviceArg(const Json& args, const char* key, bool allowMounted) {
    auto path = stringArg(args, key, kMaxPathLength);
    if (!path) {
        return std::unexpected(path.error());
    }
    auto validated =
        validateBlockDeviceNode(*path, {.allowMounted = allowMounted, .allowSystemDisk = false});
    if (!validated) {
        return std::unexpected(
            Error(validated.error()).addContext(std::string("argument '") + key + "'"));
    }
    return validated->node;
}

Expected<Json> recordResult(Expected<CacheRecord> record) {
    if (!record) {
        return std::unexpected(record.error());
    }
    return Json{{"record", toJson(*record)}};
}

RamInfo readRam() {
    std::ifstream in("/proc/meminfo");
    std::stringstream text;
    text << in.rdbuf();
    return parseMemInfo(text.str());
}

Expected<Json> probe(CacheManager& manager, const Json& args) {
    if (auto keys = requireOnlyKeys(args, {}); !keys) {
        return std::unexpected(keys.error());
    }
    Json backends = Json::array();
    for (const auto& report : manager.probeAll()) {
        backends.push_back(toJson(report));
    }
    const RamInfo ram = readRam();
    return Json{{"backends", backends},
                {"ram",
                 {{"total_bytes", ram.totalBytes},
                  {"available_bytes", ram.availableBytes},
                  {"suggested_bytes", suggestedCacheBytes(ram.totalBytes)}}}};
}

Expected<Json> status(CacheManager& manager, const Json& args) {
    if (auto keys = requireOnlyKeys(args, {}); !keys) {
        return std::unexpected(keys.error());
    }
    Json caches = Json::array();
    for (const auto& item : manager.status()) {
        caches.push_back(toJson(item));
    }
    return Json{{"caches", caches}};
}

// sequential_cutoff and writeback_percent of cache.enable, checked before anything else.
Expected<void> tuningArgs(const Json& args, CachePlan& plan) {
    if (args.contains("sequential_cutoff")) {
        auto cutoff = unsignedArg(args, "sequential_cutoff");
        if (!cutoff) {
            return std::unexpected(cutoff.error());
        }
        plan.sequentialCutoff = *cutoff;
    }
    if (args.contains("writeback_percent")) {
        auto percent = unsignedArg(args, "writeback_percent");
        if (!percent) {
            return std::unexpected(percent.error());
        }
        if (*percent > 100) {
            return fail(ErrorCode::InvalidArgument,
                        "the writeback percent must be between 0 and 100, not " +
                            std::to_string(*percent));
        }
        plan.writebackPercent = static_cast<unsigned>(*percent);
    }
    return checkTuning(plan);
}

Expected<Json> enable(CacheManager& manager, const Json& args, const VerbEvents& events) {
    if (auto keys = requireOnlyKeys(args, {"device", "backend", "size", "compression", "mode",
                                           "cache_device", "apply_now", "power_safe",
                                           "at_next_boot", "preview", "fstab_line",
                                           "sequential_cutoff", "writeback_percent"});
        !keys) {
        return std::unexpected(keys.error());
    }
    CachePlan tuning;
    if (auto checked = tuningArgs(args, tuning); !checked) {
        return std::unexpected(checked.error());
    }
    auto origin = blockDeviceArg(args, "device", true);
    if (!origin) {
        return std::unexpected(origin.error());
    }
    auto backend = stringArg(args, "backend", 64);
    auto size = unsignedArg(args, "size");
    auto compression = stringArg(args, "compression", 16, "none");
    auto mode = stringArg(args, "mode", 16, "write-through");
    for (const auto* problem :
         {backend ? nullptr : &backend.error(), size ? nullptr : &size.error(),
          compression ? nullptr : &compression.error(), mode ? nullptr : &mode.error()}) {
        if (problem != nullptr) {
            return std::unexpected(*problem);
        }
    }
    auto parsedCompression = parseCompression(*compression);
    auto parsedMode = parseCacheMode(*mode);
    if (!parsedCompression) {
        return std::unexpected(parsedCompression.error());
    }
    if (!parsedMode) {
        return std::unexpected(parsedMode.error());
    }
    bool applyNow = false;
    bool powerSafe = false;
    bool atNextBoot = false;
    bool preview = false;
    for (auto [key, value] :
         {std::pair{"apply_now", &applyNow}, std::pair{"power_safe", &powerSafe},
          std::pair{"at_next_boot", &atNextBoot}, std::pair{"preview", &preview}}) {
        auto flag = boolArg(args, key);
        if (!flag) {
            return std::unexpected(flag.error());
        }
        *value = *flag;
    }
    if (applyNow && atNextBoot) {
        return fail(ErrorCode::InvalidArgument, "apply_now and at_next_boot exclude each other");
    }
    if (preview && !atNextBoot) {
        return fail(ErrorCode::InvalidArgument, "preview is for at_next_boot");
    }
    auto fstabLine = stringArg(args, "fstab_line", kMaxPathLength, "");
    if (!fstabLine) {
        return std::unexpected(fstabLine.error());
    }
    CachePlan plan{*origin, cacheName(*origin), *size, *parsedCompression, *parsedMode, ""};
    plan.sequentialCutoff = tuning.sequentialCutoff;
    plan.writebackPercent = tuning.writebackPercent;
    if (args.contains("cache_device")) {
        auto cacheDevice = blockDeviceArg(args, "cache_device", false);
        if (!cacheDevice) {
            return std::unexpected(cacheDevice.error());
        }
        plan.cacheDevice = *cacheDevice;
    }
    const PowerPolicy power{powerSafe, ""};
    if (preview) {
        auto change = manager.previewAtBoot(*backend, plan);
        if (!change) {
            return std::unexpected(change.error());
        }
        return Json{{"fstab",
                     {{"path", change->path},
                      {"line", change->line + 1},
                      {"before", change->before},
                      {"after", change->after},
                      {"diff", change->diff()}}}};
    }
    if (atNextBoot) {
        return recordResult(manager.enableAtBoot(*backend, plan, power, *fstabLine));
    }
    events("progress",
           Json{{"fraction", 0.0}, {"text", "Stacking " + *backend + " over " + plan.origin}});
    return recordResult(manager.enable(*backend, plan, applyNow, power));
}

Expected<std::string> cachedArg(const Json& args, std::initializer_list<std::string_view> keys) {
    if (auto checked = requireOnlyKeys(args, keys); !checked) {
        return std::unexpected(checked.error());
    }
    // Only caches the helper journaled can be named here: the manager looks it up.
    return stringArg(args, "device", kMaxPathLength);
}

Expected<Json> disable(CacheManager& manager, const Json& args) {
    auto device = cachedArg(args, {"device"});
    if (!device) {
        return std::unexpected(device.error());
    }
    if (auto done = manager.disable(*device); !done) {
        return std::unexpected(done.error());
    }
    return Json{{"disabled", *device}};
}

Expected<Json> flush(CacheManager& manager, const Json& args) {
    auto device = cachedArg(args, {"device"});
    if (!device) {
        return std::unexpected(device.error());
    }
    if (auto done = manager.flush(*device); !done) {
        return std::unexpected(done.error());
    }
    return Json{{"flushed", *device}};
}

Expected<Json> mode(CacheManager& manager, const Json& args) {
    auto device = cachedArg(args, {"device", "mode"});
    if (!device) {
        return std::unexpected(device.error());
    }
    auto text = stringArg(args, "mode", 16);
    if (!text) {
        return std::unexpected(text.error());
    }
    auto parsed = parseCacheMode(*text);
    if (!parsed) {
        return std::unexpected(parsed.error());
    }
    return recordResult(manager.setMode(*device, *parsed));
}

Expected<Json> resize(CacheManager& manager, const Json& args) {
    auto device = cachedArg(args, {"device", "size"});
    if (!device) {
        return std::unexpected(device.error());
    }
    auto size = unsignedArg(args, "size");
    if (!size) {
        return std::unexpected(size.error());
    }
    return recordResult(manager.resize(*device, *size));
}

Expected<Json> policy(CacheManager& manager, const Json& args, const PowerReader& power) {
    auto device = cachedArg(args, {"device", "power_safe"});
    if (!device) {
        return std::unexpected(device.error());
    }
    if (!args.contains("power_safe")) {
        return fail(ErrorCode::InvalidArgument, "argument 'power_safe' is missing");
    }
    auto safe = boolArg(args, "power_safe");
    if (!safe) {
        return std::unexpected(safe.error());
    }
    return recordResult(manager.setPowerPolicy(*device, *safe, power().onBattery));
}

Expected<Json> boot(CacheManager& manager, const Json& args, const PowerReader& power) {
    auto device = cachedArg(args, {"device", "action"});
    if (!device) {
        return std::unexpected(device.error());
    }
    auto action = stringArg(args, "action", 8);
    if (!action) {
        return std::unexpected(action.error());
    }
    if (*action == "start") {
        return recordResult(manager.attach(*device, power().onBattery));
    }
    if (*action == "stop") {
        return recordResult(manager.detach(*device));
    }
    return fail(ErrorCode::InvalidArgument, "argument 'action' must be start or stop");
}

Expected<Json> powerEvent(CacheManager& manager, const Json& args, const PowerReader& power) {
    if (auto keys = requireOnlyKeys(args, {"event"}); !keys) {
        return std::unexpected(keys.error());
    }
    auto text = stringArg(args, "event", 16);
    if (!text) {
        return std::unexpected(text.error());
    }
    const PowerSource source = power();
    PowerEvent event = source.onBattery ? PowerEvent::Battery : PowerEvent::Ac;
    if (*text != "auto") {
        auto parsed = parsePowerEvent(*text);
        if (!parsed) {
            return std::unexpected(parsed.error());
        }
        event = *parsed;
    }
    const bool onBattery =
        event == PowerEvent::Battery || (event != PowerEvent::Ac && source.onBattery);
    Json caches = Json::array();
    for (const auto& outcome : manager.powerEvent(event, onBattery)) {
        caches.push_back(toJson(outcome));
    }
    return Json{{"event", std::string(toString(event))},
                {"on_battery", onBattery},
                {"power", source.detail},
                {"caches", caches}};
}

} // namespace

PowerSource powerSourceOf(const SysfsRoot& root) {
    const auto state = firmware::readPowerState(root);
    return PowerSource{!state.onMains, state.detail};
}

PowerSource livePowerSource() {
    return powerSourceOf(SysfsRoot());
}

RamInfo parseMemInfo(std::string_view text) {
    RamInfo info;
    std::istringstream in{std::string(text)};
    std::string key;
    std::uint64_t kib = 0;
    std::string unit;
    while (in >> key >> kib) {
        std::getline(in, unit);
        if (key == "MemTotal:") {
            info.totalBytes = kib * 1024;
        } else if (key == "MemAvailable:") {
            info.availableBytes = kib * 1024;
        }
    }
    return info;
}

void addCacheVerbs(HelperService& service, CacheManager& manager, PowerReader power) {
    CacheManager* m = &manager;
    service.add(Verb{"cache.probe", "io.github.ssdkeeper.cache.probe", Grade::Read,
                     [m](const Json& args, const VerbEvents&) { return probe(*m, args); }});
    service.add(Verb{"cache.status", "io.github.ssdkeeper.cache.status", Grade::Read,
                     [m](const Json& args, const VerbEvents&) { return status(*m, args); }});
    service.add(
        Verb{"cache.enable", "io.github.ssdkeeper.cache.enable", Grade::Change,
             [m](const Json& args, const VerbEvents& events) { return enable(*m, args, events); }});
    service.add(Verb{"cache.disable", "io.github.ssdkeeper.cache.disable", Grade::Change,
                     [m](const Json& args, const VerbEvents&) { return disable(*m, args); }});
    service.add(Verb{"cache.flush", "io.github.ssdkeeper.cache.flush", Grade::Change,
                     [m](const Json& args, const VerbEvents&) { return flush(*m, args); }});
    service.add(Verb{"cache.mode", "io.github.ssdkeeper.cache.mode", Grade::Change,
                     [m](const Json& args, const VerbEvents&) { return mode(*m, args); }});
    service.add(Verb{"cache.resize", "io.github.ssdkeeper.cache.resize", Grade::Change,
                     [m](const Json& args, const VerbEvents&) { return resize(*m, args); }});
    service.add(
        Verb{"cache.policy", "io.github.ssdkeeper.cache.policy", Grade::Change,
             [m, power](const Json& args, const VerbEvents&) { return policy(*m, args, power); }});
    service.add(
        Verb{"cache.boot", "io.github.ssdkeeper.cache.boot", Grade::Change,
             [m, power](const Json& args, const VerbEvents&) { return boot(*m, args, power); }});
    service.add(Verb{
        "cache.power", "io.github.ssdkeeper.cache.power", Grade::Change,
        [m, power](const Json& args, const VerbEvents&) { return powerEvent(*m, args, power); }});
}

} // namespace ssdk::helper
