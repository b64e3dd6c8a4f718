#pragma once

#include "core/rpc/transport.h"
#include "core/smart/verbs.h"

namespace ssdk::smart {

// The SMART verbs (core/smart/verbs.h) over a Transport: the helper process, or a
// HelperService in the same process in tests. One method per verb, typed request in, typed
// result out; a result that cannot be read is an error naming the verb. Blocks like the
// transport does; the transport must outlive the client. (HealthService reads SMART through
// smart.read itself, over its HelperCall.)
class SmartClient {
public:
    explicit SmartClient(rpc::Transport& transport)
        : m_transport(transport) {}

    Expected<RawReport> read(const ReadRequest& request);
    Expected<SelfTestReply> startSelfTest(const SelfTestStartRequest& request);
    Expected<SelfTestReply> abortSelfTest(const SelfTestAbortRequest& request);

private:
    rpc::Transport& m_transport;
};

} // namespace ssdk::smart
