#pragma once
// "What the RAM cache buys": the RAM Cache page's short benchmark of a mounted filesystem
// without and with a cache (docs/ram-cache.md#what-it-buys). The fio jobs (two tests of the
// CDM preset), the four figures of a run, and the saved comparison with the cache settings it
// was measured with.

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/bytes.h"
#include "core/base/error.h"
#include "core/base/json.h"
#include "core/perf/fio_job.h"
#include "core/perf/fio_result.h"

namespace ssdk::perf {

// SEQ1M Q8T1 and RND4K Q1T1 of the CDM preset (cdmJobs), reads then writes, secondsEach
// seconds each over a test file of `size`.
std::vector<FioJob> cacheBenefitJobs(Bytes size, unsigned secondsEach);

// One side of the comparison.
struct BenefitFigures {
    double seqReadBytesPerS = 0;
    double seqWriteBytesPerS = 0;
    double rndReadIops = 0;
    double rndWriteIops = 0;

    // Every figure was measured (above 0).
    bool complete() const {
        return seqReadBytesPerS > 0 && seqWriteBytesPerS > 0 && rndReadIops > 0 && rndWriteIops > 0;
    }
    bool operator==(const BenefitFigures&) const = default;
};

// The figures of a run of cacheBenefitJobs (0 where a test is missing).
BenefitFigures benefitFiguresOf(const FioOutput& output);

// The cache settings a comparison was measured with.
struct BenefitSettings {
    std::string backend;          // a BackendReport name
    std::uint64_t cacheBytes = 0; // the cache's size
    std::string compression;      // cachectl::toString(Compression)
    std::string mode;             // cachectl::toString(CacheMode)

    bool operator==(const BenefitSettings&) const = default;
};

// A saved comparison.
struct CacheBenefit {
    std::string partition;  // "/dev/sdb1"
    std::string mountPoint; // where the test file was written
    BenefitSettings settings;
    std::uint64_t testFileBytes = 0;
    unsigned secondsEach = 0;
    std::int64_t measuredS = 0; // Unix time
    BenefitFigures without;
    BenefitFigures with;

    bool operator==(const CacheBenefit&) const = default;
};

// {version: 1, partition, mount_point, settings: {backend, size, compression, mode},
//  test_file_bytes, seconds_each, measured, without: {…}, with: {…}}; each side
// {seq_read_bytes_per_s, seq_write_bytes_per_s, rnd_read_iops, rnd_write_iops}.
Json toJson(const CacheBenefit& benefit);
// A Parse error when it is not such a document (another version, a member of the wrong type).
Expected<CacheBenefit> cacheBenefitFromJson(const Json& json);

} // namespace ssdk::perf
