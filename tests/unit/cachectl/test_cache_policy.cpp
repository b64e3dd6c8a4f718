// Replacement policies and the trace simulator: LRU reproduces libCacheSim's LRU column of the
// shared reference table, the trace formats parse as REFERENCE.md says, and every policy keeps
// its capacity promise.
#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "core/cachectl/engine/ghost_filter.h"
#include "core/cachectl/engine/node_index.h"
#include "core/cachectl/engine/policies.h"
#include "core/cachectl/engine/simulator.h"
#include "core/cachectl/engine/trace.h"

using namespace ssdk;
using namespace ssdk::cachectl::engine;

namespace {

const std::string kTraceDir = std::string(SSDK_SHARED_FIXTURES_DIR) + "/traces/";

struct ReferenceRow {
    std::string trace;
    std::uint64_t cacheBlocks;
    double lruPercent;
    std::uint64_t requests;
    std::uint64_t unique;
};

std::vector<ReferenceRow> referenceLruRows() {
    std::ifstream csv(kTraceDir + "reference-hit-ratios.csv");
    REQUIRE(csv);
    std::vector<ReferenceRow> rows;
    std::string line;
    std::getline(csv, line);
    while (std::getline(csv, line)) {
        std::stringstream in(line);
        std::string trace, size, policy, percent, requests, unique;
        std::getline(in, trace, ',');
        std::getline(in, size, ',');
        std::getline(in, policy, ',');
        std::getline(in, percent, ',');
        std::getline(in, requests, ',');
        std::getline(in, unique, ',');
        if (policy == "LRU") {
            rows.push_back({trace, std::stoull(size), std::stod(percent), std::stoull(requests),
                            std::stoull(unique)});
        }
    }
    return rows;
}

std::vector<std::uint64_t> loadTrace(const std::string& name) {
    Expected<std::vector<std::uint64_t>> refs =
        name == "OLTP" ? readTrace(kTraceDir + "OLTP.lis.zst", TraceFormat::Lis)
        : name == "cloudPhysicsIO"
            ? readTrace(kTraceDir + "cloudPhysicsIO.csv", TraceFormat::CloudPhysicsCsv)
            : readTrace(kTraceDir + name + ".trace.gz", TraceFormat::Lirs);
    REQUIRE(refs);
    return std::move(*refs);
}

} // namespace

// Every row of the 14 traces (58 rows); LRU over all of them takes about 2 s.
TEST_CASE("simulated LRU equals the reference LRU column on every row", "[cachectl][policy]") {
    const auto rows = referenceLruRows();
    REQUIRE(rows.size() == 58);
    std::string loaded;
    std::optional<ReplayTrace> trace;
    for (const auto& row : rows) {
        if (row.trace != loaded) {
            trace.emplace(loadTrace(row.trace));
            loaded = row.trace;
        }
        auto result = simulate(*trace, "lru", row.cacheBlocks);
        REQUIRE(result);
        INFO(row.trace << " " << row.cacheBlocks);
        CHECK(result->requests == row.requests);
        CHECK(result->uniqueBlocks == row.unique);
        CHECK(std::round(result->hitRatio() * 10000.0) / 100.0 ==
              Approx(row.lruPercent).margin(1e-9));
    }
}

TEST_CASE("trace formats parse as REFERENCE.md describes", "[cachectl][trace]") {
    SECTION("lis expands start and count") {
        auto refs = parseTrace("10 3 0 1\n\n7 1 0 2\n", TraceFormat::Lis);
        REQUIRE(refs);
        CHECK(*refs == std::vector<std::uint64_t>{10, 11, 12, 7});
    }
    SECTION("lirs skips '*' and empty lines and accepts CRLF") {
        auto refs = parseTrace("5\r\n*\r\n\r\n6\r\n", TraceFormat::Lirs);
        REQUIRE(refs);
        CHECK(*refs == std::vector<std::uint64_t>{5, 6});
    }
    SECTION("cloudphysics rows expand to the 4 KiB blocks they touch") {
        auto refs = parseTrace("version,time,op,size,lbn\n1,5,2a,512,7\n1,5,28,6656,8\n",
                               TraceFormat::CloudPhysicsCsv);
        REQUIRE(refs);
        // 512 B at sector 7 is block 0; 6656 B at sector 8 (4096) covers blocks 1 and 2.
        CHECK(*refs == std::vector<std::uint64_t>{0, 1, 2});
    }
    SECTION("u32be is big-endian") {
        const std::string bytes("\x00\x00\x01\x02\xff\x00\x00\x01", 8);
        auto refs = parseTrace(bytes, TraceFormat::U32be);
        REQUIRE(refs);
        CHECK(*refs == std::vector<std::uint64_t>{258, 0xff000001ULL});
        CHECK_FALSE(parseTrace(bytes.substr(0, 5), TraceFormat::U32be));
    }
    SECTION("blocks takes an optional count and comments") {
        auto refs = parseTrace("# recorded\n100 2\n7\n", TraceFormat::Blocks);
        REQUIRE(refs);
        CHECK(*refs == std::vector<std::uint64_t>{100, 101, 7});
    }
    SECTION("malformed lines name the line") {
        auto refs = parseTrace("1\nabc\n", TraceFormat::Lirs);
        REQUIRE_FALSE(refs);
        CHECK(refs.error().code() == ErrorCode::Parse);
        CHECK(refs.error().message().find("line 2") != std::string::npos);
        CHECK_FALSE(parseTrace("version,time\n", TraceFormat::CloudPhysicsCsv));
        CHECK_FALSE(parseTraceFormat("nope"));
    }
    SECTION("corrupt compressed input is an error") {
        std::string gz("\x1f\x8b\x08\x00garbage", 11);
        CHECK_FALSE(decompressIfNeeded(gz));
    }
}

TEST_CASE("every policy keeps its capacity and reports evictions exactly", "[cachectl][policy]") {
    for (const auto& name : policyNames()) {
        for (const std::size_t capacity : {1UL, 7UL, 100UL}) {
            auto policy = makePolicy(name, capacity);
            REQUIRE(policy);
            std::unordered_set<std::uint64_t> resident;
            std::mt19937_64 random(capacity);
            std::vector<std::uint64_t> evicted;
            for (int i = 0; i < 20000; ++i) {
                // A hot set, a loop and noise, so every policy's paths run.
                const std::uint64_t key = i % 3 == 0   ? random() % 20
                                          : i % 3 == 1 ? static_cast<std::uint64_t>(i / 3) % 150
                                                       : random() % 5000;
                evicted.clear();
                const bool hit = (*policy)->access(key, evicted);
                INFO(name << " capacity " << capacity << " step " << i);
                REQUIRE(hit == resident.contains(key));
                for (const auto victim : evicted) {
                    REQUIRE(resident.erase(victim) == 1);
                }
                resident.insert(key);
                REQUIRE((*policy)->contains(key));
                REQUIRE((*policy)->size() == resident.size());
                REQUIRE(resident.size() <= capacity);
            }
        }
    }
    CHECK_FALSE(makePolicy("nope", 10));
    CHECK_FALSE(makePolicy("lru", 0));
}

TEST_CASE("adaptive and steered CLOCK-Pro follow LIRS on a loop and LRU on a zigzag",
          "[cachectl][policy]") {
    std::vector<std::uint64_t> loop;
    std::vector<std::uint64_t> zigzag;
    for (int pass = 0; pass < 30; ++pass) {
        for (std::uint64_t block = 0; block < 1000; ++block) {
            loop.push_back(block);
            zigzag.push_back(pass % 2 == 0 ? block : 999 - block);
        }
    }
    auto lruLoop = simulate(loop, "lru", 200);
    auto lirsZigzag = simulate(zigzag, "lirs", 200);
    auto clockProZigzag = simulate(zigzag, "clockpro", 200);
    REQUIRE((lruLoop && lirsZigzag && clockProZigzag));
    CHECK(lruLoop->hits == 0);
    CHECK(lirsZigzag->hitRatio() < 0.02);
    CHECK(clockProZigzag->hitRatio() < 0.12); // plain CLOCK-Pro, like LIRS, loses a zigzag
    for (const char* policy : {"adaptive", "clockpro-steered"}) {
        INFO(policy);
        auto onLoop = simulate(loop, policy, 200);
        auto onZigzag = simulate(zigzag, policy, 200);
        REQUIRE((onLoop && onZigzag));
        CHECK(onLoop->hitRatio() > 0.17);   // LIRS keeps ~19.9% of a loop 5x the cache
        CHECK(onZigzag->hitRatio() > 0.17); // LRU gets ~19.3% of a zigzag
    }
}

TEST_CASE("the shards of one cache share clockpro-steered's shadows", "[cachectl][policy]") {
    // A zigzag over 20000 blocks spread over four shards of 2048: every shard turns to the
    // all-cold (LRU-like) share the shared shadows find. The shadows are sized for the whole
    // cache and counted once, a share of each shard's metadata; four policies of their own
    // would each keep shadows for their shard, at no less cost.
    constexpr std::size_t kShards = 4;
    constexpr std::size_t kPerShard = 2048;
    auto shared = makeShardClocks("clockpro-steered", kShards, kPerShard);
    REQUIRE(shared);
    REQUIRE(shared->size() == kShards);
    std::vector<std::unique_ptr<Policy>> separate;
    for (std::size_t i = 0; i < kShards; ++i) {
        separate.push_back(std::move(*makePolicy("clockpro-steered", kPerShard)));
    }
    std::vector<std::uint64_t> evicted;
    for (int pass = 0; pass < 12; ++pass) {
        for (std::uint64_t block = 0; block < 20000; ++block) {
            const std::uint64_t key = pass % 2 == 0 ? block : 19999 - block;
            evicted.clear();
            (*shared)[key % kShards]->access(key, evicted);
            evicted.clear();
            separate[key % kShards]->access(key, evicted);
        }
    }
    std::size_t sharedBytes = 0;
    std::size_t clockBytes = 0;
    std::size_t separateBytes = 0;
    for (std::size_t i = 0; i < kShards; ++i) {
        CHECK((*shared)[i]->coldShare() == Approx(0.99));
        sharedBytes += (*shared)[i]->metadataBytes();
        clockBytes += (*shared)[i]->clock().metadataBytes();
        separateBytes += separate[i]->metadataBytes();
    }
    CHECK(sharedBytes <= separateBytes);
    // The shadows (7% of the blocks each, three of them) cost under a quarter of the clocks.
    CHECK(sharedBytes > clockBytes);
    CHECK((sharedBytes - clockBytes) * 4 < clockBytes);
    // The engine keeps its blocks in the clock's nodes: other policies are the simulator's.
    for (const char* other : {"nope", "lru", "adaptive"}) {
        CHECK(makeShardClocks(other, kShards, kPerShard).error().code() ==
              ErrorCode::InvalidArgument);
    }
    auto plain = makeShardClocks("clockpro", kShards, kPerShard);
    REQUIRE(plain);
    CHECK((*plain)[0]->name() == "clockpro");
}

TEST_CASE("the clock as a block table keeps every data node exact through pinning and eviction",
          "[cachectl][policy]") {
    // The engine keeps a block's data at its data node's number: a model of that placement must
    // stay exact through hits, misses (with ghosts coming back), pinned blocks that outlive
    // eviction, removals, detached inserts and capacity changes.
    ClockProPolicy clock(256);
    std::unordered_map<std::uint32_t, std::uint64_t> placed; // data node -> key
    std::unordered_map<std::uint64_t, bool> pinned;
    std::vector<std::uint64_t> evicted;
    std::mt19937_64 random(5);
    const auto forgetDropped = [&] {
        for (const std::uint32_t node : clock.droppedData()) {
            REQUIRE(placed.contains(node));
            REQUIRE_FALSE(pinned[placed[node]]); // pinned data is never dropped
            placed.erase(node);
        }
    };
    const auto checkModel = [&] {
        REQUIRE(clock.dataBlocks() == placed.size());
        REQUIRE(clock.size() <= clock.capacity());
        for (const auto& [node, key] : placed) {
            REQUIRE(clock.findData(key) == node);
            REQUIRE(node < clock.dataNodes());
            REQUIRE(clock.keyOf(node) == key);
        }
    };
    std::size_t detachedSeen = 0;
    for (int step = 0; step < 60000; ++step) {
        // A hot set, a loop larger than the cache and noise: hits, ghosts and evictions.
        const std::uint64_t draw = random() % 10;
        const std::uint64_t key = draw < 5   ? random() % 150
                                  : draw < 8 ? 1000 + static_cast<std::uint64_t>(step) % 400
                                             : 5000 + random() % 100000;
        const std::uint32_t before = clock.findData(key);
        if (step % 97 == 0 && before != ClockProPolicy::kNone) {
            clock.remove(before); // discarded
            placed.erase(before);
            pinned.erase(key);
        } else if (step % 89 == 0 && before == ClockProPolicy::kNone) {
            const std::uint32_t node = clock.insertDetached(key); // a bypassed dirty write
            REQUIRE(clock.detached(node));
            REQUIRE_FALSE(placed.contains(node));
            placed[node] = key;
            clock.setDataFlags(node, ClockProPolicy::kPinned);
            pinned[key] = true;
        } else {
            const bool wasDetached = before != ClockProPolicy::kNone && clock.detached(before);
            evicted.clear();
            const auto ref = clock.reference(key, evicted);
            forgetDropped();
            REQUIRE(ref.hit == (before != ClockProPolicy::kNone && !wasDetached));
            if (!ref.hit) {
                // A miss makes room for detached blocks too, while resident ones are left.
                REQUIRE((clock.dataBlocks() <= clock.capacity() || clock.size() == 1));
            }
            if (before != ClockProPolicy::kNone) {
                REQUIRE(ref.node == before); // data stays where it is
            } else {
                REQUIRE_FALSE(placed.contains(ref.node));
                placed[ref.node] = key;
            }
            REQUIRE(clock.contains(key));
            if (random() % 8 == 0) {
                clock.setDataFlags(ref.node, ClockProPolicy::kPinned); // dirty
                pinned[key] = true;
            }
        }
        // Write-back: some pinned blocks become clean; detached ones then go.
        if (step % 13 == 0) {
            for (auto& [node, blockKey] : placed) {
                if (pinned[blockKey] && random() % 4 == 0) {
                    clock.setDataFlags(node, 0);
                    pinned[blockKey] = false;
                }
            }
            std::vector<std::uint32_t> gone;
            for (const auto& [node, blockKey] : placed) {
                if (!pinned[blockKey] && clock.detached(node)) {
                    ++detachedSeen;
                    gone.push_back(node);
                }
            }
            for (const std::uint32_t node : gone) {
                clock.remove(node);
                placed.erase(node);
            }
        }
        if (step == 30000 || step == 45000) {
            evicted.clear();
            clock.setCapacity(step == 30000 ? 64 : 512, evicted);
            forgetDropped();
            REQUIRE(clock.size() <= clock.capacity());
        }
        if (step % 1000 == 0) {
            checkModel();
        }
    }
    checkModel();
    CHECK(detachedSeen > 0);
    CHECK(clock.nonResidentBlocks() > 0);
}

TEST_CASE("compacting the clock renumbers its data nodes and changes nothing else",
          "[cachectl][policy]") {
    // Two clocks see the same references, pins and removals; one is compacted after each
    // resize (the engine's resize, which then gives back the frames beyond). Their hits,
    // evictions and contents stay the same, and the compacted one's nodes end at the limit.
    ClockProPolicy plain(512);
    ClockProPolicy compacted(512);
    std::vector<std::uint64_t> evictedPlain;
    std::vector<std::uint64_t> evictedCompacted;
    std::mt19937_64 random(11);
    std::size_t moved = 0;
    const auto sameContents = [&] {
        REQUIRE(plain.dataBlocks() == compacted.dataBlocks());
        plain.forEachData([&](std::uint64_t key, std::uint32_t node) {
            const std::uint32_t other = compacted.findData(key);
            REQUIRE(other != ClockProPolicy::kNone);
            REQUIRE(compacted.keyOf(other) == key);
            REQUIRE(compacted.dataFlags(other) == plain.dataFlags(node));
            REQUIRE(compacted.detached(other) == plain.detached(node));
        });
    };
    for (int step = 1; step <= 40000; ++step) {
        const std::uint64_t draw = random() % 10;
        const std::uint64_t key = draw < 5   ? random() % 300
                                  : draw < 8 ? 1000 + static_cast<std::uint64_t>(step) % 700
                                             : 5000 + random() % 100000;
        evictedPlain.clear();
        evictedCompacted.clear();
        const auto a = plain.reference(key, evictedPlain);
        const auto b = compacted.reference(key, evictedCompacted);
        REQUIRE(a.hit == b.hit);
        REQUIRE(evictedPlain == evictedCompacted);
        if (random() % 8 == 0) { // dirty: detached instead of dropped when evicted
            plain.setDataFlags(a.node, ClockProPolicy::kPinned);
            compacted.setDataFlags(b.node, ClockProPolicy::kPinned);
        }
        if (step % 13 == 0) { // write-back: clean blocks, and detached ones go
            std::vector<std::uint64_t> written;
            plain.forEachData([&](std::uint64_t dataKey, std::uint32_t) {
                if (random() % 3 == 0) {
                    written.push_back(dataKey);
                }
            });
            for (const std::uint64_t dataKey : written) {
                for (ClockProPolicy* clock : {&plain, &compacted}) {
                    const std::uint32_t node = clock->findData(dataKey);
                    clock->setDataFlags(node, 0);
                    if (clock->detached(node)) {
                        clock->remove(node);
                    }
                }
            }
        }
        if (step % 5000 == 0) {
            const std::size_t capacity = step % 10000 == 0 ? 600 : 96;
            for (ClockProPolicy* clock : {&plain, &compacted}) {
                std::vector<std::uint64_t> evicted;
                clock->setCapacity(capacity, evicted);
            }
            const std::size_t limit = std::max(compacted.capacity(), compacted.dataBlocks());
            const bool larger = compacted.dataNodes() > limit;
            const auto moves = compacted.compact(limit);
            moved += moves.size();
            for (const auto& [from, to] : moves) {
                REQUIRE(from >= limit);
                REQUIRE(to < limit);
            }
            if (larger) {
                REQUIRE(compacted.dataNodes() == limit);
            }
            sameContents();
        }
    }
    sameContents();
    CHECK(moved > 0);
    CHECK(plain.nonResidentBlocks() == compacted.nonResidentBlocks());
}

TEST_CASE("a small clock whose detached blocks leave only hot ones resident still makes room",
          "[cachectl][policy]") {
    // Detached (dirty, evicted) blocks count against the capacity. With most blocks pinned and
    // hit often, a miss can find every resident block hot and referenced, down to one block:
    // the clock must still evict, not run its cold hand over an empty cold share.
    for (const std::size_t capacity : {1U, 2U, 3U, 5U, 8U}) {
        CAPTURE(capacity);
        ClockProPolicy clock(capacity);
        std::vector<std::uint64_t> evicted;
        std::mt19937_64 random(capacity);
        std::size_t detachedTookRoom = 0;
        for (int step = 0; step < 20000; ++step) {
            const std::uint64_t key = random() % (3 * capacity + 2);
            evicted.clear();
            const auto ref = clock.reference(key, evicted);
            REQUIRE(clock.contains(key));
            REQUIRE((clock.dataBlocks() <= clock.capacity() || clock.size() == 1));
            if (clock.dataBlocks() >= capacity && clock.size() < capacity) {
                ++detachedTookRoom;
            }
            for (int hits = 0; hits < 3; ++hits) {
                clock.hit(ref.node);
            }
            if (random() % 4 != 0) {
                clock.setDataFlags(ref.node, ClockProPolicy::kPinned);
            }
            if (step % 7 == 0) {
                // Write-back: every block turns clean, and the detached ones go.
                std::vector<std::uint32_t> gone;
                clock.forEachData([&](std::uint64_t, std::uint32_t node) {
                    clock.setDataFlags(node, 0);
                    if (clock.detached(node)) {
                        gone.push_back(node);
                    }
                });
                for (const std::uint32_t node : gone) {
                    clock.remove(node);
                }
            }
        }
        CHECK(clock.size() <= capacity);
        if (capacity > 1) {
            CHECK(detachedTookRoom > 0); // the state this test is about was reached
        }
    }
}

TEST_CASE("CLOCK-Pro promotes a block evicted in its test period when it comes back",
          "[cachectl][policy]") {
    // 90 hot blocks (referenced once, while warming up) and a cold share of 10. A working set of
    // 60 new blocks, looped: each one is evicted from the cold share before it comes back, so it
    // can only be hit if its key was remembered and turned it hot on its return (the hot blocks,
    // never hit, are placed before it: it is still in its test period).
    ClockProPolicy clock(100, 0.1, 0.1);
    std::vector<std::uint64_t> evicted;
    for (std::uint64_t key = 0; key < 100; ++key) {
        clock.access(key, evicted);
    }
    std::size_t hits = 0;
    for (int round = 0; round < 20; ++round) {
        for (std::uint64_t key = 1000; key < 1060; ++key) {
            evicted.clear();
            hits += clock.access(key, evicted) ? 1U : 0U;
        }
    }
    CHECK(hits >= 60 * 17);
    CHECK(clock.size() == 100);
}

TEST_CASE("GhostFilter remembers keys by placement and forgets them in order",
          "[cachectl][policy]") {
    GhostFilter filter(1200); // generations of 100 keys, 13 in the ring
    // Keys 0..599 placed at times 1..600, in order, as the clock evicts them.
    for (std::uint32_t key = 0; key < 600; ++key) {
        CHECK(filter.insert(key, key + 1).expired == 0);
    }
    CHECK(filter.size() == 600);
    // A key found stands for its generation's earliest placement.
    CHECK(filter.find(250) == 201U);
    CHECK(filter.find(599) == 501U);
    CHECK_FALSE(filter.find(100000).has_value());
    // The oldest hot block was placed at 350: generations placed wholly before it go. Key 250's
    // generation (201..300) was found once, so 99 of its keys expired without coming back.
    CHECK(filter.expire(350) == 100 + 100 + 99);
    CHECK_FALSE(filter.find(50).has_value());
    CHECK_FALSE(filter.find(250).has_value());
    CHECK(filter.find(340) == 301U); // its generation reaches past 350: still remembered
    // Beyond the ring, the oldest generation goes and says how far its placements reached.
    GhostFilter::Forgotten forgotten;
    for (std::uint32_t key = 600; key < 1700; ++key) {
        const auto step = filter.insert(key, key + 1);
        if (step.placedUpTo) {
            forgotten = step;
            break;
        }
    }
    REQUIRE(forgotten.placedUpTo.has_value());
    CHECK(*forgotten.placedUpTo == 400U);
    CHECK(forgotten.expired == 99); // key 340 came back
    CHECK(filter.size() <= 1300);
    // Passing the head ends every test period.
    CHECK(filter.clear() > 0);
    CHECK(filter.size() == 0);
    CHECK_FALSE(filter.find(1000).has_value());
    // Placement times wrap around.
    CHECK(GhostFilter::atOrBefore(0xfffffff0U, 5U));
    CHECK_FALSE(GhostFilter::atOrBefore(5U, 0xfffffff0U));
}

TEST_CASE("GhostFilter has few false positives, also for a hashed sample of keys",
          "[cachectl][policy]") {
    // The steering's shadows see keys whose splitmix64 hash is small; the filter must not hash
    // them into a few lines (it once used the same hash and called every key remembered).
    const auto splitmix = [](std::uint64_t x) {
        x += 0x9e3779b97f4a7c15ULL;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
        return x ^ (x >> 31);
    };
    for (const bool sampled : {false, true}) {
        INFO("sampled " << sampled);
        std::vector<std::uint64_t> keys;
        for (std::uint64_t key = 0; keys.size() < 24000; ++key) {
            if (!sampled || splitmix(key) < (~std::uint64_t{0} >> 5)) {
                keys.push_back(key);
            }
        }
        GhostFilter filter(12000);
        for (std::size_t i = 0; i < 12000; ++i) {
            filter.insert(keys[i], static_cast<std::uint32_t>(i + 1));
        }
        std::size_t remembered = 0;
        for (std::size_t i = 0; i < 12000; ++i) {
            remembered += filter.find(keys[i]).has_value() ? 1U : 0U;
        }
        CHECK(remembered == 12000);
        std::size_t falsePositives = 0;
        for (std::size_t i = 12000; i < keys.size(); ++i) {
            falsePositives += filter.find(keys[i]).has_value() ? 1U : 0U;
        }
        CHECK(falsePositives < 12); // 0.1 %
        CHECK(filter.memoryBytes() <= 12000 * 5);
    }
}

TEST_CASE("NodeIndex finds what it holds through growth, shrinking and deletion",
          "[cachectl][policy]") {
    // Nodes hold their keys (as CLOCK-Pro's do); the index keeps 5-bit tags and node numbers,
    // so keys whose tags match are common: the key comparison must decide.
    std::vector<std::uint64_t> keyOfNode;
    std::vector<std::uint32_t> freeNodes;
    std::unordered_map<std::uint64_t, std::uint32_t> model;
    NodeIndex index;
    const auto keyOf = [&](std::uint32_t node) { return keyOfNode[node]; };
    std::mt19937_64 random(7);
    for (int step = 0; step < 200000; ++step) {
        // Keys from a small range, so inserts, hits and deletions of present keys all happen.
        const std::uint64_t key = random() % 4000 * 0x10001;
        const auto found = index.find(key, keyOf);
        const auto expected = model.find(key);
        REQUIRE((found == NodeIndex::kNone) == (expected == model.end()));
        if (found != NodeIndex::kNone) {
            REQUIRE(found == expected->second);
        }
        if (expected == model.end() && random() % 4 != 0) {
            std::uint32_t node = 0;
            if (freeNodes.empty()) {
                node = static_cast<std::uint32_t>(keyOfNode.size());
                keyOfNode.push_back(key);
            } else {
                node = freeNodes.back();
                freeNodes.pop_back();
                keyOfNode[node] = key;
            }
            index.insert(key, node, keyOf);
            model[key] = node;
        } else if (expected != model.end() && random() % 3 == 0) {
            index.erase(key, expected->second, keyOf);
            freeNodes.push_back(expected->second);
            model.erase(expected);
        }
        REQUIRE(index.size() == model.size());
    }
    const std::size_t fullBytes = index.memoryBytes();
    // Emptied again, in hash-unrelated order: every key left stays findable, and the table
    // shrinks with the live set.
    std::vector<std::pair<std::uint64_t, std::uint32_t>> left(model.begin(), model.end());
    std::shuffle(left.begin(), left.end(), random);
    for (std::size_t i = 0; i < left.size(); ++i) {
        index.erase(left[i].first, left[i].second, keyOf);
        if (i % 97 == 0) {
            for (std::size_t j = i + 1; j < left.size(); ++j) {
                REQUIRE(index.find(left[j].first, keyOf) == left[j].second);
            }
        }
    }
    CHECK(index.size() == 0);
    CHECK(index.find(left.front().first, keyOf) == NodeIndex::kNone);
    CHECK(index.memoryBytes() * 64 <= fullBytes);
}

TEST_CASE("miss-ratio curve sizes ascend up to the unique blocks", "[cachectl][simulator]") {
    const auto sizes = mrcSizes(100000, 12);
    REQUIRE(sizes.size() == 12);
    CHECK(sizes.front() == 100);
    CHECK(sizes.back() == 100000);
    CHECK(std::is_sorted(sizes.begin(), sizes.end()));
    CHECK(mrcSizes(0, 5).empty());
    CHECK(mrcSizes(10, 5).back() == 10);
}

TEST_CASE("block numbers past CLOCK-Pro's keys are renumbered, with the same hits",
          "[cachectl][simulator]") {
    // The clock packs keys below 2^36 into its nodes; a trace of larger block numbers (a
    // recorded device past 256 TiB, or made-up numbers) simulates as its first-reference order.
    std::vector<std::uint64_t> dense;
    std::vector<std::uint64_t> large;
    std::mt19937_64 pick(5);
    for (int i = 0; i < 200000; ++i) {
        const std::uint64_t block = pick() % 3000;
        dense.push_back(block);
        large.push_back((block << 40) | 7);
    }
    // dense's own numbers, renumbered by first reference: only then are the sampled keys alike.
    std::unordered_map<std::uint64_t, std::uint64_t> firstSeen;
    for (std::uint64_t& block : dense) {
        block = firstSeen.try_emplace(block, firstSeen.size()).first->second;
    }
    const ReplayTrace denseTrace(dense);
    const ReplayTrace largeTrace(large);
    CHECK_FALSE(denseTrace.renumbered());
    CHECK(largeTrace.renumbered());
    CHECK(std::ranges::equal(largeTrace.refs(), dense));
    for (const char* policy : {"lru", "clockpro", "clockpro-steered"}) {
        INFO(policy);
        auto onDense = simulate(denseTrace, policy, 1000);
        auto onLarge = simulate(largeTrace, policy, 1000);
        REQUIRE((onDense && onLarge));
        CHECK(onLarge->hits == onDense->hits);
        CHECK(onLarge->uniqueBlocks == onDense->uniqueBlocks);
    }
    // The largest key the clock holds is a key like any other.
    ClockProPolicy clock(4);
    std::vector<std::uint64_t> evicted;
    CHECK_FALSE(clock.access(ClockProPolicy::kMaxKey, evicted));
    CHECK_FALSE(clock.access(ClockProPolicy::kMaxKey - 1, evicted));
    CHECK(clock.access(ClockProPolicy::kMaxKey, evicted));
    CHECK(clock.contains(ClockProPolicy::kMaxKey - 1));
    CHECK_FALSE(clock.contains(ClockProPolicy::kMaxKey >> 1));
}
