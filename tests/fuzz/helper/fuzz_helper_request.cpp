// libFuzzer target: one request line from an unprivileged client through the root helper's
// HelperService::handleLine, with the verbs whose argument checks run without side effects:
// ping, smart.read, selftest.start, selftest.abort (their runner is a ReplayProcessRunner that
// starts nothing) and fuzz.validate (validateBlockDevice and the argument helpers).
//
// The fuzzer runs as root in CI, so no device path it makes may reach a real device: every
// device argument is validated against tests/data/sysfs/fuzz-unreachable, whose devices have
// names no /dev holds and block major 0, which no block device has. A path that resolves on
// this machine therefore never matches the kernel numbers the tree records, and the verb
// stops with an error before it acts. No drive describer is installed either: the polkit
// details are made from the request alone.
//
// Invariants (any break aborts): handleLine returns one line of valid JSON that decodes as a
// response (or nothing, for a cancel message); events are single lines of valid JSON; a
// fuzz.validate never accepts a device path; the authorizer sees only printable,
// bounded details.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/base/log.h"
#include "core/base/replay_process_runner.h"
#include "core/device/discovery.h"
#include "core/rpc/protocol.h"
#include "helper/authorizer.h"
#include "helper/helper_service.h"
#include "helper/ping_verb.h"
#include "helper/smart_verbs.h"
#include "helper/validation.h"

#ifndef SSDK_FUZZ_SYSFS_TREE
#error "SSDK_FUZZ_SYSFS_TREE must name tests/data/sysfs/fuzz-unreachable"
#endif

using namespace ssdk;
using namespace ssdk::helper;

namespace {

void require(bool condition) {
    if (!condition) {
        std::abort();
    }
}

class CheckingAuthorizer final : public Authorizer {
public:
    Expected<void> authorize(const std::string& action) override {
        return authorizeWithDetails(action, {});
    }
    Expected<void> authorizeWithDetails(const std::string& action,
                                        const AuthDetails& details) override {
        require(action.starts_with("io.github.ssdkeeper."));
        for (const auto& [key, value] : details) {
            require(key == "device" || key == "drive");
            require(isSafeDetail(value));
        }
        return {};
    }
};

device::Discovery unreachableDiscovery() {
    const SysfsRoot root{std::filesystem::path(SSDK_FUZZ_SYSFS_TREE)};
    return device::Discovery(root, device::makeSystemFsProber(root));
}

// fuzz.validate {device, allow_mounted?, allow_system_disk?, size?, label?}
Expected<Json> validateVerb(const Json& args, const VerbEvents& events) {
    if (auto keys = requireOnlyKeys(
            args, {"device", "allow_mounted", "allow_system_disk", "size", "label"});
        !keys) {
        return std::unexpected(keys.error());
    }
    auto path = stringArg(args, "device", kMaxPathLength);
    if (!path) {
        return std::unexpected(path.error());
    }
    auto size = unsignedArg(args, "size", 0);
    if (!size) {
        return std::unexpected(size.error());
    }
    auto label = stringArg(args, "label", 64, "");
    if (!label) {
        return std::unexpected(label.error());
    }
    DeviceRules rules;
    rules.allowMounted =
        args.value("allow_mounted", Json(false)).is_boolean() && args.value("allow_mounted", false);
    rules.allowSystemDisk = args.value("allow_system_disk", Json(false)).is_boolean() &&
                            args.value("allow_system_disk", false);
    events("progress", Json{{"text", *label}});
    auto device = validateBlockDevice(*path, rules, unreachableDiscovery());
    if (!device) {
        return std::unexpected(device.error());
    }
    std::abort(); // a path reached a device: the tree is not unreachable after all
}

struct Fixture {
    CheckingAuthorizer authorizer;
    ReplayProcessRunner runner; // answers every command with ToolMissing, runs nothing
    HelperService service{authorizer, DriveDescriber{}};

    Fixture() {
        ssdk::log::setup("off"); // a log line per request would cost more than the request
        service.add(pingVerb(Caller{.uid = 1000, .pid = 1, .startTime = "1"}));
        addSmartVerbs(service, runner, unreachableDiscovery);
        service.add(
            Verb{"fuzz.validate", "io.github.ssdkeeper.fuzz.validate", Grade::Read, validateVerb});
    }
};

void checkOneLine(const std::string& text) {
    require(!text.empty() && text.back() == '\n');
    require(text.find('\n') == text.size() - 1);
    require(parseJson(text, "a line from the helper").has_value());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static Fixture fixture;
    const std::string_view line(reinterpret_cast<const char*>(data), size);
    const EventSink events = [](const rpc::Event& event) {
        const std::string encoded = rpc::encode(event);
        checkOneLine(encoded);
        const auto message = rpc::decodeMessage(encoded);
        require(message.has_value() && message->isEvent);
    };
    const std::string response = fixture.service.handleLine(line, events);
    if (response.empty()) {
        require(rpc::decodeCancel(line).has_value());
        return 0;
    }
    checkOneLine(response);
    const auto message = rpc::decodeMessage(response);
    require(message.has_value() && !message->isEvent);
    if (!message->response.result) {
        require(!message->response.result.error().message().empty());
    }
    return 0;
}
