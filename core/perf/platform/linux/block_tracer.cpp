#include "core/perf/platform/linux/block_tracer.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <fmt/format.h>
#include <limits>
#include <memory>
#include <poll.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <thread>
#include <unistd.h>
#include <utility>

#include "core/base/log.h"

namespace ssdk::perf {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kInstancePrefix = "ssdkeeper-";
constexpr std::string_view kEventDir = "events/block/block_bio_queue";
// Per-CPU ring buffer of the instance: 16 MiB in all, 1 to 4 MiB per CPU. The default (about
// 1.4 MiB) loses events when a fast drive queues ~15k requests between two reads.
constexpr unsigned kBufferTotalKiB = 16 * 1024;
constexpr unsigned kBufferMinKiB = 1024;
constexpr unsigned kBufferMaxKiB = 4096;
// What one poll() reads at most before it returns to its caller.
constexpr std::size_t kMaxReadPerPoll = 4 << 20;
// An instance is busy while someone else still has one of its files open (e.g. a `cat
// trace_pipe` of a curious administrator): removal is retried for up to half a second.
constexpr int kRemoveAttempts = 10;

std::shared_ptr<spdlog::logger> logger() {
    return log::get("perf");
}

// Writes a tracefs control file the way `echo TEXT > FILE` does.
Expected<void> writeControl(const fs::path& file, std::string_view text) {
    UniqueFd fd(::open(file.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC));
    if (!fd.valid()) {
        return failErrno(errno, "opening " + file.string());
    }
    const auto written = ::write(fd.get(), text.data(), text.size());
    if (written != static_cast<ssize_t>(text.size())) {
        return failErrno(written < 0 ? errno : EIO,
                         fmt::format("writing '{}' to {}", text, file.string()));
    }
    return {};
}

std::optional<std::pair<unsigned, unsigned>> parseDevNumber(std::string_view text) {
    unsigned major = 0;
    unsigned minor = 0;
    const char* end = text.data() + text.size();
    auto first = std::from_chars(text.data(), end, major);
    if (first.ec != std::errc{} || first.ptr == end || *first.ptr != ':') {
        return std::nullopt;
    }
    auto second = std::from_chars(first.ptr + 1, end, minor);
    if (second.ec != std::errc{} || second.ptr != end) {
        return std::nullopt;
    }
    return std::pair{major, minor};
}

bool processGone(pid_t pid) {
    return ::kill(pid, 0) != 0 && errno == ESRCH;
}

// Removes instances "ssdkeeper-<pid>" whose process has gone (a helper that was killed).
void sweepAbandonedInstances(const fs::path& instances) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(instances, ec)) {
        const std::string name = entry.path().filename().string();
        if (!name.starts_with(kInstancePrefix)) {
            continue;
        }
        const std::string_view digits = std::string_view(name).substr(kInstancePrefix.size());
        pid_t pid = 0;
        const auto [end, error] =
            std::from_chars(digits.data(), digits.data() + digits.size(), pid);
        if (error != std::errc{} || end != digits.data() + digits.size() || pid <= 0 ||
            !processGone(pid)) {
            continue;
        }
        (void)writeControl(entry.path() / kEventDir / "enable", "0");
        if (::rmdir(entry.path().c_str()) == 0) {
            logger()->info("removed the trace instance {} of a process that is gone",
                           entry.path().string());
        } else {
            logger()->warn("could not remove the abandoned trace instance {}: errno {}",
                           entry.path().string(), errno);
        }
    }
}

unsigned bufferKiBPerCpu() {
    const long cpus = std::max(1L, ::sysconf(_SC_NPROCESSORS_CONF));
    return std::clamp(static_cast<unsigned>(kBufferTotalKiB / cpus), kBufferMinKiB, kBufferMaxKiB);
}

// Why block_bio_queue cannot be recorded here, if it cannot.
Expected<void> checkTracefs(const fs::path& tracefs) {
    std::error_code ec;
    if (!fs::is_directory(tracefs, ec)) {
        if (ec == std::errc::permission_denied) {
            return fail(ErrorCode::PermissionDenied,
                        "recording a block trace needs root (" + tracefs.string() + ")");
        }
        return fail(ErrorCode::Unsupported,
                    fmt::format("this kernel offers no tracefs ({} does not exist; it needs "
                                "CONFIG_FTRACE)",
                                tracefs.string()));
    }
    if (::access(tracefs.c_str(), R_OK | W_OK | X_OK) != 0 && errno == EACCES) {
        return fail(ErrorCode::PermissionDenied,
                    "recording a block trace needs root (" + tracefs.string() + ")");
    }
    if (!fs::is_directory(tracefs / "instances", ec)) {
        return fail(ErrorCode::Unsupported,
                    fmt::format("tracefs is not mounted at {} (mount it with: mount -t tracefs "
                                "nodev {})",
                                tracefs.string(), tracefs.string()));
    }
    if (!fs::is_directory(tracefs / kEventDir, ec)) {
        return fail(ErrorCode::Unsupported,
                    fmt::format("this kernel has no block:block_bio_queue tracepoint ({} is "
                                "missing; it needs CONFIG_BLOCK and CONFIG_EVENT_TRACING)",
                                (tracefs / kEventDir).string()));
    }
    return {};
}

} // namespace

std::uint64_t kernelDevT(unsigned major, unsigned minor) {
    return (static_cast<std::uint64_t>(major) << 20) | minor;
}

Expected<TraceTarget> resolveTraceTarget(const std::string& devicePath, const SysfsRoot& root) {
    struct stat info {};
    if (::stat(devicePath.c_str(), &info) != 0) {
        return failErrno(errno, "checking " + devicePath);
    }
    if (!S_ISBLK(info.st_mode)) {
        return fail(ErrorCode::InvalidArgument, devicePath + " is not a block device or partition");
    }
    TraceTarget target;
    std::error_code ec;
    target.device = fs::canonical(devicePath, ec).string();
    if (ec) {
        target.device = devicePath;
    }
    target.major = ::major(info.st_rdev);
    target.minor = ::minor(info.st_rdev);
    const std::string devno = fmt::format("{}:{}", target.major, target.minor);
    const fs::path sysDir = fs::canonical(root.sys() / "dev" / "block" / devno, ec);
    if (ec) {
        return fail(ErrorCode::NotFound, fmt::format("{} ({}) is not a block device the kernel "
                                                     "lists in {}/dev/block",
                                                     devicePath, devno, root.sys().string()));
    }
    if (!fs::exists(sysDir / "partition", ec)) {
        target.origin = "whole device; blocks from its first sector";
        return target;
    }
    const fs::path diskDir = sysDir.parent_path();
    auto diskDev = root.readString(diskDir / "dev");
    auto start = root.readU64(sysDir / "start");
    auto size = root.readU64(sysDir / "size");
    if (!diskDev || !start || !size) {
        return std::unexpected(Error(!diskDev ? diskDev.error()
                                     : !start ? start.error()
                                              : size.error())
                                   .addContext("finding the disk of partition " + devicePath));
    }
    const auto disk = parseDevNumber(*diskDev);
    if (!disk) {
        return fail(ErrorCode::Parse,
                    fmt::format("{}/dev holds '{}', not MAJOR:MINOR", diskDir.string(), *diskDev));
    }
    target.major = disk->first;
    target.minor = disk->second;
    target.window = SectorWindow{*start, *size};
    target.origin = fmt::format("partition of /dev/{} from sector {}, {} sectors; blocks "
                                "relative to the partition",
                                diskDir.filename().string(), *start, *size);
    return target;
}

Expected<void> mountTracefsIfNeeded(const fs::path& tracefs) {
    std::error_code ec;
    if (!fs::is_directory(tracefs, ec) || fs::is_directory(tracefs / "instances", ec)) {
        return {}; // no tracefs in this kernel, or mounted: start() says which
    }
    if (::mount("tracefs", tracefs.c_str(), "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) !=
        0) {
        return failErrno(errno, "mounting tracefs at " + tracefs.string() +
                                    " (mount -t tracefs nodev " + tracefs.string() + ")");
    }
    logger()->info("mounted tracefs at {}", tracefs.string());
    return {};
}

BlockTracer::BlockTracer(fs::path tracefs, SysfsRoot root)
    : m_tracefs(std::move(tracefs))
    , m_root(std::move(root)) {}

BlockTracer::~BlockTracer() {
    if (!recording()) {
        return;
    }
    if (auto done = tearDown(); !done) {
        logger()->warn("cleaning up the block trace: {}", done.error().describe());
    }
}

Expected<void> BlockTracer::start(const std::string& devicePath) {
    if (recording()) {
        return fail(ErrorCode::Busy, "this tracer is already recording " + m_target.device);
    }
    if (auto supported = checkTracefs(m_tracefs); !supported) {
        return supported;
    }
    auto target = resolveTraceTarget(devicePath, m_root);
    if (!target) {
        return std::unexpected(target.error());
    }
    sweepAbandonedInstances(m_tracefs / "instances");
    const fs::path instance =
        m_tracefs / "instances" / fmt::format("{}{}", kInstancePrefix, ::getpid());
    if (::mkdir(instance.c_str(), 0700) != 0) {
        if (errno == EEXIST) {
            return fail(ErrorCode::Busy, fmt::format("this process already records a block trace "
                                                     "({} exists)",
                                                     instance.string()));
        }
        return failErrno(errno, "creating the trace instance " + instance.string());
    }
    m_target = std::move(*target);
    m_instance = instance;
    m_partial.clear();
    m_unparsed = m_lost = m_outside = 0;
    if (auto ready = setUp(); !ready) {
        if (auto cleaned = tearDown(); !cleaned) {
            logger()->warn("cleaning up after a failed start: {}", cleaned.error().describe());
        }
        return std::unexpected(
            Error(ready.error()).addContext("starting a block trace of " + m_target.device));
    }
    logger()->info("recording block_bio_queue of {} (dev {}:{}{}) in {}", m_target.device,
                   m_target.major, m_target.minor,
                   m_target.window ? fmt::format(", sectors {}+{}", m_target.window->start,
                                                 m_target.window->sectors)
                                   : std::string(),
                   m_instance.string());
    return {};
}

Expected<void> BlockTracer::setUp() {
    const fs::path event = m_instance / kEventDir;
    std::error_code ec;
    if (!fs::is_directory(event, ec)) {
        return fail(ErrorCode::Unsupported,
                    "the trace instance has no block_bio_queue event (" + event.string() + ")");
    }
    if (auto sized = writeControl(m_instance / "buffer_size_kb", std::to_string(bufferKiBPerCpu()));
        !sized) {
        logger()->warn("keeping the default trace buffer: {}", sized.error().describe());
    }
    const std::string filter = fmt::format("dev == {}", kernelDevT(m_target.major, m_target.minor));
    if (auto filtered = writeControl(event / "filter", filter); !filtered) {
        return fail(ErrorCode::Unsupported, "the kernel refused the event filter '" + filter +
                                                "': " + filtered.error().message());
    }
    m_pipe.reset(::open((m_instance / "trace_pipe").c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    if (!m_pipe.valid()) {
        return failErrno(errno, "opening " + (m_instance / "trace_pipe").string());
    }
    return writeControl(event / "enable", "1");
}

Expected<std::vector<BlockRequest>> BlockTracer::poll(std::chrono::milliseconds timeout) {
    if (!recording()) {
        return fail(ErrorCode::Internal, "poll() of a block tracer that does not record");
    }
    pollfd fd{.fd = m_pipe.get(), .events = POLLIN, .revents = 0};
    const int waitMs = static_cast<int>(std::clamp<std::chrono::milliseconds::rep>(
        timeout.count(), 0, std::numeric_limits<int>::max()));
    if (::poll(&fd, 1, waitMs) < 0 && errno != EINTR) {
        return failErrno(errno, "waiting for trace events");
    }
    std::vector<BlockRequest> requests;
    if (auto read = readAvailable(requests, kMaxReadPerPoll); !read) {
        return std::unexpected(read.error());
    }
    return requests;
}

Expected<std::vector<BlockRequest>> BlockTracer::stop() {
    if (!recording()) {
        return fail(ErrorCode::Internal, "stop() of a block tracer that does not record");
    }
    std::vector<BlockRequest> requests;
    auto disabled = writeControl(m_instance / kEventDir / "enable", "0");
    // What the ring buffer still holds was queued before the event was disabled.
    auto drained = readAvailable(requests, std::numeric_limits<std::size_t>::max());
    if (!m_partial.empty()) {
        takeLine(m_partial, requests);
        m_partial.clear();
    }
    auto removed = tearDown();
    for (const auto* step : {&disabled, &drained, &removed}) {
        if (!*step) {
            return std::unexpected(Error(step->error()).addContext("stopping the block trace"));
        }
    }
    logger()->info("stopped recording {}: {} unparsed lines, {} lost events, {} requests outside "
                   "the partition",
                   m_target.device, m_unparsed, m_lost, m_outside);
    return requests;
}

Expected<void> BlockTracer::readAvailable(std::vector<BlockRequest>& out, std::size_t maxBytes) {
    std::array<char, 16384> chunk{};
    std::size_t total = 0;
    while (total < maxBytes) {
        const auto got = ::read(m_pipe.get(), chunk.data(), chunk.size());
        if (got < 0) {
            if (errno == EINTR) {
                continue;
            }
            if (errno == EAGAIN) {
                return {};
            }
            return failErrno(errno, "reading " + (m_instance / "trace_pipe").string());
        }
        if (got == 0) {
            return {};
        }
        total += static_cast<std::size_t>(got);
        m_partial.append(chunk.data(), static_cast<std::size_t>(got));
        std::size_t begin = 0;
        for (auto newline = m_partial.find('\n'); newline != std::string::npos;
             newline = m_partial.find('\n', begin)) {
            takeLine(std::string_view(m_partial).substr(begin, newline - begin), out);
            begin = newline + 1;
        }
        m_partial.erase(0, begin);
    }
    return {};
}

void BlockTracer::takeLine(std::string_view line, std::vector<BlockRequest>& out) {
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) {
        return;
    }
    if (const auto event = parseBioQueueLine(line)) {
        const auto kept = event->major == m_target.major && event->minor == m_target.minor
                              ? toWindow(event->request, m_target.window)
                              : std::nullopt;
        if (kept) {
            out.push_back(*kept);
        } else {
            ++m_outside;
        }
        return;
    }
    if (const auto lost = parseLostEventsLine(line)) {
        m_lost += *lost;
        return;
    }
    if (m_unparsed++ < 5) {
        logger()->debug("unparsed trace line: {}", line.substr(0, 200));
    }
}

Expected<void> BlockTracer::tearDown() {
    // Removing the instance disables its event as well; disabling first only stops new events
    // sooner, so its failure does not matter once the removal succeeds.
    (void)writeControl(m_instance / kEventDir / "enable", "0");
    m_pipe.reset(); // an open trace_pipe keeps the instance busy
    const fs::path instance = std::exchange(m_instance, fs::path());
    for (int attempt = 0;; ++attempt) {
        if (::rmdir(instance.c_str()) == 0 || errno == ENOENT) {
            return {};
        }
        if (errno != EBUSY || attempt == kRemoveAttempts) {
            return failErrno(errno, "removing the trace instance " + instance.string());
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

} // namespace ssdk::perf
