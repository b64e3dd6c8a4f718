#include "cli/perf_commands.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <ctime>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <thread>
#include <unistd.h>

#include "cli/usage.h"
#include "core/base/bytes.h"
#include "core/base/system_process_runner.h"
#include "core/device/device_json.h"
#include "core/maintenance/erase/guards.h"
#include "core/perf/bench_plan.h"
#include "core/perf/bench_result.h"
#include "core/perf/fio_runner.h"
#include "core/perf/report.h"
#include "core/perf/sampler.h"
#include "core/perf/series.h"
#include "core/perf/verbs.h"
#include "core/rpc/client.h"

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
    const auto source = context.platform->makeStatSource(context.root());
    perf::Sampler sampler(*source, {*name});
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
    std::string pick = "best"; // cdm: "best" or "average" of the loops
    unsigned roundS = perf::kSniaRoundS;
    std::vector<unsigned> gapsS = {10, 15, 20, 25};
    std::string burst; // slc: bytes per drain burst; size / 8 when empty
    std::string output;
    std::string csv;
    bool destroyConfirmed = false;
};

struct CompareOptions {
    std::string first;
    std::string second;
    std::string csv;
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

// A byte count an analysis measured, in the one size unit (formatIec, as the GUI shows it).
std::string byteCount(double bytes) {
    return formatIec(Bytes(static_cast<std::uint64_t>(std::llround(std::max(bytes, 0.0)))));
}

Expected<void> writeFile(const std::string& file, const std::string& content) {
    std::ofstream out(file);
    out << content;
    out.close();
    if (!out) {
        return fail(ErrorCode::Io, "could not write " + file);
    }
    return {};
}

Expected<perf::BenchResult> readResult(const std::string& file) {
    std::ifstream in(file);
    if (!in) {
        return fail(ErrorCode::NotFound, "cannot open " + file);
    }
    std::stringstream content;
    content << in.rdbuf();
    auto json = parseJson(content.str(), file);
    if (!json) {
        return std::unexpected(json.error());
    }
    auto result = perf::benchResultFromJson(*json);
    if (!result) {
        return std::unexpected(Error(result.error()).addContext("reading " + file));
    }
    return result;
}

void printAnalysis(const perf::BenchResult& result) {
    if (result.preset == "consistency") {
        const auto report = perf::consistencyReport(result);
        if (!report.enoughRounds) {
            std::cout << fmt::format("steady state: not judged; SNIA PTS needs {} rounds of {} s "
                                     "({} s of random writes), this run has {} s\n",
                                     perf::kSteadyWindowRounds, report.roundS,
                                     perf::kSteadyWindowRounds * report.roundS, report.iops.size());
            return;
        }
        const auto& state = report.state;
        std::cout << fmt::format(
            "steady state over the last {} rounds of {} s: {} (mean {:.0f} IOPS, range {:.1f}%, "
            "slope excursion {:.1f}%)\n",
            perf::kSteadyWindowRounds, report.roundS, state.reached ? "reached" : "not reached",
            state.mean, state.mean > 0 ? 100 * state.range / state.mean : 0,
            state.mean > 0 ? 100 * state.slopeExcursion / state.mean : 0);
    } else if (result.preset == "slc") {
        const auto report = perf::slcReport(result);
        if (report.cache.dropFound) {
            std::cout << fmt::format("SLC cache: {} written at {} before the drop, then {}\n",
                                     byteCount(report.cache.cacheBytes),
                                     mbps(report.cache.burstBytesPerS),
                                     mbps(report.cache.postCacheBytesPerS));
        } else {
            std::cout << fmt::format("SLC cache: no drop in {} written ({} throughout)\n",
                                     byteCount(report.cache.totalBytes),
                                     mbps(report.cache.burstBytesPerS));
        }
        for (const auto& point : report.drains) {
            std::cout << fmt::format("after {:>4.0f} s idle: {}\n", point.gapS,
                                     mbps(point.bytesPerS));
        }
        std::cout << (report.recoveringGapS
                          ? fmt::format("full burst speed back after {:.0f} s idle\n",
                                        *report.recoveringGapS)
                          : std::string("full burst speed did not come back after any gap\n"));
    } else if (result.preset == "trim-recovery") {
        const auto report = perf::trimRecoveryReport(result);
        std::cout << fmt::format("sequential write: fresh {}, dirty {}, after TRIM {} ({:.0f}% "
                                 "of fresh)\n",
                                 mbps(report.freshBytesPerS), mbps(report.dirtyBytesPerS),
                                 mbps(report.afterTrimBytesPerS), 100 * report.recoveredFraction);
    }
}

Expected<perf::BenchResult> benchHere(const CliContext& context, const perf::BenchTarget& target,
                                      const perf::BenchPlan& plan, const std::string& preset,
                                      const device::Discovery& discovery) {
    perf::FioRunner runner(context.processes());
    g_activeRunner = &runner;
    auto previous = std::signal(SIGINT, onInterrupt);
    auto run = runner.run(target, perf::FioRunSpec{.jobs = plan.jobs}, std::chrono::hours(24));
    std::signal(SIGINT, previous);
    g_activeRunner = nullptr;
    if (!run) {
        return std::unexpected(run.error());
    }
    return perf::makeBenchResult(preset, target, discovery, plan.parameters, std::move(*run));
}

// A raw device as an unprivileged user: ssdkeeper-helper's perf.bench runs fio as root.
// Ctrl-C becomes the helper's cancel message (a thread waits for SIGINT, blocked meanwhile).
Expected<perf::BenchResult> benchThroughHelper(const CliContext& context,
                                               const perf::BenchTarget& target,
                                               const perf::BenchOptions& options,
                                               const device::Discovery& discovery) {
    auto device = discovery.find(target.path);
    if (!device) {
        return std::unexpected(device.error());
    }
    const perf::BenchRequest request{target.path, maintenance::erase::confirmationWord(*device),
                                     options};
    auto answer = callHelperInterruptible(context, perf::kVerbPerfBench, perf::toJson(request),
                                          "cancelling: stopping fio…");
    if (!answer) {
        return std::unexpected(Error(answer.error()).addContext("benchmarking " + target.path));
    }
    auto result = perf::benchResultFromJson(*answer);
    if (!result) {
        return std::unexpected(Error(result.error()).addContext("reading the helper's result"));
    }
    return result;
}

int runBench(const CliContext& context, const BenchOptions& options) {
    if (options.target.empty()) {
        return reportError(context, Error(ErrorCode::InvalidArgument,
                                          "bench needs a target: a directory or an unmounted "
                                          "block device (or: bench compare A.json B.json)"));
    }
    auto size = parseSize(options.size);
    if (!size) {
        return reportError(context, size.error());
    }
    auto burst =
        options.burst.empty() ? Expected<Bytes>(Bytes(size->value / 8)) : parseSize(options.burst);
    if (!burst) {
        return reportError(context, burst.error());
    }
    const auto pick = perf::cdmPickFromName(options.pick);
    if (!pick) {
        return reportError(context,
                           Error(ErrorCode::InvalidArgument,
                                 "--pick must be 'best' or 'average', not '" + options.pick + "'"));
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
    perf::BenchOptions benchOptions{.preset = options.preset,
                                    .size = *size,
                                    .durationS = options.durationS,
                                    .loops = options.loops,
                                    .pick = *pick,
                                    .roundS = options.roundS,
                                    .gapsS = options.gapsS,
                                    .burst = *burst};
    auto plan = perf::planBench(benchOptions, target->isDevice);
    if (!plan) {
        return reportError(context, plan.error());
    }
    Expected<perf::BenchResult> benched =
        target->isDevice && ::geteuid() != 0
            ? benchThroughHelper(context, *target, benchOptions, discovery)
            : benchHere(context, *target, *plan, options.preset, discovery);
    if (!benched) {
        return reportError(context, benched.error());
    }
    const perf::BenchResult& result = *benched;
    const Json document = perf::resultDocument(result);
    if (!options.output.empty()) {
        if (auto written = writeFile(options.output, document.dump(2) + "\n"); !written) {
            return reportError(context, written.error());
        }
    }
    if (!options.csv.empty()) {
        if (auto written = writeFile(options.csv, perf::resultCsv(result)); !written) {
            return reportError(context, written.error());
        }
    }
    if (context.json) {
        printJson(document);
        return kExitOk;
    }
    std::cout << fmt::format("{} on {} ({})\n", options.preset, target->path,
                             result.run.output.version);
    if (options.preset == "cdm") {
        const perf::CdmPick shown = perf::cdmPickOf(result);
        std::cout << fmt::format("{} of {} loop{} per test\n", perf::cdmPickName(shown),
                                 options.loops, options.loops == 1 ? "" : "s");
        std::cout << fmt::format("{:<12} {:>14} {:>14}\n", "TEST", "READ", "WRITE");
        for (const auto& row : perf::summarizeCdm(result.run.output, shown)) {
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
        printAnalysis(result);
    }
    return kExitOk;
}

std::string formatMetric(const std::string& metric, double value) {
    if (metric.ends_with("bytes_per_s")) {
        return mbps(value);
    }
    if (metric.ends_with("bytes")) {
        return byteCount(value);
    }
    if (metric.ends_with("fraction")) {
        return fmt::format("{:.1f}%", 100 * value);
    }
    return fmt::format("{:.0f}", value);
}

int runCompare(const CliContext& context, const CompareOptions& options) {
    auto first = readResult(options.first);
    if (!first) {
        return reportError(context, first.error());
    }
    auto second = readResult(options.second);
    if (!second) {
        return reportError(context, second.error());
    }
    auto rows = perf::compareResults(*first, *second);
    if (!rows) {
        return reportError(context, rows.error());
    }
    if (!options.csv.empty()) {
        if (auto written = writeFile(options.csv, perf::compareCsv(*rows)); !written) {
            return reportError(context, written.error());
        }
    }
    if (context.json) {
        Json out = Json::array();
        for (const auto& row : *rows) {
            const auto delta = row.deltaPercent();
            out.push_back(Json{{"test", row.test},
                               {"metric", row.metric},
                               {"a", row.a},
                               {"b", row.b},
                               {"delta_percent", delta ? Json(*delta) : Json()}});
        }
        printJson(Json{
            {"preset", first->preset}, {"a", options.first}, {"b", options.second}, {"rows", out}});
        return kExitOk;
    }
    std::cout << fmt::format("{} results: A = {}, B = {}\n", first->preset, options.first,
                             options.second);
    std::cout << fmt::format("{:<20} {:<24} {:>14} {:>14} {:>9}\n", "TEST", "METRIC", "A", "B",
                             "DELTA");
    for (const auto& row : *rows) {
        const auto delta = row.deltaPercent();
        std::cout << fmt::format("{:<20} {:<24} {:>14} {:>14} {:>9}\n", row.test, row.metric,
                                 formatMetric(row.metric, row.a), formatMetric(row.metric, row.b),
                                 delta ? fmt::format("{:+.1f}%", *delta) : std::string("—"));
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
        ->check(numberRange(100, 3600000))
        ->capture_default_str();
    monitor->add_option("--count", monitorOptions->count, "Stop after N samples (0: never)")
        ->capture_default_str();
    commands.add(monitor,
                 [&context, monitorOptions] { return runMonitor(context, *monitorOptions); });

    auto benchOptions = std::make_shared<BenchOptions>();
    auto* bench = app.add_subcommand("bench", "Benchmark with fio: CrystalDiskMark presets, "
                                              "queue-depth scaling, consistency, SLC cache, "
                                              "TRIM recovery; or compare two saved results");
    bench->add_option("target", benchOptions->target,
                      "A directory (a test file is made and removed there) or an unmounted "
                      "block device (destructive: needs --yes-destroy-data)");
    bench
        ->add_option("--preset", benchOptions->preset,
                     "cdm, qd-scaling, consistency, slc, trim-recovery (block device only)")
        ->check(CLI::IsMember({"cdm", "qd-scaling", "consistency", "slc", "trim-recovery"}))
        ->capture_default_str();
    bench->add_option("--duration", benchOptions->durationS,
                      "Seconds per test (cdm, qd-scaling), of the random-write phase "
                      "(consistency; default 5 rounds) or of the random-write torture "
                      "(trim-recovery; default 60)");
    bench->add_option("--size", benchOptions->size, "Test size, e.g. 1G, 256M")
        ->capture_default_str();
    bench->add_option("--loops", benchOptions->loops, "CDM: runs of each test")
        ->check(numberRange(1, 9))
        ->capture_default_str();
    bench
        ->add_option("--pick", benchOptions->pick,
                     "CDM: show the best of the loops or their average (saved in the result)")
        ->check(CLI::IsMember({"best", "average"}))
        ->capture_default_str();
    bench
        ->add_option("--round", benchOptions->roundS,
                     "Consistency: seconds per SNIA steady-state round (the verdict uses the "
                     "last 5 rounds)")
        ->check(numberRange(1, 3600))
        ->capture_default_str();
    bench
        ->add_option("--gaps", benchOptions->gapsS,
                     "SLC: idle gaps in seconds before each "
                     "drain burst, e.g. --gaps 10,15,20,25")
        ->delimiter(',')
        ->check(numberRange(0, 3600))
        ->capture_default_str();
    bench->add_option("--burst", benchOptions->burst,
                      "SLC: bytes written after each idle gap (default: size / 8)");
    bench->add_option("--output", benchOptions->output, "Save the result as JSON to this file");
    bench->add_option("--csv", benchOptions->csv,
                      "Save the result as CSV (CDM table, or one row per fio job)");
    bench->add_flag("--yes-destroy-data", benchOptions->destroyConfirmed,
                    "Allow writing over the data of a raw (unmounted) block device");

    auto compareOptions = std::make_shared<CompareOptions>();
    auto* compare = bench->add_subcommand(
        "compare", "Per-test deltas of result B against result A (saved with --output)");
    compare->add_option("a", compareOptions->first, "The baseline result (JSON)")->required();
    compare->add_option("b", compareOptions->second, "The result compared with it (JSON)")
        ->required();
    compare->add_option("--csv", compareOptions->csv, "Also save the comparison as CSV");
    // Registered before bench: runParsed() runs the first parsed command, and bench is
    // parsed too when its compare subcommand is.
    commands.add(compare,
                 [&context, compareOptions] { return runCompare(context, *compareOptions); });
    commands.add(bench, [&context, benchOptions] { return runBench(context, *benchOptions); });
}

} // namespace ssdk::cli
