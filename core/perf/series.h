#pragma once
// Per-interval series out of a saved result's fio logs, for the analyses and the charts.

#include <vector>

#include "core/perf/analysis.h"
#include "core/perf/bench_result.h"

namespace ssdk::perf {

// IOPS per logged interval of the consistency preset's random-write phase, in order.
std::vector<double> consistencyIops(const BenchResult& result);

// Bandwidth samples of the SLC preset's probe (bytes/s over each logged interval).
std::vector<RateSample> slcProbeSamples(const BenchResult& result);

// Samples of a fio bandwidth log (KiB/s values) as RateSamples, times offset by offsetS.
std::vector<RateSample> rateSamples(const std::vector<FioLogEntry>& log, double offsetS = 0);

} // namespace ssdk::perf
