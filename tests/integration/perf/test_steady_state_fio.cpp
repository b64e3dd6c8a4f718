// The SNIA steady-state rule on real fio runs with a known answer (root, a lab drive): 4K
// random writes QD32 paced by fio's rate_iops. A constant pace is steady; a pace that climbs
// from round to round is not. Rounds of 4 s (bench --round 4) keep each run under 30 s.
#include <chrono>

#include "core/base/system_process_runner.h"
#include "core/lab/lab.h"
#include "core/perf/fio_runner.h"
#include "core/perf/report.h"
#include "tests/integration/lab/lab_scratch.h"

using namespace ssdk;
using namespace ssdk::perf;
using namespace ssdk::test;
namespace fs = std::filesystem;

namespace {

constexpr unsigned kRoundS = 4;
constexpr std::uint64_t kSpan = 64ULL << 20;

BenchResult judged(FioRun run) {
    BenchResult result{.preset = "consistency", .target = "lab"};
    result.parameters = {{"round_s", kRoundS}};
    result.run = std::move(run);
    // Saved and re-opened, as the GUI and `bench compare` read it.
    auto reopened = benchResultFromJson(parseJson(toJson(result).dump(), "saved").value());
    REQUIRE(reopened);
    return *reopened;
}

} // namespace

TEST_CASE_METHOD(LabBench,
                 "steady state: a constant rate_iops run is steady, a climbing one is not",
                 "[perf]") {
    if (findExecutable("fio").empty()) {
        FAIL("fio is not installed (scripts/setup installs it)");
    }
    const auto drive = createLabDrive(manager, "perf-steady", Bytes::mib(256));
    const BenchTarget raw{.path = drive.devicePath, .isDevice = true};

    SECTION("constant pace: 2000 IOPS for 5 rounds") {
        // fio logs one entry per full second: 21 s give 20 entries, 5 rounds of 4 s.
        auto jobs =
            consistencyJobs(Bytes(kSpan), std::chrono::seconds(5 * kRoundS + 1), "consistency");
        jobs[1].rateIops = 2000;
        FioRunner runner(processes);
        auto run = runner.run(raw, {.jobs = jobs}, std::chrono::seconds(90));
        INFO((run ? std::string() : run.error().describe()));
        REQUIRE(run);
        const auto result = judged(std::move(*run));
        const auto report = consistencyReport(result);
        INFO("rounds: " << Json(report.rounds).dump());
        CHECK(report.roundS == kRoundS);
        REQUIRE(report.enoughRounds);
        CHECK(report.state.reached);
        CHECK(report.state.rangeOk);
        CHECK(report.state.slopeOk);
        CHECK(report.state.mean == Approx(2000).epsilon(0.05));
        CHECK(report.state.firstSteadyRound == std::size_t{4});
        const Json verdict = analysisJson(result)["steady_state"];
        CHECK(verdict["reached"] == true);
        CHECK(verdict["round_s"] == kRoundS);
    }
    SECTION("climbing pace: 500, 1000, 1500, 2000, 2500 IOPS, one rate per round") {
        auto jobs = consistencyJobs(Bytes(kSpan), std::chrono::seconds(kRoundS + 1), "phase");
        const FioJob steady = jobs[1];
        jobs.pop_back();
        std::vector<std::string> logs;
        for (std::uint64_t rate = 500; rate <= 2500; rate += 500) {
            FioJob phase = steady;
            phase.name = "phase-" + std::to_string(rate);
            phase.logPrefix = phase.name;
            phase.rateIops = rate;
            jobs.push_back(phase);
            logs.push_back(phase.logPrefix + "_iops");
        }
        FioRunner runner(processes);
        auto run = runner.run(raw, {.jobs = jobs}, std::chrono::seconds(90));
        INFO((run ? std::string() : run.error().describe()));
        REQUIRE(run);
        // The phases' per-second logs, one after another, as the random-write log.
        std::vector<FioLogEntry> joined;
        std::uint64_t offsetMs = 0;
        for (const auto& name : logs) {
            REQUIRE(run->logs.contains(name));
            for (auto entry : run->logs.at(name)) {
                entry.timeMs += offsetMs;
                joined.push_back(entry);
            }
            offsetMs = joined.back().timeMs;
        }
        run->logs["consistency-steady_iops"] = joined;
        const auto result = judged(std::move(*run));
        const auto report = consistencyReport(result);
        INFO("rounds: " << Json(report.rounds).dump());
        REQUIRE(report.enoughRounds);
        CHECK_FALSE(report.state.reached);
        CHECK_FALSE(report.state.slopeOk);
        CHECK_FALSE(report.state.rangeOk);
        CHECK_FALSE(report.state.firstSteadyRound);
        CHECK(std::ranges::is_sorted(report.rounds));
        CHECK(report.rounds.front() == Approx(500).epsilon(0.1));
        CHECK(report.rounds.back() > 2000);
        CHECK(analysisJson(result)["steady_state"]["reached"] == false);
    }
    const auto destroyed = manager.destroy("perf-steady");
    INFO((destroyed ? std::string() : destroyed.error().describe()));
    REQUIRE(destroyed);
}
