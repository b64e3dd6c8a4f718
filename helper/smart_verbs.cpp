#include "helper/smart_verbs.h"

#include "core/smart/device_reader.h"
#include "core/smart/health_service.h"
#include "core/smart/selftest.h"
#include "core/smart/smartctl_source.h"
#include "core/smart/verbs.h"
#include "helper/validation.h"

namespace ssdk::helper {

namespace {

constexpr DeviceRules kSmartRules{.allowMounted = true, .allowSystemDisk = true};

using DiscoveryFactory = std::function<device::Discovery()>;

Expected<device::Device> validDevice(const std::string& path, const DiscoveryFactory& discovery) {
    if (discovery) {
        return validateBlockDevice(path, kSmartRules, discovery());
    }
    return validateBlockDevice(path, kSmartRules);
}

Expected<Json> readSmart(ProcessRunner& runner, const DiscoveryFactory& discovery,
                         const Json& args) {
    auto request = smart::readRequestFromJson(args);
    if (!request) {
        return std::unexpected(request.error());
    }
    auto device = validDevice(request->device, discovery);
    if (!device) {
        return std::unexpected(device.error());
    }
    smart::HealthService service(runner, {}, true);
    auto raw = service.capture(*device, {.wakeSleepingDisk = request->wake});
    if (!raw) {
        return std::unexpected(raw.error());
    }
    return smart::toJson(*raw);
}

// Runs smartctl's self-test command for action (Abort for selftest.abort) on the device.
Expected<Json> runSelfTest(ProcessRunner& runner, const DiscoveryFactory& discovery,
                           const std::string& path, smart::SelfTestAction action) {
    auto device = validDevice(path, discovery);
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
    return smart::toJson(smart::SelfTestReply{action, device->path, std::move(*messages)});
}

Expected<Json> startSelfTest(ProcessRunner& runner, const DiscoveryFactory& discovery,
                             const Json& args) {
    auto request = smart::selfTestStartRequestFromJson(args);
    if (!request) {
        return std::unexpected(request.error());
    }
    return runSelfTest(runner, discovery, request->device, request->test);
}

Expected<Json> abortSelfTest(ProcessRunner& runner, const DiscoveryFactory& discovery,
                             const Json& args) {
    auto request = smart::selfTestAbortRequestFromJson(args);
    if (!request) {
        return std::unexpected(request.error());
    }
    return runSelfTest(runner, discovery, request->device, smart::SelfTestAction::Abort);
}

} // namespace

void addSmartVerbs(HelperService& service, ProcessRunner& runner, DiscoveryFactory discovery) {
    service.add(Verb{smart::kVerbSmartRead, "io.github.ssdkeeper.smart.read", Grade::Read,
                     [&runner, discovery](const Json& args, const VerbEvents&) {
                         return readSmart(runner, discovery, args);
                     }});
    service.add(Verb{smart::kVerbSelfTestStart, "io.github.ssdkeeper.selftest.start", Grade::Change,
                     [&runner, discovery](const Json& args, const VerbEvents&) {
                         return startSelfTest(runner, discovery, args);
                     }});
    service.add(Verb{smart::kVerbSelfTestAbort, "io.github.ssdkeeper.selftest.abort", Grade::Change,
                     [&runner, discovery](const Json& args, const VerbEvents&) {
                         return abortSelfTest(runner, discovery, args);
                     }});
}

void addSmartVerbs(HelperService& service, ProcessRunner& runner) {
    addSmartVerbs(service, runner, DiscoveryFactory{});
}

} // namespace ssdk::helper
