#pragma once

#include "core/maintenance/verbs.h"
#include "core/rpc/transport.h"

namespace ssdk::maintenance {

// The maintenance verbs (core/maintenance/verbs.h) over a Transport: the helper process, or a
// HelperService in the same process in tests. One method per verb, typed request in, typed
// result out; a result that cannot be read is a Parse error naming the verb. Blocks like the
// transport does; the transport must outlive the client. onEvent receives the verbs'
// "progress" events (rpc::kEventProgress, rpc::Progress).
class MaintenanceClient {
public:
    using EventHandler = rpc::Transport::EventHandler;

    explicit MaintenanceClient(rpc::Transport& transport)
        : m_transport(transport) {}

    Expected<trim::TrimAudit> audit(const AuditRequest& request);
    Expected<trim::VerifyResult> verify(const VerifyRequest& request,
                                        const EventHandler& onEvent = {});
    Expected<FstrimReply> fstrim(const FstrimRequest& request, const EventHandler& onEvent = {});
    Expected<trim::TimerFacts> setTimer(const TimerRequest& request);
    Expected<trim::FormatResult> format(const FormatRequest& request,
                                        const EventHandler& onEvent = {});
    Expected<EraseProbeReply> probeErase(const EraseProbeRequest& request);
    Expected<UnfreezeReply> unfreeze(const UnfreezeRequest& request,
                                     const EventHandler& onEvent = {});
    Expected<EraseReply> erase(const EraseRequest& request, const EventHandler& onEvent = {});

private:
    rpc::Transport& m_transport;
};

} // namespace ssdk::maintenance
