#pragma once
// fio jobs as values, their command line, and the review-method presets built from them.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/base/bytes.h"
#include "core/base/json.h"

namespace ssdk::perf {

struct FioJob {
    std::string name;        // unique within a run; names the result row
    std::string rw = "read"; // read, write, randread, randwrite, trim
    Bytes blockSize = Bytes::mib(1);
    unsigned ioDepth = 1;
    unsigned numJobs = 1;
    Bytes size;                                  // region of the target the job covers (0: all)
    std::optional<std::chrono::seconds> runtime; // time_based when set
    std::optional<std::uint64_t> rateBytesPerS;  // fio rate=: caps the job's bandwidth
    std::optional<std::uint64_t> rateIops;       // fio rate_iops=: caps its I/O per second
    // Per-interval bandwidth and IOPS logs (write_bw_log/write_iops_log, log_avg_msec):
    // <logPrefix>_bw.1.log, <logPrefix>_iops.1.log. Empty: no logs.
    std::string logPrefix;
    unsigned logAvgMsec = 1000;
    // Seconds of idle after each I/O (fio thinktime with thinktime_blocks=1). A job of one
    // block with it is an idle gap of that length between stonewalled jobs (fio's startdelay
    // counts from fio's own start, so it cannot make such a gap).
    unsigned thinkTimeS = 0;

    bool operator==(const FioJob&) const = default;
};

// Options shared by every job of a run.
struct FioRunSpec {
    std::string target;              // test file path or block device
    std::string ioEngine = "libaio"; // or io_uring
    bool direct = true;
    std::vector<FioJob> jobs; // run one after another (stonewall)
};

// fio's argv: global options, then per job "--name=…" and its options. Output is JSON;
// triggerFile (when not empty) is fio's --trigger-file: creating it stops fio cleanly; its
// directory becomes fio's --aux-path (where fio saves state files when stopped).
std::vector<std::string> fioArguments(const FioRunSpec& spec, const std::string& triggerFile);

Json toJson(const FioJob& job);

// --- presets (the reviews' methods) ---

// CrystalDiskMark: SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1; reads, then writes;
// each test `loops` times (jobs named "<test>-read#<i>"), `testTimeS` seconds at most
// over a region of `size`.
std::vector<FioJob> cdmJobs(Bytes size, unsigned loops, unsigned testTimeS);

// The CDM test a job belongs to ("SEQ1M Q8T1") and its direction; empty when not a CDM job.
struct CdmKey {
    std::string test;
    bool write = false;
};
std::optional<CdmKey> cdmKeyOf(const std::string& jobName);

// Queue-depth scaling: 4K random read at QD 1, 2, 4, 8, 16, 32, `secondsEach` each.
std::vector<FioJob> qdScalingJobs(Bytes size, unsigned secondsEach);

// Consistency: a sequential fill of `size`, then 4K random write QD32 for `duration`,
// IOPS logged every second (logPrefix + "-steady").
std::vector<FioJob> consistencyJobs(Bytes size, std::chrono::seconds duration,
                                    const std::string& logPrefix);

// SLC probe: one sequential 1M write QD8 of `size` with bandwidth logged every 500 ms
// (≥ 2 Hz), then for each idle gap an "idle-<gap>s" job (one 4 KiB write, then `gap` seconds
// of nothing) and a "drain-<gap>s" burst of `burst` bytes.
std::vector<FioJob> slcJobs(Bytes size, Bytes burst, const std::vector<unsigned>& gapsS,
                            const std::string& logPrefix);

// TRIM recovery (the reviews' "clean / dirty / after TRIM" table) on a raw block device:
// "fresh" sequential 1M write QD8 of `size`, then "torture" 4K random write QD32 for
// `torture`, "dirty" sequential write again, "trim" a discard of the whole device (fio
// rw=trim: block devices only) and "after-trim" sequential write once more.
std::vector<FioJob> trimRecoveryJobs(Bytes size, std::chrono::seconds torture);

} // namespace ssdk::perf
