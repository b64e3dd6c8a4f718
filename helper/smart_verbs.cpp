#include "helper/smart_verbs.h"

#include "core/smart/device_reader.h"
#include "core/smart/health_service.h"
#include "core/smart/selftest.h"
#include "core/smart/smartctl_source.h"
#include "helper/validation.h"

namespace ssdk::helper {

namespace {

constexpr std::size_t kMaxTestLength = 8;
constexpr DeviceRules kSmartRules{.allowMounted = true, .allowSystemDisk = true};

using DiscoveryFactory = std::function<device::Discovery()>;

Expected<device::Device> deviceArg(const Json& args, const DiscoveryFactory& discovery) {
    auto path = stringArg(args, "device", kMaxPathLength);
    if (!path) {
        return std::unexpected(path.error());
    }
    if (discovery) {
        return validateBlockDevice(*path, kSmartRules, discovery());
    }
    return validateBlockDevice(*path, kSmartRules);
}

Expected<Json> readSmart(ProcessRunner& runner, const DiscoveryFactory& discovery,
                         const Json& args) {
    if (auto keys = requireOnlyKeys(args, {"device", "wake"}); !keys) {
        return std::unexpected(keys.error());
    }
    bool wake = false;
    if (args.contains("wake")) {
        if (!args["wake"].is_boolean()) {
            return fail(ErrorCode::InvalidArgument, "argument 'wake' must be true or false");
        }
        wake = args["wake"].get<bool>();
    }
    auto device = deviceArg(args, discovery);
    if (!device) {
        return std::unexpected(device.error());
    }
    smart::HealthService service(runner, {}, true);
    auto raw = service.capture(*device, {.wakeSleepingDisk = wake});
    if (!raw) {
        return std::unexpected(raw.error());
    }
    return smart::toJson(*raw);
}

Expected<Json> runSelfTest(ProcessRunner& runner, const DiscoveryFactory& discovery,
                           const Json& args, bool abort) {
    if (auto keys =
            abort ? requireOnlyKeys(args, {"device"}) : requireOnlyKeys(args, {"device", "test"});
        !keys) {
        return std::unexpected(keys.error());
    }
    smart::SelfTestAction action = smart::SelfTestAction::Abort;
    if (!abort) {
        auto test = stringArg(args, "test", kMaxTestLength);
        if (!test) {
            return std::unexpected(test.error());
        }
        auto parsed = smart::parseSelfTestAction(*test);
        if (!parsed || *parsed == smart::SelfTestAction::Abort) {
            return fail(ErrorCode::InvalidArgument, "argument 'test' must be short or long");
        }
        action = *parsed;
    }
    auto device = deviceArg(args, discovery);
    if (!device) {
        return std::unexpected(device.error());
    }
    if (auto reason = smart::noSmartReason(*device)) {
        return fail(ErrorCode::Unsupported, *reason + ", so it cannot run a self-test");
    }
    auto messages = smart::runSelfTestCommand(runner, action, device->path);
    if (!messages) {
        return std::unexpected(messages.error());
    }
    return Json{{abort ? "aborted" : "started", abort ? "self-test" : smart::toString(action)},
                {"device", device->path},
                {"messages", *messages}};
}

} // namespace

void addSmartVerbs(HelperService& service, ProcessRunner& runner, DiscoveryFactory discovery) {
    service.add(Verb{"smart.read", "io.github.ssdkeeper.smart.read", Grade::Read,
                     [&runner, discovery](const Json& args, const VerbEvents&) {
                         return readSmart(runner, discovery, args);
                     }});
    service.add(Verb{"selftest.start", "io.github.ssdkeeper.selftest.start", Grade::Change,
                     [&runner, discovery](const Json& args, const VerbEvents&) {
                         return runSelfTest(runner, discovery, args, false);
                     }});
    service.add(Verb{"selftest.abort", "io.github.ssdkeeper.selftest.abort", Grade::Change,
                     [&runner, discovery](const Json& args, const VerbEvents&) {
                         return runSelfTest(runner, discovery, args, true);
                     }});
}

void addSmartVerbs(HelperService& service, ProcessRunner& runner) {
    addSmartVerbs(service, runner, DiscoveryFactory{});
}

} // namespace ssdk::helper
