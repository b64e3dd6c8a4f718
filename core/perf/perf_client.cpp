#include "core/perf/perf_client.h"

namespace ssdk::perf {

namespace {

// Calls verb with the request's JSON and reads the answer with parse.
template <typename Request, typename Parse>
auto roundTrip(rpc::Transport& transport, const char* verb, const Request& request, Parse parse,
               const rpc::Transport::EventHandler& onEvent)
    -> decltype(parse(std::declval<const Json&>())) {
    auto answer = transport.call(verb, toJson(request), onEvent);
    if (!answer) {
        return std::unexpected(answer.error());
    }
    return withContext(parse(*answer), std::string("reading the answer to ") + verb);
}

} // namespace

Expected<BenchResult> PerfClient::bench(const BenchRequest& request,
                                        const rpc::Transport::EventHandler& onEvent) {
    return roundTrip(m_transport, kVerbPerfBench, request, benchResultFromJson, onEvent);
}

Expected<TraceRecordReply> PerfClient::record(const TraceRecordRequest& request,
                                              const rpc::Transport::EventHandler& onEvent) {
    return roundTrip(m_transport, kVerbTraceRecord, request, traceRecordReplyFromJson, onEvent);
}

} // namespace ssdk::perf
