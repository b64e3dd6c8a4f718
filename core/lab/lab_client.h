#pragma once

#include "core/lab/verbs.h"
#include "core/rpc/transport.h"

namespace ssdk::lab {

// The lab verbs (core/lab/verbs.h) over a Transport: the helper process, or a HelperService
// in the same process in tests. One method per verb, typed request in, typed result out; a
// result that cannot be read is a Parse error naming the verb. Blocks like the transport
// does; the transport must outlive the client.
class LabClient {
public:
    explicit LabClient(rpc::Transport& transport)
        : m_transport(transport) {}

    // onEvent receives the verb's "progress" event (rpc::Progress).
    Expected<LabDrive> create(const LabCreateRequest& request,
                              const rpc::Transport::EventHandler& onEvent = {});
    Expected<DestroyReply> destroy(const DestroyRequest& request);

private:
    rpc::Transport& m_transport;
};

} // namespace ssdk::lab
