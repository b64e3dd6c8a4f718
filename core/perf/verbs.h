#pragma once
// The benchmark and block-trace privileged verbs (docs/performance.md, docs/cli.md "trace
// record"): their names, typed requests and results, and the JSON of each. The helper
// (helper/perf_verbs.cpp, helper/trace_verbs.cpp) parses every request with these fromJson
// functions and answers with these results; the CLI and the GUI send these requests through a
// PerfClient (core/perf/perf_client.h) or the CLI's interruptible call. Nobody spells a verb
// name or a key of these objects anywhere else.
//
// A request's fromJson refuses what the helper refuses without looking at the drive: unknown
// keys, wrong types, values out of range (InvalidArgument naming the argument,
// core/base/json_args.h). What depends on the drive (its confirmation word, its size) and the
// device node itself are the helper's to check.
#include <cstdint>
#include <optional>
#include <string>

#include "core/base/error.h"
#include "core/base/json.h"
#include "core/perf/bench_plan.h"
#include "core/perf/bench_result.h"
#include "core/rpc/progress.h"

namespace ssdk::perf {

inline constexpr const char* kVerbPerfBench = "perf.bench";
inline constexpr const char* kVerbTraceRecord = "trace.record";
// Every perf verb, in the order above.
inline constexpr const char* kPerfVerbs[] = {kVerbPerfBench, kVerbTraceRecord};

// The longest device path a request may carry (PATH_MAX).
inline constexpr std::size_t kMaxDevicePathBytes = 4096;

// Both verbs send "progress" events every second; trace.record also "trace" events.
inline constexpr const char* kEventProgress = rpc::kEventProgress; // with more members
inline constexpr const char* kEventTrace = "trace";

// perf.bench {device, preset, confirm, size?, duration_s?, loops?, pick?, round_s?, gaps_s?,
// burst?} → BenchResult (resultDocument / benchResultFromJson). Absent options take
// BenchOptions' defaults. confirm: the drive's confirmation word (checked by the helper
// against the drive; "" when absent); size: at least 1 MiB (at most the drive, checked by the
// helper).
struct BenchRequest {
    std::string device;
    std::string confirm;
    BenchOptions options;
};
Json toJson(const BenchRequest& request);
Expected<BenchRequest> benchRequestFromJson(const Json& args);

// perf.bench's "progress" event: {fraction (of the expected time; -1 unknown), text,
// elapsed_s, read_bytes_per_s, write_bytes_per_s, read_iops, write_iops} of the drive.
struct BenchProgress {
    double fraction = -1.0;
    std::string text;
    double elapsedS = 0.0;
    double readBytesPerS = 0.0;
    double writeBytesPerS = 0.0;
    double readIops = 0.0;
    double writeIops = 0.0;
};
Json toJson(const BenchProgress& progress);

// trace.record {device: a /dev path, seconds?: 1–kMaxTraceSeconds (default 60)}
// → TraceRecordReply.
inline constexpr unsigned kDefaultTraceSeconds = 60;
inline constexpr unsigned kMaxTraceSeconds = 3600;
struct TraceRecordRequest {
    std::string device;
    unsigned seconds = kDefaultTraceSeconds;
};
Json toJson(const TraceRecordRequest& request);
Expected<TraceRecordRequest> traceRecordRequestFromJson(const Json& args);

// trace.record's "progress" event: {fraction, text, elapsed_s, requests}.
struct TraceProgress {
    double fraction = 0.0;
    std::string text;
    double elapsedS = 0.0;
    std::uint64_t requests = 0;
};
Json toJson(const TraceProgress& progress);

// trace.record's "trace" event: {lines}, the next request lines of the recording.
struct TraceChunk {
    std::string lines;
};
Json toJson(const TraceChunk& chunk);
// The chunk of a "trace" event; nullopt for any other event or one without lines.
std::optional<TraceChunk> traceChunkOf(const std::string& eventName, const Json& data);

// {device, seconds, requests, reads, writes, discards, bytes_read, bytes_written, unparsed,
//  lost_events, stopped_early, truncated, truncated_reason, header}: the recording, in the
// simulator's "blocks" format, is header followed by the lines of every "trace" event.
struct TraceRecordReply {
    std::string device;
    double seconds = 0.0; // how long it really recorded
    std::uint64_t requests = 0;
    std::uint64_t reads = 0;
    std::uint64_t writes = 0;
    std::uint64_t discards = 0;
    std::uint64_t bytesRead = 0;
    std::uint64_t bytesWritten = 0;
    std::uint64_t unparsed = 0;   // trace lines that could not be read
    std::uint64_t lostEvents = 0; // dropped by the kernel (its buffer was full)
    bool stoppedEarly = false;    // a cancel stopped it; it holds what was recorded
    bool truncated = false;       // stopped at kMaxTraceRequests
    std::string truncatedReason;
    std::string header;
};
Json toJson(const TraceRecordReply& reply);
// The reply without its header: what `trace record --json` prints about the recording.
Json summaryJson(const TraceRecordReply& reply);
// A Parse error when a value has the wrong type; absent values are 0, false or "".
Expected<TraceRecordReply> traceRecordReplyFromJson(const Json& json);

} // namespace ssdk::perf
