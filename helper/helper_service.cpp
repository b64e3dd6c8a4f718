#include "helper/helper_service.h"

#include <exception>

#include "core/base/log.h"

namespace ssdk::helper {

namespace {

// The id of a request that failed to decode, when it has a readable one, so the client can
// match the error to its call.
std::uint64_t salvageId(std::string_view line) {
    if (line.size() > rpc::kMaxLineBytes) {
        return 0;
    }
    auto json = parseJson(line, "the request");
    if (!json || !json->is_object()) {
        return 0;
    }
    const auto id = json->find("id");
    return id != json->end() && id->is_number_unsigned() ? id->get<std::uint64_t>() : 0;
}

} // namespace

HelperService::HelperService(Authorizer& authorizer)
    : m_authorizer(authorizer) {}

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
    if (const auto cancelled = rpc::decodeCancel(line)) {
        log::get("helper")->debug("cancel of request {} arrived after it finished", *cancelled);
        return {};
    }
    auto request = rpc::decodeRequest(line);
    if (!request) {
        log::get("helper")->warn("malformed request: {}", request.error().describe());
        return rpc::encode(rpc::Response{salvageId(line), std::unexpected(request.error())});
    }
    auto result = dispatch(*request, events);
    if (!result) {
        log::get("helper")->info("{} failed: {}", request->verb, result.error().describe());
    }
    return rpc::encode(rpc::Response{request->id, std::move(result)});
}

Expected<Json> HelperService::dispatch(const rpc::Request& request, const EventSink& events) {
    const auto verb = m_verbs.find(request.verb);
    if (verb == m_verbs.end()) {
        return fail(ErrorCode::InvalidArgument, "unknown verb '" + request.verb + "'");
    }
    if (auto allowed = m_authorizer.authorize(verb->second.polkitAction); !allowed) {
        return std::unexpected(Error(allowed.error()).addContext(request.verb));
    }
    const VerbEvents verbEvents = [&events, id = request.id](const std::string& name,
                                                             const Json& data) {
        if (events) {
            events(rpc::Event{id, name, data});
        }
    };
    log::get("helper")->info("{} {}", request.verb, request.args.dump());
    try {
        return withContext(verb->second.handler(request.args, verbEvents), request.verb);
    } catch (const std::exception& error) {
        return fail(ErrorCode::Internal, request.verb + " failed unexpectedly: " + error.what());
    }
}

} // namespace ssdk::helper
