#include "core/perf/bench_plan.h"

#include <ctime>
#include <numeric>

#include "core/device/device_json.h"
#include "core/perf/report.h"

namespace ssdk::perf {

namespace {
constexpr unsigned kCdmSecondsPerTest = 5;
constexpr unsigned kQdSecondsPerDepth = 5;
constexpr unsigned kTortureDefaultS = 60;
} // namespace

const std::vector<std::string>& benchPresets() {
    static const std::vector<std::string> presets{"cdm", "qd-scaling", "consistency", "slc",
                                                  "trim-recovery"};
    return presets;
}

Expected<BenchPlan> planBench(const BenchOptions& options, bool onDevice) {
    BenchPlan plan;
    plan.parameters = Json{{"size_bytes", options.size.value}};
    const auto& preset = options.preset;
    if (preset == "cdm") {
        const unsigned seconds = options.durationS ? options.durationS : kCdmSecondsPerTest;
        plan.jobs = cdmJobs(options.size, options.loops, seconds);
        plan.parameters["loops"] = options.loops;
        plan.parameters["pick"] = cdmPickName(options.pick);
        plan.expectedSeconds = 8 * options.loops * seconds;
    } else if (preset == "qd-scaling") {
        const unsigned seconds = options.durationS ? options.durationS : kQdSecondsPerDepth;
        plan.jobs = qdScalingJobs(options.size, seconds);
        plan.expectedSeconds = static_cast<unsigned>(plan.jobs.size()) * seconds;
    } else if (preset == "consistency") {
        const unsigned duration = options.durationS
                                      ? options.durationS
                                      : options.roundS * static_cast<unsigned>(kSteadyWindowRounds);
        plan.jobs = consistencyJobs(options.size, std::chrono::seconds(duration), "consistency");
        plan.parameters["round_s"] = options.roundS;
        plan.parameters["duration_s"] = duration;
        plan.expectedSeconds = duration;
    } else if (preset == "slc") {
        const Bytes burst = options.burst.value ? options.burst : Bytes(options.size.value / 8);
        plan.jobs = slcJobs(options.size, burst, options.gapsS, "slc");
        plan.parameters["gaps_s"] = options.gapsS;
        plan.parameters["burst_bytes"] = burst.value;
        plan.expectedSeconds = std::accumulate(options.gapsS.begin(), options.gapsS.end(), 0U);
    } else if (preset == "trim-recovery") {
        if (!onDevice) {
            return fail(ErrorCode::InvalidArgument,
                        "trim-recovery TRIMs the whole device between measurements, so it runs "
                        "only on an unmounted block device (a lab drive: ssdkeeperctl lab "
                        "create) with --yes-destroy-data, not on a test file");
        }
        const unsigned torture = options.durationS ? options.durationS : kTortureDefaultS;
        plan.jobs = trimRecoveryJobs(options.size, std::chrono::seconds(torture));
        plan.parameters["torture_s"] = torture;
        plan.expectedSeconds = torture;
    } else {
        return fail(ErrorCode::Unsupported, "preset '" + preset + "' is not available");
    }
    return plan;
}

BenchResult makeBenchResult(const std::string& preset, const BenchTarget& target,
                            const device::Discovery& discovery, Json parameters, FioRun run) {
    BenchResult result;
    result.preset = preset;
    result.target = target.path;
    if (auto device = discovery.find(target.isDevice ? target.path : target.deviceName)) {
        result.device = device::toJson(*device);
    }
    result.machine = describeMachine();
    result.createdS = static_cast<std::int64_t>(std::time(nullptr));
    result.parameters = std::move(parameters);
    result.run = std::move(run);
    return result;
}

Json resultDocument(const BenchResult& result) {
    Json document = toJson(result);
    document["analysis"] = analysisJson(result);
    return document;
}

} // namespace ssdk::perf
