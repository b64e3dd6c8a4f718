#include "core/cachectl/engine/cache_engine.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <fmt/format.h>
#include <optional>
#include <unordered_set>

#include "core/base/log.h"
#include "core/cachectl/engine/block_codec.h"
#include "core/cachectl/engine/frame_arena.h"
#include "core/cachectl/engine/policies.h"
#include "core/cachectl/engine/reader_slots.h"
#include "core/cachectl/engine/shard_lock.h"

namespace ssdk::cachectl::engine {

namespace {

constexpr std::uint64_t kBlock = CacheEngine::kBlockSize;
// Blocks per shard group: 16 x 4 KiB = 64 KiB stay in one shard, so write-back runs coalesce.
constexpr unsigned kGroupShift = 4;
// Longest backing write write-back issues (blocks): 1 MiB.
constexpr std::size_t kMaxRunBlocks = 256;
// Blocks a shard keeps at least when the engine chooses the shard count (1 MiB).
constexpr std::uint64_t kMinShardBlocks = 256;
// Reads from this size on ask the sequential detector before looking at the cache (read()).
constexpr std::uint64_t kStreamCheckBytes = 64 * 1024;
// RAM one cached block is budgeted for besides its data: its clock node (16 B, placement time
// included) and index entry (5 B), and its share of the keys CLOCK-Pro remembers (about 4 B):
// about 26 B in a full cache with a steady stream of misses, 21 B before any eviction; the
// default policy's shadow simulations add about 6 B. A compressing cache keeps a buffer handle
// per block besides. stats().metadataBytes reports what is really used.
constexpr std::uint64_t kMetadataPerBlockBudget = 40;
constexpr std::uint64_t kCompressedHandleBudget = 16;
// The default policy's shadow simulations take at most about this much up to 1 GiB (three
// CLOCK-Pro copies of at most 1024 blocks), less beyond: reserved once, from at most half the
// budget, as fitBudget counts only the clocks' own metadata (a compressing cache whose data
// compresses badly holds fewer blocks than the shadows were sized for).
constexpr std::uint64_t kSteeringReserve = 96 * 1024;
// A compressing cache first decides whether huge pages back its frames after this many stores
// (CacheEngine::reviewHugePages), and only from this many node numbers on.
constexpr std::int64_t kStoresBeforeHugePageReview = 512;
constexpr std::uint64_t kHugePageReviewNodes = 256;

std::uint64_t mixGroup(std::uint64_t block) {
    std::uint64_t x = block >> kGroupShift;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

// The RAM budget a shard's blocks may take (data and metadata), after the shadow simulations'
// reserve.
std::uint64_t shardBudget(std::uint64_t ramBytes, std::size_t shards) {
    return (ramBytes - std::min(ramBytes / 2, kSteeringReserve)) / shards;
}

// Blocks a shard's budget holds stored raw (a compressing cache's least capacity), at most
// perShard.
std::size_t rawBlocksFor(std::uint64_t budget, std::size_t perShard) {
    const std::uint64_t raw = kBlock + kMetadataPerBlockBudget + kCompressedHandleBudget;
    return std::clamp<std::size_t>(budget / raw, 1, perShard);
}

// Blocks a RAM budget holds: data (half a block each, on average, with compression) plus the
// metadata budget, after the shadow simulations' reserve.
std::uint64_t capacityFor(std::uint64_t ramBytes, bool compression) {
    const std::uint64_t dataPerBlock = compression ? kBlock / 2 : kBlock;
    const std::uint64_t metadata =
        kMetadataPerBlockBudget + (compression ? kCompressedHandleBudget : 0);
    return shardBudget(ramBytes, 1) / (dataPerBlock + metadata);
}

// A shard's clock numbers its nodes below ClockProPolicy::kMaxNodes: room for its blocks, up to
// twice as many with compression, and as many detached dirty blocks again.
Expected<void> checkShardCapacity(std::uint64_t ramBytes, std::uint64_t perShard,
                                  std::size_t shards) {
    if (4 * perShard > ClockProPolicy::kMaxNodes) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("a RAM budget of {} bytes is more than {} shards can hold; use "
                                "more shards",
                                ramBytes, shards));
    }
    return {};
}

// What this thread's recent blocks compressed to (block_codec.h): a thread writing a run of
// incompressible data skips most early-abort checks.
EncodeHistory& threadHistory() {
    thread_local EncodeHistory history;
    return history;
}

// A block as the cache stores it (block_codec.h): LZ4-compressed into `buffer` when the cache
// compresses and the block shrinks enough, else the block itself.
struct StoredForm {
    const std::byte* data;
    std::size_t bytes;
    bool compressed;
};
StoredForm storedForm(const std::byte* block, bool compression,
                      std::array<std::byte, kCodecMaxEncoded>& buffer) {
    if (!compression) {
        return {block, kBlock, false};
    }
    bool compressed = false;
    const std::size_t bytes = encodeBlock(block, buffer.data(), compressed, threadHistory());
    return {compressed ? buffer.data() : block, bytes, compressed};
}

} // namespace

// A shard's blocks live in its clock (policies.h): a cached block is a data node of the clock,
// and its data is at the node's number: in the frame arena when stored raw, in a buffer of its
// own (`encoded`) when compressed. The node's engine flags say whether the data is dirty and
// whether it is compressed; a dirty block the clock evicts stays as a detached node until
// written back.
struct alignas(64) CacheEngine::Shard {
    // Node flags of the engine. kDirty is the clock's kPinned: dirty data outlives eviction.
    static constexpr std::uint32_t kDirty = ClockProPolicy::kPinned;
    // Set when write-back copies the block and cleared by every write to it, so write-back
    // knows whether what it wrote is still the block's content.
    static constexpr std::uint32_t kWriting = 2;
    // The node's data is compressed, in encoded[node]; else raw, in its frame. A flag of the
    // node, whose cache line a look-up has loaded: a cache storing incompressible data never
    // reads `encoded` (the clock clears the flags of the nodes it drops, so dropData asks
    // `encoded` itself).
    static constexpr std::uint32_t kCompressed = 4;

    // What a compressing cache stores of a compressed node (block_codec.h); empty for a node
    // stored raw.
    struct Stored {
        std::unique_ptr<std::byte[]> data;
        std::uint16_t bytes = 0;
    };
    static_assert(sizeof(Stored) <= kCompressedHandleBudget);

    ShardLock mutex;
    // Next to the lock: a hit writes only the cache line the lock has brought to its core.
    std::uint64_t hits = 0;
    std::uint64_t misses = 0;
    std::unique_ptr<SteeredClockProPolicy> policy;
    bool compression = false;
    FrameArena frames{kBlock};   // raw data, by node
    std::vector<Stored> encoded; // with compression, by node
    // With compression, a bit per node: its frame was written (its pages are committed), and is
    // given back to the kernel when the node next holds compressed data, so RAM holds one copy.
    std::vector<std::uint64_t> framesUsed;
    // With compression: the data nodes holding compressed data; and, for the engine's review of
    // huge pages (reviewHugePages), read without the lock: the frames holding raw data and the
    // node numbers in use (publishFrameUse).
    std::uint64_t compressedBlocks = 0;
    std::atomic<std::uint64_t> rawFrames{0};
    std::atomic<std::uint64_t> numberedNodes{0};
    // Blocks a write-through write is writing to the backing store now: other writes to them
    // wait, reads do not cache them.
    std::unordered_set<std::uint64_t> inFlight;
    std::condition_variable_any inFlightDone;
    // Bumped by every change of the backing store's content seen through this shard; a read
    // miss caches what it read only when the epoch did not move meanwhile.
    std::uint64_t epoch = 0;
    std::uint64_t physicalBytes = 0;
    // With compression: the shard's share of the RAM budget (data and metadata) and the bounds
    // of its clock's capacity (fitBudget).
    std::uint64_t budgetBytes = 0;
    std::size_t minBlocks = 0;
    std::size_t maxBlocks = 0;
    std::vector<std::uint64_t> evicted;

    ClockProPolicy& clock() { return policy->clock(); }

    bool holdsCompressed(std::uint32_t node) {
        return (clock().dataFlags(node) & kCompressed) != 0;
    }

    // RAM node's data takes. Not for a node the clock dropped (dropData).
    std::size_t storedBytes(std::uint32_t node) {
        return compression && holdsCompressed(node) ? encoded[node].bytes : kBlock;
    }

    void dropData(std::uint32_t node) {
        if (!compression || encoded[node].data == nullptr) {
            physicalBytes -= kBlock;
            return;
        }
        physicalBytes -= encoded[node].bytes;
        --compressedBlocks;
        encoded[node].data.reset();
        encoded[node].bytes = 0;
    }

    // Drops what the clock dropped to make room. Call with mutex held.
    void dropEvicted() {
        for (const std::uint32_t node : clock().droppedData()) {
            dropData(node);
        }
    }

    // dropEvicted() for a clock made smaller, which allocates nothing meanwhile: a compressing
    // cache also gives back the frames of the blocks dropped, as its frames in use are
    // scattered (a cache without compression gives back those beyond its size, compact()).
    // Without this, RAM grew past the budget by the frames of every block a shrink dropped: 16 %
    // on incompressible data (a 64 MiB cache first holds about twice as many blocks as its
    // budget, until the blocks' size shows), 100 % after a resize from 256 to 64 MiB.
    void dropShrunk() {
        if (compression) {
            for (const std::uint32_t node : clock().droppedData()) {
                releaseFrame(node);
            }
        }
        dropEvicted();
    }

    // With compression: marks node's frame written, or gives its pages back if it was.
    void markFrameUsed(std::uint32_t node) {
        framesUsed[node / 64] |= std::uint64_t{1} << (node % 64);
    }
    void releaseFrame(std::uint32_t node) {
        std::uint64_t& word = framesUsed[node / 64];
        const std::uint64_t bit = std::uint64_t{1} << (node % 64);
        if ((word & bit) != 0) {
            frames.discard(node);
            word &= ~bit;
        }
    }

    // Waits until no lock-free reader is in this shard (reader_slots.h): before memory they
    // may be reading is freed or moved. Call with mutex held.
    void waitForReaders() {
        mutex.announceHeld();
        ReaderSlot::waitForReaders(this);
    }

    // Makes the data of node addressable (the clock may have added data nodes).
    void reserveData() {
        const std::size_t nodes = clock().dataNodes();
        if (frames.frames() < nodes) {
            waitForReaders();
        }
        frames.reserve(nodes);
        if (compression && encoded.size() < nodes) {
            encoded.resize(nodes);
            framesUsed.resize((nodes + 63) / 64);
        }
    }

    // Records a reference with the policy and drops what it evicts (dirty blocks stay until
    // written back). Returns block's data node. Call with mutex held.
    std::uint32_t touch(std::uint64_t block) {
        evicted.clear();
        const std::uint32_t node = policy->reference(block, evicted).node;
        dropEvicted();
        reserveData();
        return node;
    }

    // Stores a block's stored form at node, replacing what node held (whose bytes the caller
    // took off physicalBytes). Call with mutex held.
    void store(std::uint32_t node, const StoredForm& form) {
        physicalBytes += form.bytes;
        if (!compression) {
            frames.copyIn(node, form.data);
            return;
        }
        const std::uint32_t flags = clock().dataFlags(node);
        if (!form.compressed) {
            if ((flags & kCompressed) != 0) {
                encoded[node] = Stored{};
                --compressedBlocks;
                clock().setDataFlags(node, flags & ~kCompressed);
            }
            markFrameUsed(node);
            frames.copyIn(node, form.data);
            return;
        }
        releaseFrame(node);
        Stored& stored = encoded[node];
        if (stored.data == nullptr || stored.bytes != form.bytes) {
            stored.data = std::make_unique_for_overwrite<std::byte[]>(form.bytes);
        }
        std::memcpy(stored.data.get(), form.data, form.bytes);
        stored.bytes = static_cast<std::uint16_t>(form.bytes);
        if ((flags & kCompressed) == 0) {
            ++compressedBlocks;
            clock().setDataFlags(node, flags | kCompressed);
        }
    }

    // With compression, tells reviewHugePages how the shard's frames are used now. Call with
    // mutex held.
    void publishFrameUse() {
        rawFrames.store(clock().dataBlocks() - compressedBlocks, std::memory_order_relaxed);
        numberedNodes.store(clock().dataNodes(), std::memory_order_relaxed);
    }

    // Decodes node's data into out (4 KiB); false when it fails to decode.
    bool load(std::uint32_t node, std::byte* out) {
        if (!compression || !holdsCompressed(node)) {
            frames.copyOut(node, out);
            return true;
        }
        const Stored& stored = encoded[node];
        return decodeBlock(stored.data.get(), stored.bytes, true, out);
    }

    // With compression, how many blocks fit the shard's share of the RAM depends on how well
    // they compress: after a store, the clock's capacity moves a step (1/64) towards what the
    // blocks take, data and metadata, within [minBlocks, maxBlocks]. Only the clock's own
    // metadata counts: the shadow simulations have their reserve. Call with mutex held, after
    // the caller is done with the node it stored (a smaller capacity evicts). Returns whether
    // the capacity moved.
    bool fitBudget() {
        if (!compression) {
            return false;
        }
        publishFrameUse();
        ClockProPolicy& table = clock();
        const std::size_t capacity = table.capacity();
        const std::uint64_t used = physicalBytes + table.metadataBytes() +
                                   encoded.capacity() * sizeof(Stored) +
                                   framesUsed.capacity() * sizeof(std::uint64_t);
        const std::size_t step = std::max<std::size_t>(1, capacity / 64);
        std::size_t next = capacity;
        if (used > budgetBytes && capacity > minBlocks) {
            next = std::max(minBlocks, capacity - std::min(capacity, step));
        } else if (table.dataBlocks() >= capacity && capacity < maxBlocks) {
            // Room for two more steps of blocks like those held.
            const std::uint64_t perBlock = used / std::max<std::size_t>(1, table.dataBlocks());
            if (used + 2 * step * perBlock < budgetBytes) {
                next = std::min(maxBlocks, capacity + step);
            }
        }
        if (next == capacity) {
            return false;
        }
        evicted.clear();
        table.setCapacity(next, evicted);
        dropShrunk();
        return true;
    }

    // The shard's share of a RAM budget (after the shadow simulations' reserve) for perShard
    // blocks. A compressing cache starts at perShard blocks (half a block of data each) and
    // fitBudget moves it between the blocks the budget holds raw and twice perShard (4:1).
    void setBudget(std::uint64_t budget, std::size_t perShard) {
        budgetBytes = budget;
        minBlocks = rawBlocksFor(budget, perShard);
        maxBlocks = 2 * perShard;
    }

    // Renumbers the data nodes below the clock's capacity (or its number of blocks, if more:
    // dirty blocks kept after eviction) and gives back the memory beyond but for its frames in
    // the engine's FrameSpace, which the caller gives back (those from clock().dataNodes() on).
    // Call with mutex held, lock-free readers out.
    void compact() {
        ClockProPolicy& table = clock();
        const std::size_t limit = std::max(table.capacity(), table.dataBlocks());
        for (const auto& [from, to] : table.compact(limit)) {
            // The node's flags moved with it.
            if (compression && holdsCompressed(to)) {
                encoded[to] = std::move(encoded[from]);
                continue;
            }
            frames.copyIn(to, frames.frame(from));
            if (compression) {
                markFrameUsed(to);
            }
        }
        frames.discardOwnFrom(limit);
        if (compression) {
            publishFrameUse();
        }
        if (compression && encoded.size() > limit) {
            encoded.resize(limit);
            encoded.shrink_to_fit();
            framesUsed.resize((limit + 63) / 64);
            framesUsed.shrink_to_fit();
            if (limit % 64 != 0) {
                framesUsed.back() &= (std::uint64_t{1} << (limit % 64)) - 1;
            }
        }
    }

    // Forgets node and its data. Call with mutex held.
    void erase(std::uint32_t node) {
        dropData(node);
        clock().remove(node);
    }
};

// Per-stream sequential detection: a table of the streams seen last (next expected offset and
// bytes so far). A request continuing a stream past the cutoff is bypassed.
class CacheEngine::SequentialDetector {
public:
    explicit SequentialDetector(std::uint64_t cutoff)
        : m_cutoff(cutoff) {}

    bool bypass(std::uint64_t offset, std::uint64_t length) {
        if (m_cutoff == 0) {
            return false;
        }
        const std::scoped_lock lock(m_mutex);
        ++m_clock;
        Stream* oldest = &m_streams[0];
        for (auto& stream : m_streams) {
            if (stream.next == offset && stream.lastUse != 0) {
                stream.next = offset + length;
                stream.bytes += length;
                stream.lastUse = m_clock;
                return stream.bytes > m_cutoff;
            }
            if (stream.lastUse < oldest->lastUse) {
                oldest = &stream;
            }
        }
        *oldest = Stream{.next = offset + length, .bytes = length, .lastUse = m_clock};
        return length > m_cutoff;
    }

private:
    struct Stream {
        std::uint64_t next = 0;
        std::uint64_t bytes = 0;
        std::uint64_t lastUse = 0;
    };
    std::uint64_t m_cutoff;
    std::mutex m_mutex;
    std::uint64_t m_clock = 0;
    std::array<Stream, 32> m_streams{};
};

Expected<std::unique_ptr<CacheEngine>> CacheEngine::create(BlockStore& backing,
                                                           CacheConfig config) {
    if (backing.size() == 0 || backing.size() % kBlock != 0) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("the backing store's size ({} bytes) is not a positive multiple "
                                "of 4 KiB",
                                backing.size()));
    }
    if (backing.size() / kBlock - 1 > ClockProPolicy::kMaxKey) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("the backing store ({} bytes) is larger than the cache's limit of "
                                "{} bytes",
                                backing.size(), (ClockProPolicy::kMaxKey + 1) * kBlock));
    }
    if (!(config.dirtyLowWatermark >= 0.0 && config.dirtyLowWatermark < config.dirtyHighWatermark &&
          config.dirtyHighWatermark <= 1.0)) {
        return fail(ErrorCode::InvalidArgument,
                    "dirty watermarks must satisfy 0 <= low < high <= 1");
    }
    const std::uint64_t capacityBlocks = capacityFor(config.ramBytes, config.compression);
    if (config.shards == 0) {
        // A hit holds its shard's lock while it copies 4 KiB: with few shards per thread, two
        // threads meet on one lock often enough to serialize (4 shards gave 2 threads 1.0x
        // one thread on this 2-core machine, 16 gave 1.2-1.5x, 64 give 1.8x). Each shard keeps
        // enough blocks for its policy (kMinShardBlocks) where the cache is small.
        config.shards = std::clamp(
            std::bit_ceil(8 * std::max(1U, std::thread::hardware_concurrency())), 64U, 256U);
        while (config.shards > 1 && capacityBlocks / config.shards < kMinShardBlocks) {
            config.shards /= 2;
        }
    }
    config.shards = std::bit_ceil(config.shards);
    while (config.shards > 1 && capacityBlocks / config.shards < 64) {
        config.shards /= 2;
    }
    if (capacityBlocks / config.shards < 1) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("a RAM budget of {} bytes holds no 4 KiB block", config.ramBytes));
    }
    if (auto fits =
            checkShardCapacity(config.ramBytes, capacityBlocks / config.shards, config.shards);
        !fits) {
        return std::unexpected(fits.error());
    }
    if (auto steering = makeShardSteering(config.policy, 1, 1); !steering) {
        return std::unexpected(steering.error());
    }
    return std::unique_ptr<CacheEngine>(
        new CacheEngine(backing, std::move(config), capacityBlocks));
}

CacheEngine::CacheEngine(BlockStore& backing, CacheConfig config, std::uint64_t capacityBlocks)
    : m_backing(backing)
    , m_config(std::move(config))
    , m_size(backing.size())
    , m_writeMode(m_config.writeMode)
    , m_detector(std::make_unique<SequentialDetector>(m_config.sequentialCutoff)) {
    const std::uint64_t perShard = capacityBlocks / m_config.shards;
    setCapacity(m_config.ramBytes, perShard * m_config.shards);
    m_shardMask = m_config.shards - 1;
    auto clocks = makeShardClocks(m_config.policy, m_config.shards, perShard);
    // Room for each shard's blocks and as many more (dirty blocks kept after eviction, a
    // compressing cache's blocks when they compress well) before a shard needs frames of its own.
    m_frameSpace = std::make_unique<FrameSpace>(m_config.shards, 2 * perShard, kBlock);
    adviseHugePages(m_config.ramBytes, perShard);
    m_storesBeforeReview = kStoresBeforeHugePageReview;
    for (auto& clock : *clocks) { // create() checked the name
        auto shard = std::make_unique<Shard>();
        shard->policy = std::move(clock);
        shard->clock().setBeforeMove([raw = shard.get()] { raw->waitForReaders(); });
        shard->compression = m_config.compression;
        shard->frames.attach(*m_frameSpace, m_shards.size());
        shard->reserveData();
        m_shards.push_back(std::move(shard));
    }
    setShardBudgets(m_config.ramBytes, perShard);
    // The writer runs in both modes: the mode can change at run time (setWriteMode), and it
    // only wakes up for dirty data or once per interval.
    m_writer = std::thread([this] { writerLoop(); });
}

// Huge pages back the frames a full cache uses, where whole huge pages fit: on a cache larger than
// the TLB's reach, a hit otherwise misses the TLB on nearly every frame it copies, and a store
// into a frame not written before faults once per 4 KiB instead of once per 2 MiB. A compressing
// cache's frames, as many as its budget holds raw, only while reviewHugePages finds them dense.
void CacheEngine::adviseHugePages(std::uint64_t ramBytes, std::uint64_t perShard) {
    const std::scoped_lock lock(m_hugePagesMutex);
    m_hugePageFrames = m_config.compression
                           ? rawBlocksFor(shardBudget(ramBytes, m_config.shards), perShard)
                           : perShard;
    m_hugePageBytes = m_frameSpace->adviseHugePages(
        !m_config.compression || m_denseFrames ? m_hugePageFrames : 0);
}

// A compressing cache gives back the frame of each block it stores compressed, so its frames in
// use may be scattered, and a huge page would commit 2 MiB for the few of them in use (the kernel
// also fills the holes of a huge page's range as it collapses small pages into one). On data
// that does not compress, its blocks all take their frames: on 4 KiB pages, writes 8-13 % and
// hits 12 % slower than a cache without compression (bench_cache_engine). So a compressing
// cache's frames are on huge pages while they are dense: from 15/16 of the node numbers in use
// holding raw data, until that falls below 7/8. Huge pages then commit at most about 1/8 more
// than the blocks take; a block later stored compressed gives its 4 KiB back all the same (the
// kernel splits the huge page).
void CacheEngine::reviewHugePages() {
    if (!m_config.compression) {
        return;
    }
    std::uint64_t raw = 0;
    std::uint64_t numbered = 0;
    for (const auto& shard : m_shards) {
        raw += shard->rawFrames.load(std::memory_order_relaxed);
        numbered += shard->numberedNodes.load(std::memory_order_relaxed);
    }
    const std::scoped_lock lock(m_hugePagesMutex);
    const bool dense = m_denseFrames
                           ? raw * 8 >= numbered * 7
                           : numbered >= kHugePageReviewNodes && raw * 16 >= numbered * 15;
    if (dense != m_denseFrames) {
        m_denseFrames = dense;
        m_hugePageBytes = m_frameSpace->adviseHugePages(dense ? m_hugePageFrames : 0);
        log::get("cachectl")
            ->debug("cache engine: {} of {} frames hold raw data; huge pages {}", raw, numbered,
                    dense ? "on" : "off");
    }
    ++m_hugePageReviews;
}

// After a store into shard, with its lock held: fits the shard to its budget, and has a
// compressing cache review its huge pages once its first stores are in (then the writer does,
// once per interval).
void CacheEngine::stored(Shard& shard) {
    shard.fitBudget();
    if (m_config.compression && m_storesBeforeReview.load(std::memory_order_relaxed) > 0 &&
        m_storesBeforeReview.fetch_sub(1, std::memory_order_relaxed) == 1) {
        reviewHugePages();
    }
}

void CacheEngine::setCapacity(std::uint64_t ramBytes, std::uint64_t capacityBlocks) {
    const auto high =
        std::max<std::uint64_t>(1, static_cast<std::uint64_t>(static_cast<double>(capacityBlocks) *
                                                              m_config.dirtyHighWatermark));
    m_ramBytes = ramBytes;
    m_capacityBlocks = capacityBlocks;
    m_dirtyHigh = high;
    m_dirtyLow = static_cast<std::uint64_t>(static_cast<double>(capacityBlocks) *
                                            m_config.dirtyLowWatermark);
    m_dirtyLimit = high + capacityBlocks / 8 + 1;
    { const std::scoped_lock lock(m_writerMutex); }
    m_writerWake.notify_all();
    m_dirtyRoom.notify_all();
}

Expected<void> CacheEngine::setWriteMode(WriteMode mode) {
    const std::unique_lock modeLock(m_modeMutex);
    m_writeMode.store(mode, std::memory_order_relaxed);
    if (mode == WriteMode::WriteThrough) {
        return withContext(flush(), "switching the cache to write-through");
    }
    return {};
}

Expected<void> CacheEngine::resize(std::uint64_t ramBytes) {
    const std::uint64_t capacityBlocks = capacityFor(ramBytes, m_config.compression);
    const std::uint64_t perShard = capacityBlocks / m_config.shards;
    if (perShard == 0) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("a RAM budget of {} bytes holds fewer blocks than the cache has "
                                "shards ({})",
                                ramBytes, m_config.shards));
    }
    if (auto fits = checkShardCapacity(ramBytes, perShard, m_config.shards); !fits) {
        return std::unexpected(fits.error());
    }
    auto steering = makeShardSteering(m_config.policy, m_shards.size(), perShard);
    if (!steering) {
        return std::unexpected(steering.error());
    }
    const std::scoped_lock resizeLock(m_resizeMutex);
    // Shard by shard, so that I/O on the other shards goes on (a 1 GiB cache resized to 256 MiB
    // held every shard's lock for 45 ms): the new capacity and steering, the blocks a smaller
    // budget drops, and the nodes renumbered below the new size.
    for (const auto& shard : m_shards) {
        const std::scoped_lock lock(shard->mutex);
        // A lock-free hit may be passing its key to the old steering (observeRacy), or reading
        // a frame compact() moves.
        shard->waitForReaders();
        shard->evicted.clear();
        shard->policy->resize(perShard, *steering, shard->evicted);
        shard->dropShrunk();
        // A compressing cache fits its blocks to the new budget now, not over the next stores.
        shard->setBudget(shardBudget(ramBytes, m_shards.size()), perShard);
        for (int step = 0; step < 256 && shard->fitBudget(); ++step) {
        }
        shard->compact();
    }
    // Then a cache resized smaller gives its RAM back: the frames beyond every shard's nodes at
    // once, those between a shard's nodes and the most any shard numbers one by one. Every
    // shard's lock, in order (nothing else holds two), so that no shard numbers a node meanwhile
    // (one may have numbered a few since its compaction: dirty blocks kept after eviction).
    // Lock-free readers may still read those frames: what they read is invalid by then.
    std::vector<std::unique_lock<ShardLock>> locks;
    std::vector<std::size_t> nodes;
    for (const auto& shard : m_shards) {
        locks.emplace_back(shard->mutex);
        nodes.push_back(shard->clock().dataNodes());
    }
    const std::size_t kept = *std::ranges::max_element(nodes);
    m_frameSpace->discardFrom(kept);
    for (std::size_t s = 0; s < m_shards.size(); ++s) {
        const std::size_t shared = std::min(kept, m_frameSpace->framesPerShard());
        for (std::size_t frame = nodes[s]; frame < shared; ++frame) {
            m_shards[s]->frames.discard(static_cast<std::uint32_t>(frame));
        }
    }
    adviseHugePages(ramBytes, perShard);
    locks.clear();
    setCapacity(ramBytes, perShard * m_config.shards);
    return {};
}

void CacheEngine::setShardBudgets(std::uint64_t ramBytes, std::size_t perShard) {
    for (const auto& shard : m_shards) {
        const std::scoped_lock lock(shard->mutex);
        shard->setBudget(shardBudget(ramBytes, m_shards.size()), perShard);
    }
}

CacheEngine::~CacheEngine() {
    {
        const std::scoped_lock lock(m_writerMutex);
        m_stop = true;
    }
    m_writerWake.notify_all();
    m_dirtyRoom.notify_all();
    if (m_writer.joinable()) {
        m_writer.join();
    }
    if (m_dirtyBlocks.load() > 0) {
        if (auto written = flush(); !written) {
            log::get("cachectl")
                ->error("cache engine: dirty data lost at shutdown: {}",
                        written.error().describe());
        }
    }
}

CacheEngine::Shard& CacheEngine::shardOf(std::uint64_t block) const {
    return *m_shards[mixGroup(block) & m_shardMask];
}

// ---- reads ----

// A hit that changes nothing in the clock (the block resident, its reference count at its top)
// needs no lock: it reads the shard as a sequence lock's reader (shard_lock.h) and writes nothing
// the other cores read, so hits on one shard from several cores do not move its lock's cache
// line between them; a key the steering samples is then passed to the steering. Anything else,
// and a read that raced with the lock's holder, goes through the lock. Blocks stored raw only
// (a compressing cache's incompressible blocks too): a compressed block's buffer could be freed
// under the reader, while a frame is never unmapped under one (reserveData), only zeroed by a
// holder of the lock (store), which the reader's validation sees.
bool CacheEngine::readLockFree(Shard& shard, std::uint64_t block, std::byte* out) {
    ReaderSlot& slot = ReaderSlot::mine();
    slot.enter(&shard);
    bool hit = false;
    if (const std::uint32_t version = shard.mutex.readBegin(); (version & 1U) == 0) {
        const std::uint32_t node = shard.policy->findSaturatedRacy(block, Shard::kCompressed);
        if (node != ClockProPolicy::kNone && node < shard.frames.frames()) {
            shard.frames.copyOutRacy(node, out);
            hit = shard.mutex.readValidate(version);
        }
    }
    if (hit) {
        shard.policy->observeRacy(block);
    }
    slot.leave();
    if (hit) {
        if (const std::size_t own = slot.index(); own + 1 < m_lockFreeHits.size()) {
            std::atomic<std::uint64_t>& count = m_lockFreeHits[own].value;
            count.store(count.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        } else {
            m_lockFreeHits.back().value.fetch_add(1, std::memory_order_relaxed);
        }
    }
    return hit;
}

bool CacheEngine::readCachedLocked(Shard& shard, std::uint64_t block, std::byte* out,
                                   bool promote) {
    const std::uint32_t node = shard.clock().findData(block, [&](std::uint32_t candidate) {
        if (!m_config.compression) {
            const std::byte* frame = shard.frames.frame(candidate);
            for (std::size_t line = 0; line < kBlock; line += 1024) {
                __builtin_prefetch(frame + line);
            }
        }
    });
    if (node == ClockProPolicy::kNone) {
        ++shard.misses;
        return false;
    }
    if (!shard.load(node, out)) {
        // Our own encoding failed to decode: memory corruption; never serve it.
        log::get("cachectl")->error("cache engine: block {} failed to decode; dropped", block);
        if ((shard.clock().dataFlags(node) & Shard::kDirty) == 0) {
            shard.erase(node);
        }
        ++shard.misses;
        return false;
    }
    ++shard.hits;
    if (promote) {
        if (shard.clock().detached(node) || shard.policy->sampled(block)) {
            // Back into the clock, as a miss of the policy; or a reference the steering's
            // shadow simulations must see, as the simulator's policy sees every reference.
            shard.touch(block);
        } else {
            shard.clock().hit(node);
        }
    }
    return true;
}

void CacheEngine::dropBlockLocked(Shard& shard, std::uint64_t block) {
    const std::uint32_t node = shard.clock().findData(block);
    if (node == ClockProPolicy::kNone) {
        return;
    }
    if ((shard.clock().dataFlags(node) & Shard::kDirty) != 0) {
        m_dirtyBlocks.fetch_sub(1, std::memory_order_relaxed);
    }
    shard.erase(node);
}

void CacheEngine::insertClean(Shard& shard, std::uint64_t block, const std::byte* data,
                              std::uint64_t epoch) {
    std::array<std::byte, kCodecMaxEncoded> encoded;
    const StoredForm form = storedForm(data, m_config.compression, encoded);
    const std::scoped_lock lock(shard.mutex);
    if (shard.epoch != epoch || shard.clock().findData(block) != ClockProPolicy::kNone ||
        shard.inFlight.contains(block)) {
        return;
    }
    shard.store(shard.touch(block), form);
    stored(shard);
}

Expected<void> CacheEngine::read(std::uint64_t offset, std::span<std::byte> out) {
    if (auto range = checkRange(offset, out.size(), m_size); !range) {
        return range;
    }
    if (out.empty()) {
        return {};
    }
    if (out.size() == kBlock && offset % kBlock == 0) {
        // The common request, one aligned block: one lock, nothing allocated.
        const std::uint64_t block = offset / kBlock;
        Shard& shard = shardOf(block);
        if (readLockFree(shard, block, out.data())) {
            return {};
        }
        {
            const std::scoped_lock lock(shard.mutex);
            if (readCachedLocked(shard, block, out.data(), true)) {
                return {};
            }
        }
        const std::array missing{block};
        return readMisses(offset, out, missing, std::nullopt);
    }
    const std::uint64_t end = offset + out.size();
    const std::uint64_t first = offset / kBlock;
    const std::uint64_t last = (end - 1) / kBlock;
    std::array<std::byte, kBlock> whole;
    std::vector<std::uint64_t> missing;
    // A request of a sequential stream past the cutoff: its misses are not admitted and its
    // hits do not count as references for the policy (a stream read once must not push out
    // what is re-read; bcache serves such hits the same way). Asked up front only for large
    // requests, where it is one look-up per many blocks; a small request asks only when it
    // missed, so the 4 KiB hit path never takes the detector's lock.
    std::optional<bool> streaming;
    if (out.size() >= kStreamCheckBytes) {
        streaming = m_detector->bypass(offset, out.size());
    }
    const bool promote = !streaming.value_or(false);
    // The blocks of one group share a shard: one lock per group.
    constexpr std::uint64_t kGroupMask = (std::uint64_t{1} << kGroupShift) - 1;
    for (std::uint64_t block = first; block <= last;) {
        const std::uint64_t groupLast = std::min(last, block | kGroupMask);
        Shard& shard = shardOf(block);
        const std::scoped_lock lock(shard.mutex);
        for (; block <= groupLast; ++block) {
            const std::uint64_t blockStart = block * kBlock;
            const std::uint64_t from = std::max(offset, blockStart);
            const std::uint64_t to = std::min(end, blockStart + kBlock);
            const bool aligned = from == blockStart && to == blockStart + kBlock;
            std::byte* target = aligned ? out.data() + (from - offset) : whole.data();
            if (readCachedLocked(shard, block, target, promote)) {
                if (!aligned) {
                    std::memcpy(out.data() + (from - offset), whole.data() + (from - blockStart),
                                to - from);
                }
            } else {
                missing.push_back(block);
            }
        }
    }
    if (missing.empty()) {
        return {};
    }
    return readMisses(offset, out, missing, streaming);
}

Expected<void> CacheEngine::readMisses(std::uint64_t offset, std::span<std::byte> out,
                                       std::span<const std::uint64_t> missing,
                                       std::optional<bool> streaming) {
    const std::uint64_t end = offset + out.size();
    const bool bypass = streaming ? *streaming : m_detector->bypass(offset, out.size());
    // Read each run of consecutive missing blocks with one backing read.
    std::vector<std::byte> buffer;
    std::vector<std::uint64_t> epochs;
    for (std::size_t i = 0; i < missing.size();) {
        std::size_t j = i + 1;
        while (j < missing.size() && missing[j] == missing[j - 1] + 1 && j - i < kMaxRunBlocks) {
            ++j;
        }
        const std::uint64_t runFirst = missing[i];
        const std::size_t count = j - i;
        epochs.clear();
        for (std::size_t k = 0; k < count; ++k) {
            Shard& shard = shardOf(runFirst + k);
            const std::scoped_lock lock(shard.mutex);
            epochs.push_back(shard.epoch);
        }
        buffer.resize(count * kBlock);
        if (auto got = m_backing.read(runFirst * kBlock, buffer); !got) {
            return std::unexpected(
                Error(got.error())
                    .addContext(fmt::format("reading blocks {}..{} from the backing store",
                                            runFirst, runFirst + count - 1)));
        }
        for (std::size_t k = 0; k < count; ++k) {
            const std::uint64_t block = runFirst + k;
            const std::uint64_t blockStart = block * kBlock;
            const std::uint64_t from = std::max(offset, blockStart);
            const std::uint64_t to = std::min(end, blockStart + kBlock);
            std::memcpy(out.data() + (from - offset),
                        buffer.data() + k * kBlock + (from - blockStart), to - from);
            if (bypass) {
                m_bypassed.fetch_add(1, std::memory_order_relaxed);
            } else {
                insertClean(shardOf(block), block, buffer.data() + k * kBlock, epochs[k]);
            }
        }
        i = j;
    }
    return {};
}

// ---- writes ----

Expected<void> CacheEngine::write(std::uint64_t offset, std::span<const std::byte> data, bool fua) {
    if (auto range = checkRange(offset, data.size(), m_size); !range) {
        return range;
    }
    if (data.empty()) {
        return fua ? m_backing.flush() : Expected<void>{};
    }
    const std::uint64_t first = offset / kBlock;
    m_writes.fetch_add((offset + data.size() - 1) / kBlock - first + 1, std::memory_order_relaxed);
    const std::shared_lock modeLock(m_modeMutex);
    if (m_writeMode.load(std::memory_order_relaxed) == WriteMode::WriteThrough) {
        if (m_dirtyBlocks.load(std::memory_order_relaxed) > 0) {
            // Left over from write-back (the switch's write-back failed): write it back first
            // so a partial write-through write cannot be overtaken by older dirty data.
            if (auto written = writebackPass(0); !written) {
                return std::unexpected(
                    Error(written.error()).addContext("writing back dirty blocks before a write"));
            }
        }
        const bool bypass = m_detector->bypass(offset, data.size());
        return writeDirect(first, offset, data, fua, !bypass);
    }
    if (auto written = writeBack(offset, data); !written) {
        return written;
    }
    if (fua) {
        // A FUA write is durable before it returns: write it (and whatever else is dirty, the
        // pass cannot pick blocks) back, then flush the device.
        return flush();
    }
    return {};
}

Expected<void> CacheEngine::writeDirect(std::uint64_t firstBlock, std::uint64_t offset,
                                        std::span<const std::byte> data, bool fua,
                                        bool cacheAfter) {
    const std::uint64_t end = offset + data.size();
    const std::uint64_t lastBlock = (end - 1) / kBlock;
    // Claim the blocks in ascending order (so two writers cannot wait on each other) and drop
    // what the cache holds of them.
    for (std::uint64_t block = firstBlock; block <= lastBlock; ++block) {
        Shard& shard = shardOf(block);
        std::unique_lock lock(shard.mutex);
        shard.inFlightDone.wait(lock, [&] { return !shard.inFlight.contains(block); });
        shard.inFlight.insert(block);
        dropBlockLocked(shard, block);
        ++shard.epoch;
    }
    auto written = m_backing.write(offset, data, fua);
    for (std::uint64_t block = firstBlock; block <= lastBlock; ++block) {
        Shard& shard = shardOf(block);
        const std::uint64_t blockStart = block * kBlock;
        const bool whole = blockStart >= offset && blockStart + kBlock <= end;
        {
            const std::scoped_lock lock(shard.mutex);
            shard.inFlight.erase(block);
            ++shard.epoch;
            if (written && whole && cacheAfter &&
                shard.clock().findData(block) == ClockProPolicy::kNone) {
                std::array<std::byte, kCodecMaxEncoded> encoded;
                const StoredForm form =
                    storedForm(data.data() + (blockStart - offset), m_config.compression, encoded);
                shard.store(shard.touch(block), form);
                stored(shard);
            }
        }
        shard.inFlightDone.notify_all();
        if (!cacheAfter && whole) {
            m_bypassed.fetch_add(1, std::memory_order_relaxed);
        }
    }
    if (!written) {
        return std::unexpected(
            Error(written.error())
                .addContext(fmt::format("writing {} bytes at {} to the backing store", data.size(),
                                        offset)));
    }
    return {};
}

Expected<void> CacheEngine::waitForDirtyRoom() {
    if (m_dirtyBlocks.load(std::memory_order_relaxed) < m_dirtyLimit) {
        return {};
    }
    // Several writers may pass at once, so the limit can be exceeded by a few blocks per
    // writer; it bounds RAM, it is not exact.
    std::unique_lock lock(m_writerMutex);
    m_writerWake.notify_one();
    const bool room = m_dirtyRoom.wait_for(lock, m_config.dirtyWaitTimeout, [&] {
        return m_stop || m_dirtyBlocks.load(std::memory_order_relaxed) < m_dirtyLimit;
    });
    if (!room) {
        return fail(ErrorCode::Busy,
                    "the cache's dirty limit is reached and write-back makes no progress "
                    "(is the backing store failing?)");
    }
    return {};
}

Expected<void> CacheEngine::writeBack(std::uint64_t offset, std::span<const std::byte> data) {
    const std::uint64_t end = offset + data.size();
    const std::uint64_t first = offset / kBlock;
    const std::uint64_t last = (end - 1) / kBlock;
    if (m_config.compression) {
        // encodeBlock first samples a block's first 256 bytes: start loading them now, so the
        // memory latency overlaps the detector's lock and the index look-up.
        for (std::size_t line = 0; line < 256 && line < data.size(); line += 64) {
            __builtin_prefetch(data.data() + line);
        }
    }
    // Dirty blocks of a bypassed stream are written back and dropped, never admitted.
    const bool bypass = m_detector->bypass(offset, data.size());
    std::array<std::byte, kBlock> merged;
    std::array<std::byte, kCodecMaxEncoded> encoded;
    for (std::uint64_t block = first; block <= last; ++block) {
        if (auto room = waitForDirtyRoom(); !room) {
            return room;
        }
        Shard& shard = shardOf(block);
        const std::uint64_t blockStart = block * kBlock;
        const std::uint64_t from = std::max(offset, blockStart);
        const std::uint64_t to = std::min(end, blockStart + kBlock);
        const bool whole = from == blockStart && to == blockStart + kBlock;
        const std::byte* source = data.data() + (from - offset);
        std::unique_lock lock(shard.mutex, std::defer_lock);
        if (!whole) {
            // A partial write merges into the cached block, under the lock, or into the backing
            // copy (read outside the lock) when the cache does not hold it; merged into the
            // cached block instead if it was cached meanwhile. A change of the backing copy
            // alone can only come from a concurrent overlapping write, whose order is
            // unspecified anyway.
            lock.lock();
            for (int attempt = 0;; ++attempt) {
                const std::uint32_t seen = shard.clock().findData(block);
                if (seen != ClockProPolicy::kNone && shard.load(seen, merged.data())) {
                    break;
                }
                if (attempt == 64) {
                    return fail(
                        ErrorCode::Busy,
                        fmt::format("block {} kept changing during a partial write", block));
                }
                lock.unlock();
                if (auto got = m_backing.read(blockStart, merged); !got) {
                    return std::unexpected(
                        Error(got.error())
                            .addContext(
                                fmt::format("reading block {} to merge a partial write", block)));
                }
                lock.lock();
                // Still not cached (or still the same undecodable copy): the backing copy it is.
                if (const std::uint32_t now = shard.clock().findData(block);
                    now == ClockProPolicy::kNone || now == seen) {
                    break;
                }
            }
            std::memcpy(merged.data() + (from - blockStart), source, to - from);
            source = merged.data();
        }
        const StoredForm form = storedForm(source, m_config.compression, encoded);
        if (whole) {
            lock.lock();
        }
        std::uint32_t node = shard.clock().findData(block);
        if (node == ClockProPolicy::kNone) {
            if (bypass) {
                node = shard.clock().insertDetached(block);
                shard.reserveData();
                m_bypassed.fetch_add(1, std::memory_order_relaxed);
            } else {
                node = shard.touch(block);
            }
        } else {
            // An overwrite of a block the cache holds: a reference to it.
            shard.physicalBytes -= shard.storedBytes(node);
            if (shard.clock().detached(node)) {
                node = shard.touch(block);
            } else {
                shard.clock().hit(node);
            }
        }
        shard.store(node, form);
        const std::uint32_t flags = shard.clock().dataFlags(node);
        if ((flags & Shard::kDirty) == 0) {
            m_dirtyBlocks.fetch_add(1, std::memory_order_relaxed);
        }
        shard.clock().setDataFlags(node, (flags | Shard::kDirty) & ~Shard::kWriting);
        ++shard.epoch;
        stored(shard);
    }
    if (m_dirtyBlocks.load(std::memory_order_relaxed) >= m_dirtyHigh) {
        const std::scoped_lock lock(m_writerMutex);
        m_writerWake.notify_one();
    }
    return {};
}

// ---- write-back ----

Expected<void> CacheEngine::writebackPass(std::uint64_t limit) {
    const std::scoped_lock passLock(m_writebackMutex);
    std::vector<std::uint64_t> candidates;
    for (const auto& shard : m_shards) {
        const std::scoped_lock lock(shard->mutex);
        const ClockProPolicy& clock = shard->clock();
        clock.forEachData([&](std::uint64_t block, std::uint32_t node) {
            if ((clock.dataFlags(node) & Shard::kDirty) != 0) {
                candidates.push_back(block);
            }
        });
    }
    std::sort(candidates.begin(), candidates.end());
    if (limit != 0 && candidates.size() > limit) {
        // Keep whole runs: cut at the first gap after `limit` blocks.
        std::size_t cut = limit;
        while (cut < candidates.size() && candidates[cut] == candidates[cut - 1] + 1) {
            ++cut;
        }
        candidates.resize(cut);
    }
    std::optional<Error> firstError;
    std::vector<std::byte> buffer;
    std::size_t i = 0;
    while (i < candidates.size()) {
        // Gather a run of consecutive blocks that are still dirty.
        const std::uint64_t runFirst = candidates[i];
        buffer.clear();
        std::size_t j = i;
        while (j < candidates.size() && candidates[j] == runFirst + (j - i) &&
               j - i < kMaxRunBlocks) {
            Shard& shard = shardOf(candidates[j]);
            const std::scoped_lock lock(shard.mutex);
            const std::uint32_t node = shard.clock().findData(candidates[j]);
            if (node == ClockProPolicy::kNone ||
                (shard.clock().dataFlags(node) & Shard::kDirty) == 0) {
                break;
            }
            buffer.resize(buffer.size() + kBlock);
            if (!shard.load(node, buffer.data() + buffer.size() - kBlock)) {
                buffer.resize(buffer.size() - kBlock);
                break;
            }
            // Cleared by a write to the block meanwhile: what we write is then stale.
            shard.clock().setDataFlags(node, shard.clock().dataFlags(node) | Shard::kWriting);
            ++j;
        }
        if (j == i) {
            ++i; // no longer dirty (or discarded): skip it
            continue;
        }
        auto written = m_backing.write(runFirst * kBlock, buffer, false);
        m_writebackOps.fetch_add(1, std::memory_order_relaxed);
        if (written) {
            m_writebackBlocks.fetch_add(j - i, std::memory_order_relaxed);
        } else {
            m_writebackErrors.fetch_add(1, std::memory_order_relaxed);
            if (!firstError) {
                firstError = Error(written.error())
                                 .addContext(fmt::format("writing back blocks {}..{}", runFirst,
                                                         runFirst + (j - i) - 1));
            }
        }
        for (std::size_t k = 0; k < j - i; ++k) {
            const std::uint64_t block = runFirst + k;
            Shard& shard = shardOf(block);
            const std::scoped_lock lock(shard.mutex);
            ++shard.epoch;
            const std::uint32_t node = shard.clock().findData(block);
            if (node == ClockProPolicy::kNone) {
                continue;
            }
            const std::uint32_t flags = shard.clock().dataFlags(node);
            shard.clock().setDataFlags(node, flags & ~Shard::kWriting);
            // A block discarded and cached again meanwhile has a new node, without kWriting.
            if (!written || (flags & Shard::kWriting) == 0) {
                continue;
            }
            shard.clock().setDataFlags(node, flags & ~(Shard::kWriting | Shard::kDirty));
            m_dirtyBlocks.fetch_sub(1, std::memory_order_relaxed);
            if (shard.clock().detached(node)) {
                shard.erase(node);
            }
        }
        { const std::scoped_lock lock(m_writerMutex); }
        m_dirtyRoom.notify_all();
        i = j;
    }
    if (firstError) {
        return std::unexpected(*firstError);
    }
    return {};
}

void CacheEngine::writerLoop() {
    for (;;) {
        {
            std::unique_lock lock(m_writerMutex);
            m_writerWake.wait_for(lock, m_config.writebackInterval, [&] {
                return m_stop || m_dirtyBlocks.load(std::memory_order_relaxed) >= m_dirtyHigh;
            });
            if (m_stop) {
                return;
            }
        }
        reviewHugePages();
        const std::uint64_t dirty = m_dirtyBlocks.load(std::memory_order_relaxed);
        if (dirty == 0) {
            continue;
        }
        // Over the high watermark: down to the low one. Otherwise (the interval passed):
        // everything, so data does not sit dirty for long.
        const std::uint64_t limit =
            dirty >= m_dirtyHigh ? std::max<std::uint64_t>(1, dirty - m_dirtyLow) : 0;
        if (auto written = writebackPass(limit); !written) {
            log::get("cachectl")
                ->warn("cache engine: write-back failed: {}", written.error().describe());
            // Do not spin on a failing device.
            std::unique_lock lock(m_writerMutex);
            m_writerWake.wait_for(lock, m_config.writebackInterval, [&] { return m_stop; });
        }
    }
}

Expected<void> CacheEngine::flush() {
    // Dirty blocks can outlive write-back mode (a failed switch to write-through).
    if (m_dirtyBlocks.load() > 0) {
        if (auto written = writebackPass(0); !written) {
            return std::unexpected(Error(written.error()).addContext("flushing the cache"));
        }
    }
    return withContext(m_backing.flush(), "flushing the backing store");
}

// ---- discard and zeroes ----

Expected<void> CacheEngine::discard(std::uint64_t offset, std::uint64_t length) {
    if (auto range = checkRange(offset, length, m_size); !range) {
        return range;
    }
    // Only whole blocks are dropped; the partial edges keep their data (discard is a hint).
    const std::uint64_t first = (offset + kBlock - 1) / kBlock;
    const std::uint64_t end = (offset + length) / kBlock;
    if (first >= end) {
        return {};
    }
    for (std::uint64_t block = first; block < end; ++block) {
        Shard& shard = shardOf(block);
        std::unique_lock lock(shard.mutex);
        shard.inFlightDone.wait(lock, [&] { return !shard.inFlight.contains(block); });
        dropBlockLocked(shard, block);
        ++shard.epoch;
    }
    { const std::scoped_lock lock(m_writerMutex); }
    m_dirtyRoom.notify_all();
    return withContext(m_backing.discard(first * kBlock, (end - first) * kBlock),
                       "discarding on the backing store");
}

Expected<void> CacheEngine::writeZeroes(std::uint64_t offset, std::uint64_t length, bool fua) {
    if (auto range = checkRange(offset, length, m_size); !range) {
        return range;
    }
    static const std::vector<std::byte> zeroes(kMaxRunBlocks * kBlock);
    while (length > 0) {
        const std::uint64_t chunk = std::min<std::uint64_t>(length, zeroes.size());
        if (auto written = write(offset, std::span(zeroes.data(), chunk), false); !written) {
            return written;
        }
        offset += chunk;
        length -= chunk;
    }
    return fua ? flush() : Expected<void>{};
}

// ---- statistics ----

CacheStats CacheEngine::stats() const {
    CacheStats stats;
    for (const auto& shard : m_shards) {
        const std::scoped_lock lock(shard->mutex);
        stats.readHits += shard->hits;
        stats.readMisses += shard->misses;
        stats.cachedBlocks += shard->clock().dataBlocks();
        stats.capacityBlocks += shard->clock().capacity();
        stats.physicalBytes += shard->physicalBytes;
        stats.metadataBytes +=
            shard->policy->metadataBytes() + shard->encoded.capacity() * sizeof(Shard::Stored) +
            shard->framesUsed.capacity() * sizeof(std::uint64_t) + shard->inFlight.size() * 32;
    }
    for (const auto& stripe : m_lockFreeHits) {
        stats.lockFreeHits += stripe.value.load(std::memory_order_relaxed);
    }
    stats.readHits += stats.lockFreeHits;
    stats.logicalBytes = stats.cachedBlocks * kBlock;
    stats.bypassed = m_bypassed.load();
    stats.writes = m_writes.load();
    stats.writebackOps = m_writebackOps.load();
    stats.writebackBlocks = m_writebackBlocks.load();
    stats.dirtyBytes = m_dirtyBlocks.load() * kBlock;
    stats.ramBytes = m_ramBytes;
    // Reviews first: a caller that sees a review counted sees the advice that review left.
    stats.hugePageReviews = m_hugePageReviews.load();
    stats.hugePageBytes = m_hugePageBytes.load(std::memory_order_relaxed);
    stats.writebackErrors = m_writebackErrors.load();
    return stats;
}

} // namespace ssdk::cachectl::engine
