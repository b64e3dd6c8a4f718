// The blktrace trace format: binary blk_io_trace records as blktrace and blkparse -d write them
// (tests/integration/cachectl/test_blktrace_blkparse.cpp has Debian's blkparse read the same).
#include <catch2/catch.hpp>

#include "core/cachectl/engine/blktrace.h"
#include "core/cachectl/engine/trace.h"
#include "tests/support/blktrace_records.h"

using namespace ssdk;
using namespace ssdk::cachectl::engine;
using ssdk::test::BlkRecord;
using ssdk::test::encodeBlkRecord;
namespace blk = ssdk::test::blk;

namespace {

// A process-name notify, a queued 64 KiB read at sector 16, its issue, a queued 12 KiB write
// at sector 801 (not 4 KiB aligned: 4 blocks), a queued discard and an empty flush.
std::string mixedStream(bool swapped) {
    std::string stream;
    stream +=
        encodeBlkRecord({.action = blk::kNotify, .payload = std::string("dd\0\0", 4)}, swapped);
    stream += encodeBlkRecord({.sector = 16, .bytes = 65536, .action = blk::kQueuedRead}, swapped);
    stream += encodeBlkRecord(
        {.sector = 16, .bytes = 65536, .action = blk::kIssue | blk::kIssueCategory | blk::kRead},
        swapped);
    stream +=
        encodeBlkRecord({.sector = 801, .bytes = 12288, .action = blk::kQueuedWrite}, swapped);
    stream += encodeBlkRecord(
        {.sector = 4000, .bytes = 1 << 20, .action = blk::kQueuedWrite | blk::kDiscard}, swapped);
    stream += encodeBlkRecord({.action = blk::kQueuedWrite | blk::kFlush}, swapped);
    return stream;
}

const std::vector<std::uint64_t> kMixedRefs{2,  3,  4,  5,  6,  7,  8,   9,   10,  11,
                                            12, 13, 14, 15, 16, 17, 100, 101, 102, 103};

} // namespace

TEST_CASE("blktrace: queued reads and writes are the references, in either byte order",
          "[cachectl][trace]") {
    for (const bool swapped : {false, true}) {
        INFO("swapped " << swapped);
        auto refs = parseTrace(mixedStream(swapped), TraceFormat::Blktrace);
        REQUIRE(refs);
        CHECK(*refs == kMixedRefs);
    }
    CHECK(parseTraceFormat("blktrace") == TraceFormat::Blktrace);
    auto empty = parseTrace("", TraceFormat::Blktrace);
    REQUIRE(empty);
    CHECK(empty->empty());
}

TEST_CASE("blktrace: references follow the records' timestamps, ties in stream order",
          "[cachectl][trace]") {
    // Two CPUs' buffers one after another, as a stream or concatenated per-CPU files hold them.
    std::string stream;
    for (const auto& [time, sector] : {std::pair{30, 0}, {10, 8}, {20, 16}, {10, 24}}) {
        stream += encodeBlkRecord({.timeNs = static_cast<std::uint64_t>(time),
                                   .sector = static_cast<std::uint64_t>(sector),
                                   .bytes = 4096,
                                   .action = blk::kQueuedRead});
    }
    auto refs = parseBlktrace(stream);
    REQUIRE(refs);
    CHECK(*refs == std::vector<std::uint64_t>{1, 3, 2, 0});
}

TEST_CASE("blktrace: payloads are skipped, cgroup-tagged events count", "[cachectl][trace]") {
    std::string stream;
    stream += encodeBlkRecord({.sector = 8,
                               .bytes = 4096,
                               .action = blk::kQueuedRead | blk::kCgroup,
                               .payload = std::string(8, '\x01')});
    stream += encodeBlkRecord({.sector = 0, .bytes = 8192, .action = blk::kQueuedWrite});
    auto refs = parseBlktrace(stream);
    REQUIRE(refs);
    CHECK(*refs == std::vector<std::uint64_t>{1, 0, 1});
}

TEST_CASE("blktrace: relay padding (zero bytes) between and after records is skipped",
          "[cachectl][trace]") {
    const std::string read8 =
        encodeBlkRecord({.timeNs = 1, .sector = 8, .bytes = 4096, .action = blk::kQueuedRead});
    const std::string read16 =
        encodeBlkRecord({.timeNs = 2, .sector = 16, .bytes = 4096, .action = blk::kQueuedRead});
    // What a lab capture held: the records, then a sub-buffer's padding (512 KiB less 32).
    auto trailing = parseBlktrace(read8 + read16 + std::string(524256, '\0'));
    REQUIRE(trailing);
    CHECK(*trailing == std::vector<std::uint64_t>{1, 2});
    // Padding of any length (not a multiple of a record) between two CPUs' records.
    for (const std::size_t gap : {1UL, 47UL, 48UL, 4000UL}) {
        INFO("gap " << gap);
        auto between = parseBlktrace(read8 + std::string(gap, '\0') + read16);
        REQUIRE(between);
        CHECK(*between == std::vector<std::uint64_t>{1, 2});
    }
    for (const bool swapped : {false, true}) {
        INFO("swapped " << swapped);
        auto refs = parseBlktrace(std::string(100, '\0') + mixedStream(swapped));
        REQUIRE(refs);
        CHECK(*refs == kMixedRefs);
    }
    // After padding, what follows must still be a record.
    auto garbage = parseBlktrace(read8 + std::string(10, '\0') + std::string(48, 'x'));
    REQUIRE_FALSE(garbage);
    CHECK(garbage.error().describe().find("record 2 (byte 58)") != std::string::npos);
}

TEST_CASE("blktrace: bad streams are refused with the record and offset", "[cachectl][trace]") {
    const std::string good =
        encodeBlkRecord({.sector = 8, .bytes = 4096, .action = blk::kQueuedRead});
    SECTION("cut short") {
        auto refs = parseBlktrace(good + good.substr(0, 20));
        REQUIRE_FALSE(refs);
        CHECK(refs.error().describe().find("record 2 (byte 48): cut short") != std::string::npos);
    }
    SECTION("a payload cut short") {
        auto withPayload = encodeBlkRecord({.action = blk::kNotify, .payload = "abcdef"});
        withPayload.pop_back();
        auto refs = parseBlktrace(withPayload);
        REQUIRE_FALSE(refs);
        CHECK(refs.error().describe().find("payload") != std::string::npos);
    }
    SECTION("not blktrace") {
        auto refs = parseBlktrace(good + std::string(48, 'x'));
        REQUIRE_FALSE(refs);
        CHECK(refs.error().describe().find("record 2") != std::string::npos);
        CHECK(refs.error().describe().find("magic") != std::string::npos);
    }
    SECTION("another version") {
        std::string old = good;
        old[0] = 0x06;
        auto refs = parseBlktrace(old);
        REQUIRE_FALSE(refs);
        CHECK(refs.error().describe().find("version 0x06") != std::string::npos);
    }
    SECTION("two devices") {
        auto refs = parseBlktrace(good + encodeBlkRecord({.sector = 8,
                                                          .bytes = 4096,
                                                          .action = blk::kQueuedRead,
                                                          .device = (8 << 20) | 16}));
        REQUIRE_FALSE(refs);
        CHECK(refs.error().describe().find("devices 7,0 and 8,16") != std::string::npos);
    }
}

TEST_CASE("a blktrace capture read as a text format says which format it is", "[cachectl][trace]") {
    const std::string stream = mixedStream(false);
    CHECK(looksLikeBlktrace(stream));
    CHECK(looksLikeBlktrace(mixedStream(true)));
    CHECK_FALSE(looksLikeBlktrace("1 2\n"));
    auto asBlocks = parseTrace(stream, TraceFormat::Blocks);
    REQUIRE_FALSE(asBlocks);
    CHECK(asBlocks.error().describe().find("format blktrace") != std::string::npos);
}
