// CacheEngine against a plain reference model (differential), flush/FUA durability, backing
// store faults, the dirty limit, compression, scan resistance, lock-free hits while blocks and
// tables change under them, and hits equal to the simulator's.
#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <lz4.h>
#include <mutex>
#include <numeric>
#include <random>
#include <string>
#include <thread>

#include "core/cachectl/engine/block_codec.h"
#include "core/cachectl/engine/cache_engine.h"
#include "core/cachectl/engine/policies.h"
#include "core/cachectl/engine/simulator.h"

using namespace ssdk;
using namespace ssdk::cachectl;
using namespace ssdk::cachectl::engine;

namespace {

constexpr std::uint64_t kBlock = 4096;

// A backing store in memory that models durability (what survives a crash: writes before the
// last flush, and FUA writes) and injects faults.
class TestBackingStore final : public BlockStore {
public:
    explicit TestBackingStore(std::uint64_t size)
        : m_current(size)
        , m_durable(size) {}

    std::uint64_t size() const override { return m_current.size(); }
    std::uint32_t blockSize() const override { return 4096; }

    Expected<void> read(std::uint64_t offset, std::span<std::byte> out) override {
        if (auto range = checkRange(offset, out.size(), size()); !range) {
            return range;
        }
        if (failReads) {
            return fail(ErrorCode::Io, "injected read error");
        }
        const std::scoped_lock lock(m_mutex);
        std::memcpy(out.data(), m_current.data() + offset, out.size());
        return {};
    }
    Expected<void> write(std::uint64_t offset, std::span<const std::byte> data, bool fua) override {
        if (auto range = checkRange(offset, data.size(), size()); !range) {
            return range;
        }
        if (failWrites) {
            return fail(failCode, "injected write error");
        }
        const std::scoped_lock lock(m_mutex);
        ++writes;
        std::memcpy(m_current.data() + offset, data.data(), data.size());
        if (fua) {
            std::memcpy(m_durable.data() + offset, data.data(), data.size());
        }
        return {};
    }
    Expected<void> flush() override {
        if (failFlush) {
            return fail(ErrorCode::Io, "injected flush error");
        }
        const std::scoped_lock lock(m_mutex);
        ++flushes;
        m_durable = m_current;
        return {};
    }
    Expected<void> discard(std::uint64_t offset, std::uint64_t length) override {
        return writeZeroes(offset, length, false);
    }
    Expected<void> writeZeroes(std::uint64_t offset, std::uint64_t length, bool) override {
        if (auto range = checkRange(offset, length, size()); !range) {
            return range;
        }
        const std::scoped_lock lock(m_mutex);
        std::memset(m_current.data() + offset, 0, length);
        return {};
    }

    std::vector<std::byte> current(std::uint64_t offset, std::uint64_t length) {
        const std::scoped_lock lock(m_mutex);
        return {m_current.begin() + static_cast<std::ptrdiff_t>(offset),
                m_current.begin() + static_cast<std::ptrdiff_t>(offset + length)};
    }

    std::vector<std::byte> durable(std::uint64_t offset, std::uint64_t length) {
        const std::scoped_lock lock(m_mutex);
        return {m_durable.begin() + static_cast<std::ptrdiff_t>(offset),
                m_durable.begin() + static_cast<std::ptrdiff_t>(offset + length)};
    }

    std::atomic<bool> failReads{false};
    std::atomic<bool> failWrites{false};
    std::atomic<bool> failFlush{false};
    ErrorCode failCode = ErrorCode::Io;
    std::uint64_t writes = 0;
    std::uint64_t flushes = 0;

private:
    std::mutex m_mutex;
    std::vector<std::byte> m_current;
    std::vector<std::byte> m_durable;
};

// Byte-exact model of what a region of the device must read back as; discarded bytes are
// unknown until written again.
struct Model {
    std::uint64_t base;
    std::vector<std::byte> data;
    std::vector<bool> known;

    Model(std::uint64_t regionBase, std::uint64_t length)
        : base(regionBase)
        , data(length)
        , known(length, true) {}

    void write(std::uint64_t offset, std::span<const std::byte> bytes) {
        std::memcpy(data.data() + (offset - base), bytes.data(), bytes.size());
        std::fill_n(known.begin() + static_cast<std::ptrdiff_t>(offset - base), bytes.size(), true);
    }
    void forget(std::uint64_t offset, std::uint64_t length) {
        std::fill_n(known.begin() + static_cast<std::ptrdiff_t>(offset - base), length, false);
    }
    // The first offset whose byte differs from a known one, or -1.
    std::int64_t firstMismatch(std::uint64_t offset, std::span<const std::byte> bytes) const {
        for (std::size_t i = 0; i < bytes.size(); ++i) {
            const std::uint64_t at = offset - base + i;
            if (known[at] && data[at] != bytes[i]) {
                return static_cast<std::int64_t>(offset + i);
            }
        }
        return -1;
    }
};

std::vector<std::byte> makeData(std::mt19937_64& random, std::size_t size) {
    std::vector<std::byte> data(size);
    if (random() % 2 == 0) {
        // Compressible: runs of a repeated byte.
        std::size_t i = 0;
        while (i < size) {
            const std::size_t run = std::min<std::size_t>(size - i, 1 + random() % 300);
            std::fill_n(data.begin() + static_cast<std::ptrdiff_t>(i), run,
                        static_cast<std::byte>(random()));
            i += run;
        }
    } else {
        for (std::size_t i = 0; i < size; i += 8) {
            const std::uint64_t word = random();
            std::memcpy(data.data() + i, &word, std::min<std::size_t>(8, size - i));
        }
    }
    return data;
}

// What went wrong in a test's threads (Catch's REQUIRE is not thread-safe there): counted,
// with the reasons, and checked after the threads joined.
struct ThreadFailures {
    std::atomic<int> count{0};
    std::mutex mutex;
    std::string reasons;

    void add(const std::string& what) {
        const std::scoped_lock lock(mutex);
        reasons += what + "\n";
        ++count;
    }
    bool any() const { return count != 0; }
};

std::uint64_t diffOps() {
    if (const char* ops = std::getenv("SSDK_CACHE_DIFF_OPS")) {
        return std::strtoull(ops, nullptr, 10);
    }
    return 8000;
}

// Random reads/writes/FUA writes/flushes/discards over [base, base+length) of engine, checked
// against the model; flush and FUA are checked against the backing store's durable image.
void runDifferential(CacheEngine& engine, TestBackingStore& backing, std::uint64_t base,
                     std::uint64_t length, std::uint64_t ops, std::uint64_t seed) {
    Model model(base, length);
    {
        std::vector<std::byte> initial(length);
        REQUIRE(backing.read(base, initial));
        model.write(base, initial);
    }
    std::mt19937_64 random(seed);
    const auto pickRange = [&](std::uint64_t maxBytes) {
        std::uint64_t size = 1 + random() % maxBytes;
        std::uint64_t offset = base + random() % (length - size + 1);
        if (random() % 2 == 0) {
            offset = base + (offset - base) / kBlock * kBlock;
            size = std::min(length - (offset - base), (size + kBlock - 1) / kBlock * kBlock);
        }
        return std::pair{offset, size};
    };
    for (std::uint64_t op = 0; op < ops; ++op) {
        const auto kind = random() % 100;
        if (kind < 45) {
            auto [offset, size] = pickRange(64 * 1024);
            std::vector<std::byte> out(size);
            REQUIRE(engine.read(offset, out));
            const auto mismatch = model.firstMismatch(offset, out);
            INFO("op " << op << " read " << offset << "+" << size << " seed " << seed);
            REQUIRE(mismatch == -1);
        } else if (kind < 90) {
            auto [offset, size] = pickRange(96 * 1024);
            const bool fua = random() % 20 == 0;
            const auto data = makeData(random, size);
            REQUIRE(engine.write(offset, data, fua));
            model.write(offset, data);
            if (fua) {
                const auto durable = backing.durable(offset, size);
                REQUIRE(durable == data);
            }
        } else if (kind < 93) {
            REQUIRE(engine.flush());
            // Everything written before the flush is durable (checked on a window; the whole
            // region is checked at the end).
            auto [offset, size] = pickRange(256 * 1024);
            const auto durable = backing.durable(offset, size);
            REQUIRE(model.firstMismatch(offset, durable) == -1);
        } else if (kind < 97) {
            auto [offset, size] = pickRange(128 * 1024);
            REQUIRE(engine.discard(offset, size));
            const std::uint64_t first = (offset + kBlock - 1) / kBlock * kBlock;
            const std::uint64_t end = (offset + size) / kBlock * kBlock;
            if (end > first) {
                model.forget(first, end - first);
            }
        } else {
            auto [offset, size] = pickRange(32 * 1024);
            REQUIRE(engine.writeZeroes(offset, size, false));
            model.write(offset, std::vector<std::byte>(size));
        }
    }
    REQUIRE(engine.flush());
    const auto durable = backing.durable(base, length);
    REQUIRE(model.firstMismatch(base, durable) == -1);
}

CacheConfig smallConfig(WriteMode mode, bool compression) {
    CacheConfig config;
    config.ramBytes = 300 * (4096 + 256); // ~300 blocks for 2048 on the device
    config.writeMode = mode;
    config.compression = compression;
    config.shards = 4;
    config.dirtyHighWatermark = 0.3;
    config.dirtyLowWatermark = 0.1;
    config.writebackInterval = std::chrono::milliseconds(20);
    config.sequentialCutoff = 256 * 1024;
    return config;
}

} // namespace

TEST_CASE("the engine reads back the last written data (differential, one thread)",
          "[cachectl][engine]") {
    for (const auto mode : {WriteMode::WriteBack, WriteMode::WriteThrough}) {
        for (const bool compression : {false, true}) {
            TestBackingStore backing(8ULL << 20);
            auto engine = CacheEngine::create(backing, smallConfig(mode, compression));
            REQUIRE(engine);
            runDifferential(**engine, backing, 0, backing.size(), diffOps(),
                            (mode == WriteMode::WriteBack ? 1U : 2U) + (compression ? 10U : 0U));
            const auto stats = (*engine)->stats();
            CHECK(stats.readHits > 0);
            CHECK(stats.readMisses > 0);
            // Dirty blocks the clock evicted (kept until written back) count too.
            CHECK(stats.cachedBlocks <= stats.capacityBlocks);
            if (mode == WriteMode::WriteBack) {
                CHECK(stats.writebackOps > 0);
                CHECK(stats.writebackBlocks > stats.writebackOps); // runs were coalesced
            }
            if (compression) {
                CHECK(stats.compressionRatio() > 1.0);
            }
            // The RAM the data takes is counted exactly through every change of a block's
            // stored form (raw, compressed, evicted, discarded): none is left once nothing is.
            CHECK(stats.physicalBytes <= stats.logicalBytes);
            REQUIRE((*engine)->flush());
            REQUIRE((*engine)->discard(0, backing.size()));
            const auto emptied = (*engine)->stats();
            CHECK(emptied.cachedBlocks == 0);
            CHECK(emptied.physicalBytes == 0);
        }
    }
}

TEST_CASE("the engine reads back the last written data (differential, four threads)",
          "[cachectl][engine]") {
    // The default policy's shards share one set of shadow simulations under their own lock;
    // plain CLOCK-Pro keeps everything per shard.
    const std::string defaultPolicy(kDefaultPolicy);
    for (const auto& [mode, policy] : {std::pair{WriteMode::WriteBack, defaultPolicy},
                                       std::pair{WriteMode::WriteThrough, defaultPolicy},
                                       std::pair{WriteMode::WriteBack, std::string("clockpro")}}) {
        TestBackingStore backing(16ULL << 20);
        auto config = smallConfig(mode, true);
        config.policy = policy;
        auto engine = CacheEngine::create(backing, config);
        REQUIRE(engine);
        const std::uint64_t region = backing.size() / 4;
        std::vector<std::thread> threads;
        ThreadFailures failures;
        const auto failWith = [&](const std::string& what) { failures.add(what); };
        for (std::uint64_t t = 0; t < 4; ++t) {
            threads.emplace_back([&, t] {
                // Catch's REQUIRE is not thread-safe: run the checks with a local model and
                // report through the counter.
                Model model(t * region, region);
                std::vector<std::byte> initial(region);
                if (!backing.read(t * region, initial)) {
                    failWith("initial read");
                    return;
                }
                model.write(t * region, initial);
                std::mt19937_64 random(100 + t);
                for (std::uint64_t op = 0; op < diffOps() / 4; ++op) {
                    const std::uint64_t size = 1 + random() % 32768;
                    const std::uint64_t offset = t * region + random() % (region - size);
                    if (random() % 2 == 0) {
                        std::vector<std::byte> out(size);
                        if (auto got = (*engine)->read(offset, out); !got) {
                            failWith("read: " + got.error().describe());
                            return;
                        }
                        if (const auto at = model.firstMismatch(offset, out); at != -1) {
                            failWith("thread " + std::to_string(t) + " op " + std::to_string(op) +
                                     ": byte " + std::to_string(at) + " differs in read " +
                                     std::to_string(offset) + "+" + std::to_string(size));
                            return;
                        }
                    } else {
                        const auto data = makeData(random, size);
                        if (auto written = (*engine)->write(offset, data, false); !written) {
                            failWith("write: " + written.error().describe());
                            return;
                        }
                        model.write(offset, data);
                    }
                    if (random() % 500 == 0) {
                        if (auto flushed = (*engine)->flush(); !flushed) {
                            failWith("flush: " + flushed.error().describe());
                            return;
                        }
                    }
                }
            });
        }
        for (auto& thread : threads) {
            thread.join();
        }
        INFO(failures.reasons);
        CHECK_FALSE(failures.any());
    }
}

TEST_CASE("lock-free hits never return a torn or an older block while it is rewritten and the "
          "cache resized",
          "[cachectl][engine]") {
    // Every 8-byte word of a block holds (block << 32) | generation; a writer raises the
    // generations of a hot set the readers re-read, and misses on cold blocks move the clocks.
    // A resizer, and a churner that fills the cache from a region of its own and discards it
    // again, make the shards' index tables, node arrays and frames grow and shrink under the
    // readers. A read must see one whole generation, never older than one the same reader saw.
    // The default policy's steering samples every key of a cache this small: its lock-free hits
    // pass their keys to the steering while resizes replace it. With compression, a block's
    // even generations do not compress and odd ones do, so each rewrite moves a block between
    // its frame (read without the lock) and a buffer of its own, and gives the frame back to the
    // kernel (zeroes) under the readers.
    constexpr std::uint64_t kHot = 48;
    constexpr std::uint64_t kCold = 1024;
    TestBackingStore backing(2 * kCold * kBlock);
    const bool compression = GENERATE(false, true);
    auto config = smallConfig(WriteMode::WriteThrough, compression);
    config.policy = GENERATE(as<std::string>{}, "clockpro-steered", "clockpro");
    INFO(config.policy << (compression ? ", compression" : ""));
    auto engine = CacheEngine::create(backing, config);
    REQUIRE(engine);
    // Word 0 of a block is (block + 1) << 32 | generation; word i is word 0, or with an even
    // generation word 0 xor a hash of (i, word 0).
    const auto wordAt = [](std::uint64_t first, std::size_t i) {
        if ((first & 1U) != 0 || i == 0) {
            return first;
        }
        std::uint64_t x = (first ^ (i * 0x9E3779B97F4A7C15ULL)) * 0xff51afd7ed558ccdULL;
        return first ^ (x ^ (x >> 29));
    };
    const auto blockOf = [&](std::uint64_t block, std::uint64_t generation) {
        std::vector<std::byte> data(kBlock);
        const std::uint64_t first = ((block + 1) << 32) | generation;
        for (std::size_t i = 0; i < kBlock / sizeof(first); ++i) {
            const std::uint64_t word = wordAt(first, i);
            std::memcpy(data.data() + i * sizeof(word), &word, sizeof(word));
        }
        return data;
    };
    for (std::uint64_t block = 0; block < kCold; ++block) {
        REQUIRE((*engine)->write(block * kBlock, blockOf(block, 0), false));
    }
    std::vector<std::byte> out(kBlock);
    for (int round = 0; round < 4; ++round) { // reference counts to their top
        for (std::uint64_t block = 0; block < kHot; ++block) {
            REQUIRE((*engine)->read(block * kBlock, out));
        }
    }

    const std::uint64_t reads = std::max<std::uint64_t>(20000, diffOps() * 10);
    std::atomic<bool> readersDone{false};
    ThreadFailures failures;
    const auto failWith = [&](const std::string& what) { failures.add(what); };
    std::vector<std::thread> readers;
    for (std::uint64_t t = 0; t < 2; ++t) {
        readers.emplace_back([&, t] {
            std::mt19937_64 random(200 + t);
            std::vector<std::uint64_t> seen(kCold, 0);
            std::vector<std::byte> data(kBlock);
            for (std::uint64_t i = 0; i < reads && !failures.any(); ++i) {
                const std::uint64_t block = random() % 16 == 0 ? random() % kCold : random() % kHot;
                if (auto got = (*engine)->read(block * kBlock, data); !got) {
                    failWith("read: " + got.error().describe());
                    return;
                }
                std::uint64_t first = 0;
                std::memcpy(&first, data.data(), sizeof(first));
                for (std::size_t w = 0; w < kBlock / sizeof(first); ++w) {
                    std::uint64_t word = 0;
                    std::memcpy(&word, data.data() + w * sizeof(word), sizeof(word));
                    if (word != wordAt(first, w)) {
                        failWith("block " + std::to_string(block) + " torn at byte " +
                                 std::to_string(w * sizeof(word)));
                        return;
                    }
                }
                const std::uint64_t generation = first & 0xffffffffU;
                if ((first >> 32) != block + 1 || generation < seen[block]) {
                    failWith("block " + std::to_string(block) + " read as " +
                             std::to_string((first >> 32) - 1) + " generation " +
                             std::to_string(generation) + " after " + std::to_string(seen[block]));
                    return;
                }
                seen[block] = generation;
            }
        });
    }
    std::thread writer([&] {
        std::mt19937_64 random(300);
        std::vector<std::uint64_t> generation(kHot, 0);
        while (!readersDone && !failures.any()) {
            const std::uint64_t block = random() % kHot;
            if (auto written =
                    (*engine)->write(block * kBlock, blockOf(block, ++generation[block]), false);
                !written) {
                failWith("write: " + written.error().describe());
                return;
            }
        }
    });
    std::thread resizer([&] {
        for (int round = 0; !readersDone && !failures.any(); ++round) {
            const std::uint64_t ram = round % 2 == 0 ? config.ramBytes / 2 : config.ramBytes * 3;
            if (auto resized = (*engine)->resize(ram); !resized) {
                failWith("resize: " + resized.error().describe());
                return;
            }
            std::this_thread::yield();
        }
    });
    std::thread churner([&] {
        std::vector<std::byte> data(kBlock);
        while (!readersDone && !failures.any()) {
            for (std::uint64_t block = kCold; block < 2 * kCold && !readersDone; ++block) {
                if (auto got = (*engine)->read(block * kBlock, data); !got) {
                    failWith("churn read: " + got.error().describe());
                    return;
                }
            }
            if (auto dropped = (*engine)->discard(kCold * kBlock, kCold * kBlock); !dropped) {
                failWith("discard: " + dropped.error().describe());
                return;
            }
        }
    });
    for (auto& reader : readers) {
        reader.join();
    }
    readersDone = true;
    writer.join();
    resizer.join();
    churner.join();
    INFO(failures.reasons);
    REQUIRE_FALSE(failures.any());
    const auto stats = (*engine)->stats();
    CHECK(stats.lockFreeHits > 0);
    CHECK(stats.lockFreeHits < stats.readHits); // the writer's blocks are re-read through the lock
}

TEST_CASE("flush writes back every dirty block and flushes the device", "[cachectl][engine]") {
    TestBackingStore backing(4ULL << 20);
    auto config = smallConfig(WriteMode::WriteBack, false);
    config.writebackInterval = std::chrono::hours(1); // only flush writes back
    auto engine = CacheEngine::create(backing, config);
    REQUIRE(engine);
    std::vector<std::byte> data(64 * 1024, std::byte{0x5a});
    REQUIRE((*engine)->write(8192, data, false));
    CHECK((*engine)->stats().dirtyBytes == data.size());
    CHECK(backing.durable(8192, data.size()) != data);
    const auto flushesBefore = backing.flushes;
    REQUIRE((*engine)->flush());
    CHECK(backing.durable(8192, data.size()) == data);
    CHECK(backing.flushes == flushesBefore + 1);
    CHECK((*engine)->stats().dirtyBytes == 0);
    CHECK((*engine)->stats().writebackOps == 1); // 16 adjacent blocks in one write
}

TEST_CASE("backing store faults reach the caller and corrupt nothing", "[cachectl][engine]") {
    TestBackingStore backing(4ULL << 20);
    std::vector<std::byte> first(8192, std::byte{1});
    std::vector<std::byte> second(8192, std::byte{2});
    std::vector<std::byte> out(8192);

    SECTION("read errors") {
        auto engine = CacheEngine::create(backing, smallConfig(WriteMode::WriteThrough, false));
        REQUIRE(engine);
        REQUIRE((*engine)->write(0, first, false));
        backing.failReads = true;
        REQUIRE((*engine)->read(0, out)); // cached
        CHECK(out == first);
        auto missed = (*engine)->read(1 << 20, out);
        REQUIRE_FALSE(missed);
        CHECK(missed.error().code() == ErrorCode::Io);
    }
    SECTION("write-through write errors leave the old data readable") {
        auto engine = CacheEngine::create(backing, smallConfig(WriteMode::WriteThrough, false));
        REQUIRE(engine);
        REQUIRE((*engine)->write(0, first, false));
        backing.failWrites = true;
        backing.failCode = ErrorCode::NoSpace;
        auto written = (*engine)->write(0, second, false);
        REQUIRE_FALSE(written);
        CHECK(written.error().code() == ErrorCode::NoSpace);
        backing.failWrites = false;
        REQUIRE((*engine)->read(0, out));
        CHECK(out == first); // the cache dropped its copy, the backing store kept the old data
    }
    SECTION("write-back errors keep the data dirty until a flush succeeds") {
        auto engine = CacheEngine::create(backing, smallConfig(WriteMode::WriteBack, false));
        REQUIRE(engine);
        backing.failWrites = true;
        backing.failCode = ErrorCode::NoSpace;
        REQUIRE((*engine)->write(0, second, false));
        auto flushed = (*engine)->flush();
        REQUIRE_FALSE(flushed);
        CHECK(flushed.error().code() == ErrorCode::NoSpace);
        CHECK((*engine)->stats().writebackErrors > 0);
        REQUIRE((*engine)->read(0, out));
        CHECK(out == second);
        backing.failWrites = false;
        REQUIRE((*engine)->flush());
        CHECK(backing.durable(0, 8192) == second);
    }
    SECTION("a failing device flush fails flush()") {
        auto engine = CacheEngine::create(backing, smallConfig(WriteMode::WriteBack, false));
        REQUIRE(engine);
        REQUIRE((*engine)->write(0, second, false));
        backing.failFlush = true;
        CHECK_FALSE((*engine)->flush());
        backing.failFlush = false;
        CHECK((*engine)->flush());
    }
    SECTION("a full dirty budget over a failing device fails writes with Busy") {
        auto config = smallConfig(WriteMode::WriteBack, false);
        config.dirtyWaitTimeout = std::chrono::milliseconds(100);
        auto engine = CacheEngine::create(backing, config);
        REQUIRE(engine);
        backing.failWrites = true;
        Expected<void> written;
        std::uint64_t offset = 0;
        for (; offset < backing.size() && written; offset += 8192) {
            written = (*engine)->write(offset, second, false);
        }
        REQUIRE_FALSE(written);
        CHECK(written.error().code() == ErrorCode::Busy);
        backing.failWrites = false;
        REQUIRE((*engine)->flush());
        for (std::uint64_t at = 0; at + 8192 < offset; at += 8192) {
            REQUIRE((*engine)->read(at, out));
            REQUIRE(out == second);
        }
    }
    SECTION("bad configuration and ranges") {
        CacheConfig tiny;
        tiny.ramBytes = 100;
        CHECK_FALSE(CacheEngine::create(backing, tiny));
        CacheConfig watermarks;
        watermarks.dirtyLowWatermark = 0.9;
        watermarks.dirtyHighWatermark = 0.5;
        CHECK_FALSE(CacheEngine::create(backing, watermarks));
        CacheConfig policy;
        policy.policy = "nope";
        CHECK_FALSE(CacheEngine::create(backing, policy));
        policy.policy = "lru"; // the simulator's, not the engine's
        CHECK(CacheEngine::create(backing, policy).error().code() == ErrorCode::InvalidArgument);
        auto engine = CacheEngine::create(backing, smallConfig(WriteMode::WriteBack, false));
        REQUIRE(engine);
        auto outside = (*engine)->read(backing.size() - 100, out);
        REQUIRE_FALSE(outside);
        CHECK(outside.error().code() == ErrorCode::InvalidArgument);
    }
}

TEST_CASE("the engine's default policy hits exactly where the simulator's does",
          "[cachectl][engine]") {
    // The hit-ratio figures come from the simulator (bench_cache_hit_ratio): they hold for the
    // engine only if its clock and the steering's shadow simulations see the same references.
    // One shard, no sequential bypass, and a trace that makes the steering change its mind: a
    // skewed hot set, then loops larger than the cache (a small cold share wins), then a zigzag
    // (a large one wins), then the hot set again.
    constexpr std::uint64_t kBlocks = 6144;
    std::vector<std::uint64_t> refs;
    std::mt19937_64 random(7);
    const auto skewed = [&](std::size_t count) {
        for (std::size_t i = 0; i < count; ++i) {
            const double u = std::uniform_real_distribution<double>(0, 1)(random);
            refs.push_back(static_cast<std::uint64_t>(u * u * u * kBlocks) % kBlocks);
        }
    };
    skewed(40000);
    for (int loop = 0; loop < 12; ++loop) {
        for (std::uint64_t b = 0; b < 2600; ++b) {
            refs.push_back(3000 + b);
        }
    }
    for (int pass = 0; pass < 12; ++pass) {
        for (std::uint64_t b = 0; b < 2400; ++b) {
            refs.push_back(pass % 2 == 0 ? 500 + b : 500 + 2399 - b);
        }
    }
    skewed(40000);

    TestBackingStore backing(kBlocks * kBlock);
    CacheConfig config;
    config.ramBytes = 10ULL << 20; // about 2400 blocks after the shadows' reserve
    config.shards = 1;
    config.sequentialCutoff = 0;
    auto engine = CacheEngine::create(backing, config);
    REQUIRE(engine);
    const std::uint64_t capacity = (*engine)->stats().capacityBlocks;
    REQUIRE(capacity > 1024); // the shadows sample the keys
    std::vector<std::byte> out(kBlock);
    for (const std::uint64_t block : refs) {
        REQUIRE((*engine)->read(block * kBlock, out));
    }
    const auto simulated = simulate(refs, kDefaultPolicy, capacity);
    REQUIRE(simulated);
    const auto stats = (*engine)->stats();
    CHECK(stats.readHits + stats.readMisses == refs.size());
    CHECK(stats.readHits == simulated->hits);
    CHECK(stats.lockFreeHits > 0);
}

TEST_CASE("a sequential scan is bypassed and the hot set survives it", "[cachectl][engine]") {
    TestBackingStore backing(64ULL << 20);
    CacheConfig config;
    config.ramBytes = 2048 * (4096 + 256); // 2048 blocks = 8 MiB of data
    config.shards = 4;
    auto engine = CacheEngine::create(backing, config);
    REQUIRE(engine);
    const std::uint64_t capacity = (*engine)->stats().capacityBlocks;
    const std::uint64_t hot = capacity / 2;
    std::vector<std::byte> block(4096);
    // The hot set: every block read twice, in random order (a hot set is re-referenced; a
    // sequential pass over it would itself be a stream).
    std::vector<std::uint64_t> order(hot);
    std::iota(order.begin(), order.end(), 0);
    std::mt19937_64 random(5);
    for (int pass = 0; pass < 2; ++pass) {
        std::shuffle(order.begin(), order.end(), random);
        for (const std::uint64_t i : order) {
            REQUIRE((*engine)->read(i * 4096, block));
        }
    }
    const auto beforeScan = (*engine)->stats();
    std::vector<std::byte> chunk(128 * 1024);
    const std::uint64_t scanStart = 16ULL << 20;
    for (std::uint64_t at = 0; at < 4 * capacity * 4096; at += chunk.size()) {
        REQUIRE((*engine)->read(scanStart + at, chunk));
    }
    const auto afterScan = (*engine)->stats();
    const std::uint64_t scanBlocks = 4 * capacity;
    // Everything past the 4 MiB cutoff was bypassed.
    CHECK(afterScan.bypassed - beforeScan.bypassed >= scanBlocks - (4ULL << 20) / 4096);
    std::shuffle(order.begin(), order.end(), random);
    for (const std::uint64_t i : order) {
        REQUIRE((*engine)->read(i * 4096, block));
    }
    const auto after = (*engine)->stats();
    const double hotHits =
        static_cast<double>(after.readHits - afterScan.readHits) / static_cast<double>(hot);
    INFO("hot-set hits after the scan: " << hotHits);
    CHECK(hotHits >= 0.95);
}

TEST_CASE("hits of a sequential stream past the cutoff do not promote what they read",
          "[cachectl][engine]") {
    // The cache holds A (placed first) and B, all hot. A is then read again, either by a
    // sequential stream (its hits are not references) or by small random reads (they are).
    // New blocks read twice then need room in the hot share: the hot hand demotes the oldest
    // unreferenced hot blocks, and those are evicted. After the stream that is A, so B stays;
    // after the random reads A is referenced and B goes instead.
    const auto survivors = [](bool stream) {
        TestBackingStore backing(64ULL << 20);
        CacheConfig config;
        config.ramBytes = 2048 * (4096 + 256);
        config.shards = 1;
        config.policy = "clockpro";
        // Every 128 KiB request of the stream is past a 64 KiB cutoff, from its first on.
        config.sequentialCutoff = 64 * 1024;
        auto engine = CacheEngine::create(backing, config);
        REQUIRE(engine);
        const std::uint64_t capacity = (*engine)->stats().capacityBlocks;
        const std::uint64_t half = capacity / 64 * 32; // whole 128 KiB requests of the stream
        std::vector<std::byte> block(4096);
        std::mt19937_64 random(11);
        const auto readShuffled = [&](std::uint64_t first, std::uint64_t count) {
            std::vector<std::uint64_t> order(count);
            std::iota(order.begin(), order.end(), first);
            std::shuffle(order.begin(), order.end(), random);
            for (const std::uint64_t i : order) {
                REQUIRE((*engine)->read(i * 4096, block));
            }
        };
        const auto hitsOf = [&](std::uint64_t first, std::uint64_t count) {
            const auto before = (*engine)->stats().readHits;
            readShuffled(first, count);
            return (*engine)->stats().readHits - before;
        };
        readShuffled(0, half);    // A
        readShuffled(half, half); // B
        if (stream) {
            const auto before = (*engine)->stats();
            std::vector<std::byte> chunk(128 * 1024);
            for (std::uint64_t at = 0; at < half * 4096; at += chunk.size()) {
                REQUIRE((*engine)->read(at, chunk));
            }
            CHECK((*engine)->stats().readHits - before.readHits == half);
        } else {
            CHECK(hitsOf(0, half) == half);
        }
        readShuffled(4 * capacity, half / 2); // new blocks, small random reads: admitted
        readShuffled(4 * capacity, half / 2); // again: they turn hot
        const std::uint64_t hitsB = hitsOf(half, half);
        const std::uint64_t hitsA = hitsOf(0, half);
        return std::pair{hitsA, hitsB};
    };
    const auto [streamA, streamB] = survivors(true);
    const auto [randomA, randomB] = survivors(false);
    INFO("after the stream: A " << streamA << ", B " << streamB << "; after random reads: A "
                                << randomA << ", B " << randomB);
    CHECK(streamB > 4 * streamA);
    CHECK(randomA > 4 * randomB);
}

TEST_CASE("the block codec round-trips and stores incompressible blocks raw",
          "[cachectl][engine]") {
    std::mt19937_64 random(9);
    std::array<std::byte, kCodecMaxEncoded> encoded;
    std::array<std::byte, 4096> decoded;
    std::vector<std::byte> text(4096);
    for (std::size_t i = 0; i < text.size(); ++i) {
        text[i] = static_cast<std::byte>("the quick brown fox "[i % 20]);
    }
    bool compressed = false;
    const auto size = encodeBlock(text.data(), encoded.data(), compressed);
    CHECK(compressed);
    CHECK(size < 1024);
    REQUIRE(decodeBlock(encoded.data(), size, compressed, decoded.data()));
    CHECK(std::memcmp(decoded.data(), text.data(), 4096) == 0);
    std::vector<std::byte> noise(4096);
    for (auto& byte : noise) {
        byte = static_cast<std::byte>(random());
    }
    CHECK(encodeBlock(noise.data(), encoded.data(), compressed) == 4096);
    CHECK_FALSE(compressed);
    // The stored form is what LZ4_compress_default makes of the block.
    std::array<char, LZ4_COMPRESSBOUND(4096)> reference;
    const int referenceSize =
        LZ4_compress_default(reinterpret_cast<const char*>(text.data()), reference.data(), 4096,
                             static_cast<int>(reference.size()));
    REQUIRE(static_cast<std::size_t>(referenceSize) == size);
    CHECK(std::memcmp(reference.data(), encoded.data(), size) == 0);
    // A corrupt or cut stored form is refused, not decoded into garbage.
    CHECK_FALSE(decodeBlock(encoded.data(), size - 1, true, decoded.data()));
    encoded[0] = std::byte{0xff};
    encoded[1] = std::byte{0xff};
    CHECK_FALSE(decodeBlock(encoded.data(), size, true, decoded.data()));
    CHECK_FALSE(decodeBlock(encoded.data(), 0, true, decoded.data()));
}

TEST_CASE("a run of incompressible blocks skips most checks and ends at compressible data",
          "[cachectl][engine]") {
    std::mt19937_64 random(10);
    std::array<std::byte, kCodecMaxEncoded> encoded;
    std::vector<std::byte> text(4096);
    for (std::size_t i = 0; i < text.size(); ++i) {
        text[i] = static_cast<std::byte>("the quick brown fox "[i % 20]);
    }
    std::vector<std::byte> noise(4096);
    EncodeHistory history;
    bool compressed = false;
    // A short run of noise changes nothing: the next compressible block is compressed.
    for (std::uint32_t i = 0; i + 1 < EncodeHistory::kRawStreak; ++i) {
        for (auto& byte : noise) {
            byte = static_cast<std::byte>(random());
        }
        CHECK(encodeBlock(noise.data(), encoded.data(), compressed, history) == 4096);
    }
    CHECK(encodeBlock(text.data(), encoded.data(), compressed, history) < 1024);
    CHECK(compressed);
    // A long run: afterwards compressible blocks are stored raw until the next probe (at most
    // kProbeEvery - 1 of them), which compresses and ends the run.
    for (std::uint32_t i = 0; i < 4 * EncodeHistory::kRawStreak; ++i) {
        encodeBlock(noise.data(), encoded.data(), compressed, history);
        CHECK_FALSE(compressed);
    }
    std::uint32_t storedRaw = 0;
    while (encodeBlock(text.data(), encoded.data(), compressed, history) == 4096) {
        CHECK_FALSE(compressed);
        ++storedRaw;
        REQUIRE(storedRaw < EncodeHistory::kProbeEvery);
    }
    CHECK(compressed);
    for (int i = 0; i < 4; ++i) {
        CHECK(encodeBlock(text.data(), encoded.data(), compressed, history) < 1024);
    }
    // In a run, one block in kProbeEvery is checked.
    EncodeHistory run;
    for (std::uint32_t i = 0; i < EncodeHistory::kRawStreak; ++i) {
        CHECK_FALSE(run.skipNext());
        run.record(false);
    }
    std::uint32_t skipped = 0;
    for (std::uint32_t i = 0; i < 4 * EncodeHistory::kProbeEvery; ++i) {
        if (run.skipNext()) {
            ++skipped;
        } else {
            run.record(false);
        }
    }
    CHECK(skipped == 4 * (EncodeHistory::kProbeEvery - 1));
}

TEST_CASE("switching to write-through writes dirty blocks back first", "[cachectl][engine]") {
    TestBackingStore backing(4ULL << 20);
    auto config = smallConfig(WriteMode::WriteBack, false);
    config.writebackInterval = std::chrono::hours(1);
    auto engine = CacheEngine::create(backing, config);
    REQUIRE(engine);
    std::vector<std::byte> data(32 * 1024, std::byte{0x6b});
    REQUIRE((*engine)->write(4096, data, false));
    CHECK((*engine)->stats().dirtyBytes == data.size());
    REQUIRE((*engine)->setWriteMode(WriteMode::WriteThrough));
    CHECK((*engine)->writeMode() == WriteMode::WriteThrough);
    CHECK((*engine)->stats().dirtyBytes == 0);
    CHECK(backing.durable(4096, data.size()) == data);
    // Now a write is on the backing store when it returns, and still cached.
    std::vector<std::byte> more(4096, std::byte{0x2e});
    REQUIRE((*engine)->write(1 << 20, more, false));
    CHECK(backing.current(1 << 20, 4096) == more);
    CHECK((*engine)->stats().dirtyBytes == 0);
    REQUIRE((*engine)->setWriteMode(WriteMode::WriteBack));
    REQUIRE((*engine)->write(2 << 20, more, false));
    CHECK((*engine)->stats().dirtyBytes == 4096);
}

TEST_CASE("resize changes the capacity and keeps the data readable", "[cachectl][engine]") {
    TestBackingStore backing(8ULL << 20);
    auto config = smallConfig(WriteMode::WriteBack, false);
    config.writebackInterval = std::chrono::hours(1);
    auto engine = CacheEngine::create(backing, config);
    REQUIRE(engine);
    const auto before = (*engine)->stats().capacityBlocks;
    std::vector<std::byte> block(4096);
    for (std::uint64_t b = 0; b < 200; ++b) {
        std::fill(block.begin(), block.end(), static_cast<std::byte>(b));
        REQUIRE((*engine)->write(b * 4096, block, false));
    }
    const auto dirtyBefore = (*engine)->stats().dirtyBytes;
    REQUIRE(dirtyBefore > 0);
    REQUIRE((*engine)->resize(config.ramBytes / 4));
    const auto shrunk = (*engine)->stats();
    CHECK(shrunk.capacityBlocks < before / 3);
    CHECK(shrunk.ramBytes == config.ramBytes / 4);
    // Dirty blocks past the capacity stay until written back; none is lost.
    CHECK(shrunk.dirtyBytes <= dirtyBefore); // the writer may still be writing back
    REQUIRE((*engine)->flush());
    CHECK((*engine)->stats().cachedBlocks <= (*engine)->stats().capacityBlocks);
    for (std::uint64_t b = 0; b < 200; ++b) {
        REQUIRE((*engine)->read(b * 4096, block));
        CHECK(block[0] == static_cast<std::byte>(b));
        CHECK(block[4095] == static_cast<std::byte>(b));
    }
    REQUIRE((*engine)->resize(config.ramBytes * 2));
    CHECK((*engine)->stats().capacityBlocks > before);
    CHECK_FALSE((*engine)->resize(4096)); // fewer blocks than shards
}

namespace {

// A read-only device whose every 8 bytes are a function of their offset: incompressible, and
// nothing kept in RAM.
class PatternStore final : public BlockStore {
public:
    explicit PatternStore(std::uint64_t size)
        : m_size(size) {}
    static std::uint64_t wordAt(std::uint64_t offset) { return offset * 0x9E3779B97F4A7C15ULL; }
    std::uint64_t size() const override { return m_size; }
    std::uint32_t blockSize() const override { return 4096; }
    Expected<void> read(std::uint64_t offset, std::span<std::byte> out) override {
        for (std::size_t i = 0; i < out.size(); i += 8) {
            const std::uint64_t word = wordAt(offset + i);
            std::memcpy(out.data() + i, &word, 8);
        }
        return {};
    }
    Expected<void> write(std::uint64_t, std::span<const std::byte>, bool) override {
        return fail(ErrorCode::Io, "read-only");
    }
    Expected<void> flush() override { return {}; }
    Expected<void> discard(std::uint64_t, std::uint64_t) override { return {}; }
    Expected<void> writeZeroes(std::uint64_t, std::uint64_t, bool) override {
        return fail(ErrorCode::Io, "read-only");
    }

private:
    std::uint64_t m_size;
};

// This process's resident memory (VmRSS), in bytes.
std::uint64_t residentBytes() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0) {
            return std::stoull(line.substr(6)) * 1024;
        }
    }
    return 0;
}

} // namespace

TEST_CASE("the engine's RAM stays within its budget and a smaller size gives RAM back",
          "[cachectl][memory]") {
    // Measured as the process's resident memory: what the frames commit, huge pages included,
    // which the engine's own statistics do not see. Not tagged [engine]: the sanitizer builds
    // run those, and their shadow memory is resident too.
    for (const bool compression : {false, true}) {
        INFO("compression " << compression);
        constexpr std::uint64_t kMiB = 1 << 20;
        PatternStore backing(256 * kMiB);
        const std::uint64_t before = residentBytes();
        CacheConfig config;
        config.ramBytes = 48 * kMiB;
        config.compression = compression;
        config.sequentialCutoff = 0;
        auto engine = CacheEngine::create(backing, config);
        REQUIRE(engine);
        std::mt19937_64 random(7);
        std::vector<std::byte> block(4096);
        const auto readAtRandom = [&] {
            for (std::uint64_t i = 0; i < 3 * (48 * kMiB / 4096); ++i) {
                const std::uint64_t offset = random() % (backing.size() / 4096) * 4096;
                REQUIRE((*engine)->read(offset, block));
                std::uint64_t word = 0;
                std::memcpy(&word, block.data() + 4088, 8);
                REQUIRE(word == PatternStore::wordAt(offset + 4088));
            }
        };
        readAtRandom();
        const std::uint64_t full = residentBytes() - before;
        CHECK(full > 40 * kMiB);
        CHECK(full < 48 * kMiB * 21 / 20); // within 5 % of the budget
        REQUIRE((*engine)->resize(12 * kMiB));
        const std::uint64_t shrunk = residentBytes() - before;
        CHECK(shrunk < 12 * kMiB * 3 / 2);
        readAtRandom(); // the blocks kept and those read since are served right
        CHECK(residentBytes() - before < 12 * kMiB * 3 / 2);
    }
}

TEST_CASE("a compressing cache's frames are on huge pages only while its blocks are stored raw",
          "[cachectl][engine]") {
    // A compressing cache gives back the frame of every block it stores compressed; huge pages
    // would commit the frames between those it uses. They are advised from 15/16 of its node
    // numbers holding raw data, and withdrawn below 7/8 (the writer reviews once per interval).
    CacheConfig config;
    config.ramBytes = 16 << 20;
    config.compression = true;
    config.sequentialCutoff = 0;
    config.writebackInterval = std::chrono::milliseconds(5);
    TestBackingStore backing(64 << 20);
    auto engine = CacheEngine::create(backing, config);
    REQUIRE(engine);
    constexpr std::uint64_t kBlocks = 2048; // 8 MiB: half what the budget holds raw
    std::mt19937_64 random(11);
    // Blocks b with raw(b) do not compress; the others are one byte repeated.
    const auto writeAll = [&](auto raw) {
        std::vector<std::byte> data(kBlock);
        for (std::uint64_t b = 0; b < kBlocks; ++b) {
            if (raw(b)) {
                for (std::size_t i = 0; i < kBlock; i += 8) {
                    const std::uint64_t word = random();
                    std::memcpy(data.data() + i, &word, 8);
                }
            } else {
                std::fill(data.begin(), data.end(), static_cast<std::byte>(b));
            }
            REQUIRE((*engine)->write(b * kBlock, data, false));
        }
    };
    // The advice once the writer has reviewed the data just written (it stays off): two more
    // reviews, since the first may have read the frames' counts before the writes ended. A
    // loaded machine may delay them, so this waits on the count rather than for a time.
    const auto afterReviews = [&] {
        const std::uint64_t target = (*engine)->stats().hugePageReviews + 2;
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while ((*engine)->stats().hugePageReviews < target &&
               std::chrono::steady_clock::now() < until) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        const auto stats = (*engine)->stats();
        REQUIRE(stats.hugePageReviews >= target);
        return stats.hugePageBytes;
    };
    // ... or once it turned on or off (a loaded machine may delay the writer's reviews).
    const auto onceAdvised = [&](bool on) {
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (((*engine)->stats().hugePageBytes > 0) != on &&
               std::chrono::steady_clock::now() < until) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        return (*engine)->stats().hugePageBytes;
    };
    writeAll([](std::uint64_t) { return false; });
    CHECK(afterReviews() == 0);
    writeAll([](std::uint64_t b) { return b % 4 != 0; }); // 3/4 raw
    CHECK(afterReviews() == 0);
    writeAll([](std::uint64_t) { return true; });
    const std::uint64_t advised = onceAdvised(true);
    CHECK(advised >= 8 << 20);
    CHECK(advised <= config.ramBytes);
    writeAll([](std::uint64_t b) { return b % 16 == 0; }); // 1/16 raw
    CHECK(onceAdvised(false) == 0);
    const auto stats = (*engine)->stats();
    CHECK(stats.cachedBlocks == kBlocks);
    CHECK(stats.physicalBytes < kBlocks * kBlock / 4);
    std::vector<std::byte> out(kBlock);
    for (std::uint64_t b = 1; b < kBlocks; b += 7) {
        REQUIRE((*engine)->read(b * kBlock, out));
        if (b % 16 != 0) {
            CHECK(std::all_of(out.begin(), out.end(),
                              [b](std::byte x) { return x == static_cast<std::byte>(b); }));
        }
    }
}

TEST_CASE("the engine's metadata stays within 32 bytes per cached block from 16 MiB up",
          "[cachectl][engine]") {
    // Filled, then random reads over three times the cache: the clock's nodes and index, the
    // keys it remembers, and the shadow simulations of the default policy, as the engine reports
    // them (bench_cache_engine prints the same for 16 MiB to 1 GiB).
    for (const std::uint64_t mib : {16ULL, 64ULL}) {
        INFO(mib << " MiB");
        CacheConfig config;
        config.ramBytes = mib << 20;
        config.sequentialCutoff = 0;
        TestBackingStore backing(3 * config.ramBytes);
        auto engine = CacheEngine::create(backing, config);
        REQUIRE(engine);
        const std::uint64_t capacity = (*engine)->stats().capacityBlocks;
        std::vector<std::byte> block(kBlock);
        for (std::uint64_t b = 0; b < capacity; ++b) {
            REQUIRE((*engine)->read(b * kBlock, block));
        }
        std::mt19937_64 pick(mib);
        for (std::uint64_t i = 0; i < 3 * capacity; ++i) {
            REQUIRE((*engine)->read(pick() % (3 * capacity) * kBlock, block));
        }
        const auto stats = (*engine)->stats();
        CHECK(stats.cachedBlocks * 10 >= capacity * 9);
        CHECK(stats.metadataBytes <= 32 * stats.cachedBlocks);
    }
}

TEST_CASE("devices and RAM budgets past the clock's limits are refused", "[cachectl][engine]") {
    // A device that only has a size: the engine must refuse it before any I/O.
    class SizeOnlyStore final : public BlockStore {
    public:
        explicit SizeOnlyStore(std::uint64_t size)
            : m_size(size) {}
        std::uint64_t size() const override { return m_size; }
        std::uint32_t blockSize() const override { return 4096; }
        Expected<void> read(std::uint64_t, std::span<std::byte>) override { return refuse(); }
        Expected<void> write(std::uint64_t, std::span<const std::byte>, bool) override {
            return refuse();
        }
        Expected<void> flush() override { return refuse(); }
        Expected<void> discard(std::uint64_t, std::uint64_t) override { return refuse(); }
        Expected<void> writeZeroes(std::uint64_t, std::uint64_t, bool) override { return refuse(); }

    private:
        static Expected<void> refuse() { return fail(ErrorCode::Io, "no I/O expected"); }
        std::uint64_t m_size;
    };
    const std::uint64_t limit = (ClockProPolicy::kMaxKey + 1) * kBlock; // 256 TiB
    SizeOnlyStore largest(limit);
    CacheConfig config;
    config.ramBytes = 1 << 20;
    CHECK(CacheEngine::create(largest, config));
    SizeOnlyStore tooLarge(limit + kBlock);
    auto refused = CacheEngine::create(tooLarge, config);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code() == ErrorCode::InvalidArgument);

    // One shard numbers its blocks below 2^25: 40 GiB of RAM needs more shards.
    config.shards = 1;
    config.ramBytes = 40ULL << 30;
    auto oneShard = CacheEngine::create(largest, config);
    REQUIRE_FALSE(oneShard);
    CHECK(oneShard.error().describe().find("more shards") != std::string::npos);
    config.ramBytes = 1 << 20;
    auto small = CacheEngine::create(largest, config);
    REQUIRE(small);
    CHECK_FALSE((*small)->resize(40ULL << 30));
    CHECK((*small)->stats().capacityBlocks < 256);
}

TEST_CASE("the engine keeps data and metadata within its RAM budget under eviction",
          "[cachectl][engine]") {
    // Random reads over four times the cache: the clock evicts all the time and remembers the
    // keys of blocks evicted in their test period. What the engine reports using, data and
    // metadata, stays within the RAM it was given (the shadow simulations' reserve included),
    // also with compression on data that compresses less than the budget assumes (2:1), or not
    // at all; with data that compresses better, the cache holds more blocks.
    enum class Data { Raw, Incompressible, Quarter, Zeroes };
    for (const std::uint64_t mib : {2ULL, 12ULL}) {
        for (const Data data : {Data::Raw, Data::Incompressible, Data::Quarter, Data::Zeroes}) {
            INFO(mib << " MiB, data " << static_cast<int>(data));
            MemoryBlockStore backing(4 * mib << 20);
            // Random bytes in the first `random` bytes of each block, zeroes after them.
            const std::size_t random = data == Data::Quarter  ? 1024
                                       : data == Data::Zeroes ? 0
                                                              : 4096;
            std::vector<std::byte> content(backing.size());
            std::mt19937_64 fill(7);
            for (std::size_t i = 0; i < content.size(); ++i) {
                content[i] = i % 4096 < random ? static_cast<std::byte>(fill()) : std::byte{0};
            }
            REQUIRE(backing.write(0, content, false));
            CacheConfig config;
            config.ramBytes = mib << 20;
            config.compression = data != Data::Raw;
            config.sequentialCutoff = 0;
            auto engine = CacheEngine::create(backing, config);
            REQUIRE(engine);
            const std::uint64_t nominal = (*engine)->stats().capacityBlocks;
            std::mt19937_64 pick(mib);
            std::vector<std::byte> block(4096);
            const std::uint64_t blocks = backing.size() / 4096;
            for (std::uint64_t i = 0; i < 3 * blocks; ++i) {
                const std::uint64_t b = pick() % blocks;
                REQUIRE((*engine)->read(b * 4096, block));
                REQUIRE(std::memcmp(block.data(), content.data() + b * 4096, 4096) == 0);
            }
            const auto stats = (*engine)->stats();
            CHECK(stats.cachedBlocks * 10 >= stats.capacityBlocks * 9);
            CHECK(stats.physicalBytes + stats.metadataBytes <= config.ramBytes);
            if (data == Data::Incompressible) {
                CHECK(stats.capacityBlocks < nominal * 6 / 10); // about half
            } else if (data == Data::Zeroes) {
                CHECK(stats.capacityBlocks > nominal * 15 / 10); // up to twice
            }
        }
    }
}
