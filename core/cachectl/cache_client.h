#pragma once

#include "core/cachectl/verbs.h"
#include "core/rpc/transport.h"

namespace ssdk::cachectl {

// The cache verbs (core/cachectl/verbs.h) over a Transport: the helper process, or a
// HelperService in the same process in tests. One method per verb, typed request in, typed
// result out; a result that cannot be read is a Parse error naming the verb. Blocks like the
// transport does; the transport must outlive the client.
class CacheClient {
public:
    explicit CacheClient(rpc::Transport& transport)
        : m_transport(transport) {}

    Expected<ProbeReply> probe(const ProbeRequest& request = {});
    Expected<StatusReply> status(const StatusRequest& request = {});
    // onEvent receives the verb's "progress" events (rpc::Progress).
    Expected<EnableReply> enable(const EnableRequest& request,
                                 const rpc::Transport::EventHandler& onEvent = {});
    Expected<DisableReply> disable(const DisableRequest& request);
    Expected<FlushReply> flush(const FlushRequest& request);
    Expected<RecordReply> setMode(const ModeRequest& request);
    Expected<RecordReply> resize(const ResizeRequest& request);
    Expected<RecordReply> setPolicy(const PolicyRequest& request);
    Expected<RecordReply> boot(const BootRequest& request);
    Expected<PowerReply> power(const PowerRequest& request);

private:
    rpc::Transport& m_transport;
};

} // namespace ssdk::cachectl
