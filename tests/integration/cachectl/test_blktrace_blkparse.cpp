// The blktrace trace format against Debian's blkparse: random streams of blk_io_trace records
// (reads, writes, discards, flushes, issues, notify records with payloads, two CPUs). The queued
// reads and writes blkparse prints must be exactly the references the simulator replays, in
// blkparse's order: for one stream, for blktrace's per-CPU files one after another or
// interleaved as `blktrace -o -` writes them, and for the file `blkparse -i NAME -d FILE -O`
// merges them into, which `ssdkeeperctl cache simulate --format blktrace` replays. (blktrace
// itself cannot record on every machine, e.g. where debugfs' relay files are not permitted, so
// the records are made here.)
#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <random>
#include <sstream>

#include "core/base/system_process_runner.h"
#include "core/cachectl/engine/blktrace.h"
#include "tests/support/blktrace_records.h"
#include "tests/support/run_tool.h"
#include "tests/support/temp_dir.h"

using namespace ssdk;
using namespace ssdk::test;
namespace fs = std::filesystem;

namespace {

void writeFile(const fs::path& file, const std::string& bytes) {
    std::ofstream out(file, std::ios::binary);
    out << bytes;
    REQUIRE(out.good());
}

// Records of one CPU: what a block device's queue logs while a workload runs.
std::vector<BlkRecord> randomEvents(std::mt19937_64& random, std::uint32_t cpu, int count) {
    std::vector<BlkRecord> events;
    std::uint64_t tick = 0;
    for (int i = 0; i < count; ++i) {
        tick += 1 + random() % 5000;
        BlkRecord event{.timeNs = 2 * tick + cpu, // no two CPUs' events at the same time
                        .sector = random() % (1 << 21),
                        .bytes = static_cast<std::uint32_t>((1 + random() % 64) * 512),
                        .pid = static_cast<std::uint32_t>(100 + random() % 3),
                        .cpu = cpu};
        const std::uint32_t direction = random() % 2 == 0 ? blk::kRead : blk::kWrite;
        switch (random() % 8) {
        case 0:
            event.action = blk::kNotify; // process name
            event.bytes = 0;
            event.payload = std::string("fio") + std::string(1 + random() % 13, '\0');
            break;
        case 1:
            event.action = blk::kQueuedWrite | blk::kDiscard;
            break;
        case 2:
            event.action = blk::kQueuedWrite | blk::kFlush;
            event.bytes = 0;
            event.sector = 0;
            break;
        case 3:
            event.action = blk::kIssue | blk::kIssueCategory | direction;
            break;
        default:
            event.action = blk::kQueue | blk::kQueueCategory | direction;
            break;
        }
        events.push_back(std::move(event));
    }
    return events;
}

std::string encode(const std::vector<BlkRecord>& events) {
    std::string stream;
    std::uint32_t sequence = 0;
    for (auto event : events) {
        event.sequence = ++sequence;
        stream += encodeBlkRecord(event);
    }
    return stream;
}

// The 4 KiB blocks of blkparse's queued reads and writes ("%a %d %S %N": action, RWBS, sector,
// bytes), in its order.
std::vector<std::uint64_t> blkparseRefs(const std::string& text) {
    std::vector<std::uint64_t> refs;
    std::istringstream lines(text);
    std::string action;
    std::string rwbs;
    std::uint64_t sector = 0;
    std::uint64_t bytes = 0;
    while (lines >> action >> rwbs >> sector >> bytes) {
        const bool data =
            rwbs.find_first_of("RW") != std::string::npos && rwbs.find('D') == std::string::npos;
        if (action != "Q" || !data || bytes == 0) {
            continue;
        }
        for (std::uint64_t block = sector * 512 / 4096; block <= (sector * 512 + bytes - 1) / 4096;
             ++block) {
            refs.push_back(block);
        }
    }
    return refs;
}

ProcessResult run(std::vector<std::string> argv, std::string input = {}) {
    SystemProcessRunner runner;
    auto result = runner.run({.argv = std::move(argv), .standardInput = std::move(input)});
    REQUIRE(result);
    INFO(result->standardError);
    REQUIRE(result->exitCode == 0);
    return *result;
}

} // namespace

TEST_CASE("blkparse and the simulator agree on a blktrace stream's queued I/O",
          "[cachectl][trace][blkparse]") {
    std::mt19937_64 random(11);
    const std::string stream = encode(randomEvents(random, 0, 3000));
    const auto parsed = run({"blkparse", "-i", "-", "-q", "-f", "%a %d %S %N\n"}, stream);
    const auto expected = blkparseRefs(parsed.standardOutput);
    REQUIRE(expected.size() > 5000);
    auto ours = cachectl::engine::parseBlktrace(stream);
    REQUIRE(ours);
    CHECK(*ours == expected);
}

TEST_CASE("per-CPU blktrace files replay in blkparse's time order, merged or not",
          "[cachectl][trace][blkparse]") {
    const TempDir dir("ssdk-blktrace");
    std::mt19937_64 random(12);
    std::vector<std::string> perCpu;
    for (std::uint32_t cpu = 0; cpu < 2; ++cpu) {
        perCpu.push_back(encode(randomEvents(random, cpu, 1500)));
        writeFile(dir.path / fmt::format("sdx.blktrace.{}", cpu), perCpu.back());
    }
    // blkparse reading blktrace's files (NAME.blktrace.N): both CPUs' queued I/O by time.
    const auto expected = blkparseRefs(
        run({"blkparse", "-i", (dir.path / "sdx").string(), "-q", "-f", "%a %d %S %N\n"})
            .standardOutput);
    REQUIRE(expected.size() > 5000);

    SECTION("the files one after another (cat sdx.blktrace.*)") {
        auto ours = cachectl::engine::parseBlktrace(perCpu[0] + perCpu[1]);
        REQUIRE(ours);
        CHECK(*ours == expected);
    }
    SECTION("a stream interleaving the CPUs' buffers (blktrace -o -)") {
        std::string stream;
        std::vector<std::string_view> rest{perCpu[0], perCpu[1]};
        for (std::size_t turn = 0; !rest[0].empty() || !rest[1].empty(); ++turn) {
            auto& from = rest[turn % 2];
            // Whole records: the chunk ends at a record boundary found by parsing its header.
            std::size_t take = 0;
            for (int records = 0; records < 97 && take < from.size(); ++records) {
                std::uint16_t payload = 0;
                std::memcpy(&payload, from.data() + take + 46, sizeof(payload));
                take += 48 + payload;
            }
            stream.append(from.substr(0, take));
            from.remove_prefix(take);
        }
        auto ours = cachectl::engine::parseBlktrace(stream);
        REQUIRE(ours);
        CHECK(*ours == expected);
    }
    SECTION("merged by blkparse -d into one file, replayed by ssdkeeperctl") {
        const fs::path merged = dir.path / "sdx.bin";
        run({"blkparse", "-i", (dir.path / "sdx").string(), "-d", merged.string(), "-O"});
        std::ifstream in(merged, std::ios::binary);
        const std::string mergedBytes{std::istreambuf_iterator<char>(in), {}};
        auto ours = cachectl::engine::parseBlktrace(mergedBytes);
        REQUIRE(ours);
        CHECK(*ours == expected);
        const auto simulated = runCtl({"cache", "simulate", "--trace", merged.string(), "--format",
                                       "blktrace", "--cache-blocks", "256", "--json"});
        INFO(simulated.standardError);
        REQUIRE(simulated.exitCode == 0);
        CHECK(stdoutJson(simulated)["requests"] == expected.size());
        // The same file read as another format says what it is.
        const auto wrongFormat = runCtl({"cache", "simulate", "--trace", merged.string(),
                                         "--format", "blocks", "--cache-blocks", "256"});
        CHECK(wrongFormat.exitCode != 0);
        CHECK(wrongFormat.standardError.find("format blktrace") != std::string::npos);
    }
}
