// nbd_bench: ssdkeeper-cached against `nbdkit memory` serving the same data in the same run.
//
// Both servers listen on Unix sockets; fio's nbd engine (libnbd, the same client for both)
// runs 4 KiB random reads at QD32 and 1 MiB sequential reads. The daemon serves a file in
// the page cache through its RAM cache engine (--cache-size, by default big enough for the
// whole export, warmed by one pass of random 1 MiB reads over the export before the runs, so
// the reads measured are engine hits; --cache-size-mib 0 serves the file directly, the page
// cache then being the cache), nbdkit serves the same bytes from its memory plugin.
// Rounds alternate between the servers so background load hits both alike; each figure is
// the median of its rounds. Prints a table and the ratio daemon/nbdkit per workload.
// Because the machine may be shared, it also prints each server's CPU time per GiB moved
// (from /proc/PID/stat around each run): throughput swings with other load, CPU cost does not.
// The export's file is in the page cache too, so a read the engine missed would not look slow:
// the daemon's `stats` (control socket) are read around the warm pass and each of its runs, and
// when the cache can hold the export the bench exits 1 unless the warm pass cached all of it and
// every block a run read was a hit (a smaller --cache-size-mib prints its runs' hits and misses).
//
//   nbd_bench [--size-mib 256] [--runtime 3] [--rounds 3] [--daemon PATH] [--threads N]
//             [--cache-size-mib N] [--compression lz4|none]

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fmt/core.h>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "core/base/json.h"
#include "core/base/system_process_runner.h"
#include "core/cachectl/backends/engine_backend.h"
#include "tests/support/child_process.h"

namespace {

using ssdk::testing::ChildProcess;

struct Workload {
    std::string name;
    std::vector<std::string> fioArgs;
    bool iops = false; // report IOPS (else MiB/s)
};

struct Server {
    std::string name;
    std::string uri;
    pid_t pid = -1;
};

// User + system CPU seconds the process has used.
double cpuSeconds(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    // Fields after the command name, which is in parentheses and may hold spaces.
    const auto nameEnd = text.rfind(')');
    if (nameEnd == std::string::npos) {
        return 0;
    }
    std::istringstream fields(text.substr(nameEnd + 1));
    std::string field;
    double ticks = 0;
    for (int index = 3; fields >> field && index <= 15; ++index) {
        if (index == 14 || index == 15) {
            ticks += std::stod(field);
        }
    }
    return ticks / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

struct Figure {
    double rate = 0;      // IOPS or MiB/s
    double cpuPerGib = 0; // server CPU seconds per GiB read
};

// The workload's figures, or nullopt (reported) when fio failed.
std::optional<Figure> runFio(ssdk::ProcessRunner& runner, const Workload& workload,
                             const Server& server, int runtime) {
    const std::string& uri = server.uri;
    std::vector<std::string> argv{
        "fio",           "--name=nbdbench",     "--ioengine=nbd",
        "--uri=" + uri,  "--time_based",        fmt::format("--runtime={}", runtime),
        "--ramp_time=1", "--output-format=json"};
    argv.insert(argv.end(), workload.fioArgs.begin(), workload.fioArgs.end());
    const double cpuBefore = cpuSeconds(server.pid);
    auto result = ssdk::runChecked(
        runner, ssdk::ProcessRequest{.argv = argv, .timeout = std::chrono::seconds(runtime + 60)});
    if (!result) {
        fmt::print(stderr, "fio failed: {}\n", result.error().describe());
        return std::nullopt;
    }
    // The nbd engine prints "fio: connected to NBD server" before the JSON document.
    const auto& output = result->standardOutput;
    const auto start = output.find('{');
    auto json =
        ssdk::parseJson(start == std::string::npos ? output : output.substr(start), "fio output");
    if (!json) {
        fmt::print(stderr, "{}\n", json.error().describe());
        return std::nullopt;
    }
    const double cpu = cpuSeconds(server.pid) - cpuBefore;
    const auto& read = (*json)["jobs"][0]["read"];
    // io_bytes covers the measured period only; the CPU time also covers the ramp-up second,
    // so the bytes of that second are estimated from the measured rate.
    const double measuredBytes = read["io_bytes"].get<double>();
    const double rampBytes = measuredBytes / runtime;
    const double gib = (measuredBytes + rampBytes) / (1024.0 * 1024.0 * 1024.0);
    return Figure{.rate = workload.iops ? read["iops"].get<double>()
                                        : read["bw_bytes"].get<double>() / (1024.0 * 1024.0),
                  .cpuPerGib = gib > 0 ? cpu / gib : 0};
}

// The daemon's counters for its one export (docs/daemon.md, "stats"), in 4 KiB blocks.
struct Counters {
    std::uint64_t readBlocks = 0; // NBD reads, of any size
    std::uint64_t hits = 0;
    std::uint64_t misses = 0;
    std::uint64_t bypassed = 0;
    std::uint64_t cachedBlocks = 0;
    std::uint64_t capacityBlocks = 0;
};

// nullopt (reported) when the daemon does not answer or serves the export without a cache.
std::optional<Counters> daemonCounters(const std::filesystem::path& control) {
    auto reply = ssdk::cachectl::controlRequest(control, ssdk::Json{{"cmd", "stats"}});
    if (!reply) {
        fmt::print(stderr, "nbd_bench: the daemon's stats: {}\n", reply.error().describe());
        return std::nullopt;
    }
    const auto& exported = (*reply)["exports"][0];
    const auto& cache = exported["cache"];
    if (!cache.is_object()) {
        fmt::print(stderr, "nbd_bench: the daemon reports no cache for the export\n");
        return std::nullopt;
    }
    const auto count = [&](const char* field) { return cache[field].get<std::uint64_t>(); };
    return Counters{.readBlocks = exported["read_bytes"].get<std::uint64_t>() / 4096,
                    .hits = count("hits"),
                    .misses = count("misses"),
                    .bypassed = count("bypassed"),
                    .cachedBlocks = count("cached_blocks"),
                    .capacityBlocks = count("capacity_blocks")};
}

double median(const std::vector<Figure>& figures, double Figure::*field) {
    std::vector<double> values;
    for (const auto& figure : figures) {
        values.push_back(figure.*field);
    }
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"NBD read throughput: ssdkeeper-cached vs nbdkit memory"};
    unsigned sizeMib = 256;
    int runtime = 3;
    unsigned rounds = 3;
    unsigned threads = 8;
    std::optional<unsigned> cacheMib;
    std::string compression = "none";
    std::string daemonPath =
        (std::filesystem::canonical("/proc/self/exe").parent_path() / "ssdkeeper-cached").string();
    app.add_option("--size-mib", sizeMib, "export size in MiB")->check(CLI::Range(16U, 4096U));
    app.add_option("--runtime", runtime, "seconds per fio run")->check(CLI::Range(1, 600));
    app.add_option("--rounds", rounds, "runs per server and workload")->check(CLI::Range(1U, 20U));
    app.add_option("--daemon", daemonPath, "ssdkeeper-cached binary");
    app.add_option("--threads", threads, "the daemon's --threads");
    app.add_option("--cache-size-mib", cacheMib,
                   "the daemon's RAM cache (default: the export fits; 0: no cache)");
    app.add_option("--compression", compression, "the daemon's --compression")
        ->check(CLI::IsMember({"lz4", "none"}));
    CLI11_PARSE(app, argc, argv);
    // The cache budget counts metadata too: 1/8 on top of the data and a little slack.
    const unsigned cacheSizeMib = cacheMib.value_or(sizeMib + sizeMib / 8 + 16);

    for (const char* tool : {"fio", "nbdkit", "nbdcopy"}) {
        if (ssdk::findExecutable(tool).empty()) {
            fmt::print(stderr, "nbd_bench: {} is not installed (./scripts/setup)\n", tool);
            return 77;
        }
    }
    char pattern[] = "/tmp/ssdk-nbd-bench-XXXXXX";
    if (::mkdtemp(pattern) == nullptr) {
        std::perror("mkdtemp");
        return 1;
    }
    const std::filesystem::path dir(pattern);
    const auto cleanup = [&] { std::filesystem::remove_all(dir); };
    const std::uint64_t size = std::uint64_t{sizeMib} << 20;

    // The same pseudo-random bytes for both servers.
    const auto dataPath = dir / "data.img";
    {
        std::ofstream out(dataPath, std::ios::binary);
        std::mt19937_64 random(42);
        std::vector<std::uint64_t> chunk(1 << 17);
        for (std::uint64_t done = 0; done < size; done += chunk.size() * 8) {
            std::generate(chunk.begin(), chunk.end(), random);
            out.write(reinterpret_cast<const char*>(chunk.data()),
                      static_cast<std::streamsize>(chunk.size() * 8));
        }
    }
    const auto daemonSocket = dir / "cached.sock";
    const auto controlSocket = dir / "control.sock";
    const auto kitSocket = dir / "nbdkit.sock";
    auto daemon = ChildProcess::spawn(
        {daemonPath, "--export", "bench=" + dataPath.string(), "--socket", daemonSocket.string(),
         "--control", controlSocket.string(), "--threads", std::to_string(threads), "--log-level",
         "warn", "--cache-size", fmt::format("{}M", cacheSizeMib), "--compression", compression});
    auto kit = ChildProcess::spawn(
        {"nbdkit", "-f", "-U", kitSocket.string(), "memory", std::to_string(size)});
    if (!daemon || !kit || !daemon->waitForLine("ready", std::chrono::seconds(10))) {
        fmt::print(stderr, "nbd_bench: could not start the servers\n");
        cleanup();
        return 1;
    }
    ssdk::SystemProcessRunner runner;
    const std::string kitUri = "nbd+unix:///?socket=" + kitSocket.string();
    bool copied = false;
    for (int attempt = 0; attempt < 50 && !copied; ++attempt) {
        auto copy =
            runner.run(ssdk::ProcessRequest{.argv = {"nbdcopy", dataPath.string(), kitUri}});
        copied = copy && copy->succeeded();
        if (!copied) {
            ::usleep(100000);
        }
    }
    if (!copied) {
        fmt::print(stderr, "nbd_bench: could not load the data into nbdkit\n");
        cleanup();
        return 1;
    }

    const std::vector<Workload> workloads{
        {"4 KiB random read QD32 (IOPS)", {"--rw=randread", "--bs=4k", "--iodepth=32"}, true},
        {"1 MiB sequential read QD8 (MiB/s)", {"--rw=read", "--bs=1M", "--iodepth=8"}, false},
    };
    if (cacheSizeMib > 0) {
        // One pass over the whole export in random order, every block once. With fio's default
        // generator and random map, an offset already read moves on to the next free one, so the
        // pass ends in runs of consecutive blocks that the sequential cutoff bypasses (6 of 64
        // MiB here); an LFSR visits every block once without that, in an order with no runs.
        auto warm = ssdk::runChecked(
            runner,
            ssdk::ProcessRequest{.argv = {"fio", "--name=warm", "--ioengine=nbd",
                                          "--uri=nbd+unix:///bench?socket=" + daemonSocket.string(),
                                          "--rw=randread", "--random_generator=lfsr", "--bs=1M",
                                          "--iodepth=8", "--output-format=terse"},
                                 .timeout = std::chrono::seconds(600)});
        if (!warm) {
            fmt::print(stderr, "nbd_bench: warming the cache failed: {}\n",
                       warm.error().describe());
            cleanup();
            return 1;
        }
    }
    // Whether every block a run reads must be a hit: the cache holds the whole export.
    bool allHits = false;
    if (cacheSizeMib > 0) {
        const auto warmed = daemonCounters(controlSocket);
        if (!warmed) {
            cleanup();
            return 1;
        }
        const std::uint64_t exportBlocks = size / 4096;
        allHits = warmed->capacityBlocks >= exportBlocks;
        fmt::print("warm pass: {} of {} blocks cached ({} misses, {} bypassed); cache capacity "
                   "{} blocks\n",
                   warmed->cachedBlocks, exportBlocks, warmed->misses, warmed->bypassed,
                   warmed->capacityBlocks);
        if (allHits && warmed->cachedBlocks != exportBlocks) {
            fmt::print(stderr,
                       "nbd_bench: the warm pass left {} of the export's {} blocks out of "
                       "a cache that holds them all: the runs would not time hits\n",
                       exportBlocks - warmed->cachedBlocks, exportBlocks);
            cleanup();
            return 1;
        }
        if (!allHits) {
            fmt::print("the cache holds {} of the export's {} blocks: the daemon's figures mix "
                       "hits and misses (counted per run below)\n",
                       warmed->capacityBlocks, exportBlocks);
        }
    }
    std::vector<Server> servers{
        {"ssdkeeper-cached", "nbd+unix:///bench?socket=" + daemonSocket.string(), daemon->pid()},
        {"nbdkit memory", kitUri, kit->pid()}};
    fmt::print("export {} MiB, fio nbd engine, {} s per run, {} rounds, daemon --threads {} "
               "--cache-size {}M --compression {}\n",
               sizeMib, runtime, rounds, threads, cacheSizeMib, compression);
    std::vector<std::vector<Figure>> figures(servers.size() * workloads.size());
    for (unsigned round = 0; round < rounds; ++round) {
        for (std::size_t w = 0; w < workloads.size(); ++w) {
            for (std::size_t s = 0; s < servers.size(); ++s) {
                // Alternate who goes first so neither always runs on a warmer machine.
                const std::size_t which = (s + round) % servers.size();
                const bool cached = which == 0 && cacheSizeMib > 0;
                const auto before = cached ? daemonCounters(controlSocket) : std::nullopt;
                const auto value = runFio(runner, workloads[w], servers[which], runtime);
                const auto after = cached ? daemonCounters(controlSocket) : std::nullopt;
                if (!value || (cached && (!before || !after))) {
                    cleanup();
                    return 1;
                }
                figures[which * workloads.size() + w].push_back(*value);
                fmt::print("  round {} {:<36} {:<18} {:>12.0f}   CPU {:6.2f} s/GiB\n", round + 1,
                           workloads[w].name, servers[which].name, value->rate, value->cpuPerGib);
                if (!cached) {
                    continue;
                }
                const std::uint64_t read = after->readBlocks - before->readBlocks;
                const std::uint64_t hits = after->hits - before->hits;
                const std::uint64_t misses = after->misses - before->misses;
                fmt::print("    the daemon's engine: {} blocks read, {} hits, {} misses\n", read,
                           hits, misses);
                if (allHits && (read == 0 || hits != read || misses != 0)) {
                    fmt::print(stderr,
                               "nbd_bench: {}: the run read {} blocks, the engine counted "
                               "{} hits and {} misses; its figure is not of hits\n",
                               workloads[w].name, read, hits, misses);
                    cleanup();
                    return 1;
                }
            }
        }
    }
    fmt::print("\n{:<36} {:>18} {:>18} {:>8}\n", "workload (median)", servers[0].name,
               servers[1].name, "ratio");
    for (std::size_t w = 0; w < workloads.size(); ++w) {
        const double ours = median(figures[w], &Figure::rate);
        const double peer = median(figures[workloads.size() + w], &Figure::rate);
        fmt::print("{:<36} {:>18.0f} {:>18.0f} {:>8.2f}\n", workloads[w].name, ours, peer,
                   ours / peer);
    }
    fmt::print("\n{:<36} {:>18} {:>18} {:>8}\n", "server CPU s/GiB (median)", servers[0].name,
               servers[1].name, "ratio");
    for (std::size_t w = 0; w < workloads.size(); ++w) {
        const double ours = median(figures[w], &Figure::cpuPerGib);
        const double peer = median(figures[workloads.size() + w], &Figure::cpuPerGib);
        // Ratio > 1: the daemon needs less CPU than nbdkit for the same data.
        fmt::print("{:<36} {:>18.2f} {:>18.2f} {:>8.2f}\n", workloads[w].name, ours, peer,
                   peer / ours);
    }
    daemon->signal(SIGTERM);
    daemon->wait();
    kit->signal(SIGTERM);
    kit->wait();
    cleanup();
    return 0;
}
