#pragma once
// A finished benchmark as a document: what ran (fio job, version, machine, device identity)
// and fio's numbers. Saved as JSON, re-opened, summarised (CDM table) and exported (CSV).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"
#include "core/base/json.h"
#include "core/perf/fio_runner.h"

namespace ssdk::perf {

struct BenchResult {
    std::string preset; // cdm, qd-scaling, consistency, slc, trim-recovery
    std::string target; // test file or device fio wrote to
    Json device;        // device::toJson of the drive (identity), or null
    Json machine;       // {"hostname", "kernel"}
    std::int64_t createdS = 0;
    // How the preset was run, for the analyses: {"loops", "pick"} (cdm), {"round_s"}
    // (consistency), {"gaps_s", "burst_bytes"} (slc), {"torture_s"} (trim-recovery),
    // "size_bytes"; {} when unknown.
    Json parameters = Json::object();
    FioRun run;
};

// {"version": 1, "preset", "target", "device", "machine", "created", "parameters", "fio":
// {"version", "argv", "jobs": [...]}, "logs": {name: [[ms, value, dir], ...]}}
Json toJson(const BenchResult& result);
Expected<BenchResult> benchResultFromJson(const Json& json);

// This machine's hostname and kernel release, for the result's "machine".
Json describeMachine();

// One row of the CrystalDiskMark table: the best (or mean) over the loops of a test.
struct CdmRow {
    std::string test; // "SEQ1M Q8T1"
    double readBytesPerS = 0;
    double writeBytesPerS = 0;
    double readIops = 0;
    double writeIops = 0;
    double readLatUs = 0;
    double writeLatUs = 0;
};
// CrystalDiskMark shows either the best of the loops (its default) or their average.
enum class CdmPick { Best, Average };
std::vector<CdmRow> summarizeCdm(const FioOutput& output, CdmPick pick);

// "best" or "average": the word the CLI takes and the result's parameters.pick records.
std::string cdmPickName(CdmPick pick);
std::optional<CdmPick> cdmPickFromName(std::string_view name);
// The pick a result was summarised with (parameters.pick); Best for results saved before
// the choice existed.
CdmPick cdmPickOf(const BenchResult& result);
// How many loops a CDM result ran (parameters.loops); 0 when it does not say.
int cdmLoopsOf(const BenchResult& result);

// "job,read_bytes_per_s,read_iops,read_lat_us,write_bytes_per_s,write_iops,write_lat_us\n…"
std::string jobsCsv(const FioOutput& output);

} // namespace ssdk::perf
