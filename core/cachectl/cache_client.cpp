#include "core/cachectl/cache_client.h"

namespace ssdk::cachectl {

namespace {

// Calls verb with the request's JSON and reads the answer with parse.
template <typename Request, typename Parse>
auto roundTrip(rpc::Transport& transport, const char* verb, const Request& request, Parse parse,
               const rpc::Transport::EventHandler& onEvent = {})
    -> decltype(parse(std::declval<const Json&>())) {
    auto answer = transport.call(verb, toJson(request), onEvent);
    if (!answer) {
        return std::unexpected(answer.error());
    }
    return withContext(parse(*answer), std::string("reading the answer to ") + verb);
}

} // namespace

Expected<ProbeReply> CacheClient::probe(const ProbeRequest& request) {
    return roundTrip(m_transport, kVerbProbe, request, probeReplyFromJson);
}

Expected<StatusReply> CacheClient::status(const StatusRequest& request) {
    return roundTrip(m_transport, kVerbStatus, request, statusReplyFromJson);
}

Expected<EnableReply> CacheClient::enable(const EnableRequest& request,
                                          const rpc::Transport::EventHandler& onEvent) {
    return roundTrip(m_transport, kVerbEnable, request, enableReplyFromJson, onEvent);
}

Expected<DisableReply> CacheClient::disable(const DisableRequest& request) {
    return roundTrip(m_transport, kVerbDisable, request, disableReplyFromJson);
}

Expected<FlushReply> CacheClient::flush(const FlushRequest& request) {
    return roundTrip(m_transport, kVerbFlush, request, flushReplyFromJson);
}

Expected<RecordReply> CacheClient::setMode(const ModeRequest& request) {
    return roundTrip(m_transport, kVerbMode, request, recordReplyFromJson);
}

Expected<RecordReply> CacheClient::resize(const ResizeRequest& request) {
    return roundTrip(m_transport, kVerbResize, request, recordReplyFromJson);
}

Expected<RecordReply> CacheClient::setPolicy(const PolicyRequest& request) {
    return roundTrip(m_transport, kVerbPolicy, request, recordReplyFromJson);
}

Expected<RecordReply> CacheClient::boot(const BootRequest& request) {
    return roundTrip(m_transport, kVerbBoot, request, recordReplyFromJson);
}

Expected<PowerReply> CacheClient::power(const PowerRequest& request) {
    return roundTrip(m_transport, kVerbPower, request, powerReplyFromJson);
}

} // namespace ssdk::cachectl
