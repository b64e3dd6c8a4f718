#pragma once

#include "core/firmware/verbs.h"
#include "core/rpc/transport.h"

namespace ssdk::firmware {

// The firmware verbs (core/firmware/verbs.h) over a Transport: the helper process, or a
// HelperService in the same process in tests. One method per verb, typed request in, typed
// result out; a result that cannot be read is a Parse error naming the verb. Blocks like the
// transport does; the transport must outlive the client.
class FirmwareClient {
public:
    using EventHandler = rpc::Transport::EventHandler;

    explicit FirmwareClient(rpc::Transport& transport)
        : m_transport(transport) {}

    Expected<FirmwareInfo> info(const InfoRequest& request);
    Expected<UpdatePlan> plan(const PlanVerbRequest& request);
    // onEvent receives the "progress" events of the download and the commit (rpc::Progress).
    Expected<UpdateReply> update(const UpdateVerbRequest& request,
                                 const EventHandler& onEvent = {});

private:
    rpc::Transport& m_transport;
};

} // namespace ssdk::firmware
