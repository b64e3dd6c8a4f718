#include "core/perf/perf_client.h"

#include "core/rpc/typed_call.h"

namespace ssdk::perf {

Expected<BenchResult> PerfClient::bench(const BenchRequest& request,
                                        const rpc::Transport::EventHandler& onEvent) {
    return rpc::roundTrip(m_transport, kVerbPerfBench, request, benchResultFromJson, onEvent);
}

Expected<TraceRecordReply> PerfClient::record(const TraceRecordRequest& request,
                                              const rpc::Transport::EventHandler& onEvent) {
    return rpc::roundTrip(m_transport, kVerbTraceRecord, request, traceRecordReplyFromJson,
                          onEvent);
}

} // namespace ssdk::perf
