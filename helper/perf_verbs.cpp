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
#include "core/perf/verbs.h"
#include "helper/cancel_watch.h"
#include "helper/validation.h"

namespace ssdk::helper {

namespace {

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
            events(
                perf::kEventProgress,
                perf::toJson(perf::BenchProgress{
                    fraction,
                    fmt::format("fio on {}: {:.0f} s, read {:.1f} MB/s, write {:.1f} MB/s",
                                deviceName, elapsed, r.readBytesPerS / 1e6, r.writeBytesPerS / 1e6),
                    elapsed, r.readBytesPerS, r.writeBytesPerS, r.readIops, r.writeIops}));
        }
    }

    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_done = false;
    std::thread m_thread;
};

Expected<Json> benchVerb(ProcessRunner& runner, int cancelFd, const Json& args,
                         const VerbEvents& events) {
    auto request = perf::benchRequestFromJson(args);
    if (!request) {
        return failed(request);
    }
    const std::string& path = request->device;
    auto device = validateBlockDevice(path, {});
    if (!device) {
        return failed(device);
    }
    char resolved[PATH_MAX];
    if (::realpath(path.c_str(), resolved) == nullptr || device->path != resolved) {
        return fail(ErrorCode::InvalidArgument,
                    path + " is a partition; a raw-device benchmark runs on a whole drive (" +
                        device->path + ")");
    }
    auto options = checkBenchRequest(*request, *device);
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

Expected<perf::BenchOptions> checkBenchRequest(const perf::BenchRequest& request,
                                               const device::Device& device) {
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
    if (request.confirm != word) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("benchmarking {} destroys all its data; confirm with \"{}\" "
                                "(argument 'confirm')",
                                device.path, word));
    }
    if (request.options.size > device.size) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("argument 'size' must be 1 MiB to the drive's size ({})",
                                formatIec(device.size)));
    }
    return request.options;
}

Expected<perf::BenchOptions> checkBenchRequest(const Json& args, const device::Device& device) {
    auto request = perf::benchRequestFromJson(args);
    if (!request) {
        return failed(request);
    }
    return checkBenchRequest(*request, device);
}

void addPerfVerbs(HelperService& service, ProcessRunner& runner, int cancelFd) {
    service.add(Verb{perf::kVerbPerfBench, "io.github.ssdkeeper.perf.bench", Grade::Destroy,
                     [&runner, cancelFd](const Json& args, const VerbEvents& events) {
                         return benchVerb(runner, cancelFd, args, events);
                     }});
}

} // namespace ssdk::helper
