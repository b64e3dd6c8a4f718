#include "core/cachectl/cache_client.h"

#include "core/rpc/typed_call.h"

namespace ssdk::cachectl {

Expected<ProbeReply> CacheClient::probe(const ProbeRequest& request) {
    return rpc::roundTrip(m_transport, kVerbProbe, request, probeReplyFromJson);
}

Expected<StatusReply> CacheClient::status(const StatusRequest& request) {
    return rpc::roundTrip(m_transport, kVerbStatus, request, statusReplyFromJson);
}

Expected<EnableReply> CacheClient::enable(const EnableRequest& request,
                                          const rpc::Transport::EventHandler& onEvent) {
    return rpc::roundTrip(m_transport, kVerbEnable, request, enableReplyFromJson, onEvent);
}

Expected<DisableReply> CacheClient::disable(const DisableRequest& request) {
    return rpc::roundTrip(m_transport, kVerbDisable, request, disableReplyFromJson);
}

Expected<FlushReply> CacheClient::flush(const FlushRequest& request) {
    return rpc::roundTrip(m_transport, kVerbFlush, request, flushReplyFromJson);
}

Expected<RecordReply> CacheClient::setMode(const ModeRequest& request) {
    return rpc::roundTrip(m_transport, kVerbMode, request, recordReplyFromJson);
}

Expected<RecordReply> CacheClient::resize(const ResizeRequest& request) {
    return rpc::roundTrip(m_transport, kVerbResize, request, recordReplyFromJson);
}

Expected<RecordReply> CacheClient::setPolicy(const PolicyRequest& request) {
    return rpc::roundTrip(m_transport, kVerbPolicy, request, recordReplyFromJson);
}

Expected<RecordReply> CacheClient::boot(const BootRequest& request) {
    return rpc::roundTrip(m_transport, kVerbBoot, request, recordReplyFromJson);
}

Expected<PowerReply> CacheClient::power(const PowerRequest& request) {
    return rpc::roundTrip(m_transport, kVerbPower, request, powerReplyFromJson);
}

} // namespace ssdk::cachectl
