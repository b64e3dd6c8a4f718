// The analyses on known answers: synthetic series and fio rate= phases recorded on a loop
// device (a 20 MiB/s "burst" of 40 MiB, then 4 MiB/s).
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "core/perf/analysis.h"
#include "core/perf/fio_result.h"

using namespace ssdk;
using namespace ssdk::perf;

TEST_CASE("SNIA steady state: flat within 20%/10% passes, a trend or a spread fails", "[perf]") {
    const std::vector<double> flat = {50000, 12000, 9000, 10100, 9900, 10000, 10050, 9950};
    const auto steady = steadyState(flat);
    CHECK(steady.reached);
    CHECK(steady.mean == Approx(10000).epsilon(0.01));
    REQUIRE(steady.firstSteadyRound);
    CHECK(*steady.firstSteadyRound == 6); // window rounds 2..6 has the 9000 (range 11%) and
                                          // a slope; 3..7 is the first that passes

    // A steady decline of 4% per round: range 16% (< 20%) but slope excursion 16% (> 10%).
    const std::vector<double> declining = {10000, 9600, 9200, 8800, 8400};
    const auto trend = steadyState(declining);
    CHECK_FALSE(trend.reached);
    CHECK(trend.rangeOk);
    CHECK_FALSE(trend.slopeOk);

    // No trend but a 30% spread.
    const std::vector<double> noisy = {10000, 7000, 10000, 7000, 10000};
    const auto spread = steadyState(noisy);
    CHECK_FALSE(spread.reached);
    CHECK_FALSE(spread.rangeOk);

    CHECK_FALSE(steadyState(std::vector<double>{1, 1, 1}).reached); // fewer than 5 rounds
    CHECK(roundsOf(std::vector<double>{1, 3, 5, 7, 9}, 2) == std::vector<double>{2, 6});
}

TEST_CASE("SLC cliff in the middle of a sample is located exactly", "[perf]") {
    // 2000 MB/s for 7.25 s, then 500 MB/s; sampled every 0.5 s.
    std::vector<RateSample> samples;
    for (int i = 1; i <= 40; ++i) {
        const double end = 0.5 * i;
        const double start = end - 0.5;
        const double burstTime = std::clamp(7.25 - start, 0.0, 0.5);
        const double bytes = 2000e6 * burstTime + 500e6 * (0.5 - burstTime);
        samples.push_back({end, 0.5, bytes / 0.5});
    }
    const auto slc = detectSlcCache(samples);
    REQUIRE(slc.dropFound);
    CHECK(slc.burstBytesPerS == Approx(2000e6));
    CHECK(slc.postCacheBytesPerS == Approx(500e6));
    CHECK(slc.cacheBytes == Approx(2000e6 * 7.25));
    CHECK(slc.dropTimeS == Approx(7.25));
}

TEST_CASE("SLC detector: no drop, and a single dip is not a cliff", "[perf]") {
    std::vector<RateSample> flat;
    for (int i = 1; i <= 20; ++i) {
        flat.push_back({0.5 * i, 0.5, i == 10 ? 100e6 : 1000e6});
    }
    const auto slc = detectSlcCache(flat);
    CHECK_FALSE(slc.dropFound);
    CHECK(slc.burstBytesPerS == Approx(1000e6));
    CHECK(slc.totalBytes == Approx(19 * 500e6 + 50e6));
}

TEST_CASE("SLC detector on fio rate= phases recorded on a loop device", "[perf]") {
    // fio logs each job separately and drops a job's last partial window; the two phases
    // are joined end to end, as one write that slowed down.
    std::vector<RateSample> samples;
    double offset = 0;
    for (const char* file : {"burst_bw.1.log", "post_bw.2.log"}) {
        std::ifstream in(std::string(SSDK_TEST_DATA_DIR) + "/perf/" + file);
        std::stringstream content;
        content << in.rdbuf();
        const auto log = parseFioLog(content.str());
        REQUIRE(log);
        double previous = 0;
        for (const auto& entry : *log) {
            const double t = static_cast<double>(entry.timeMs) / 1000.0;
            samples.push_back({offset + t, t - previous, static_cast<double>(entry.value) * 1024});
            previous = t;
        }
        offset += previous;
    }
    const auto slc = detectSlcCache(samples);
    REQUIRE(slc.dropFound);
    CHECK(slc.burstBytesPerS == Approx(20.0 * 1024 * 1024).epsilon(0.05));
    CHECK(slc.postCacheBytesPerS == Approx(4.0 * 1024 * 1024).epsilon(0.05));
    // What the logs show at burst speed: every logged burst window (the last partial window
    // of the job is not in fio's log).
    CHECK(slc.cacheBytes ==
          Approx((0.619 * 19851 + 0.502 * 20398 + 0.516 * 21871) * 1024).epsilon(0.05));
}

TEST_CASE("drain test: the smallest idle gap after which the burst speed is back", "[perf]") {
    const std::vector<DrainPoint> points = {{10, 600e6}, {15, 1500e6}, {20, 1900e6}, {25, 2000e6}};
    CHECK(smallestRecoveringGap(points, 2000e6) == 20);
    CHECK_FALSE(smallestRecoveringGap(std::vector<DrainPoint>{{10, 600e6}}, 2000e6));
    CHECK_FALSE(smallestRecoveringGap(points, 0)); // no burst measured: no verdict
}
