#pragma once
// The reviews' analyses as pure functions over per-interval numbers.

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace ssdk::perf {

// SNIA SSS PTS steady state over a measurement window of `window` rounds: the data
// excursion (max − min) is within 20% of the window's mean, and the excursion of the
// least-squares line across the window (|slope| × (window − 1)) is within 10% of the mean.
struct SteadyState {
    bool reached = false;      // on the last `window` rounds
    double mean = 0;           // of the last window
    double range = 0;          // max − min of the last window
    double slopeExcursion = 0; // |slope| × (window − 1) of the last window
    bool rangeOk = false;
    bool slopeOk = false;
    // The first round (0-based) whose window (ending there) met the rule; empty if none.
    std::optional<std::size_t> firstSteadyRound;
};

SteadyState steadyState(std::span<const double> rounds, std::size_t window = 5);

// Means of consecutive groups of `perRound` values (per-second IOPS → 1-minute rounds); a
// trailing partial group is dropped.
std::vector<double> roundsOf(std::span<const double> values, std::size_t perRound);

// One bandwidth sample: the mean rate over the `intervalS` seconds ending at `timeS`.
struct RateSample {
    double timeS = 0;
    double intervalS = 0;
    double bytesPerS = 0;
};

// The SLC write-cache cliff in a sequential write's bandwidth samples.
struct SlcCache {
    bool dropFound = false;
    double burstBytesPerS = 0;     // median before the drop (or of everything: no drop)
    double postCacheBytesPerS = 0; // median after the drop
    double cacheBytes = 0;         // written at burst speed before the drop
    double dropTimeS = 0;          // when the drop happened
    double totalBytes = 0;         // written in all samples
};

// Finds the first lasting drop below 70% of the burst speed (burst: the median of the first
// samples). "Lasting": the median of every sample after it stays below the threshold. The
// cache size counts the burst-speed part of the sample(s) straddling the drop, so a cliff
// in the middle of a sample is located within it, not rounded to a sample boundary.
SlcCache detectSlcCache(std::span<const RateSample> samples);

// Drain test: burst speeds measured after each idle gap (seconds, ascending). The smallest
// gap after which the speed is back to ≥ 90% of the fresh burst speed; empty if none.
struct DrainPoint {
    double gapS = 0;
    double bytesPerS = 0;
};
std::optional<double> smallestRecoveringGap(std::span<const DrainPoint> points,
                                            double burstBytesPerS);

} // namespace ssdk::perf
