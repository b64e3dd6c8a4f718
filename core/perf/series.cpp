#include "core/perf/series.h"

namespace ssdk::perf {

std::vector<double> consistencyIops(const BenchResult& result) {
    std::vector<double> iops;
    if (const auto it = result.run.logs.find("consistency-steady_iops");
        it != result.run.logs.end()) {
        for (const auto& entry : it->second) {
            iops.push_back(static_cast<double>(entry.value));
        }
    }
    return iops;
}

std::vector<RateSample> rateSamples(const std::vector<FioLogEntry>& log, double offsetS) {
    std::vector<RateSample> samples;
    double previous = 0;
    for (const auto& entry : log) {
        const double t = static_cast<double>(entry.timeMs) / 1000.0;
        samples.push_back({offsetS + t, t - previous, static_cast<double>(entry.value) * 1024});
        previous = t;
    }
    return samples;
}

std::vector<RateSample> slcProbeSamples(const BenchResult& result) {
    const auto it = result.run.logs.find("slc-probe_bw");
    return it == result.run.logs.end() ? std::vector<RateSample>() : rateSamples(it->second);
}

} // namespace ssdk::perf
