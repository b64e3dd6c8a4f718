// Cache engine speed against peers measured in the same run:
// - hit path, one thread, random 4 KiB reads of cached data, against pread(2) of the same data
//   from the Linux page cache and against memcpy of random 4 KiB blocks from a same-size pool;
// - two threads against one on hits;
// - LZ4: the engine's block decode/encode against LZ4_decompress_safe/LZ4_compress_default on
//   whole blocks, and the cost of incompressible data (engine writes and hits with compression
//   on vs off);
// - write-back absorption: 4 KiB writes/s below the high watermark;
// - metadata bytes per cached block as the engine reports them, for caches of 16 MiB to 1 GiB:
//   filled, and then under random reads over four times their size (evictions, with the
//   non-resident keys CLOCK-Pro remembers);
// - resize under reads: the longest read of a thread reading while the cache is resized to a
//   quarter, against the resize's own time.
//   bench_cache_engine [--mib N] [--seconds S] [--policy clockpro-steered|clockpro]
// --policy runs the engines with plain CLOCK-Pro instead of the default, to see what the
// steering costs on the hit path and in metadata.
// The stores behind the engines are in memory, so a read that missed would not look slow: each
// timed phase reads the engine's counters before and after and exits 1 unless they moved by
// exactly the phase's calls (all hits where it times hits, all writes absorbed where it times
// writes).

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <lz4.h>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <tuple>
#include <unistd.h>
#include <vector>

#include "core/base/page_buffer.h"
#include "core/cachectl/block_store.h"
#include "core/cachectl/engine/block_codec.h"
#include "core/cachectl/engine/cache_engine.h"
#include "core/cachectl/engine/policy.h"

using namespace ssdk::cachectl;
using namespace ssdk::cachectl::engine;
using Clock = std::chrono::steady_clock;
// Destinations and the memcpy pool are page-aligned, as the engine's frames and real I/O buffers
// (the NBD server's, O_DIRECT's) are: with malloc's 16 bytes the engine against the pool ran
// 0.58x or 0.75x depending on where malloc put them (docs/daemon.md, "Copies between aligned
// buffers").
using ssdk::PageBuffer;

namespace {

constexpr std::size_t kBlock = 4096;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// The median of values (reordered).
double median(std::vector<double>& values) {
    const auto middle = values.begin() + std::ssize(values) / 2;
    std::ranges::nth_element(values, middle);
    return *middle;
}

// Runs fn(i) for i = 0.. until `seconds` passed (checked every 4096 calls); returns calls/s.
template <typename Fn> double rate(double seconds, Fn&& fn) {
    const auto start = Clock::now();
    std::uint64_t calls = 0;
    for (;;) {
        for (int k = 0; k < 4096; ++k) {
            fn(calls++);
        }
        const double elapsed = secondsSince(start);
        if (elapsed >= seconds) {
            return static_cast<double>(calls) / elapsed;
        }
    }
}

struct Compared {
    double rateA = 0; // calls/s
    double rateB = 0;
    std::uint64_t callsA = 0;
    std::uint64_t callsB = 0;
};

// Measures a and b in alternating 20 ms slices for `seconds` each, so a machine whose load
// changes during the run slows both alike.
template <typename A, typename B> Compared compare(double seconds, A&& a, B&& b) {
    const int rounds = std::max(1, static_cast<int>(seconds / 0.02));
    std::uint64_t callsA = 0;
    std::uint64_t callsB = 0;
    double timeA = 0;
    double timeB = 0;
    const auto slice = [](auto& fn, std::uint64_t& calls, double& time) {
        const auto start = Clock::now();
        do {
            for (int k = 0; k < 256; ++k) {
                fn(calls++);
            }
        } while (secondsSince(start) < 0.02);
        time += secondsSince(start);
    };
    for (int round = 0; round < rounds; ++round) {
        slice(a, callsA, timeA);
        slice(b, callsB, timeB);
    }
    return {.rateA = static_cast<double>(callsA) / timeA,
            .rateB = static_cast<double>(callsB) / timeB,
            .callsA = callsA,
            .callsB = callsB};
}

// What a phase's calls should have moved the engine's counters by.
struct Counted {
    std::uint64_t hits = 0;
    std::uint64_t misses = 0;
    std::uint64_t writes = 0;
};

// Exits 1 unless the engine counted exactly `expected` (and bypassed nothing) between before and
// after, so no figure is printed for reads that were not the hits it claims to time.
void expectCounted(const std::string& phase, const CacheStats& before, const CacheStats& after,
                   Counted expected) {
    const Counted got{.hits = after.readHits - before.readHits,
                      .misses = after.readMisses - before.readMisses,
                      .writes = after.writes - before.writes};
    const std::uint64_t bypassed = after.bypassed - before.bypassed;
    if (got.hits != expected.hits || got.misses != expected.misses ||
        got.writes != expected.writes || bypassed != 0) {
        fmt::print(stderr,
                   "bench_cache_engine: {}: expected {} hits, {} misses and {} writes; the engine "
                   "counted {} hits, {} misses, {} writes and {} bypassed blocks\n",
                   phase, expected.hits, expected.misses, expected.writes, got.hits, got.misses,
                   got.writes, bypassed);
        std::exit(1);
    }
    fmt::print("  checked ({}): the engine counted {} hits, {} misses, {} writes, as expected\n",
               phase, got.hits, got.misses, got.writes);
}

void fillCompressible(std::byte* data, std::size_t size, std::mt19937_64& random) {
    // Text-like: words from a small vocabulary, about 2.5:1 with LZ4.
    static const char* words[] = {"block ",  "cache ",  "write-back ", "flush ", "the ",    "of ",
                                  "sector ", "device ", "0x1f3a ",     "ssd ",   "keeper ", "ram "};
    std::size_t i = 0;
    while (i < size) {
        const char* word = words[random() % 12];
        const std::size_t n = std::min(std::strlen(word), size - i);
        std::memcpy(data + i, word, n);
        i += n;
        if (random() % 7 == 0 && i < size) {
            data[i++] = static_cast<std::byte>(random());
        }
    }
}

// A backing device of zeroes that keeps nothing: caches under eviction without the RAM for a
// data set four times their size.
class ZeroStore final : public BlockStore {
public:
    explicit ZeroStore(std::uint64_t size)
        : m_size(size) {}
    std::uint64_t size() const override { return m_size; }
    std::uint32_t blockSize() const override { return kBlock; }
    ssdk::Expected<void> read(std::uint64_t, std::span<std::byte> out) override {
        std::memset(out.data(), 0, out.size());
        return {};
    }
    ssdk::Expected<void> write(std::uint64_t, std::span<const std::byte>, bool) override {
        return {};
    }
    ssdk::Expected<void> flush() override { return {}; }
    ssdk::Expected<void> discard(std::uint64_t, std::uint64_t) override { return {}; }
    ssdk::Expected<void> writeZeroes(std::uint64_t, std::uint64_t, bool) override { return {}; }

private:
    std::uint64_t m_size;
};

void fillRandom(std::byte* data, std::size_t size, std::mt19937_64& random) {
    for (std::size_t i = 0; i < size; i += 8) {
        const std::uint64_t word = random();
        std::memcpy(data + i, &word, std::min<std::size_t>(8, size - i));
    }
}

std::unique_ptr<CacheEngine> makeEngine(BlockStore& backing, std::size_t blocks, bool compression,
                                        const std::string& policy,
                                        WriteMode mode = WriteMode::WriteThrough) {
    CacheConfig config;
    config.policy = policy;
    config.ramBytes = blocks * (kBlock + 512) + (8U << 20);
    config.compression = compression;
    config.writeMode = mode;
    config.sequentialCutoff = 0;
    config.dirtyHighWatermark = 0.9;
    config.dirtyLowWatermark = 0.5;
    config.writebackInterval = std::chrono::hours(1);
    auto engine = CacheEngine::create(backing, config);
    if (!engine) {
        fmt::print(stderr, "{}\n", engine.error().describe());
        std::exit(1);
    }
    return std::move(*engine);
}

} // namespace

int main(int argc, char** argv) {
    std::size_t mib = 64;
    double seconds = 1.0;
    std::string policy(kDefaultPolicy);
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--mib") == 0) {
            mib = std::stoul(argv[i + 1]);
        } else if (std::strcmp(argv[i], "--seconds") == 0) {
            seconds = std::stod(argv[i + 1]);
        } else if (std::strcmp(argv[i], "--policy") == 0) {
            policy = argv[i + 1];
        }
    }
    const std::size_t blocks = mib * 256;
    const std::size_t bytes = blocks * kBlock;
    std::mt19937_64 random(1);
    PageBuffer data(bytes);
    fillCompressible(data.data(), bytes, random);
    std::vector<std::uint64_t> order(1 << 20);
    for (auto& index : order) {
        index = random() % blocks;
    }
    const auto pick = [&](std::uint64_t i) { return order[i & (order.size() - 1)]; };
    PageBuffer out(kBlock);
    fmt::print("data set: {} MiB ({} blocks), {:.1f} s per measurement, policy {}\n", mib, blocks,
               seconds, policy);

    // ---- hit path, one thread ----
    MemoryBlockStore backing(bytes);
    if (!backing.write(0, data, false)) {
        return 1;
    }
    auto engine = makeEngine(backing, blocks, false, policy);
    for (std::size_t b = 0; b < blocks; ++b) {
        (void)engine->read(b * kBlock, out);
    }
    expectCounted("warm-up", {}, engine->stats(), {.misses = blocks});
    const auto engineRead = [&](std::uint64_t i) { (void)engine->read(pick(i) * kBlock, out); };
    char path[] = "/var/tmp/ssdk-bench-pagecache-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0 || ::write(fd, data.data(), bytes) != static_cast<ssize_t>(bytes)) {
        fmt::print(stderr, "cannot write {}\n", path);
        return 1;
    }
    unlink(path);
    for (std::size_t b = 0; b < blocks; ++b) {
        (void)pread(fd, out.data(), kBlock, static_cast<off_t>(b * kBlock));
    }
    auto before = engine->stats();
    const auto vsPread = compare(seconds, engineRead, [&](std::uint64_t i) {
        (void)pread(fd, out.data(), kBlock, static_cast<off_t>(pick(i) * kBlock));
    });
    close(fd);
    auto after = engine->stats();
    expectCounted("hit path vs pread", before, after, {.hits = vsPread.callsA});
    before = after;
    const auto vsMemcpy = compare(seconds, engineRead, [&](std::uint64_t i) {
        std::memcpy(out.data(), data.data() + pick(i) * kBlock, kBlock);
    });
    expectCounted("hit path vs memcpy", before, engine->stats(), {.hits = vsMemcpy.callsA});
    const double memcpyRate = vsMemcpy.rateB;
    fmt::print("hit path, 1 thread: engine {:.2f} M/s vs pread(page cache) {:.2f} M/s; engine "
               "{:.2f} M/s vs memcpy pool {:.2f} M/s\n",
               vsPread.rateA / 1e6, vsPread.rateB / 1e6, vsMemcpy.rateA / 1e6, memcpyRate / 1e6);
    fmt::print("  ratio engine/pread  {:.2f}  (target >= 2.0)\n", vsPread.rateA / vsPread.rateB);
    fmt::print("  ratio engine/memcpy {:.2f}  (target >= 0.70)\n", vsMemcpy.rateA / memcpyRate);

    // ---- metadata per cached block by cache size, with the data set cached and after random
    // reads over four times the cache (evictions: the keys CLOCK-Pro remembers, and the shadow
    // simulations, which cost about the same whatever the cache's size, up to 1 GiB) ----
    fmt::print("metadata by cache size (B per cached block; target <= 32):\n");
    for (const std::uint64_t cacheMib : {16UL, 64UL, 256UL, 1024UL}) {
        ZeroStore zeroes(4 * cacheMib << 20);
        CacheConfig config;
        config.policy = policy;
        config.ramBytes = cacheMib << 20;
        config.sequentialCutoff = 0;
        auto sized = CacheEngine::create(zeroes, config);
        if (!sized) {
            fmt::print(stderr, "{}\n", sized.error().describe());
            return 1;
        }
        const std::uint64_t capacity = (*sized)->stats().capacityBlocks;
        for (std::uint64_t b = 0; b < capacity; ++b) {
            (void)(*sized)->read(b * kBlock, out);
        }
        const auto filled = (*sized)->stats();
        expectCounted(fmt::format("metadata, {} MiB filled", cacheMib), {}, filled,
                      {.misses = capacity});
        std::mt19937_64 spread(cacheMib);
        for (std::uint64_t i = 0; i < 3 * capacity; ++i) {
            (void)(*sized)->read(spread() % (4 * capacity) * kBlock, out);
        }
        const auto evicting = (*sized)->stats();
        const auto perBlock = [](const CacheStats& at) {
            return static_cast<double>(at.metadataBytes) / static_cast<double>(at.cachedBlocks);
        };
        fmt::print("  {:>5} MiB ({:>6} blocks): {:.1f} filled, {:.1f} with evictions (hit ratio "
                   "{:.2f})\n",
                   cacheMib, capacity, perBlock(filled), perBlock(evicting), evicting.hitRatio());
    }

    // ---- two threads against one, in alternating 50 ms slices; the same for memcpy from
    // the pool, which shows what the machine's memory gives a second thread. The rate of a
    // VM's cores drifts (1-thread rates from 1.6 to 2.5 M/s between runs here), so each round
    // compares a one-thread slice with the two-thread slice right after it, and the result is
    // the median of those ratios ----
    const auto scaling = [&](auto&& op) {
        // One thread's 50 ms slice: its calls and calls/s.
        const auto slice = [&](unsigned seed) {
            thread_local PageBuffer local(kBlock);
            const auto start = Clock::now();
            std::uint64_t calls = 0;
            do {
                for (int k = 0; k < 256; ++k, ++calls) {
                    op(pick(calls * 7 + seed), local.data());
                }
            } while (secondsSince(start) < 0.05);
            return std::pair{calls, static_cast<double>(calls) / secondsSince(start)};
        };
        double one = 0;
        double two = 0;
        std::uint64_t calls = 0;
        std::vector<double> ratios;
        const int rounds = std::max(1, static_cast<int>(seconds / 0.1));
        for (int round = 0; round < rounds; ++round) {
            const auto alone = slice(1);
            std::pair<std::uint64_t, double> other;
            std::thread helper([&] { other = slice(2); });
            const auto mine = slice(1);
            helper.join();
            const double both = mine.second + other.second;
            one += alone.second;
            two += both;
            calls += alone.first + mine.first + other.first;
            ratios.push_back(both / alone.second);
        }
        return std::tuple{one / rounds, two / rounds, median(ratios), calls};
    };
    const auto hitsBefore = engine->stats();
    const auto [engineOne, engineTwo, engineScaling, engineCalls] =
        scaling([&](std::uint64_t block, std::byte* to) {
            (void)engine->read(block * kBlock, std::span(to, kBlock));
        });
    const auto hitsAfter = engine->stats();
    expectCounted("hits, 2 threads against 1", hitsBefore, hitsAfter, {.hits = engineCalls});
    const auto [memcpyOne, memcpyTwo, memcpyScaling, memcpyCalls] =
        scaling([&](std::uint64_t block, std::byte* to) {
            std::memcpy(to, data.data() + block * kBlock, kBlock);
        });
    fmt::print("hits, 2 threads: {:.2f} M/s vs 1 thread {:.2f} M/s; median ratio per round {:.2f} "
               "(target >= 1.8); memcpy pool 2 threads vs 1: {:.2f}\n",
               engineTwo / 1e6, engineOne / 1e6, engineScaling, memcpyScaling);
    fmt::print("  hits taken without the shard lock: {:.1f} %\n",
               100.0 * static_cast<double>(hitsAfter.lockFreeHits - hitsBefore.lockFreeHits) /
                   static_cast<double>(
                       std::max<std::uint64_t>(1, hitsAfter.readHits - hitsBefore.readHits)));

    // ---- LZ4 ----
    const std::size_t lz4Blocks = std::min<std::size_t>(blocks, 4096);
    std::vector<std::byte> encoded(lz4Blocks * kCodecMaxEncoded);
    std::vector<std::size_t> encodedSize(lz4Blocks);
    std::vector<bool> encodedCompressed(lz4Blocks);
    std::vector<char> raw(lz4Blocks * static_cast<std::size_t>(LZ4_compressBound(kBlock)));
    std::vector<int> rawSize(lz4Blocks);
    const auto rawStride = static_cast<std::size_t>(LZ4_compressBound(kBlock));
    const auto encoding = compare(
        seconds,
        [&](std::uint64_t i) {
            const std::size_t k = i % lz4Blocks;
            bool compressed = false;
            encodedSize[k] = encodeBlock(data.data() + k * kBlock,
                                         encoded.data() + k * kCodecMaxEncoded, compressed);
            encodedCompressed[k] = compressed;
        },
        [&](std::uint64_t i) {
            const std::size_t k = i % lz4Blocks;
            rawSize[k] = LZ4_compress_default(
                reinterpret_cast<const char*>(data.data() + k * kBlock), raw.data() + k * rawStride,
                kBlock, static_cast<int>(rawStride));
        });
    const auto decoding = compare(
        seconds,
        [&](std::uint64_t i) {
            const std::size_t k = pick(i) % lz4Blocks;
            (void)decodeBlock(encoded.data() + k * kCodecMaxEncoded, encodedSize[k],
                              encodedCompressed[k], out.data());
        },
        [&](std::uint64_t i) {
            const std::size_t k = pick(i) % lz4Blocks;
            (void)LZ4_decompress_safe(raw.data() + k * rawStride,
                                      reinterpret_cast<char*>(out.data()), rawSize[k], kBlock);
        });
    std::size_t storedTotal = 0;
    std::size_t rawTotal = 0;
    for (std::size_t k = 0; k < lz4Blocks; ++k) {
        storedTotal += encodedSize[k];
        rawTotal += static_cast<std::size_t>(rawSize[k]);
    }
    fmt::print("LZ4 admission: engine encode {:.0f} MB/s, LZ4_compress_default {:.0f} MB/s; ratio "
               "{:.2f} (target >= 0.9)\n",
               encoding.rateA * kBlock / 1e6, encoding.rateB * kBlock / 1e6,
               encoding.rateA / encoding.rateB);
    fmt::print("LZ4 hit: engine decode {:.0f} MB/s, LZ4_decompress_safe {:.0f} MB/s; ratio {:.2f} "
               "(target >= 0.9)\n",
               decoding.rateA * kBlock / 1e6, decoding.rateB * kBlock / 1e6,
               decoding.rateA / decoding.rateB);
    fmt::print("  compression ratio: engine {:.2f}, whole-block LZ4 {:.2f}\n",
               static_cast<double>(lz4Blocks * kBlock) / static_cast<double>(storedTotal),
               static_cast<double>(lz4Blocks * kBlock) / static_cast<double>(rawTotal));

    // ---- incompressible data and write-back absorption ----
    PageBuffer noise(bytes);
    fillRandom(noise.data(), bytes, random);
    const std::size_t writeBlocks = blocks / 2; // stays below the high watermark (0.9)
    MemoryBlockStore storeRaw(bytes);
    MemoryBlockStore storeCompressed(bytes);
    auto writeBackRaw = makeEngine(storeRaw, blocks, false, policy, WriteMode::WriteBack);
    auto writeBackCompressed =
        makeEngine(storeCompressed, blocks, true, policy, WriteMode::WriteBack);
    const auto writer = [&](CacheEngine& target) {
        return [&target, &noise, &pick, writeBlocks](std::uint64_t i) {
            const std::uint64_t block = pick(i) % writeBlocks;
            (void)target.write(block * kBlock, std::span(noise.data() + block * kBlock, kBlock),
                               false);
        };
    };
    const auto absorbed = compare(seconds, writer(*writeBackRaw), writer(*writeBackCompressed));
    const double absorbRaw = absorbed.rateA;
    const double absorbNoiseCompressed = absorbed.rateB;
    expectCounted("absorption, compression off", {}, writeBackRaw->stats(),
                  {.writes = absorbed.callsA});
    expectCounted("absorption, compression on", {}, writeBackCompressed->stats(),
                  {.writes = absorbed.callsB});
    if (const auto ops = writeBackRaw->stats().writebackOps; ops != 0) {
        fmt::print("  (write-back ran during the absorption test: {} ops)\n", ops);
    }
    fmt::print("write-back absorption (4 KiB, below the high watermark): {:.2f} M writes/s "
               "(target >= 1.0); memcpy pool {:.2f} M/s\n",
               absorbRaw / 1e6, memcpyRate / 1e6);
    fmt::print("incompressible data with compression on: {:.2f} M writes/s, {:.1f}% slower than "
               "compression off (target <= 10%)\n",
               absorbNoiseCompressed / 1e6, 100.0 * (1.0 - absorbNoiseCompressed / absorbRaw));
    // Hits on the blocks just written (stored raw by both engines). A short run may not have
    // written every one of them: those are written now, so that the reads below all hit.
    for (CacheEngine* target : {writeBackRaw.get(), writeBackCompressed.get()}) {
        for (std::uint64_t block = 0; block < writeBlocks; ++block) {
            (void)target->write(block * kBlock, std::span(noise.data() + block * kBlock, kBlock),
                                false);
        }
    }
    const auto rawBefore = writeBackRaw->stats();
    const auto compressedBefore = writeBackCompressed->stats();
    const auto reader = [&](CacheEngine& target) {
        return [&target, &out, &pick, writeBlocks](std::uint64_t i) {
            (void)target.read(pick(i) % writeBlocks * kBlock, out);
        };
    };
    const auto noiseHits = compare(seconds, reader(*writeBackRaw), reader(*writeBackCompressed));
    expectCounted("hits on written data, compression off", rawBefore, writeBackRaw->stats(),
                  {.hits = noiseHits.callsA});
    expectCounted("hits on written data, compression on", compressedBefore,
                  writeBackCompressed->stats(), {.hits = noiseHits.callsB});
    const double noiseHitsRaw = noiseHits.rateA;
    const double noiseHitsCompressed = noiseHits.rateB;
    fmt::print("  and its hits: {:.2f} M reads/s, {:.1f}% slower than compression off (target "
               "<= 10%)\n",
               noiseHitsCompressed / 1e6, 100.0 * (1.0 - noiseHitsCompressed / noiseHitsRaw));

    // ---- resize under reads: the hit-path engine (the data set cached) resized to a quarter
    // while another thread reads at random; how long that thread's longest read took, against
    // the resize's own time (each shard is resized under its own lock; only giving the RAM
    // back holds them all) ----
    const auto beforeResize = engine->stats();
    std::atomic<bool> resized{false};
    std::vector<double> readMicros;
    std::thread resizeReader([&] {
        PageBuffer to(kBlock);
        for (std::uint64_t i = 0; !resized.load(std::memory_order_relaxed); ++i) {
            const auto start = Clock::now();
            (void)engine->read(pick(i) * kBlock, to);
            readMicros.push_back(secondsSince(start) * 1e6);
        }
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const auto resizeStart = Clock::now();
    if (auto shrunk = engine->resize(engine->stats().ramBytes / 4); !shrunk) {
        fmt::print(stderr, "resize: {}\n", shrunk.error().describe());
    }
    const double resizeMicros = secondsSince(resizeStart) * 1e6;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    resized = true;
    resizeReader.join();
    // Reads after the shrink miss the blocks it dropped: the check is that every read was served
    // by the engine's hit or miss path and none bypassed it.
    const auto afterResize = engine->stats();
    const std::uint64_t resizeHits = afterResize.readHits - beforeResize.readHits;
    expectCounted("reads during the resize", beforeResize, afterResize,
                  {.hits = resizeHits, .misses = readMicros.size() - resizeHits});
    const double longest = *std::ranges::max_element(readMicros);
    fmt::print("resize to a quarter under reads: {:.1f} ms; the reader's longest read {:.0f} us "
               "({:.2f} of the resize; median read {:.1f} us)\n",
               resizeMicros / 1e3, longest, longest / resizeMicros, median(readMicros));
    return 0;
}
