#pragma once
// What a benchmark run is made of, shared by the CLI, the GUI and the helper's perf.bench:
// a preset with its options becomes fio jobs and the parameters the analyses read back, and a
// finished run becomes the saved result document.

#include <chrono>
#include <string>
#include <vector>

#include "core/base/bytes.h"
#include "core/base/error.h"
#include "core/base/json.h"
#include "core/device/discovery.h"
#include "core/perf/bench_result.h"
#include "core/perf/fio_job.h"

namespace ssdk::perf {

struct BenchOptions {
    std::string preset = "cdm"; // cdm, qd-scaling, consistency, slc, trim-recovery
    Bytes size = Bytes::gib(1);
    unsigned durationS = 0;                         // preset default when 0 (see planBench)
    unsigned loops = 1;                             // cdm
    CdmPick pick = CdmPick::Best;                   // cdm: best of the loops or their average
    unsigned roundS = 60;                           // consistency: seconds per SNIA round
    std::vector<unsigned> gapsS = {10, 15, 20, 25}; // slc idle gaps
    Bytes burst;                                    // slc drain burst; size / 8 when 0
};

struct BenchPlan {
    std::vector<FioJob> jobs;
    Json parameters = Json::object(); // BenchResult::parameters
    unsigned expectedSeconds = 0;     // a rough length for progress (0: unknown)
};

// The fio jobs of a preset. InvalidArgument for trim-recovery on a test file (it TRIMs the
// whole device), Unsupported for an unknown preset.
Expected<BenchPlan> planBench(const BenchOptions& options, bool onDevice);

// The preset names planBench knows.
const std::vector<std::string>& benchPresets();

// A finished run as a result: identity of the drive (found by the target's device name
// through discovery), machine and time.
BenchResult makeBenchResult(const std::string& preset, const BenchTarget& target,
                            const device::Discovery& discovery, Json parameters, FioRun run);

// The saved JSON of a result: toJson(result) plus "analysis" (analysisJson).
Json resultDocument(const BenchResult& result);

} // namespace ssdk::perf
