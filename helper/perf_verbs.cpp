#include "helper/perf_verbs.h"

#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdlib>
#include <fmt/format.h>
#include <mutex>
#include <thread>

#include "core/base/log.h"
#include "core/base/system_process_runner.h"
#include "core/maintenance/erase/guards.h"
#include "core/perf/fio_runner.h"
#include "core/perf/sampler.h"
#include "helper/cancel_watch.h"
#include "helper/validation.h"

namespace ssdk::helper {

namespace {

constexpr std::uint64_t kMaxSeconds = 24 * 3600;

Expected<unsigned> boundedArg(const Json& args, std::string_view key, unsigned fallback,
                              std::uint64_t low, std::uint64_t high) {
    auto value = unsignedArg(args, key, fallback);
    if (!value) {
        return failed(value);
    }
    if (*value < low || *value > high) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("argument '{}' must be {} to {}", key, low, high));
    }
    return static_cast<unsigned>(*value);
}

Expected<std::vector<unsigned>> gapsArg(const Json& args, std::vector<unsigned> fallback) {
    const auto it = args.find("gaps_s");
    if (it == args.end()) {
        return fallback;
    }
    if (!it->is_array() || it->empty() || it->size() > 16) {
        return fail(ErrorCode::InvalidArgument,
                    "argument 'gaps_s' must be a list of 1 to 16 idle gaps in seconds");
    }
    std::vector<unsigned> gaps;
    for (const auto& gap : *it) {
        if (!gap.is_number_unsigned() || gap.get<std::uint64_t>() > 3600) {
            return fail(ErrorCode::InvalidArgument,
                        "argument 'gaps_s' must hold whole seconds from 0 to 3600");
        }
        gaps.push_back(gap.get<unsigned>());
    }
    return gaps;
}

// Emits the drive's rates once a second while fio runs, as "progress" events.
class ProgressTicker {
public:
    ProgressTicker(const VerbEvents& events, std::string deviceName, unsigned expectedSeconds)
        : m_thread([this, &events, deviceName = std::move(deviceName), expectedSeconds] {
            run(events, deviceName, expectedSeconds);
        }) {}
    ~ProgressTicker() {
        {
            std::lock_guard lock(m_mutex);
            m_done = true;
        }
        m_wake.notify_all();
        m_thread.join();
    }
    ProgressTicker(const ProgressTicker&) = delete;
    ProgressTicker& operator=(const ProgressTicker&) = delete;

private:
    void run(const VerbEvents& events, const std::string& deviceName, unsigned expectedSeconds) {
        perf::SysfsStatSource source;
        perf::Sampler sampler(source, {deviceName});
        const auto start = perf::Sampler::Clock::now();
        sampler.sample(start);
        std::unique_lock lock(m_mutex);
        for (auto next = start + std::chrono::seconds(1);; next += std::chrono::seconds(1)) {
            if (m_wake.wait_until(lock, next, [this] { return m_done; })) {
                return;
            }
            const auto now = perf::Sampler::Clock::now();
            const auto sample = sampler.sample(now).front();
            const double elapsed = std::chrono::duration<double>(now - start).count();
            const double fraction =
                expectedSeconds > 0 ? std::min(0.99, elapsed / expectedSeconds) : -1.0;
            const auto& r = sample.rates;
            events("progress",
                   Json{{"fraction", fraction},
                        {"text", fmt::format("fio on {}: {:.0f} s, read {:.1f} MB/s, write "
                                             "{:.1f} MB/s",
                                             deviceName, elapsed, r.readBytesPerS / 1e6,
                                             r.writeBytesPerS / 1e6)},
                        {"elapsed_s", elapsed},
                        {"read_bytes_per_s", r.readBytesPerS},
                        {"write_bytes_per_s", r.writeBytesPerS},
                        {"read_iops", r.readIops},
                        {"write_iops", r.writeIops}});
        }
    }

    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_done = false;
    std::thread m_thread;
};

Expected<Json> benchVerb(ProcessRunner& runner, int cancelFd, const Json& args,
                         const VerbEvents& events) {
    if (auto keys = requireOnlyKeys(args, {"device", "preset", "confirm", "size", "duration_s",
                                           "loops", "pick", "round_s", "gaps_s", "burst"});
        !keys) {
        return failed(keys);
    }
    auto path = stringArg(args, "device", kMaxPathLength);
    if (!path) {
        return failed(path);
    }
    auto device = validateBlockDevice(*path, {});
    if (!device) {
        return failed(device);
    }
    char resolved[PATH_MAX];
    if (::realpath(path->c_str(), resolved) == nullptr || device->path != resolved) {
        return fail(ErrorCode::InvalidArgument,
                    *path + " is a partition; a raw-device benchmark runs on a whole drive (" +
                        device->path + ")");
    }
    auto options = checkBenchRequest(args, *device);
    if (!options) {
        return failed(options);
    }
    auto plan = perf::planBench(*options, true);
    if (!plan) {
        return failed(plan);
    }
    if (findExecutable("fio").empty()) {
        return fail(ErrorCode::ToolMissing,
                    "fio is not installed; install the 'fio' package to run benchmarks");
    }
    const SysfsRoot root;
    const device::Discovery discovery(root, device::makeSystemFsProber(root));
    auto target = perf::prepareTarget(device->path, options->size, true, discovery);
    if (!target) {
        return failed(target);
    }
    perf::FioRunner fio(runner);
    CancelWatch watch(cancelFd, [&fio] { fio.cancel(); });
    Expected<perf::FioRun> run = fail(ErrorCode::Internal, "fio did not run");
    {
        ProgressTicker ticker(events, target->deviceName, plan->expectedSeconds);
        run = fio.run(*target, perf::FioRunSpec{.jobs = plan->jobs}, std::chrono::hours(24));
    }
    if (!run) {
        return failed(run);
    }
    return perf::resultDocument(perf::makeBenchResult(options->preset, *target, discovery,
                                                      plan->parameters, std::move(*run)));
}

} // namespace

Expected<perf::BenchOptions> checkBenchRequest(const Json& args, const device::Device& device) {
    if (device.holdsRootFilesystem()) {
        return fail(ErrorCode::PermissionDenied,
                    device.path + " holds the running system's root filesystem; refusing to "
                                  "benchmark it destructively");
    }
    if (device.inUse()) {
        return fail(ErrorCode::Busy, device.path + " (or one of its partitions) is mounted or in "
                                                   "use; unmount it first: a raw-device "
                                                   "benchmark overwrites its data");
    }
    if (device.readOnly) {
        return fail(ErrorCode::PermissionDenied, device.path + " is read-only");
    }
    const std::string word = maintenance::erase::confirmationWord(device);
    auto confirm = stringArg(args, "confirm", 256);
    if (!confirm || *confirm != word) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("benchmarking {} destroys all its data; confirm with \"{}\" "
                                "(argument 'confirm')",
                                device.path, word));
    }
    perf::BenchOptions options;
    auto preset = stringArg(args, "preset", 32);
    if (!preset) {
        return failed(preset);
    }
    options.preset = *preset;
    auto size = unsignedArg(args, "size", Bytes::gib(1).value);
    if (!size) {
        return failed(size);
    }
    if (*size < Bytes::mib(1).value || *size > device.size.value) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("argument 'size' must be 1 MiB to the drive's size ({})",
                                formatIec(device.size)));
    }
    options.size = Bytes(*size);
    auto duration = boundedArg(args, "duration_s", 0, 0, kMaxSeconds);
    auto loops = boundedArg(args, "loops", 1, 1, 9);
    auto round = boundedArg(args, "round_s", 60, 1, 3600);
    auto gaps = gapsArg(args, options.gapsS);
    auto burst = unsignedArg(args, "burst", 0);
    if (!duration || !loops || !round || !gaps || !burst) {
        return fail(ErrorCode::InvalidArgument, !duration ? duration.error().message()
                                                : !loops  ? loops.error().message()
                                                : !round  ? round.error().message()
                                                : !gaps   ? gaps.error().message()
                                                          : burst.error().message());
    }
    if (*burst > *size) {
        return fail(ErrorCode::InvalidArgument, "argument 'burst' must not exceed 'size'");
    }
    options.durationS = *duration;
    options.loops = *loops;
    if (args.contains("pick")) {
        auto pick = stringArg(args, "pick", 16);
        const auto parsed = pick ? perf::cdmPickFromName(*pick) : std::nullopt;
        if (!parsed) {
            return fail(ErrorCode::InvalidArgument, "argument 'pick' must be \"best\" or "
                                                    "\"average\"");
        }
        options.pick = *parsed;
    }
    options.roundS = *round;
    options.gapsS = *gaps;
    options.burst = Bytes(*burst);
    if (std::ranges::find(perf::benchPresets(), options.preset) == perf::benchPresets().end()) {
        return fail(ErrorCode::Unsupported, "preset '" + options.preset + "' is not available");
    }
    return options;
}

void addPerfVerbs(HelperService& service, ProcessRunner& runner, int cancelFd) {
    service.add(Verb{"perf.bench", "io.github.ssdkeeper.perf.bench", Grade::Destroy,
                     [&runner, cancelFd](const Json& args, const VerbEvents& events) {
                         return benchVerb(runner, cancelFd, args, events);
                     }});
}

} // namespace ssdk::helper
