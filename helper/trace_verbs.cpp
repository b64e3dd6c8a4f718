#include "helper/trace_verbs.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fmt/format.h>

#include "core/base/timestamp.h"
#include "core/perf/block_trace.h"
#include "core/perf/platform/linux/block_tracer.h"
#include "core/perf/verbs.h"
#include "core/rpc/protocol.h"
#include "helper/cancel_watch.h"
#include "helper/validation.h"

namespace ssdk::helper {

namespace {

using Clock = std::chrono::steady_clock;

// A "trace" event carries the request lines once this many have gathered (one helper line
// holds at most rpc::kMaxLineBytes; a request line is at most ~42 bytes, JSON adds nothing to it
// but the escaped newline).
constexpr std::size_t kChunkBytes = 256 * 1024;
static_assert(2 * kChunkBytes < rpc::kMaxLineBytes);
// How long one wait for trace events lasts at most, so a stop is seen promptly.
constexpr std::chrono::milliseconds kMaxWait{200};

// The requests of a recording, up to perf::kMaxTraceRequests; their lines go to the client in
// "trace" events of about kChunkBytes.
class TraceCollector {
public:
    explicit TraceCollector(const VerbEvents& events)
        : m_events(events) {}

    // Takes requests in order until the limit is reached; the rest are left out.
    void take(const std::vector<perf::BlockRequest>& requests) {
        for (const auto& request : requests) {
            if (m_writer.summary().requests >= perf::kMaxTraceRequests) {
                m_truncatedReason =
                    fmt::format("the recording reached {} requests", perf::kMaxTraceRequests);
                return;
            }
            m_writer.add(request);
            if (m_writer.body().size() >= kChunkBytes) {
                sendLines();
            }
        }
    }
    // Sends the lines gathered since the last "trace" event.
    void sendLines() {
        if (!m_writer.body().empty()) {
            m_events(perf::kEventTrace, perf::toJson(perf::TraceChunk{m_writer.takeBody()}));
        }
    }

    bool truncated() const { return !m_truncatedReason.empty(); }
    const std::string& truncatedReason() const { return m_truncatedReason; }
    const perf::BlocksTraceWriter& writer() const { return m_writer; }

private:
    const VerbEvents& m_events;
    std::string m_truncatedReason;
    perf::BlocksTraceWriter m_writer;
};

Expected<Json> recordVerb(int cancelFd, const Json& args, const VerbEvents& events) {
    // Checked before the device node is validated (perf::traceRecordRequestFromJson).
    auto request = perf::traceRecordRequestFromJson(args);
    if (!request) {
        return failed(request);
    }
    // Recording only observes: a mounted device and the system disk are fine.
    auto device =
        validateBlockDevice(request->device, {.allowMounted = true, .allowSystemDisk = true});
    if (!device) {
        return failed(device);
    }
    if (auto mounted = perf::mountTracefsIfNeeded(); !mounted) {
        return failed(mounted);
    }
    perf::BlockTracer tracer;
    if (auto started = tracer.start(request->device); !started) {
        return failed(started);
    }
    const std::string& path = tracer.target().device;
    const std::string recordedAt = utcTimestampNow();
    const auto start = Clock::now();
    const auto deadline = start + std::chrono::seconds(request->seconds);
    std::atomic<bool> stopRequested{false};
    CancelWatch watch(cancelFd, [&stopRequested] { stopRequested = true; });
    TraceCollector collector(events);
    const auto elapsed = [&start] {
        return std::chrono::duration<double>(Clock::now() - start).count();
    };
    auto nextTick = start + std::chrono::seconds(1);
    while (!stopRequested && !collector.truncated()) {
        const auto now = Clock::now();
        if (now >= deadline) {
            break;
        }
        const auto wake = std::min({deadline, nextTick, now + kMaxWait});
        auto batch = tracer.poll(std::chrono::duration_cast<std::chrono::milliseconds>(wake - now));
        if (!batch) {
            return failed(batch);
        }
        collector.take(*batch);
        if (Clock::now() >= nextTick) {
            nextTick += std::chrono::seconds(1);
            const double seconds = elapsed();
            const auto requests = collector.writer().summary().requests;
            events(perf::kEventProgress,
                   perf::toJson(
                       perf::TraceProgress{std::min(0.99, seconds / request->seconds),
                                           fmt::format("recording {}: {:.0f} s of {}, {} requests",
                                                       path, seconds, request->seconds, requests),
                                           seconds, requests}));
        }
    }
    const bool stoppedEarly = stopRequested && !collector.truncated();
    const double seconds = elapsed();
    auto rest = tracer.stop();
    if (!rest) {
        return failed(rest);
    }
    collector.take(*rest);
    collector.sendLines();

    const auto& writer = collector.writer();
    const auto& summary = writer.summary();
    events(
        perf::kEventProgress,
        perf::toJson(perf::TraceProgress{
            1.0, fmt::format("recorded {}: {:.1f} s, {} requests", path, seconds, summary.requests),
            seconds, summary.requests}));
    const perf::BlocksTraceInfo info{.device = path,
                                     .origin = tracer.target().origin,
                                     .recordedAt = recordedAt,
                                     .seconds = seconds,
                                     .unparsed = tracer.unparsedLines(),
                                     .lostEvents = tracer.lostEvents(),
                                     .stoppedEarly = stoppedEarly,
                                     .truncatedReason = collector.truncatedReason()};
    return perf::toJson(perf::TraceRecordReply{.device = path,
                                               .seconds = seconds,
                                               .requests = summary.requests,
                                               .reads = summary.reads,
                                               .writes = summary.writes,
                                               .discards = summary.discards,
                                               .bytesRead = summary.bytesRead,
                                               .bytesWritten = summary.bytesWritten,
                                               .unparsed = tracer.unparsedLines(),
                                               .lostEvents = tracer.lostEvents(),
                                               .stoppedEarly = stoppedEarly,
                                               .truncated = collector.truncated(),
                                               .truncatedReason = collector.truncatedReason(),
                                               .header = writer.header(info)});
}

} // namespace

void addTraceVerbs(HelperService& service, int cancelFd) {
    service.add(Verb{perf::kVerbTraceRecord, "io.github.ssdkeeper.trace.record", Grade::Change,
                     [cancelFd](const Json& args, const VerbEvents& events) {
                         return recordVerb(cancelFd, args, events);
                     }});
}

} // namespace ssdk::helper
