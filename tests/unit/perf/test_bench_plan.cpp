// Presets as the CLI, the GUI and the helper's perf.bench plan them.
#include <catch2/catch.hpp>

#include "core/perf/bench_plan.h"

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
