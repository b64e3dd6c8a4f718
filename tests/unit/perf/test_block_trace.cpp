// Block traces from block:block_bio_queue: parsing real trace_pipe lines, the partition window,
// the `blocks` writer, and the cache simulator reading back exactly what was written.
//
// tests/data/perf/trace_pipe-loop0.txt was recorded on this project's build machine (kernel
// 6.18) from a tracefs instance filtered on loop0 (7,0), a 256 MiB image with a GPT of p1
// (sectors 2048 + 131072) and p2 (133120 + 389120): O_DIRECT dd reads and writes on both, a dd
// renamed "my dd [x]", blkdiscard (its probe reads and a discard), python O_DSYNC writes with
// their flushes, mkfs.ext4 with its write-zeroes, an ext4 mount, sync and umount (journal writes
// with preflush and FUA), and a run with a 4 KiB buffer that lost events ("CPU:0 [LOST …]").
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "core/cachectl/engine/trace.h"
#include "core/perf/block_trace.h"
#include "tests/support/test_data.h"

using namespace ssdk;
using namespace ssdk::perf;

namespace {

constexpr SectorWindow kLoop0p2{133120, 389120};

std::vector<std::string> linesOf(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        lines.push_back(line);
    }
    return lines;
}

BlockRequest parsed(std::string_view line) {
    const auto event = parseBioQueueLine(line);
    INFO(line);
    REQUIRE(event);
    CHECK(event->major == 7);
    CHECK(event->minor == 0);
    return event->request;
}

// A line of a trace and the request it stands for.
struct ParsedLine {
    const char* line;
    BlockRequest expected;
};

// Field by field, so that a failure names the count that is off.
void checkSummary(const TraceSummary& actual, const TraceSummary& expected) {
    CHECK(actual.requests == expected.requests);
    CHECK(actual.reads == expected.reads);
    CHECK(actual.writes == expected.writes);
    CHECK(actual.discards == expected.discards);
    CHECK(actual.flushes == expected.flushes);
    CHECK(actual.other == expected.other);
    CHECK(actual.bytesRead == expected.bytesRead);
    CHECK(actual.bytesWritten == expected.bytesWritten);
}

// The references the simulator should see for requests: every 4 KiB block each one touches.
std::vector<std::uint64_t> referencesOf(const std::vector<BlockRequest>& requests) {
    std::vector<std::uint64_t> refs;
    for (const auto& request : requests) {
        if (!isTraced(request)) {
            continue;
        }
        const auto span = blockSpan(request);
        for (std::uint64_t i = 0; i < span.count; ++i) {
            refs.push_back(span.first + i);
        }
    }
    return refs;
}

} // namespace

TEST_CASE("block_bio_queue lines of a real trace parse into requests", "[perf][trace]") {
    const ParsedLine cases[] = {
        {"              dd-6784    [000] .....   327.519024: block_bio_queue: 7,0 RS 8000 + 8 [dd]",
         {BlockOp::Read, 8000, 8}},
        {"              dd-8075    [001] .....   463.008903: block_bio_queue: 7,0 WS 133280 + 8 "
         "[dd]",
         {BlockOp::Write, 133280, 8}},
        // A preflush write without data is a flush; with data (journal commits) it is a write.
        {"              dd-8076    [001] .....   463.033681: block_bio_queue: 7,0 FWS 0 + 0 [dd]",
         {BlockOp::Flush, 0, 0}},
        {"  jbd2/loop0p1-8-11239   [001] .....   897.110799: block_bio_queue: 7,0 FWFSM 34836 + 2 "
         "[jbd2/loop0p1-8]",
         {BlockOp::Write, 34836, 2}},
        {"           mount-11238   [000] .....   897.080390: block_bio_queue: 7,0 WFS 2050 + 2 "
         "[mount]",
         {BlockOp::Write, 2050, 2}},
        {"      blkdiscard-8079    [001] .....   463.139764: block_bio_queue: 7,0 DS 135168 + 2048 "
         "[blkdiscard]",
         {BlockOp::Discard, 135168, 2048}},
        {"      blkdiscard-8079    [001] .....   463.121649: block_bio_queue: 7,0 RA 522112 + 8 "
         "[blkdiscard]",
         {BlockOp::Read, 522112, 8}},
        {"            sync-11242   [001] .....   897.110434: block_bio_queue: 7,0 RAM 2570 + 2 "
         "[sync]",
         {BlockOp::Read, 2570, 2}},
        // Write-zeroes shows as "N": counted, not a write the simulator replays.
        {"      blkdiscard-11244   [000] .....   897.209837: block_bio_queue: 7,0 NS 133120 + 128 "
         "[blkdiscard]",
         {BlockOp::Other, 133120, 128}},
        // Flags other than "....." (need-resched) change nothing.
        {"       mkfs.ext4-11236   [001] .N...   896.988407: block_bio_queue: 7,0 WS 2600 + 8 "
         "[mkfs.ext4]",
         {BlockOp::Write, 2600, 8}},
    };
    for (const auto& [line, expected] : cases) {
        CHECK(parsed(line) == expected);
    }
}

TEST_CASE("a task name with spaces and brackets does not confuse the parser", "[perf][trace]") {
    const ParsedLine cases[] = {
        {"       my dd [x]-8078    [000] .....   463.091559: block_bio_queue: 7,0 RS 133176 + 8 "
         "[my dd [x]]",
         {BlockOp::Read, 133176, 8}},
        // A name that looks like the event's fields, and one ending in "]".
        {" 7,0 W 1 + 2 [a]-99 [001] ..... 1.000000: block_bio_queue: 7,0 R 64 + 8 [7,0 W 1 + 2 "
         "[a]]",
         {BlockOp::Read, 64, 8}},
    };
    for (const auto& [line, expected] : cases) {
        CHECK(parsed(line) == expected);
    }
    const auto event = parseBioQueueLine(
        "  kworker/u4:2-77 [000] ..... 5.5: block_bio_queue: 259,3 WS 18446744073709551608 + 8 "
        "[kworker/u4:2]");
    REQUIRE(event);
    CHECK(event->major == 259);
    CHECK(event->minor == 3);
    CHECK(event->request.sector == 18446744073709551608ULL);
}

TEST_CASE("lines that are not a block_bio_queue request are refused", "[perf][trace]") {
    for (const char* line :
         {"", "CPU:0 [LOST 2924 EVENTS]",
          "  dd-1 [000] ..... 1.0: block_rq_issue: 7,0 RS 4096 () 8000 + 8 [dd]",
          "  dd-1 [000] ..... 1.0: block_bio_queue: 7,0 RS 8000 + [dd]",
          "  dd-1 [000] ..... 1.0: block_bio_queue: 7,0 RS 8000 - 8 [dd]",
          "  dd-1 [000] ..... 1.0: block_bio_queue: 7;0 RS 8000 + 8 [dd]",
          "  dd-1 [000] ..... 1.0: block_bio_queue: 7,0 XS 8000 + 8 [dd]",
          "  dd-1 [000] ..... 1.0: block_bio_queue: 7,0 rs 8000 + 8 [dd]",
          "  dd-1 [000] ..... 1.0: block_bio_queue: 7,0  8000 + 8 [dd]",
          "  dd-1 [000] ..... 1.0: block_bio_queue: 7,0 RS 8000 + 8x [dd]",
          "  dd-1 [000] ..... 1.0: block_bio_queue: 7,0 RS 99999999999999999999 + 8 [dd]"}) {
        INFO(line);
        CHECK_FALSE(parseBioQueueLine(line));
    }
    // Cut off after the size (a truncated line): still the whole request.
    CHECK(parseBioQueueLine("  dd-1 [000] ..... 1.0: block_bio_queue: 7,0 R 8 + 8"));
}

TEST_CASE("lost-event notices say how many events the kernel dropped", "[perf][trace]") {
    CHECK(parseLostEventsLine("CPU:0 [LOST 2924 EVENTS]") == 2924U);
    CHECK(parseLostEventsLine("CPU:13 [LOST 1 EVENTS]") == 1U);
    CHECK_FALSE(parseLostEventsLine("CPU:0 [LOST many EVENTS]"));
    CHECK_FALSE(parseLostEventsLine("  dd-1 [000] ..... 1.0: block_bio_queue: 7,0 R 8 + 8 [dd]"));
}

TEST_CASE("the recorded trace_pipe parses line by line, with one lost-event notice",
          "[perf][trace]") {
    // Expected counts taken with awk over the same file (see the comment at the top).
    std::vector<BlockRequest> requests;
    std::uint64_t lost = 0;
    std::uint64_t unparsed = 0;
    for (const auto& line : linesOf(test::readTestData("perf/trace_pipe-loop0.txt"))) {
        if (const auto event = parseBioQueueLine(line)) {
            requests.push_back(event->request);
        } else if (const auto dropped = parseLostEventsLine(line)) {
            lost += *dropped;
        } else {
            ++unparsed;
        }
    }
    CHECK(requests.size() == 309);
    CHECK(lost == 2924);
    CHECK(unparsed == 0);
    BlocksTraceWriter whole;
    for (const auto& request : requests) {
        whole.add(request);
    }
    checkSummary(whole.summary(), {.requests = 309,
                                   .reads = 182,
                                   .writes = 107,
                                   .discards = 3,
                                   .flushes = 12,
                                   .other = 5,
                                   .bytesRead = 3599360,
                                   .bytesWritten = 370688});
    CHECK(whole.lines() == 289);
    CHECK(referencesOf(requests).size() == 994);

    // Loop0p2's view: 61 reads, 4 writes, 1 discard and 1 write-zeroes lie wholly inside it (no
    // flush: a window drops them).
    BlocksTraceWriter partition;
    std::vector<BlockRequest> inside;
    for (const auto& request : requests) {
        if (const auto kept = toWindow(request, kLoop0p2)) {
            inside.push_back(*kept);
            partition.add(*kept);
        }
    }
    checkSummary(partition.summary(), {.requests = 67,
                                       .reads = 61,
                                       .writes = 4,
                                       .discards = 1,
                                       .flushes = 0,
                                       .other = 1,
                                       .bytesRead = 2150400,
                                       .bytesWritten = 16384});
    CHECK(partition.lines() == 65);
    CHECK(referencesOf(inside).size() == 529);
    // dd read 4 KiB block 7 of loop0p2 as "my dd [x]" (absolute sector 133176), and so did
    // blkdiscard's two probes.
    CHECK(std::ranges::count(inside, BlockRequest{BlockOp::Read, 56, 8}) == 3);
}

TEST_CASE("a partition's window keeps its requests, shifted, and nothing else", "[perf][trace]") {
    const SectorWindow window{133120, 389120};
    // Measured: dd of 4 KiB block 10 of loop0p2 queued "7,0 RS 133200 + 8".
    CHECK(toWindow({BlockOp::Read, 133200, 8}, window) == BlockRequest{BlockOp::Read, 80, 8});
    CHECK(toWindow({BlockOp::Write, 133120, 8}, window) == BlockRequest{BlockOp::Write, 0, 8});
    CHECK(toWindow({BlockOp::Write, 522232, 8}, window) == BlockRequest{BlockOp::Write, 389112, 8});
    CHECK(toWindow({BlockOp::Discard, 133120, 389120}, window) ==
          BlockRequest{BlockOp::Discard, 0, 389120});
    // p1, the GPT, the backup GPT past the end, and requests straddling either edge.
    CHECK_FALSE(toWindow({BlockOp::Write, 2072, 8}, window));
    CHECK_FALSE(toWindow({BlockOp::Read, 0, 8}, window));
    CHECK_FALSE(toWindow({BlockOp::Read, 522240, 8}, window));
    CHECK_FALSE(toWindow({BlockOp::Read, 133116, 8}, window));
    CHECK_FALSE(toWindow({BlockOp::Read, 522236, 8}, window));
    CHECK_FALSE(toWindow({BlockOp::Read, 18446744073709551608ULL, 8}, window));
    // Flushes carry no sector of the partition: they cannot be told from a sibling's.
    CHECK_FALSE(toWindow({BlockOp::Flush, 0, 0}, window));
    // A whole device keeps everything as it is.
    CHECK(toWindow({BlockOp::Flush, 0, 0}, std::nullopt) == BlockRequest{BlockOp::Flush, 0, 0});
    CHECK(toWindow({BlockOp::Read, 2072, 8}, std::nullopt) == BlockRequest{BlockOp::Read, 2072, 8});
}

TEST_CASE("requests become 4 KiB block spans", "[perf][trace]") {
    CHECK(blockSpan({BlockOp::Read, 80, 8}) == BlockSpan{10, 1});
    CHECK(blockSpan({BlockOp::Read, 0, 1}) == BlockSpan{0, 1});
    CHECK(blockSpan({BlockOp::Read, 7, 2}) == BlockSpan{0, 2});       // sectors 7-8: blocks 0-1
    CHECK(blockSpan({BlockOp::Write, 2050, 2}) == BlockSpan{256, 1}); // inside block 256
    CHECK(blockSpan({BlockOp::Write, 8, 2048}) == BlockSpan{1, 256});
    CHECK(blockSpan({BlockOp::Write, 9, 2048}) == BlockSpan{1, 257});
    CHECK(blocksLine({BlockOp::Read, 133200, 8}) == "16650 1\n");
    CHECK(blocksLine({BlockOp::Write, 9, 2048}) == "1 257\n");
    CHECK(blocksLine({BlockOp::Discard, 0, 8}).empty());
    CHECK(blocksLine({BlockOp::Flush, 0, 0}).empty());
    CHECK(blocksLine({BlockOp::Other, 0, 8}).empty());
    CHECK(blocksLine({BlockOp::Write, 0, 0}).empty());
}

TEST_CASE("the blocks writer: a header, then reads and writes in order", "[perf][trace]") {
    BlocksTraceWriter writer;
    writer.add({BlockOp::Read, 80, 8});
    writer.add({BlockOp::Flush, 0, 0});
    writer.add({BlockOp::Write, 160, 16});
    writer.add({BlockOp::Discard, 1024, 2048});
    writer.add({BlockOp::Other, 4096, 128});
    writer.add({BlockOp::Write, 7, 2});
    CHECK(writer.body() == "10 1\n20 2\n0 2\n");
    CHECK(writer.lines() == 3);
    checkSummary(writer.summary(), {.requests = 6,
                                    .reads = 1,
                                    .writes = 2,
                                    .discards = 1,
                                    .flushes = 1,
                                    .other = 1,
                                    .bytesRead = 4096,
                                    .bytesWritten = 9216});

    const std::string text =
        writer.document({.device = "/dev/loop0p2",
                         .origin = "partition of /dev/loop0 from sector 133120",
                         .recordedAt = "2026-11-23T10:46:06Z",
                         .seconds = 3.02,
                         .unparsed = 1,
                         .lostEvents = 0,
                         .stoppedEarly = true,
                         .truncatedReason = "the recording reached 5000000\nrequests"});
    const auto lines = linesOf(text);
    REQUIRE(lines.size() == 11);
    for (std::size_t i = 0; i < 8; ++i) {
        CHECK(lines[i].starts_with("# "));
    }
    CHECK(lines[3] == "# device: /dev/loop0p2 (partition of /dev/loop0 from sector 133120)");
    CHECK(lines[4] == "# recorded: 2026-11-23T10:46:06Z for 3.0 s (stopped early)");
    CHECK(lines[5] == "# requests: 6 (1 reads, 2 writes, 1 discards, 1 flushes, 1 other); 4096 "
                      "bytes read, 9216 bytes written");
    CHECK(lines[6] == "# unparsed lines: 1, lost events: 0");
    CHECK(lines[7] == "# truncated: the recording reached 5000000 requests");
    CHECK(text.ends_with("# truncated: the recording reached 5000000 requests\n10 1\n20 2\n0 2\n"));
}

TEST_CASE("the cache simulator reads back exactly the blocks written", "[perf][trace]") {
    std::vector<BlockRequest> requests;
    for (const auto& line : linesOf(test::readTestData("perf/trace_pipe-loop0.txt"))) {
        if (const auto event = parseBioQueueLine(line)) {
            if (const auto kept = toWindow(event->request, kLoop0p2)) {
                requests.push_back(*kept);
            }
        }
    }
    requests.push_back({BlockOp::Write, 389112, 8}); // the partition's last block
    requests.push_back({BlockOp::Read, 7, 2});       // two blocks from one 1 KiB read
    BlocksTraceWriter writer;
    for (const auto& request : requests) {
        writer.add(request);
    }
    const std::string text = writer.document(
        {.device = "/dev/loop0p2", .recordedAt = "2026-11-23T10:46:06Z", .seconds = 1});
    const auto expected = referencesOf(requests);
    REQUIRE(expected.size() == 529 + 1 + 2);

    auto parsedRefs = cachectl::engine::parseTrace(text, cachectl::engine::TraceFormat::Blocks);
    INFO((parsedRefs ? std::string() : parsedRefs.error().describe()));
    REQUIRE(parsedRefs);
    CHECK(*parsedRefs == expected);

    const auto file = std::filesystem::temp_directory_path() /
                      ("ssdk-block-trace-" + std::to_string(::getpid()) + ".blocks");
    {
        std::ofstream out(file);
        out << text;
    }
    auto readRefs = cachectl::engine::readTrace(file, cachectl::engine::TraceFormat::Blocks);
    std::filesystem::remove(file);
    REQUIRE(readRefs);
    CHECK(*readRefs == expected);
}
