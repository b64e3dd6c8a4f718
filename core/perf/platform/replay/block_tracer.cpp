#include "core/perf/platform/linux/block_tracer.h"

#include "core/base/platform/replay/unavailable.h"

namespace ssdk::perf {

// The replay platform has no tracefs: nothing is traced. Recorded traces are read with
// block_trace.h's parsers. The kernel's device numbers in recorded trace lines are Linux's.
std::uint64_t kernelDevT(unsigned major, unsigned minor) {
    return (static_cast<std::uint64_t>(major) << 20) | minor;
}

Expected<TraceTarget> resolveTraceTarget(const std::string& devicePath, const SysfsRoot& /*root*/) {
    return std::unexpected(replay::unavailable("tracing " + devicePath));
}

Expected<void> mountTracefsIfNeeded(const std::filesystem::path& tracefs) {
    return std::unexpected(replay::unavailable("tracefs (" + tracefs.string() + ")"));
}

BlockTracer::BlockTracer(std::filesystem::path tracefs, SysfsRoot root)
    : m_tracefs(std::move(tracefs))
    , m_root(std::move(root)) {}

BlockTracer::~BlockTracer() = default;

Expected<void> BlockTracer::start(const std::string& devicePath) {
    return std::unexpected(replay::unavailable("tracing " + devicePath));
}

Expected<std::vector<BlockRequest>> BlockTracer::poll(std::chrono::milliseconds /*timeout*/) {
    return std::unexpected(replay::unavailable("block tracing"));
}

Expected<std::vector<BlockRequest>> BlockTracer::stop() {
    return std::unexpected(replay::unavailable("block tracing"));
}

} // namespace ssdk::perf
