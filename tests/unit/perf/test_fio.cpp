// fio: command lines built from jobs, fio's recorded JSON and logs parsed, the runner's
// handling of a missing fio, a failing fio and cancellation (with a replayed runner), and
// results saved and re-opened.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "core/base/replay_process_runner.h"
#include "core/perf/bench_result.h"
#include "core/perf/fio_job.h"
#include "core/perf/fio_runner.h"
#include "tests/support/test_data.h"

using namespace ssdk;
using namespace ssdk::perf;

namespace {
bool contains(const std::vector<std::string>& argv, const std::string& arg) {
    return std::find(argv.begin(), argv.end(), arg) != argv.end();
}
} // namespace

TEST_CASE("recorded fio JSON: per-job bytes, bandwidth, IOPS and latency", "[perf]") {
    const auto output = parseFioOutput("note: a line fio prints first\n" +
                                       test::readTestData("perf/slc-phases.json"));
    REQUIRE(output);
    CHECK(output->version == "fio-3.33");
    REQUIRE(output->jobs.size() == 2);
    CHECK(output->jobs[0].name == "burst");
    CHECK(output->jobs[0].write.ioBytes == 41943040);
    CHECK(output->jobs[0].write.bwBytesPerS == Approx(21066318));
    CHECK(output->jobs[0].write.iops == Approx(20.090407));
    CHECK(output->jobs[0].write.latMeanUs == Approx(9318.61325));
    CHECK(output->jobs[0].write.runtimeMs == 1991);
    CHECK(output->jobs[0].read.ioBytes == 0);
    CHECK(output->jobs[1].write.ioBytes == 12582912);
    CHECK_FALSE(parseFioOutput("fio: no JSON here"));
    CHECK_FALSE(parseFioOutput("{\"fio version\": \"x\"}"));
}

TEST_CASE("recorded fio bandwidth logs parse", "[perf]") {
    const auto log = parseFioLog(test::readTestData("perf/burst_bw.1.log"));
    REQUIRE(log);
    REQUIRE(log->size() == 3);
    CHECK((*log)[0].timeMs == 619);
    CHECK((*log)[0].value == 19851);
    CHECK((*log)[0].direction == 1);
    CHECK_FALSE(parseFioLog("12, x, 1, 0, 0\n"));
}

TEST_CASE("CDM preset: eight tests per loop, reads then writes, like CrystalDiskMark", "[perf]") {
    const auto jobs = cdmJobs(Bytes::gib(1), 2, 5);
    REQUIRE(jobs.size() == 16);
    CHECK(jobs[0].name == "SEQ1MQ8T1-read#1");
    CHECK(jobs[0].rw == "read");
    CHECK(jobs[0].ioDepth == 8);
    CHECK(jobs[0].blockSize == Bytes::mib(1));
    CHECK(jobs[4].name == "RND4KQ32T1-read#1");
    CHECK(jobs[4].rw == "randread");
    CHECK(jobs[4].blockSize == Bytes::kib(4));
    CHECK(jobs[8].rw == "write");
    CHECK(jobs[15].name == "RND4KQ1T1-write#2");
    CHECK(cdmKeyOf("RND4KQ1T1-write#2")->test == "RND4K Q1T1");
    CHECK(cdmKeyOf("RND4KQ1T1-write#2")->write);
    CHECK_FALSE(cdmKeyOf("fill"));

    FioRunSpec spec{.target = "/mnt/x/t.tmp", .jobs = {jobs[0]}};
    const auto argv = fioArguments(spec, "/tmp/stop");
    CHECK(argv[0] == "fio");
    CHECK(contains(argv, "--output-format=json"));
    CHECK(contains(argv, "--direct=1"));
    CHECK(contains(argv, "--filename=/mnt/x/t.tmp"));
    CHECK(contains(argv, "--trigger-file=/tmp/stop"));
    CHECK(contains(argv, "--aux-path=/tmp"));
    CHECK(contains(argv, "--iodepth=8"));
    CHECK(contains(argv, "--runtime=5"));
    CHECK(contains(argv, "--stonewall"));
}

TEST_CASE("consistency and SLC presets log per interval", "[perf]") {
    const auto consistency = consistencyJobs(Bytes::mib(64), std::chrono::seconds(30), "c");
    REQUIRE(consistency.size() == 2);
    CHECK(consistency[0].rw == "write");
    CHECK(consistency[1].rw == "randwrite");
    CHECK(consistency[1].ioDepth == 32);
    CHECK(consistency[1].logAvgMsec == 1000);
    auto paced = consistency[1];
    paced.rateIops = 2000;
    const auto pacedArgv = fioArguments({.target = "/dev/loop9", .jobs = {paced}}, "");
    CHECK(contains(pacedArgv, "--rate_iops=2000"));
    CHECK(toJson(paced)["rate_iops"] == 2000);
    const auto slc = slcJobs(Bytes::gib(4), Bytes::mib(256), {10, 15, 20, 25}, "s");
    REQUIRE(slc.size() == 9); // probe, then idle + drain per gap
    CHECK(slc[0].logAvgMsec <= 500);
    CHECK(slc[3].name == "idle-15s");
    CHECK(slc[3].thinkTimeS == 15);
    CHECK(slc[3].size == Bytes::kib(4)); // one I/O, then the gap
    CHECK(slc[4].name == "drain-15s");
    CHECK(slc[4].size == Bytes::mib(256));
    const auto argv = fioArguments({.target = "/dev/loop9", .jobs = slc}, "");
    CHECK(contains(argv, "--write_bw_log=s-probe"));
    CHECK(contains(argv, "--thinktime=25s"));
    CHECK_FALSE(contains(argv, "--startdelay=25"));
    CHECK_FALSE(contains(argv, "--trigger-file="));
}

TEST_CASE("the runner: fio missing, fio failing, cancelled — and the test file removed", "[perf]") {
    const auto dir = std::filesystem::temp_directory_path() / "ssdk-perf-unit-runner";
    std::filesystem::create_directories(dir);
    const BenchTarget target{.path = (dir / "t.tmp").string(), .removeAfter = true};
    const FioRunSpec spec{.jobs = cdmJobs(Bytes::mib(8), 1, 1)};

    SECTION("fio missing") {
        ReplayProcessRunner replay; // no recording: answers ToolMissing
        FioRunner runner(replay);
        std::ofstream(target.path) << "x";
        const auto run = runner.run(target, spec, std::chrono::seconds(5));
        REQUIRE_FALSE(run);
        CHECK(run.error().code() == ErrorCode::ToolMissing);
        CHECK(run.error().message().find("install") != std::string::npos);
        CHECK_FALSE(std::filesystem::exists(target.path));
    }
    SECTION("fio fails") {
        ReplayProcessRunner replay;
        FioRunner runner(replay);
        // The argv holds the runner's private trigger path: learn it from a first call.
        (void)runner.run(target, spec, std::chrono::seconds(5));
        REQUIRE(replay.requests().size() == 1);
        replay.expect(
            replay.requests()[0].argv,
            ProcessResult{.exitCode = 1, .standardError = "fio: pid=1, err=28/file:no space"});
        const auto run = runner.run(target, spec, std::chrono::seconds(5));
        REQUIRE_FALSE(run);
        CHECK(run.error().code() == ErrorCode::ProcessFailed);
        CHECK(run.error().message().find("no space") != std::string::npos);
    }
    SECTION("cancelled before start") {
        ReplayProcessRunner replay;
        FioRunner runner(replay);
        runner.cancel();
        const auto run = runner.run(target, spec, std::chrono::seconds(5));
        REQUIRE_FALSE(run);
        CHECK(run.error().code() == ErrorCode::Cancelled);
        CHECK(replay.requests().empty());
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("a result saved as JSON re-opens with the same numbers - CDM best and average",
          "[perf]") {
    const auto output = parseFioOutput(test::readTestData("perf/slc-phases.json"));
    REQUIRE(output);
    BenchResult result;
    result.preset = "slc";
    result.target = "/dev/loop1";
    result.machine = describeMachine();
    result.run.output = *output;
    result.run.argv = {"fio", "--name=burst"};
    result.run.logs["probe_bw"] = {{500, 100, 1}, {1000, 200, 1}};
    const auto reopened = benchResultFromJson(parseJson(toJson(result).dump(), "saved").value());
    REQUIRE(reopened);
    CHECK(reopened->preset == "slc");
    CHECK(reopened->run.output.jobs.size() == 2);
    CHECK(reopened->run.output.jobs[0].write.ioBytes == 41943040);
    CHECK(reopened->run.output.version == "fio-3.33");
    CHECK(reopened->run.logs.at("probe_bw").size() == 2);
    CHECK(reopened->run.logs.at("probe_bw")[1].value == 200);
    CHECK_FALSE(benchResultFromJson(Json{{"version", 2}}));

    FioOutput cdm;
    for (const auto& [name, bw] : std::vector<std::pair<std::string, double>>{
             {"SEQ1MQ8T1-read#1", 100}, {"SEQ1MQ8T1-read#2", 300}, {"SEQ1MQ8T1-write#1", 50}}) {
        FioJobResult job;
        job.name = name;
        (name.find("write") != std::string::npos ? job.write : job.read).bwBytesPerS = bw;
        cdm.jobs.push_back(job);
    }
    const auto best = summarizeCdm(cdm, CdmPick::Best);
    REQUIRE(best.size() == 1);
    CHECK(best[0].test == "SEQ1M Q8T1");
    CHECK(best[0].readBytesPerS == 300);
    CHECK(best[0].writeBytesPerS == 50);
    CHECK(summarizeCdm(cdm, CdmPick::Average)[0].readBytesPerS == 200);
    CHECK(jobsCsv(cdm).find("SEQ1MQ8T1-read#2,300,") != std::string::npos);
}
