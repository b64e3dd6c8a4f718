#include "core/maintenance/maintenance_client.h"

namespace ssdk::maintenance {

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

Expected<trim::TrimAudit> MaintenanceClient::audit(const AuditRequest& request) {
    return roundTrip(m_transport, kVerbTrimAudit, request, trimAuditFromJson);
}

Expected<trim::VerifyResult> MaintenanceClient::verify(const VerifyRequest& request,
                                                       const EventHandler& onEvent) {
    return roundTrip(m_transport, kVerbTrimVerify, request, verifyResultFromJson, onEvent);
}

Expected<FstrimReply> MaintenanceClient::fstrim(const FstrimRequest& request,
                                                const EventHandler& onEvent) {
    return roundTrip(m_transport, kVerbTrimFstrim, request, fstrimReplyFromJson, onEvent);
}

Expected<trim::TimerFacts> MaintenanceClient::setTimer(const TimerRequest& request) {
    return roundTrip(m_transport, kVerbTrimTimer, request, timerFactsFromJson);
}

Expected<trim::FormatResult> MaintenanceClient::format(const FormatRequest& request,
                                                       const EventHandler& onEvent) {
    return roundTrip(m_transport, kVerbFormatRun, request, formatResultFromJson, onEvent);
}

Expected<EraseProbeReply> MaintenanceClient::probeErase(const EraseProbeRequest& request) {
    return roundTrip(m_transport, kVerbEraseProbe, request, eraseProbeReplyFromJson);
}

Expected<UnfreezeReply> MaintenanceClient::unfreeze(const UnfreezeRequest& request,
                                                    const EventHandler& onEvent) {
    return roundTrip(m_transport, kVerbEraseUnfreeze, request, unfreezeReplyFromJson, onEvent);
}

Expected<EraseReply> MaintenanceClient::erase(const EraseRequest& request,
                                              const EventHandler& onEvent) {
    return roundTrip(m_transport, kVerbEraseRun, request, eraseReplyFromJson, onEvent);
}

} // namespace ssdk::maintenance
