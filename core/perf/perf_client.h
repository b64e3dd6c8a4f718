#pragma once

#include "core/perf/verbs.h"
#include "core/rpc/transport.h"

namespace ssdk::perf {

// The perf verbs (core/perf/verbs.h) over a Transport: the helper process, or a HelperService
// in the same process in tests. One method per verb, typed request in, typed result out; a
// result that cannot be read is an error naming the verb. Blocks like the transport does (a
// cancel through the transport stops fio, or stops the recording, which still answers); the
// transport must outlive the client. onEvent receives the verbs' events (kEventProgress,
// kEventTrace).
class PerfClient {
public:
    explicit PerfClient(rpc::Transport& transport)
        : m_transport(transport) {}

    Expected<BenchResult> bench(const BenchRequest& request,
                                const rpc::Transport::EventHandler& onEvent = {});
    Expected<TraceRecordReply> record(const TraceRecordRequest& request,
                                      const rpc::Transport::EventHandler& onEvent = {});

private:
    rpc::Transport& m_transport;
};

} // namespace ssdk::perf
