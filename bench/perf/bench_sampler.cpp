// Sampler cost: µs per sample of the live sampler (kept-open /sys/class/block/DEV/stat,
// pread at offset 0, parse, rates) against the peer every tool without a kept-open file
// uses, opening and parsing /proc/diskstats for the same device, measured in the same run.
// Prints the CPU share of sampling at 10 Hz (target ≤ 0.05% of one core).
// Usage: bench_perf_sampler [DEVICE] [ITERATIONS]   (reads counters only; no I/O to DEVICE)
#include <chrono>
#include <cstdio>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <string>
#include <time.h>

#include "core/perf/disk_stat.h"
#include "core/perf/sampler.h"

using namespace ssdk;
using namespace ssdk::perf;

namespace {

double cpuSeconds() {
    timespec ts{};
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// The peer: read /proc/diskstats whole and parse the device's line, as iostat-style tools do.
std::uint64_t diskstatsWriteSectors(const std::string& device) {
    std::ifstream in("/proc/diskstats");
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        unsigned major = 0, minor = 0;
        std::string name;
        fields >> major >> minor >> name;
        if (name == device) {
            std::uint64_t v[7] = {};
            for (auto& value : v) {
                fields >> value;
            }
            return v[6];
        }
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_perf_sampler DEVICE [ITERATIONS]  (e.g. loop1)\n");
        return 2;
    }
    const std::string device = argv[1];
    const int iterations = argc > 2 ? std::stoi(argv[2]) : 20000;
    SysfsStatSource source;
    Sampler sampler(source, {device});
    auto now = Sampler::Clock::now();
    if (!sampler.sample(now)[0].present) {
        std::fprintf(stderr, "no block device %s\n", device.c_str());
        return 1;
    }
    std::uint64_t sink = 0;
    const double samplerStart = cpuSeconds();
    for (int i = 0; i < iterations; ++i) {
        now += std::chrono::milliseconds(100);
        sink += sampler.sample(now)[0].counters.writeSectors;
    }
    const double samplerUs = (cpuSeconds() - samplerStart) * 1e6 / iterations;
    const double peerStart = cpuSeconds();
    for (int i = 0; i < iterations; ++i) {
        sink += diskstatsWriteSectors(device);
    }
    const double peerUs = (cpuSeconds() - peerStart) * 1e6 / iterations;
    const double shareAt10Hz = samplerUs * 10 / 1e6 * 100;
    fmt::print("device {}: {} samples\n", device, iterations);
    fmt::print("sampler (kept-open stat, pread+parse+rates): {:.2f} us/sample (CPU)\n", samplerUs);
    fmt::print("peer (/proc/diskstats open+parse):          {:.2f} us/sample (CPU)\n", peerUs);
    fmt::print("ratio sampler/peer: {:.3f}\n", samplerUs / peerUs);
    fmt::print("CPU share at 10 Hz: {:.4f}% of one core (target <= 0.05%): {}\n", shareAt10Hz,
               shareAt10Hz <= 0.05 ? "met" : "NOT met");
    return sink == 42 ? 2 : 0;
}
