#include "helper/helper_service.h"

#include <exception>

#include "core/base/log.h"
#include "core/device/discovery.h"

namespace ssdk::helper {

namespace {

// The id of a request that failed to decode, when it has a readable one, so the client can
// match the error to its call.
std::uint64_t salvageId(std::string_view line) {
    if (line.size() > rpc::kMaxLineBytes || rpc::nestsDeeperThan(line, rpc::kMaxNestingDepth)) {
        return 0;
    }
    auto json = parseJson(line, "the request");
    if (!json || !json->is_object()) {
        return 0;
    }
    const auto id = json->find("id");
    return id != json->end() && id->is_number_unsigned() ? id->get<std::uint64_t>() : 0;
}

// The response when even an error response could not be built (out of memory): written by
// hand, so it cannot fail again.
constexpr std::string_view kLastResortResponse =
    R"({"id":0,"ok":false,"error":{"code":"internal","message":"the helper could not handle )"
    R"(this request","context":[]}})"
    "\n";

constexpr std::string_view kUnprintablePath = "(unprintable path)";

} // namespace

DriveDescriber liveDriveDescriber() {
    return [](const std::string& devicePath) {
        const SysfsRoot root;
        return device::Discovery(root, nullptr).describeDrive(devicePath);
    };
}

HelperService::HelperService(Authorizer& authorizer, DriveDescriber describeDrive)
    : m_authorizer(authorizer)
    , m_describeDrive(std::move(describeDrive)) {}

void HelperService::add(Verb verb) {
    auto name = verb.name;
    m_verbs.insert_or_assign(std::move(name), std::move(verb));
}

std::vector<std::string> HelperService::verbNames() const {
    std::vector<std::string> names;
    for (const auto& [name, verb] : m_verbs) {
        names.push_back(name);
    }
    return names;
}

const Verb* HelperService::find(std::string_view name) const {
    const auto verb = m_verbs.find(name);
    return verb == m_verbs.end() ? nullptr : &verb->second;
}

std::string HelperService::handleLine(std::string_view line, const EventSink& events) {
    try {
        return handleLineOrThrow(line, events);
    } catch (const std::exception& error) {
        try {
            log::get("helper")->error("a request could not be handled: {}",
                                      rpc::printable(error.what()));
            return rpc::encode(rpc::Response{
                0, fail(ErrorCode::Internal, "the helper could not handle this request: " +
                                                 rpc::printable(error.what()))});
        } catch (...) {
            return std::string(kLastResortResponse);
        }
    } catch (...) {
        return std::string(kLastResortResponse);
    }
}

std::string HelperService::handleLineOrThrow(std::string_view line, const EventSink& events) {
    if (const auto cancelled = rpc::decodeCancel(line)) {
        log::get("helper")->debug("cancel of request {} arrived after it finished", *cancelled);
        return {};
    }
    auto request = rpc::decodeRequest(line);
    if (!request) {
        log::get("helper")->warn("malformed request: {}",
                                 rpc::printable(request.error().describe(), 400));
        return rpc::encode(rpc::Response{salvageId(line), std::unexpected(request.error())});
    }
    auto result = dispatch(*request, events);
    if (!result) {
        log::get("helper")->info("{} failed: {}", request->verb,
                                 rpc::printable(result.error().describe(), 400));
    }
    return rpc::encode(rpc::Response{request->id, std::move(result)});
}

AuthDetails HelperService::detailsFor(const rpc::Request& request) const {
    AuthDetails details;
    const auto device = request.args.find("device");
    if (device == request.args.end() || !device->is_string()) {
        return details;
    }
    const auto& path = device->get_ref<const std::string&>();
    if (!isSafeDetail(path)) {
        details.emplace("device", kUnprintablePath);
        return details;
    }
    details.emplace("device", path);
    if (m_describeDrive && path.starts_with("/dev/")) {
        if (auto drive = m_describeDrive(path); isSafeDetail(drive)) {
            details.emplace("drive", std::move(drive));
        }
    }
    return details;
}

Expected<void> HelperService::authorize(const Verb& verb, const AuthDetails& details) {
    // Details are printable ASCII (isSafeDetail), so a newline cannot appear inside one.
    std::string key = verb.polkitAction;
    for (const auto& [name, value] : details) {
        key += "\n" + name + "=" + value;
    }
    if (verb.grade == Grade::Read && m_readsAllowed.contains(key)) {
        return {};
    }
    auto allowed = m_authorizer.authorizeWithDetails(verb.polkitAction, details);
    if (allowed && verb.grade == Grade::Read) {
        m_readsAllowed.insert(std::move(key));
    }
    return allowed;
}

Expected<Json> HelperService::dispatch(const rpc::Request& request, const EventSink& events) {
    const auto verb = m_verbs.find(request.verb);
    if (verb == m_verbs.end()) {
        return fail(ErrorCode::InvalidArgument, "unknown verb '" + request.verb + "'");
    }
    // The verb's name goes to the log, not into the error: callers word their own context
    // ("auditing TRIM for /dev/sdb") and people never see "trim.audit:".
    if (auto allowed = authorize(verb->second, detailsFor(request)); !allowed) {
        log::get("helper")->warn("{} refused: {}", request.verb, allowed.error().describe());
        return std::unexpected(allowed.error());
    }
    const VerbEvents verbEvents = [&events, id = request.id](const std::string& name,
                                                             const Json& data) {
        if (events) {
            events(rpc::Event{id, name, data});
        }
    };
    log::get("helper")->info("{} {}", request.verb, rpc::printableJson(request.args, 400));
    try {
        auto result = verb->second.handler(request.args, verbEvents);
        if (!result) {
            log::get("helper")->info("{} failed: {}", request.verb, result.error().describe());
        }
        return result;
    } catch (const std::exception& error) {
        return fail(ErrorCode::Internal, request.verb + " failed unexpectedly: " + error.what());
    } catch (...) {
        return fail(ErrorCode::Internal, request.verb + " failed unexpectedly");
    }
}

} // namespace ssdk::helper
