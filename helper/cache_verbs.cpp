#include "helper/cache_verbs.h"

#include <fstream>
#include <memory>
#include <sstream>

#include "core/cachectl/verbs.h"
#include "core/firmware/power.h"
#include "core/rpc/progress.h"

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

// A partition or disk to cache, or a cache drive: a real block device, not the system disk.
// Returns the device node that was validated (the path resolved once, in /dev), never the
// path as given: a link a user owns (in /dev/shm) could point elsewhere by the time it is used.
Expected<std::string> blockDevice(const CacheVerbEnv& env, const std::string& path, const char* key,
                                  bool allowMounted) {
    auto node = env.validateDevice(path, {.allowMounted = allowMounted, .allowSystemDisk = false});
    if (!node) {
        return std::unexpected(
            Error(node.error()).addContext(std::string("argument '") + key + "'"));
    }
    return node;
}

template <typename Reply, typename Value> Expected<Json> answer(Expected<Value> value) {
    if (!value) {
        return std::unexpected(value.error());
    }
    return toJson(Reply{std::move(*value)});
}

Expected<Json> probe(CacheManager& manager, const CacheVerbEnv& env, const Json& args) {
    if (auto request = probeRequestFromJson(args); !request) {
        return std::unexpected(request.error());
    }
    const RamInfo ram = env.readRam();
    return toJson(
        ProbeReply{manager.probeAll(),
                   {ram.totalBytes, ram.availableBytes, suggestedCacheBytes(ram.totalBytes)}});
}

Expected<Json> status(CacheManager& manager, const Json& args) {
    if (auto request = statusRequestFromJson(args); !request) {
        return std::unexpected(request.error());
    }
    return toJson(StatusReply{manager.status()});
}

Expected<Json> enable(CacheManager& manager, const CacheVerbEnv& env, const Json& args,
                      const VerbEvents& events) {
    auto request = enableRequestFromJson(args);
    if (!request) {
        return std::unexpected(request.error());
    }
    auto origin = blockDevice(env, request->device, "device", true);
    if (!origin) {
        return std::unexpected(origin.error());
    }
    CachePlan plan{*origin, cacheName(*origin), request->size, request->compression, request->mode,
                   ""};
    plan.sequentialCutoff = request->sequentialCutoff;
    plan.writebackPercent = request->writebackPercent;
    if (request->cacheDevice) {
        auto cacheDevice = blockDevice(env, *request->cacheDevice, "cache_device", false);
        if (!cacheDevice) {
            return std::unexpected(cacheDevice.error());
        }
        plan.cacheDevice = *cacheDevice;
    }
    const PowerPolicy power{request->powerSafe, ""};
    if (request->preview) {
        auto change = manager.previewAtBoot(request->backend, plan);
        if (!change) {
            return std::unexpected(change.error());
        }
        return toJson(EnableReply{std::nullopt, fstabPreviewOf(*change)});
    }
    if (request->atNextBoot) {
        return answer<EnableReply>(
            manager.enableAtBoot(request->backend, plan, power, request->fstabLine));
    }
    // Each job's start as a progress event ("Unmounting …", "Stacking …", "Mounting … again"),
    // only once the request was checked and the journal written.
    const auto progress = [&events](const JobEvent& job) {
        if (!job.finished) {
            events(rpc::kEventProgress,
                   rpc::toJson(rpc::Progress{.fraction = static_cast<double>(job.index) /
                                                         static_cast<double>(job.count),
                                             .text = job.description}));
        }
    };
    return answer<EnableReply>(
        manager.enable(request->backend, plan, request->applyNow, power, progress));
}

Expected<Json> disable(CacheManager& manager, const Json& args) {
    auto request = deviceRequestFromJson(args);
    if (!request) {
        return std::unexpected(request.error());
    }
    // Only caches the helper journaled can be named here: the manager looks it up.
    if (auto done = manager.disable(request->device); !done) {
        return std::unexpected(done.error());
    }
    return toJson(DisableReply{request->device});
}

Expected<Json> flush(CacheManager& manager, const Json& args) {
    auto request = deviceRequestFromJson(args);
    if (!request) {
        return std::unexpected(request.error());
    }
    if (auto done = manager.flush(request->device); !done) {
        return std::unexpected(done.error());
    }
    return toJson(FlushReply{request->device});
}

Expected<Json> mode(CacheManager& manager, const Json& args) {
    auto request = modeRequestFromJson(args);
    if (!request) {
        return std::unexpected(request.error());
    }
    return answer<RecordReply>(manager.setMode(request->device, request->mode));
}

Expected<Json> resize(CacheManager& manager, const Json& args) {
    auto request = resizeRequestFromJson(args);
    if (!request) {
        return std::unexpected(request.error());
    }
    return answer<RecordReply>(manager.resize(request->device, request->size));
}

Expected<Json> policy(CacheManager& manager, const CacheVerbEnv& env, const Json& args) {
    auto request = policyRequestFromJson(args);
    if (!request) {
        return std::unexpected(request.error());
    }
    return answer<RecordReply>(
        manager.setPowerPolicy(request->device, request->powerSafe, env.power().onBattery));
}

Expected<Json> boot(CacheManager& manager, const CacheVerbEnv& env, const Json& args) {
    auto request = bootRequestFromJson(args);
    if (!request) {
        return std::unexpected(request.error());
    }
    if (request->action == BootAction::Start) {
        return answer<RecordReply>(manager.attach(request->device, env.power().onBattery));
    }
    return answer<RecordReply>(manager.detach(request->device));
}

Expected<Json> powerEvent(CacheManager& manager, const CacheVerbEnv& env, const Json& args) {
    auto request = powerRequestFromJson(args);
    if (!request) {
        return std::unexpected(request.error());
    }
    const PowerSource source = env.power();
    const PowerEvent event =
        request->event.value_or(source.onBattery ? PowerEvent::Battery : PowerEvent::Ac);
    const bool onBattery =
        event == PowerEvent::Battery || (event != PowerEvent::Ac && source.onBattery);
    return toJson(
        PowerReply{event, onBattery, source.detail, manager.powerEvent(event, onBattery)});
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

RamInfo liveRamInfo() {
    std::ifstream in("/proc/meminfo");
    std::stringstream text;
    text << in.rdbuf();
    return parseMemInfo(text.str());
}

CacheVerbEnv CacheVerbEnv::live() {
    return CacheVerbEnv{
        [](std::string_view path, const DeviceRules& rules) -> Expected<std::string> {
            auto validated = validateBlockDeviceNode(path, rules);
            if (!validated) {
                return std::unexpected(validated.error());
            }
            return validated->node;
        },
        liveRamInfo, livePowerSource};
}

void addCacheVerbs(HelperService& service, CacheManager& manager, PowerReader power) {
    CacheVerbEnv env = CacheVerbEnv::live();
    env.power = std::move(power);
    addCacheVerbs(service, manager, std::move(env));
}

void addCacheVerbs(HelperService& service, CacheManager& manager, CacheVerbEnv env) {
    CacheManager* m = &manager;
    const auto shared = std::make_shared<const CacheVerbEnv>(std::move(env));
    // Every verb is authorized as its own polkit action, io.github.ssdkeeper.<verb>.
    auto add = [&service](const char* name, Grade grade,
                          std::function<Expected<Json>(const Json&, const VerbEvents&)> handler) {
        service.add(
            Verb{name, std::string("io.github.ssdkeeper.") + name, grade, std::move(handler)});
    };
    add(kVerbProbe, Grade::Read,
        [m, shared](const Json& args, const VerbEvents&) { return probe(*m, *shared, args); });
    add(kVerbStatus, Grade::Read,
        [m](const Json& args, const VerbEvents&) { return status(*m, args); });
    add(kVerbEnable, Grade::Change, [m, shared](const Json& args, const VerbEvents& events) {
        return enable(*m, *shared, args, events);
    });
    add(kVerbDisable, Grade::Change,
        [m](const Json& args, const VerbEvents&) { return disable(*m, args); });
    add(kVerbFlush, Grade::Change,
        [m](const Json& args, const VerbEvents&) { return flush(*m, args); });
    add(kVerbMode, Grade::Change,
        [m](const Json& args, const VerbEvents&) { return mode(*m, args); });
    add(kVerbResize, Grade::Change,
        [m](const Json& args, const VerbEvents&) { return resize(*m, args); });
    add(kVerbPolicy, Grade::Change,
        [m, shared](const Json& args, const VerbEvents&) { return policy(*m, *shared, args); });
    add(kVerbBoot, Grade::Change,
        [m, shared](const Json& args, const VerbEvents&) { return boot(*m, *shared, args); });
    add(kVerbPower, Grade::Change,
        [m, shared](const Json& args, const VerbEvents&) { return powerEvent(*m, *shared, args); });
}

} // namespace ssdk::helper
