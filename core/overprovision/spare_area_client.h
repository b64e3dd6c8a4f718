#pragma once

#include "core/overprovision/verbs.h"
#include "core/rpc/transport.h"

namespace ssdk::overprovision {

// The spare-area verbs (core/overprovision/verbs.h) over a Transport: the helper process, or a
// HelperService in the same process in tests. One method per verb, typed request in, typed
// result out; a result that cannot be read is a Parse error naming the verb. Blocks like the
// transport does; the transport must outlive the client. onEvent receives the verbs'
// "progress" events (rpc::Progress).
class SpareAreaClient {
public:
    explicit SpareAreaClient(rpc::Transport& transport)
        : m_transport(transport) {}

    Expected<InspectReply> inspect(const InspectRequest& request);
    Expected<JournalReply> apply(const ApplyRequest& request,
                                 const rpc::Transport::EventHandler& onEvent = {});
    Expected<JournalReply> undo(const UndoRequest& request,
                                const rpc::Transport::EventHandler& onEvent = {});
    Expected<JournalReply> recover(const RecoverRequest& request,
                                   const rpc::Transport::EventHandler& onEvent = {});

private:
    rpc::Transport& m_transport;
};

} // namespace ssdk::overprovision
