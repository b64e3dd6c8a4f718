#pragma once

#include <string>

#include "core/base/error.h"
#include "core/base/json.h"
#include "helper/helper_service.h"

namespace ssdk::helper {

// Block traces for the RAM cache simulator (docs/cli.md, "trace record"):
//   trace.record {device, seconds?} → {device, seconds, requests, reads, writes, discards,
//                 bytes_read, bytes_written, unparsed, lost_events, stopped_early, truncated,
//                 truncated_reason, header}                                        Change
// Records the requests queued on `device` (any block device or partition; mounted and the
// system disk included: it only observes) for `seconds` (1 to 3600, default 60) through the
// kernel's block_bio_queue tracepoint (perf::BlockTracer). The recording, in the simulator's
// "blocks" format (perf::BlocksTraceWriter), is `header` followed by the `lines` of every
// "trace" event in order: the request lines travel in events of about 256 KiB while it records,
// so a recording is not bounded by what one reply carries. `seconds` is the time it really
// recorded. A "progress" event every second: {fraction, text, elapsed_s, requests}.
// A cancel from the client (or the client going away) STOPS the recording: the verb still
// answers with what it recorded so far and "stopped_early": true. It is "stop", not "abort".
// The recording also stops, with "truncated": true and the reason, at perf::kMaxTraceRequests
// requests.
// cancelFd: the helper's request input, watched for that cancel (-1: not cancellable).
void addTraceVerbs(HelperService& service, int cancelFd);

} // namespace ssdk::helper
