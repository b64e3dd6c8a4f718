// The SNIA steady-state bars and the SLC cliff threshold on both sides: a window exactly at
// 20% range / 10% slope excursion passes and one at 20.5% / 10.5% fails; a sample exactly at
// 70% of the burst speed is not below it. The numbers are exact in binary floating point, so
// "exactly at the bar" is exact (tests/mutation/mutate.py checks each comparison is pinned).
#include <catch2/catch.hpp>

#include "core/perf/analysis.h"

using namespace ssdk;
using namespace ssdk::perf;

namespace {

// One sample per second at each rate.
std::vector<RateSample> perSecond(const std::vector<double>& rates) {
    std::vector<RateSample> samples;
    for (std::size_t i = 0; i < rates.size(); ++i) {
        samples.push_back({static_cast<double>(i + 1), 1.0, rates[i]});
    }
    return samples;
}

} // namespace

TEST_CASE("steady state: a range of exactly 20% of the mean passes, 20.5% fails",
          "[perf-boundaries]") {
    // Symmetric windows: no slope, only the range decides.
    const auto atBar = steadyState(std::vector<double>{9000, 11000, 10000, 11000, 9000});
    CHECK(atBar.range == 2000);
    CHECK(atBar.rangeOk);
    CHECK(atBar.reached);
    const auto over = steadyState(std::vector<double>{8975, 11025, 10000, 11025, 8975});
    CHECK_FALSE(over.rangeOk);
    CHECK_FALSE(over.reached);
}

TEST_CASE("steady state: a slope excursion of exactly 10% of the mean passes, 10.5% fails",
          "[perf-boundaries]") {
    // Straight lines: range and excursion are equal and well within the 20% range bar.
    const auto atBar = steadyState(std::vector<double>{9500, 9750, 10000, 10250, 10500});
    CHECK(atBar.slopeExcursion == 1000);
    CHECK(atBar.slopeOk);
    CHECK(atBar.reached);
    const auto over = steadyState(std::vector<double>{9475, 9737.5, 10000, 10262.5, 10525});
    CHECK(over.rangeOk);
    CHECK_FALSE(over.slopeOk);
    CHECK_FALSE(over.reached);
}

TEST_CASE("steady state: window sizes and round counts at the edges", "[perf-boundaries]") {
    const std::vector<double> flat{100, 100, 100, 100, 100};
    CHECK(steadyState(flat).reached); // exactly one window of rounds
    CHECK_FALSE(steadyState(std::span(flat).first(4)).reached);
    CHECK(steadyState(std::span(flat).first(2), 2).reached); // the smallest window
    CHECK_FALSE(steadyState(flat, 1).reached);               // one round has no trend to judge
}

TEST_CASE("SLC burst: the median of the first quarter of the samples, at least 3",
          "[perf-boundaries]") {
    // 8 samples: the first 3 (a single fast first sample is not the burst; nor are fast
    // samples after the third).
    CHECK_FALSE(detectSlcCache(perSecond({100, 50, 50, 50, 50, 50, 50, 50})).dropFound);
    CHECK_FALSE(detectSlcCache(perSecond({50, 50, 100, 100, 50, 50, 50, 50})).dropFound);
    // 16 samples: the first 4 (50, 50, 100, 100: the burst is 100), not 3 or 5.
    std::vector<double> sixteen{50, 50, 100, 100};
    sixteen.resize(16, 50);
    CHECK(detectSlcCache(perSecond(sixteen)).dropFound);
}

TEST_CASE("SLC cliff: a sample at exactly 70% of the burst is not below it, at 69% it is",
          "[perf-boundaries]") {
    CHECK_FALSE(detectSlcCache(perSecond({100, 100, 100, 100, 70, 70, 70, 70})).dropFound);
    CHECK(detectSlcCache(perSecond({100, 100, 100, 100, 69, 69, 69, 69})).dropFound);
    // The 70s still count as burst side: the drop is in the sample after them.
    const auto late = detectSlcCache(perSecond({100, 100, 100, 70, 70, 40, 40}));
    REQUIRE(late.dropFound);
    CHECK(late.dropTimeS == Approx(4.5));
    CHECK(late.cacheBytes == Approx(420));
    // A dip whose remaining samples have a median of exactly 70% is not lasting.
    CHECK_FALSE(detectSlcCache(perSecond({100, 100, 100, 60, 70, 70, 70})).dropFound);
}
