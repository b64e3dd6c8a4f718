#include "core/maintenance/maintenance_client.h"

#include "core/rpc/typed_call.h"

namespace ssdk::maintenance {

Expected<trim::TrimAudit> MaintenanceClient::audit(const AuditRequest& request) {
    return rpc::roundTrip(m_transport, kVerbTrimAudit, request, trimAuditFromJson);
}

Expected<trim::VerifyResult> MaintenanceClient::verify(const VerifyRequest& request,
                                                       const EventHandler& onEvent) {
    return rpc::roundTrip(m_transport, kVerbTrimVerify, request, verifyResultFromJson, onEvent);
}

Expected<FstrimReply> MaintenanceClient::fstrim(const FstrimRequest& request,
                                                const EventHandler& onEvent) {
    return rpc::roundTrip(m_transport, kVerbTrimFstrim, request, fstrimReplyFromJson, onEvent);
}

Expected<trim::TimerFacts> MaintenanceClient::setTimer(const TimerRequest& request) {
    return rpc::roundTrip(m_transport, kVerbTrimTimer, request, timerFactsFromJson);
}

Expected<trim::FormatResult> MaintenanceClient::format(const FormatRequest& request,
                                                       const EventHandler& onEvent) {
    return rpc::roundTrip(m_transport, kVerbFormatRun, request, formatResultFromJson, onEvent);
}

Expected<EraseProbeReply> MaintenanceClient::probeErase(const EraseProbeRequest& request) {
    return rpc::roundTrip(m_transport, kVerbEraseProbe, request, eraseProbeReplyFromJson);
}

Expected<UnfreezeReply> MaintenanceClient::unfreeze(const UnfreezeRequest& request,
                                                    const EventHandler& onEvent) {
    return rpc::roundTrip(m_transport, kVerbEraseUnfreeze, request, unfreezeReplyFromJson, onEvent);
}

Expected<EraseReply> MaintenanceClient::erase(const EraseRequest& request,
                                              const EventHandler& onEvent) {
    return rpc::roundTrip(m_transport, kVerbEraseRun, request, eraseReplyFromJson, onEvent);
}

} // namespace ssdk::maintenance
