// Presets as the CLI, the GUI and the helper's perf.bench plan them.
#include <catch2/catch.hpp>

#include "core/perf/bench_plan.h"
#include "core/perf/report.h"

using namespace ssdk;
using namespace ssdk::perf;

TEST_CASE("presets plan their fio jobs, parameters and expected length", "[perf][plan]") {
    BenchOptions options{.size = Bytes::mib(64), .durationS = 2, .loops = 2};
    auto cdm = planBench(options, false);
    REQUIRE(cdm);
    CHECK(cdm->jobs.size() == 16); // 4 tests × read/write × 2 loops
    CHECK(cdm->expectedSeconds == 32);
    CHECK(cdm->parameters["size_bytes"] == Bytes::mib(64).value);

    options.preset = "consistency";
    options.durationS = 0;
    options.roundS = 3;
    auto consistency = planBench(options, true);
    REQUIRE(consistency);
    CHECK(consistency->parameters["round_s"] == 3);
    CHECK(consistency->parameters["duration_s"] == 15); // 5 SNIA rounds by default
    CHECK(consistency->expectedSeconds == 15);

    options.preset = "slc";
    auto slc = planBench(options, false);
    REQUIRE(slc);
    CHECK(slc->parameters["burst_bytes"] == Bytes::mib(8).value); // size / 8
    CHECK(slc->parameters["gaps_s"] == Json::array({10, 15, 20, 25}));
}

TEST_CASE("trim-recovery needs a device and unknown presets are refused", "[perf][plan]") {
    BenchOptions options{.preset = "trim-recovery", .size = Bytes::mib(64)};
    auto onFile = planBench(options, false);
    REQUIRE_FALSE(onFile);
    CHECK(onFile.error().code() == ErrorCode::InvalidArgument);
    auto onDevice = planBench(options, true);
    REQUIRE(onDevice);
    CHECK(onDevice->parameters["torture_s"] == 60);
    options.preset = "bogus";
    auto unknown = planBench(options, true);
    REQUIRE_FALSE(unknown);
    CHECK(unknown.error().code() == ErrorCode::Unsupported);
}

TEST_CASE("the CDM pick is planned into the parameters and read back from the result",
          "[perf][plan]") {
    BenchOptions options{.size = Bytes::mib(64), .durationS = 1, .loops = 3};
    auto best = planBench(options, false);
    REQUIRE(best);
    CHECK(best->parameters["pick"] == "best");
    CHECK(best->parameters["loops"] == 3);
    options.pick = CdmPick::Average;
    auto average = planBench(options, false);
    REQUIRE(average);
    CHECK(average->parameters["pick"] == "average");

    // Two loops of SEQ1M Q8T1 read at 100 and 300 B/s: best 300, average 200.
    BenchResult result;
    result.preset = "cdm";
    for (const auto& [name, bw] : std::vector<std::pair<std::string, double>>{
             {"SEQ1MQ8T1-read#1", 100}, {"SEQ1MQ8T1-read#2", 300}}) {
        FioJobResult job;
        job.name = name;
        job.read.bwBytesPerS = bw;
        job.read.ioBytes = 1;
        result.run.output.jobs.push_back(job);
    }
    result.parameters = average->parameters;
    auto saved = benchResultFromJson(parseJson(toJson(result).dump(), "saved").value());
    REQUIRE(saved);
    CHECK(cdmPickOf(*saved) == CdmPick::Average);
    Json analysis = resultDocument(*saved)["analysis"];
    CHECK(analysis["cdm_pick"] == "average");
    CHECK(analysis["cdm"][0]["read_bytes_per_s"] == 200.0);
    CHECK(resultCsv(*saved).find("SEQ1M Q8T1,200,") != std::string::npos);

    saved->parameters = best->parameters;
    CHECK(resultDocument(*saved)["analysis"]["cdm"][0]["read_bytes_per_s"] == 300.0);
    // Results saved before the choice existed were shown as the best of the loops.
    saved->parameters = Json::object();
    CHECK(cdmPickOf(*saved) == CdmPick::Best);
    CHECK(resultDocument(*saved)["analysis"]["cdm_pick"] == "best");

    CHECK(cdmPickFromName("average") == CdmPick::Average);
    CHECK(cdmPickFromName("best") == CdmPick::Best);
    CHECK_FALSE(cdmPickFromName("median"));
    CHECK(cdmPickName(CdmPick::Average) == "average");
}
