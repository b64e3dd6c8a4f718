// Hit ratio of the simulator's policies on every row of the shared reference table
// (libCacheSim's LRU, FIFO, CLOCK, ARC, LIRS, 2Q, S3-FIFO, SIEVE and Belady on the same traces
// and sizes), with the peers' means, per-row deltas and the share of the LRU->Belady gap closed.
// The peers' figures are the table's, made once with libCacheSim (traces/REFERENCE.md), not
// measured here; what ties them to this run is the LRU cross-check: the simulator's own LRU,
// run here on every row, must give the table's LRU figure.
//   bench_cache_hit_ratio [--policy NAME] [--trace NAME] [--rows]
// Exit 1 when the simulator's LRU differs from the reference LRU by more than
// kLruTolerancePoints on any row.

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "core/cachectl/engine/policy.h"
#include "core/cachectl/engine/simulator.h"
#include "core/cachectl/engine/trace.h"

using namespace ssdk::cachectl::engine;

namespace {

// The table gives hit ratios in % rounded to 2 decimals: an LRU that makes the same hits lies
// within half that last digit of it (plus the doubles' error).
constexpr double kLruTolerancePoints = 0.005 + 1e-9;

struct TraceFile {
    std::string file;
    TraceFormat format;
};

const std::map<std::string, TraceFile> kTraces = {
    {"OLTP", {"OLTP.lis.zst", TraceFormat::Lis}},
    {"cloudPhysicsIO", {"cloudPhysicsIO.csv", TraceFormat::CloudPhysicsCsv}},
};

TraceFile traceFile(const std::string& name) {
    if (auto found = kTraces.find(name); found != kTraces.end()) {
        return found->second;
    }
    return {name + ".trace.gz", TraceFormat::Lirs};
}

} // namespace

int main(int argc, char** argv) {
    std::string policy(kDefaultPolicy);
    std::string onlyTrace;
    bool rows = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--policy") == 0 && i + 1 < argc) {
            policy = argv[++i];
        } else if (std::strcmp(argv[i], "--trace") == 0 && i + 1 < argc) {
            onlyTrace = argv[++i];
        } else if (std::strcmp(argv[i], "--rows") == 0) {
            rows = true;
        } else {
            fmt::print(stderr, "usage: {} [--policy NAME] [--trace NAME] [--rows]\n", argv[0]);
            return 2;
        }
    }
    const std::string dir = std::string(SSDK_SHARED_FIXTURES_DIR) + "/traces/";
    std::ifstream csv(dir + "reference-hit-ratios.csv");
    if (!csv) {
        fmt::print(stderr, "cannot open {}reference-hit-ratios.csv\n", dir);
        return 1;
    }
    // (trace, size) -> policy -> percent, in file order
    std::vector<std::pair<std::string, std::uint64_t>> order;
    std::map<std::pair<std::string, std::uint64_t>, std::map<std::string, double>> table;
    std::string line;
    std::getline(csv, line);
    while (std::getline(csv, line)) {
        std::stringstream fieldsIn(line);
        std::string trace, size, name, percent;
        std::getline(fieldsIn, trace, ',');
        std::getline(fieldsIn, size, ',');
        std::getline(fieldsIn, name, ',');
        std::getline(fieldsIn, percent, ',');
        if (!onlyTrace.empty() && trace != onlyTrace) {
            continue;
        }
        const auto key = std::make_pair(trace, std::stoull(size));
        if (!table.contains(key)) {
            order.push_back(key);
        }
        table[key][name] = std::stod(percent);
    }
    const std::vector<std::string> peers = {"LRU", "FIFO",    "CLOCK", "ARC",   "LIRS",
                                            "2Q",  "S3-FIFO", "SIEVE", "Belady"};
    std::map<std::string, double> peerSums;
    double oursSum = 0;
    double lruSum = 0;
    double gapSum = 0;
    int lruMismatches = 0;
    double worstVsLru = 1e9;
    std::string worstVsLruRow;
    double worstVsBestReal = 1e9;
    std::string worstVsBestRealRow;
    std::map<std::string, double> worstPerTrace;
    double worstMetadata = 0;
    std::string worstMetadataRow;
    double oltpMetadata = -1;
    std::string loadedName;
    std::optional<ReplayTrace> trace;
    if (rows) {
        fmt::print("ref*: libCacheSim reference figures (not measured in this run); simLRU and {}: "
                   "measured in this run\n",
                   policy);
        fmt::print("{:<16} {:>6} {:>7} {:>7} {:>7} {:>7} {:>7} {:>9} {:>7}\n", "trace", "size",
                   "refLRU", "simLRU", "refARC", "refLIRS", "refS3F", "refBelady", policy);
    }
    for (const auto& key : order) {
        if (key.first != loadedName) {
            const TraceFile file = traceFile(key.first);
            auto loaded = readTrace(dir + file.file, file.format);
            if (!loaded) {
                fmt::print(stderr, "{}\n", loaded.error().describe());
                return 1;
            }
            trace.emplace(std::move(*loaded));
            loadedName = key.first;
        }
        auto& reference = table[key];
        auto lru = simulate(*trace, "lru", key.second);
        auto ours = simulate(*trace, policy, key.second);
        if (!lru || !ours) {
            fmt::print(stderr, "simulation failed\n");
            return 1;
        }
        const std::string rowName = fmt::format("{} {}", key.first, key.second);
        // Metadata per cached block once the trace has filled the cache.
        const double perBlock =
            static_cast<double>(ours->metadataBytes) / static_cast<double>(key.second);
        if (perBlock > worstMetadata) {
            worstMetadata = perBlock;
            worstMetadataRow = rowName;
        }
        if (rowName == "OLTP 32768") {
            oltpMetadata = perBlock;
        }
        const double lruPercent = lru->hitRatio() * 100.0;
        const double oursPercent = ours->hitRatio() * 100.0;
        if (std::abs(lruPercent - reference["LRU"]) > kLruTolerancePoints) {
            ++lruMismatches;
            fmt::print(stderr,
                       "LRU cross-check: {}: simulator LRU {:.4f} %, reference LRU {:.2f} %\n",
                       rowName, lruPercent, reference["LRU"]);
        }
        lruSum += lruPercent;
        for (const auto& peer : peers) {
            peerSums[peer] += reference[peer];
        }
        oursSum += oursPercent;
        const double gap = reference["Belady"] - reference["LRU"];
        gapSum += gap;
        const double vsLru = oursPercent - reference["LRU"];
        if (vsLru < worstVsLru) {
            worstVsLru = vsLru;
            worstVsLruRow = rowName;
        }
        const double bestOfThree =
            std::max({reference["S3-FIFO"], reference["ARC"], reference["LIRS"]});
        const double vsBest = oursPercent - bestOfThree;
        if (!worstPerTrace.contains(key.first) || vsBest < worstPerTrace[key.first]) {
            worstPerTrace[key.first] = vsBest;
        }
        if ((key.first == "OLTP" || key.first == "cloudPhysicsIO") && vsBest < worstVsBestReal) {
            worstVsBestReal = vsBest;
            worstVsBestRealRow = rowName;
        }
        if (rows) {
            fmt::print(
                "{:<16} {:>6} {:>7.2f} {:>7.2f} {:>7.2f} {:>7.2f} {:>7.2f} {:>9.2f} {:>7.2f}\n",
                key.first, key.second, reference["LRU"], lruPercent, reference["ARC"],
                reference["LIRS"], reference["S3-FIFO"], reference["Belady"], oursPercent);
        }
    }
    const auto n = static_cast<double>(order.size());
    fmt::print("rows: {}\n", order.size());
    fmt::print("LRU cross-check, the simulator's LRU (this run) against libCacheSim's (reference), "
               "tolerance {:.3f} points: {} of {} rows agree\n",
               kLruTolerancePoints, order.size() - static_cast<std::size_t>(lruMismatches),
               order.size());
    fmt::print("reference figures, libCacheSim (reference-hit-ratios.csv, not measured in this "
               "run):\n");
    std::string bestPeer;
    double bestPeerMean = 0;
    for (const auto& peer : peers) {
        fmt::print("  mean {:<8} {:6.2f}\n", peer, peerSums[peer] / n);
        if (peer != "Belady" && peerSums[peer] / n > bestPeerMean) {
            bestPeerMean = peerSums[peer] / n;
            bestPeer = peer;
        }
    }
    const double oursMean = oursSum / n;
    fmt::print("measured in this run:\n");
    fmt::print("  mean simulator LRU {:6.2f}\n", lruSum / n);
    fmt::print("  mean {:<13} {:6.2f}  (ratio to the best reference mean, {} {:.2f}: {:.4f})\n",
               policy, oursMean, bestPeer, bestPeerMean, oursMean / bestPeerMean);
    fmt::print("  reference LRU->Belady gap closed: {:.1f}%\n",
               100.0 * (oursSum - peerSums["LRU"]) / gapSum);
    fmt::print("  worst row vs reference LRU: {:+.2f} ({})\n", worstVsLru, worstVsLruRow);
    if (!worstVsBestRealRow.empty()) {
        fmt::print("  worst real-trace row vs best reference of S3-FIFO/ARC/LIRS: {:+.2f} ({})\n",
                   worstVsBestReal, worstVsBestRealRow);
    }
    if (oltpMetadata >= 0) {
        fmt::print("  metadata at OLTP 32768: {:.1f} B per cached block\n", oltpMetadata);
    }
    fmt::print("  metadata, largest row: {:.1f} B per cached block ({})\n", worstMetadata,
               worstMetadataRow);
    for (const auto& [name, delta] : worstPerTrace) {
        fmt::print("  {:<16} worst vs best reference of S3-FIFO/ARC/LIRS: {:+.2f}\n", name, delta);
    }
    if (lruMismatches > 0) {
        fmt::print(stderr,
                   "LRU cross-check FAILED on {} rows: the simulator and libCacheSim disagree, so "
                   "the reference figures cannot be set beside this run's\n",
                   lruMismatches);
        return 1;
    }
    return 0;
}
