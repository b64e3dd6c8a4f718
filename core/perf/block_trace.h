#pragma once
// Block I/O traces recorded from the kernel's block:block_bio_queue tracepoint, reduced to what
// the cache simulator replays (`ssdkeeperctl trace record`, `cache simulate --format blocks`).
// Pure: parsing trace_pipe lines, the partition window, and the `blocks` text writer.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ssdk::perf {

// The tracepoint's sector unit, whatever the device's logical block size.
inline constexpr std::uint64_t kTraceSectorBytes = 512;
// The simulator's block: one reference per 4 KiB block a request touches.
inline constexpr std::uint64_t kTraceBlockBytes = 4096;
// A recording stops (truncated) once it holds this many requests.
inline constexpr std::uint64_t kMaxTraceRequests = 5'000'000;

enum class BlockOp { Read, Write, Discard, Flush, Other };

// One bio as the block layer queued it: sectors [sector, sector + sectors) of 512 bytes.
struct BlockRequest {
    BlockOp op = BlockOp::Other;
    std::uint64_t sector = 0;
    std::uint64_t sectors = 0;

    bool operator==(const BlockRequest&) const = default;
};

// A parsed block_bio_queue line: the device the event names ("7,0") and the request.
struct BioQueueEvent {
    unsigned major = 0;
    unsigned minor = 0;
    BlockRequest request;
};

// Parses one trace_pipe line of the block_bio_queue event:
//   "  dd-6784    [000] .....   327.519024: block_bio_queue: 7,0 RS 8000 + 8 [dd]"
// The task name (in front and in the trailing brackets) may hold spaces and brackets; it is at
// most 15 characters, so it cannot contain the event name, which is where parsing starts.
// RWBS (the kernel's blk_fill_rwbs): an optional 'F' (preflush), the operation (R read,
// W write, D discard, "DE" secure erase, F flush, N anything else), then modifiers
// (F FUA, A readahead, S sync, M meta). A preflush write without data ("FWS 0 + 0") is a flush;
// a preflush write with data is a write. nullopt for anything else (other events, lost-event
// notices, garbage).
std::optional<BioQueueEvent> parseBioQueueLine(std::string_view line);

// trace_pipe reports a full ring buffer as "CPU:1 [LOST 42 EVENTS]": the number lost, or
// nullopt when the line is not such a notice.
std::optional<std::uint64_t> parseLostEventsLine(std::string_view line);

// The sectors of a partition on its whole disk (sysfs `start` and `size`, 512-byte units).
// A partition's bios are traced on the whole disk with absolute sectors.
struct SectorWindow {
    std::uint64_t start = 0;
    std::uint64_t sectors = 0;
};

// The request as a cache in front of the window would see it: requests wholly inside the
// window, shifted to start at its first sector. Requests outside or straddling its edges are
// dropped, and so are requests without data (flushes): their sector is not remapped to the
// partition, so they cannot be told apart from a sibling partition's. Without a window (a whole
// device) every request is kept as it is.
std::optional<BlockRequest> toWindow(const BlockRequest& request,
                                     const std::optional<SectorWindow>& window);

// Whether a request becomes a line of the `blocks` trace: reads and writes that carry data.
bool isTraced(const BlockRequest& request);

// The 4 KiB blocks a request touches: sectors [s, s+n) → blocks s*512/4096 .. (s+n-1)*512/4096.
struct BlockSpan {
    std::uint64_t first = 0;
    std::uint64_t count = 0;

    bool operator==(const BlockSpan&) const = default;
};
BlockSpan blockSpan(const BlockRequest& request);

// The `blocks` line of a request ("FIRST COUNT\n"); empty when it is not traced.
std::string blocksLine(const BlockRequest& request);

struct TraceSummary {
    std::uint64_t requests = 0; // every request kept, traced or not
    std::uint64_t reads = 0;    // reads with data (traced)
    std::uint64_t writes = 0;   // writes with data (traced)
    std::uint64_t discards = 0; // discards and secure erases (counted, not traced)
    std::uint64_t flushes = 0;  // flushes, preflushes without data (counted, not traced)
    std::uint64_t other = 0;    // anything else: write-zeroes, empty requests (counted)
    std::uint64_t bytesRead = 0;
    std::uint64_t bytesWritten = 0;

    void add(const BlockRequest& request);
};

// What the header comment of a `blocks` trace says about the recording.
struct BlocksTraceInfo {
    std::string device;     // "/dev/loop0p2"
    std::string origin;     // how sectors relate to it, e.g. "partition of /dev/loop0 from …"
    std::string recordedAt; // when the recording started, "2026-11-23T10:46:06Z"
    double seconds = 0;     // how long it recorded
    std::uint64_t unparsed = 0;
    std::uint64_t lostEvents = 0;
    bool stoppedEarly = false;
    std::string truncatedReason; // empty when not truncated
};

// Builds the text `cache simulate --format blocks` reads: a header of "#" comment lines, then
// one line "FIRST COUNT" per traced request, in the order they were queued.
class BlocksTraceWriter {
public:
    // Counts the request and, when it is traced, appends its line.
    void add(const BlockRequest& request);

    const TraceSummary& summary() const { return m_summary; }
    std::uint64_t lines() const { return m_lines; }
    // The request lines added since the last takeBody(), without the header.
    const std::string& body() const { return m_body; }
    // Hands over the request lines added so far (a recording streams them in pieces).
    std::string takeBody();
    // The header comments, for the requests counted so far.
    std::string header(const BlocksTraceInfo& info) const;
    // The whole trace: header comments and the request lines not taken.
    std::string document(const BlocksTraceInfo& info) const;

private:
    TraceSummary m_summary;
    std::uint64_t m_lines = 0;
    std::string m_body;
};

} // namespace ssdk::perf
