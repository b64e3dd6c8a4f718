#pragma once
// The verdicts on a finished result (SNIA steady state over rounds, SLC cache and drain,
// TRIM recovery), its CSV export and the per-test comparison of two results. Pure: the CLI
// and the GUI show what these compute.

#include <optional>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/base/json.h"
#include "core/perf/analysis.h"
#include "core/perf/bench_result.h"

namespace ssdk::perf {

// SNIA SSS PTS tracks steady state in rounds of one minute each; the verdict needs a
// measurement window of 5 full rounds.
inline constexpr unsigned kSniaRoundS = 60;
inline constexpr std::size_t kSteadyWindowRounds = 5;

struct ConsistencyReport {
    unsigned roundS = kSniaRoundS; // seconds per round (parameters.round_s, else 60)
    std::vector<double> iops;      // IOPS of every second of the random-write phase
    std::vector<double> rounds;    // mean IOPS of each full round
    bool enoughRounds = false;     // at least kSteadyWindowRounds full rounds
    SteadyState state;             // over the rounds (reached is false without enough)
};
ConsistencyReport consistencyReport(const BenchResult& result);

struct SlcReport {
    SlcCache cache;
    std::vector<DrainPoint> drains; // burst speed after each idle gap ("drain-<gap>s" jobs)
    std::optional<double> recoveringGapS;
};
SlcReport slcReport(const BenchResult& result);

// Sequential write speed of the trim-recovery preset's three measurements (bytes/s).
struct TrimRecoveryReport {
    bool complete = false; // all three measurements present
    double freshBytesPerS = 0;
    double dirtyBytesPerS = 0;
    double afterTrimBytesPerS = 0;
    double recoveredFraction = 0; // afterTrim / fresh
};
TrimRecoveryReport trimRecoveryReport(const BenchResult& result);

// The preset's verdict as JSON ("cdm" with "cdm_pick", "steady_state", "slc" or
// "trim_recovery"). The CDM table is the best or the average of the loops, as the result's
// parameters.pick says.
Json analysisJson(const BenchResult& result);

// CSV of a result: the CDM table (one row per test, best or average as the result was run)
// for cdm, else one row per fio job;
// rates in bytes/s and I/O per second, latencies in µs.
std::string resultCsv(const BenchResult& result);

// One number of two results side by side: what the reviews compare.
struct CompareRow {
    std::string test;   // "SEQ1M Q8T1", a fio job name, or "analysis"
    std::string metric; // "read_bytes_per_s", "write_iops", "cache_bytes", …
    double a = 0;
    double b = 0;
    // (b − a) / a in percent; empty when a is 0.
    std::optional<double> deltaPercent() const;
};

// Per-test deltas of b against a, for the tests both ran (same preset required).
Expected<std::vector<CompareRow>> compareResults(const BenchResult& a, const BenchResult& b);

std::string compareCsv(const std::vector<CompareRow>& rows);

} // namespace ssdk::perf
