// The verdicts, exports and comparisons of finished results: SNIA steady state over rounds
// (one minute by default), the trim-recovery preset's jobs and table, CSV, and per-test
// deltas between two results (the recorded CDM result against a copy with known changes).
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "core/perf/fio_job.h"
#include "core/perf/report.h"

using namespace ssdk;
using namespace ssdk::perf;

namespace {

BenchResult recordedCdm() {
    std::ifstream in(std::string(SSDK_TEST_DATA_DIR) + "/perf/cdm-result.json");
    REQUIRE(in);
    std::stringstream content;
    content << in.rdbuf();
    auto json = parseJson(content.str(), "cdm-result.json");
    REQUIRE(json);
    auto result = benchResultFromJson(*json);
    REQUIRE(result);
    return *result;
}

// A consistency result whose random-write phase logged `iops` (one value per second).
BenchResult consistencyResult(const std::vector<double>& iops, Json parameters) {
    BenchResult result;
    result.preset = "consistency";
    result.parameters = std::move(parameters);
    auto& log = result.run.logs["consistency-steady_iops"];
    for (std::size_t i = 0; i < iops.size(); ++i) {
        log.push_back({(i + 1) * 1000, static_cast<std::uint64_t>(iops[i]), 1});
    }
    return result;
}

FioJobResult writeJob(const std::string& name, double bytesPerS) {
    FioJobResult job;
    job.name = name;
    job.write.ioBytes = 1 << 20;
    job.write.bwBytesPerS = bytesPerS;
    job.write.iops = bytesPerS / (1 << 20);
    return job;
}

} // namespace

TEST_CASE("consistency verdict: SNIA rounds of one minute, 5 of them needed", "[perf]") {
    // 6 minutes: a minute of fresh-out-of-box 50k IOPS, then 10k ± 1% noise per second.
    std::vector<double> iops;
    for (int s = 0; s < 360; ++s) {
        iops.push_back(s < 60 ? 50000 : 10000 + (s % 2 == 0 ? 100 : -100));
    }
    const auto report = consistencyReport(consistencyResult(iops, Json::object()));
    CHECK(report.roundS == 60);
    REQUIRE(report.rounds.size() == 6);
    CHECK(report.rounds[0] == Approx(50000));
    CHECK(report.rounds[5] == Approx(10000));
    CHECK(report.enoughRounds);
    CHECK(report.state.reached);
    REQUIRE(report.state.firstSteadyRound);
    CHECK(*report.state.firstSteadyRound == 5); // rounds 1..5, after the fresh minute

    // The same numbers judged per second would pass after 5 s; in one-minute rounds the
    // first 4 minutes cannot be judged at all.
    const std::vector<double> fourMinutes(iops.begin(), iops.begin() + 240);
    const auto short_ = consistencyReport(consistencyResult(fourMinutes, Json::object()));
    CHECK_FALSE(short_.enoughRounds);
    CHECK_FALSE(short_.state.reached);
    CHECK(analysisJson(consistencyResult(
              fourMinutes, Json::object()))["steady_state"]["enough_rounds"] == false);

    // A shorter round chosen at run time (bench --round 10) is read back from the result.
    const auto tenSecond = consistencyReport(consistencyResult(fourMinutes, {{"round_s", 10}}));
    CHECK(tenSecond.roundS == 10);
    CHECK(tenSecond.rounds.size() == 24);
    CHECK(tenSecond.state.reached);
    // Rounds 0..4 all lie in the fresh 50k minute: a flat window passes the rule, which is
    // why short rounds can call the fresh-out-of-box plateau "steady".
    CHECK(*tenSecond.state.firstSteadyRound == 4);
}

TEST_CASE("trim-recovery preset: fresh, torture, dirty, whole-device trim, after-trim", "[perf]") {
    const auto jobs = trimRecoveryJobs(Bytes::mib(512), std::chrono::seconds(90));
    REQUIRE(jobs.size() == 5);
    CHECK(jobs[0].name == "fresh");
    CHECK(jobs[1].rw == "randwrite");
    CHECK(jobs[1].ioDepth == 32);
    CHECK(jobs[1].runtime == std::chrono::seconds(90));
    CHECK(jobs[3].rw == "trim");
    CHECK(jobs[3].size.value == 0); // the whole device
    const auto argv = fioArguments({.target = "/dev/loop7", .jobs = jobs}, "");
    CHECK(std::ranges::count(argv, std::string("--rw=trim")) == 1);
    CHECK(std::ranges::count(argv, std::string("--size=536870912")) == 4);

    BenchResult result;
    result.preset = "trim-recovery";
    result.run.output.jobs = {writeJob("fresh", 400e6), writeJob("torture", 30e6),
                              writeJob("dirty", 100e6), writeJob("after-trim", 380e6)};
    const auto report = trimRecoveryReport(result);
    CHECK(report.complete);
    CHECK(report.dirtyBytesPerS == Approx(100e6));
    CHECK(report.recoveredFraction == Approx(0.95));
    result.run.output.jobs.pop_back();
    CHECK_FALSE(trimRecoveryReport(result).complete);
}

TEST_CASE("CSV export: the CDM table, or one row per fio job", "[perf]") {
    const auto cdm = recordedCdm();
    const std::string csv = resultCsv(cdm);
    CHECK(csv.starts_with("test,read_bytes_per_s,write_bytes_per_s,"));
    CHECK(std::ranges::count(csv, '\n') == 5); // header + 4 tests
    CHECK(csv.find("\nSEQ1M Q8T1,2919") != std::string::npos);

    BenchResult trim;
    trim.preset = "trim-recovery";
    trim.run.output.jobs = {writeJob("fresh", 400e6)};
    CHECK(resultCsv(trim) ==
          "job,read_bytes_per_s,read_iops,read_lat_us,write_bytes_per_s,write_iops,"
          "write_lat_us\nfresh,0,0.0,0.0,400000000,381.5,0.0\n");
}

TEST_CASE("compare: per-test deltas of B against A", "[perf]") {
    const auto a = recordedCdm();
    auto b = a;
    for (auto& job : b.run.output.jobs) {
        if (job.name.starts_with("SEQ1MQ8T1-read")) {
            job.read.bwBytesPerS *= 1.10; // +10%
        }
        if (job.name.starts_with("RND4KQ1T1-write")) {
            job.write.bwBytesPerS *= 0.5; // -50%
        }
    }
    auto rows = compareResults(a, b);
    REQUIRE(rows);
    CHECK(rows->size() == 16); // 4 tests × read/write × MB/s/IOPS
    const auto find = [&](const std::string& test, const std::string& metric) {
        const auto it = std::ranges::find_if(
            *rows, [&](const CompareRow& r) { return r.test == test && r.metric == metric; });
        REQUIRE(it != rows->end());
        return *it;
    };
    CHECK(*find("SEQ1M Q8T1", "read_bytes_per_s").deltaPercent() == Approx(10));
    CHECK(*find("RND4K Q1T1", "write_bytes_per_s").deltaPercent() == Approx(-50));
    CHECK(*find("SEQ1M Q1T1", "read_bytes_per_s").deltaPercent() == Approx(0));
    const std::string csv = compareCsv(*rows);
    CHECK(csv.starts_with("test,metric,a,b,delta_percent\n"));
    CHECK(csv.find(",10.00\n") != std::string::npos);

    BenchResult slc;
    slc.preset = "slc";
    const auto mismatch = compareResults(a, slc);
    REQUIRE_FALSE(mismatch);
    CHECK(mismatch.error().message().find("same preset") != std::string::npos);

    // Consistency runs compare their steady-state means too (default vs more spare area).
    std::vector<double> base(300, 8000), spare(300, 12000);
    const auto steady = compareResults(consistencyResult(base, Json::object()),
                                       consistencyResult(spare, Json::object()));
    REQUIRE(steady);
    const auto mean =
        std::ranges::find(*steady, std::string("steady_mean_iops"), &CompareRow::metric);
    REQUIRE(mean != steady->end());
    CHECK(*mean->deltaPercent() == Approx(50));
}
