// Block stat counters: parsing recorded stat files, wrap, and the rates between readings.
#include <catch2/catch.hpp>

#include "core/perf/disk_stat.h"
#include "tests/support/test_data.h"

using namespace ssdk;
using namespace ssdk::perf;

TEST_CASE("a recorded 17-field stat file parses field by field", "[perf]") {
    const auto stat = parseDiskStat(test::readTestData("perf/vda-stat-a.txt"));
    REQUIRE(stat);
    CHECK(stat->readIos == 180928);
    CHECK(stat->readSectors == 7654778);
    CHECK(stat->writeIos == 58682);
    CHECK(stat->writeSectors == 46567856);
    CHECK(stat->inFlight == 0);
    CHECK(stat->timeInQueueMs == 329633);
    CHECK(stat->discardSectors == 517398176);
    CHECK(stat->flushTicksMs == 235);
}

TEST_CASE("11- and 15-field stat files of older kernels parse - other counts do not", "[perf]") {
    CHECK(parseDiskStat("1 2 3 4 5 6 7 8 9 10 11\n"));
    CHECK(parseDiskStat("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"));
    CHECK(parseDiskStat("1 2 3 4 5 6 7 8 9 10").error().code() == ErrorCode::Parse);
    CHECK_FALSE(parseDiskStat("1 2 3 4 5 6 7 8 9 10 11 12"));
    CHECK_FALSE(parseDiskStat("1 2 3 4 5 6 7 8 9 10 x1"));
    CHECK_FALSE(parseDiskStat(""));
}

TEST_CASE("rates between two recorded readings one second apart", "[perf]") {
    const auto a = parseDiskStat(test::readTestData("perf/vda-stat-a.txt"));
    const auto b = parseDiskStat(test::readTestData("perf/vda-stat-b.txt"));
    REQUIRE(a);
    REQUIRE(b);
    const auto rates = computeRates(*a, *b, std::chrono::seconds(1));
    CHECK(rates.writeIos == 8);
    CHECK(rates.writeBytes == (46578856ULL - 46567856ULL) * 512);
    CHECK(rates.writeBytesPerS == Approx(5632000.0));
    CHECK(rates.readBytes == 0);
    CHECK(rates.avgLatencyMs == Approx(18.0 / 8.0));
    CHECK(rates.queueDepth == Approx(0.018));
}

TEST_CASE("counters that wrapped give the true delta", "[perf]") {
    // Tick counters are printed as 32-bit values.
    CHECK(counterDelta(0xFFFFFFF0ULL, 0x10ULL) == 0x20);
    // 64-bit I/O and sector counters wrap at 2^64.
    CHECK(counterDelta(0xFFFFFFFFFFFFFF00ULL, 0x100ULL) == 0x200);
    CHECK(counterDelta(5, 5) == 0);

    DiskStat before;
    before.writeSectors = 0xFFFFFFFFFFFFFFFFULL - 7; // 8 sectors short of wrapping
    before.writeIos = 100;
    before.writeTicksMs = 0xFFFFFFFFULL - 9;
    before.timeInQueueMs = 0xFFFFFFFFULL;
    DiskStat after = before;
    after.writeSectors = 2048 - 8; // 2048 sectors later
    after.writeIos = 102;
    after.writeTicksMs = 10;  // 20 ms later
    after.timeInQueueMs = 99; // 100 ms later
    const auto rates = computeRates(before, after, std::chrono::milliseconds(100));
    CHECK(rates.writeBytes == 2048 * 512);
    CHECK(rates.writeBytesPerS == Approx(2048.0 * 512 * 10));
    CHECK(rates.writeIops == Approx(20.0));
    CHECK(rates.avgLatencyMs == Approx(10.0));
    CHECK(rates.queueDepth == Approx(1.0));
}
