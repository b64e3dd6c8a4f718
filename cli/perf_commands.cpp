#include "cli/perf_commands.h"

#include <chrono>
#include <csignal>
#include <ctime>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <memory>
#include <thread>

#include "core/base/system_process_runner.h"
#include "core/device/device_json.h"
#include "core/perf/analysis.h"
#include "core/perf/bench_result.h"
#include "core/perf/fio_runner.h"
#include "core/perf/sampler.h"
#include "core/perf/series.h"

namespace ssdk::cli {

namespace {

struct MonitorOptions {
    std::string device;
    unsigned intervalMs = 1000;
    unsigned count = 0; // 0: until interrupted
};

int runMonitor(const CliContext& context, const MonitorOptions& options) {
    auto name = perf::blockDeviceName(options.device);
    if (!name) {
        return reportError(context, name.error());
    }
    perf::SysfsStatSource source(context.sysfsRoot ? SysfsRoot(*context.sysfsRoot) : SysfsRoot());
    perf::Sampler sampler(source, {*name});
    const auto start = perf::Sampler::Clock::now();
    auto first = sampler.sample(start);
    if (!first[0].present) {
        return reportError(context, Error(ErrorCode::NotFound,
                                          "no block device or partition named '" + *name + "'"));
    }
    if (!context.json) {
        std::cout << fmt::format("{:>8} {:>11} {:>11} {:>9} {:>9} {:>9} {:>6}\n", "TIME_S",
                                 "READ_MB/s", "WRITE_MB/s", "R_IOPS", "W_IOPS", "LAT_ms", "QD");
    }
    auto next = start;
    for (unsigned taken = 0; options.count == 0 || taken < options.count;) {
        next += std::chrono::milliseconds(options.intervalMs);
        std::this_thread::sleep_until(next);
        const auto now = perf::Sampler::Clock::now();
        const auto samples = sampler.sample(now);
        const auto& s = samples[0];
        const double time = std::chrono::duration<double>(now - start).count();
        if (!s.hasRates) {
            if (!s.present) {
                std::cerr << fmt::format("{} is gone; waiting for it to come back\n", *name);
            }
            continue;
        }
        ++taken;
        const auto& r = s.rates;
        if (context.json) {
            std::cout << Json{{"time", time},
                              {"device", *name},
                              {"interval_s", r.intervalS},
                              {"read_bytes_per_s", r.readBytesPerS},
                              {"write_bytes_per_s", r.writeBytesPerS},
                              {"read_iops", r.readIops},
                              {"write_iops", r.writeIops},
                              {"avg_latency_ms", r.avgLatencyMs},
                              {"queue_depth", r.queueDepth}}
                             .dump()
                      << std::endl;
        } else {
            std::cout << fmt::format("{:8.1f} {:11.2f} {:11.2f} {:9.0f} {:9.0f} {:9.2f} {:6.2f}",
                                     time, r.readBytesPerS / 1e6, r.writeBytesPerS / 1e6,
                                     r.readIops, r.writeIops, r.avgLatencyMs, r.queueDepth)
                      << std::endl;
        }
    }
    return kExitOk;
}

struct BenchOptions {
    std::string target;
    std::string preset = "cdm";
    unsigned durationS = 0; // preset default when 0
    std::string size = "1G";
    unsigned loops = 1;
    std::string output;
    bool destroyConfirmed = false;
};

// The runner of the bench in progress, for SIGINT: cancel() only creates a file.
perf::FioRunner* g_activeRunner = nullptr;
extern "C" void onInterrupt(int) {
    if (g_activeRunner != nullptr) {
        g_activeRunner->cancel();
    }
}

std::string mbps(double bytesPerS) {
    return fmt::format("{:.2f} MB/s", bytesPerS / 1e6);
}

Json analysisJson(const perf::BenchResult& result) {
    Json out = Json::object();
    if (result.preset == "cdm") {
        Json rows = Json::array();
        for (const auto& row : perf::summarizeCdm(result.run.output, perf::CdmPick::Best)) {
            rows.push_back(Json{{"test", row.test},
                                {"read_bytes_per_s", row.readBytesPerS},
                                {"write_bytes_per_s", row.writeBytesPerS},
                                {"read_iops", row.readIops},
                                {"write_iops", row.writeIops}});
        }
        out["cdm"] = rows;
    } else if (result.preset == "consistency") {
        const auto iops = perf::consistencyIops(result);
        const auto state = perf::steadyState(iops);
        out["steady_state"] = Json{{"reached", state.reached},
                                   {"mean_iops", state.mean},
                                   {"range", state.range},
                                   {"slope_excursion", state.slopeExcursion}};
    } else if (result.preset == "slc") {
        const auto samples = perf::slcProbeSamples(result);
        const auto slc = perf::detectSlcCache(samples);
        std::vector<perf::DrainPoint> drains;
        for (const auto& job : result.run.output.jobs) {
            if (job.name.starts_with("drain-")) {
                drains.push_back({std::stod(job.name.substr(6)), job.write.bwBytesPerS});
            }
        }
        const auto gap = perf::smallestRecoveringGap(drains, slc.burstBytesPerS);
        out["slc"] = Json{{"drop_found", slc.dropFound},
                          {"cache_bytes", slc.cacheBytes},
                          {"burst_bytes_per_s", slc.burstBytesPerS},
                          {"post_cache_bytes_per_s", slc.postCacheBytesPerS},
                          {"recovering_gap_s", gap ? Json(*gap) : Json()}};
    }
    return out;
}

int runBench(const CliContext& context, const BenchOptions& options) {
    auto size = parseSize(options.size);
    if (!size) {
        return reportError(context, size.error());
    }
    if (findExecutable("fio").empty()) {
        return reportError(context, Error(ErrorCode::ToolMissing,
                                          "fio is not installed; install the 'fio' package to "
                                          "run benchmarks"));
    }
    const auto discovery = context.makeDiscovery();
    auto target = perf::prepareTarget(options.target, *size, options.destroyConfirmed, discovery);
    if (!target) {
        return reportError(context, target.error());
    }
    perf::FioRunSpec spec;
    if (options.preset == "cdm") {
        spec.jobs = perf::cdmJobs(*size, options.loops, options.durationS ? options.durationS : 5);
    } else if (options.preset == "qd-scaling") {
        spec.jobs = perf::qdScalingJobs(*size, options.durationS ? options.durationS : 5);
    } else if (options.preset == "consistency") {
        spec.jobs = perf::consistencyJobs(
            *size, std::chrono::seconds(options.durationS ? options.durationS : 60), "consistency");
    } else if (options.preset == "slc") {
        spec.jobs = perf::slcJobs(*size, Bytes(size->value / 8), {10, 15, 20, 25}, "slc");
    } else {
        return reportError(context, Error(ErrorCode::Unsupported,
                                          "preset '" + options.preset + "' is not available"));
    }
    SystemProcessRunner processes;
    perf::FioRunner runner(processes);
    g_activeRunner = &runner;
    auto previous = std::signal(SIGINT, onInterrupt);
    auto run = runner.run(*target, spec, std::chrono::hours(24));
    std::signal(SIGINT, previous);
    g_activeRunner = nullptr;
    if (!run) {
        return reportError(context, run.error());
    }
    perf::BenchResult result;
    result.preset = options.preset;
    result.target = target->path;
    if (auto device = discovery.find(target->isDevice ? target->path : target->deviceName)) {
        result.device = device::toJson(*device);
    }
    result.machine = perf::describeMachine();
    result.createdS = static_cast<std::int64_t>(std::time(nullptr));
    result.run = std::move(*run);
    Json document = perf::toJson(result);
    document["analysis"] = analysisJson(result);
    if (!options.output.empty()) {
        std::ofstream out(options.output);
        out << document.dump(2) << '\n';
        if (!out) {
            return reportError(context, Error(ErrorCode::Io, "could not write " + options.output));
        }
    }
    if (context.json) {
        printJson(document);
        return kExitOk;
    }
    std::cout << fmt::format("{} on {} ({})\n", options.preset, target->path,
                             result.run.output.version);
    if (options.preset == "cdm") {
        std::cout << fmt::format("{:<12} {:>14} {:>14}\n", "TEST", "READ", "WRITE");
        for (const auto& row : perf::summarizeCdm(result.run.output, perf::CdmPick::Best)) {
            std::cout << fmt::format("{:<12} {:>14} {:>14}\n", row.test, mbps(row.readBytesPerS),
                                     mbps(row.writeBytesPerS));
        }
    } else {
        for (const auto& job : result.run.output.jobs) {
            std::cout << fmt::format(
                "{:<18} read {:>14} {:>9.0f} IOPS   write {:>14} {:>9.0f} IOPS\n", job.name,
                mbps(job.read.bwBytesPerS), job.read.iops, mbps(job.write.bwBytesPerS),
                job.write.iops);
        }
        std::cout << document["analysis"].dump(2) << '\n';
    }
    return kExitOk;
}

} // namespace

void addPerfCommands(CLI::App& app, CliContext& context, Commands& commands) {
    auto monitorOptions = std::make_shared<MonitorOptions>();
    auto* monitor = app.add_subcommand("monitor", "Live read/write throughput, IOPS, latency and "
                                                  "queue depth of a disk or partition");
    monitor->add_option("device", monitorOptions->device, "sda, nvme0n1p2 or /dev/…")->required();
    monitor->add_option("--interval", monitorOptions->intervalMs, "Milliseconds between samples")
        ->check(CLI::Range(100U, 3600000U))
        ->capture_default_str();
    monitor->add_option("--count", monitorOptions->count, "Stop after N samples (0: never)")
        ->capture_default_str();
    commands.add(monitor,
                 [&context, monitorOptions] { return runMonitor(context, *monitorOptions); });

    auto benchOptions = std::make_shared<BenchOptions>();
    auto* bench = app.add_subcommand("bench", "Benchmark with fio: CrystalDiskMark presets, "
                                              "queue-depth scaling, consistency, SLC cache");
    bench
        ->add_option("target", benchOptions->target,
                     "A directory (a test file is made and removed there) or an unmounted "
                     "block device (destructive: needs --yes-destroy-data)")
        ->required();
    bench->add_option("--preset", benchOptions->preset, "cdm, qd-scaling, consistency, slc")
        ->check(CLI::IsMember({"cdm", "qd-scaling", "consistency", "slc"}))
        ->capture_default_str();
    bench->add_option("--duration", benchOptions->durationS,
                      "Seconds per test (cdm, qd-scaling) or of the random-write phase "
                      "(consistency)");
    bench->add_option("--size", benchOptions->size, "Test size, e.g. 1G, 256M")
        ->capture_default_str();
    bench->add_option("--loops", benchOptions->loops, "CDM: runs of each test (best is shown)")
        ->check(CLI::Range(1U, 9U))
        ->capture_default_str();
    bench->add_option("--output", benchOptions->output, "Save the result as JSON to this file");
    bench->add_flag("--yes-destroy-data", benchOptions->destroyConfirmed,
                    "Allow writing over the data of a raw (unmounted) block device");
    commands.add(bench, [&context, benchOptions] { return runBench(context, *benchOptions); });
}

} // namespace ssdk::cli
