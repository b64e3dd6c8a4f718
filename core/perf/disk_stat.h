#pragma once
// The block layer's I/O counters (/sys/block/DEV/stat, /sys/class/block/PART/stat) and the
// rates between two readings. Pure: parsing and arithmetic only, no I/O.

#include <chrono>
#include <cstdint>
#include <string_view>

#include "core/base/error.h"

namespace ssdk::perf {

// One reading of a stat file (Documentation/block/stat.rst). Sectors are 512-byte units
// whatever the device's logical block size; times are milliseconds. Kernels print the
// tick counters (…TicksMs, ioTicksMs, timeInQueueMs) as 32-bit values that wrap after
// ~49.7 days; I/O and sector counters are 64-bit on 64-bit kernels (32-bit on 32-bit ones).
// Older kernels print 11 fields (no discard), 15 (no flush) or 17.
struct DiskStat {
    std::uint64_t readIos = 0;
    std::uint64_t readMerges = 0;
    std::uint64_t readSectors = 0;
    std::uint64_t readTicksMs = 0;
    std::uint64_t writeIos = 0;
    std::uint64_t writeMerges = 0;
    std::uint64_t writeSectors = 0;
    std::uint64_t writeTicksMs = 0;
    std::uint64_t inFlight = 0; // a gauge, not a counter
    std::uint64_t ioTicksMs = 0;
    std::uint64_t timeInQueueMs = 0; // weighted: each in-flight request adds its time
    std::uint64_t discardIos = 0;
    std::uint64_t discardMerges = 0;
    std::uint64_t discardSectors = 0;
    std::uint64_t discardTicksMs = 0;
    std::uint64_t flushIos = 0;
    std::uint64_t flushTicksMs = 0;

    bool operator==(const DiskStat&) const = default;
};

// Parses the whitespace-separated decimal fields of a stat file (11, 15 or 17 of them).
Expected<DiskStat> parseDiskStat(std::string_view text);

// current − previous for a counter that may have wrapped once since previous: at 2^32 when
// previous fits in 32 bits (tick counters, 32-bit kernels), else at 2^64.
std::uint64_t counterDelta(std::uint64_t previous, std::uint64_t current);

// What happened on a device between two readings.
struct DiskRates {
    double intervalS = 0;
    std::uint64_t readBytes = 0;  // in the interval
    std::uint64_t writeBytes = 0; // in the interval
    std::uint64_t readIos = 0;
    std::uint64_t writeIos = 0;
    double readBytesPerS = 0;
    double writeBytesPerS = 0;
    double readIops = 0;
    double writeIops = 0;
    // Mean time a read or write request took (queue + service), over the requests that
    // completed in the interval; 0 when none completed.
    double avgLatencyMs = 0;
    // Mean number of requests in flight over the interval (Δ time-in-queue / interval),
    // what iostat calls aqu-sz.
    double queueDepth = 0;
    // Fraction of the interval the device had at least one request in flight (0…1).
    double utilization = 0;
};

// Rates between two readings of the same device taken interval apart (must be > 0).
DiskRates computeRates(const DiskStat& previous, const DiskStat& current,
                       std::chrono::nanoseconds interval);

} // namespace ssdk::perf
