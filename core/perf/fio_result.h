#pragma once
// fio's own numbers: the --output-format=json document and the per-interval bandwidth/IOPS
// logs (write_bw_log / write_iops_log with log_avg_msec). Pure parsers over bytes.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"
#include "core/base/json.h"

namespace ssdk::perf {

// One direction (read or write) of one fio job, as fio reported it.
struct FioDirection {
    std::uint64_t ioBytes = 0;   // bytes transferred
    std::uint64_t ios = 0;       // total_ios
    double bwBytesPerS = 0;      // bw_bytes
    double iops = 0;             // iops
    std::uint64_t runtimeMs = 0; // runtime
    double latMeanUs = 0;        // lat_ns.mean / 1000 (submission to completion)
    double clatP99Us = 0;        // clat_ns.percentile["99.000000"] / 1000; 0 when absent
};

struct FioJobResult {
    std::string name;
    int error = 0; // fio's per-job errno; 0 when it ran cleanly
    FioDirection read;
    FioDirection write;
    std::uint64_t jobRuntimeMs = 0;
    Json options; // "job options" as fio echoes them
};

struct FioOutput {
    std::string version;         // "fio-3.33"
    std::int64_t timestampS = 0; // when fio finished, Unix time
    std::vector<FioJobResult> jobs;
};

// Parses fio's JSON output. fio may print notes before the document (e.g. "note: both
// iodepth >= 1 and synchronous I/O engine…"); text before the first '{' is skipped.
Expected<FioOutput> parseFioOutput(std::string_view text);

// One line of a fio log: "msec, value, ddir, bs, offset[, prio]". For bw logs value is
// KiB/s; for iops logs it is I/O per second; with log_avg_msec each line averages the
// window ending at timeMs.
struct FioLogEntry {
    std::uint64_t timeMs = 0;
    std::uint64_t value = 0;
    int direction = 0; // 0 read, 1 write, 2 trim
};

Expected<std::vector<FioLogEntry>> parseFioLog(std::string_view text);

} // namespace ssdk::perf
