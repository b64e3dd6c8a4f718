#pragma once
// Records the block requests of one device through the kernel's block:block_bio_queue
// tracepoint, in a private tracefs instance (instances/ssdkeeper-<pid>), so the global trace
// buffer and anyone else's tracing are left alone. Needs root (tracefs belongs to root).

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/base/sysfs_root.h"
#include "core/base/unique_fd.h"
#include "core/perf/block_trace.h"

namespace ssdk::perf {

inline constexpr std::string_view kTracefsPath = "/sys/kernel/tracing";

// What a recording of a device observes. A partition's bios reach the tracepoint on its whole
// disk with absolute sectors (measured: 4 KiB block 10 of a partition starting at sector
// 133120 showed "7,0 RS 133200 + 8"), so the disk is filtered on and the partition's window
// taken out of it.
struct TraceTarget {
    std::string device;                 // the node asked for, symlinks resolved
    unsigned major = 0;                 // the device the tracepoint names: the whole disk for a
    unsigned minor = 0;                 //   partition, else the device itself
    std::optional<SectorWindow> window; // a partition's sectors on its disk
    std::string origin;                 // in words, for the trace header
};

// The kernel's internal dev_t (major << 20 | minor), which a tracepoint filter compares with.
std::uint64_t kernelDevT(unsigned major, unsigned minor);

// Resolves a block device node. Errors: InvalidArgument (not a block device), NotFound (no
// such node, or a device the kernel's block layer does not list in sysfs).
Expected<TraceTarget> resolveTraceTarget(const std::string& devicePath,
                                         const SysfsRoot& root = SysfsRoot());

// Mounts tracefs at `tracefs` when the kernel has it but nothing is mounted there (systemd
// mounts it at boot; a machine without systemd may not), as perf and trace-cmd do. Nothing
// when it is mounted or the kernel has no tracefs. Errors: those of mount(2), with the command
// that would do it. Root only.
Expected<void> mountTracefsIfNeeded(const std::filesystem::path& tracefs = kTracefsPath);

// One recording: start(), poll() until done, stop(). Whatever happens (an error, an exception,
// a cancel), the event is disabled and the instance removed, by stop() or the destructor.
class BlockTracer {
public:
    explicit BlockTracer(std::filesystem::path tracefs = kTracefsPath, SysfsRoot root = {});
    ~BlockTracer();
    BlockTracer(const BlockTracer&) = delete;
    BlockTracer& operator=(const BlockTracer&) = delete;

    // Creates the instance, filters the event on the device, enables it and opens trace_pipe.
    // Instances left by SSD Keeper processes that are gone are removed first. Errors:
    // Unsupported (tracefs not mounted, the kernel has no block_bio_queue tracepoint, with the
    // reason), Busy (this tracer or this process already records), PermissionDenied (not
    // root), InvalidArgument/NotFound (see resolveTraceTarget), Io.
    Expected<void> start(const std::string& devicePath);

    // Waits up to timeout for events and returns the requests queued since the last call, as
    // toWindow() makes them (partition-relative; outside the partition dropped). Returns after
    // reading at most a few MiB of text, so a busy device does not hold the caller.
    Expected<std::vector<BlockRequest>> poll(std::chrono::milliseconds timeout);

    // Disables the event, returns the requests still buffered and removes the instance.
    Expected<std::vector<BlockRequest>> stop();

    bool recording() const { return !m_instance.empty(); }
    const TraceTarget& target() const { return m_target; }
    const std::filesystem::path& instance() const { return m_instance; }
    // Lines of trace_pipe that were not a block_bio_queue event nor a lost-events notice.
    std::uint64_t unparsedLines() const { return m_unparsed; }
    // Events the kernel dropped because its ring buffer was full.
    std::uint64_t lostEvents() const { return m_lost; }
    // Requests on the traced disk outside the partition (or without data), left out.
    std::uint64_t outsideWindow() const { return m_outside; }

private:
    Expected<void> setUp();
    // Reads what trace_pipe holds now (up to maxBytes), turning whole lines into requests.
    Expected<void> readAvailable(std::vector<BlockRequest>& out, std::size_t maxBytes);
    void takeLine(std::string_view line, std::vector<BlockRequest>& out);
    // Disables the event, closes trace_pipe and removes the instance; the first error.
    Expected<void> tearDown();

    std::filesystem::path m_tracefs;
    SysfsRoot m_root;
    TraceTarget m_target;
    std::filesystem::path m_instance;
    UniqueFd m_pipe;
    std::string m_partial;
    std::uint64_t m_unparsed = 0;
    std::uint64_t m_lost = 0;
    std::uint64_t m_outside = 0;
};

} // namespace ssdk::perf
