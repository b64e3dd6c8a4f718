#pragma once
// CacheEngine: a RAM block cache in front of a backing BlockStore, itself a BlockStore (what the
// NBD server serves). 4 KiB blocks; the RAM budget counts cached data and metadata.
//
// - Reads are cached by the replacement policy (policy.h, "clockpro-steered" by default).
//   Misses of a sequential stream past `sequentialCutoff` bytes bypass the cache (per stream,
//   bcache-like); its hits are served but not told to the policy, so a stream does not promote
//   what it passes over.
// - Write-through: the backing write completes before write() returns; written blocks are
//   cached afterwards. Write-back: full-block writes are absorbed in RAM as dirty blocks; a
//   background writer writes them back, coalescing adjacent dirty blocks into writes of up to
//   1 MiB, when dirty data passes the high watermark (down to the low one) and every
//   `writebackInterval`. Writers wait while dirty data is at the dirty limit.
// - flush() returns once every block dirty when it was called is on the backing store and the
//   backing store was flushed. A FUA write is on the backing store (with FUA) before it returns.
// - discard() drops the range from the cache (dirty data too) and passes it down.
// - Optional LZ4 per block; a block that does not shrink by 1/8 is stored raw (random-looking
//   data without running LZ4: block_codec.h).
// - Sharded: blocks map to shards in 64 KiB groups; each shard has its own lock and clock, which
//   is also its block table (a block's data sits at its node's number), so a hit makes one
//   index look-up and touches one 16-byte node. A 4 KiB hit that changes nothing in the clock
//   takes no lock: it reads the shard as a sequence lock's reader and writes nothing shared.
// - Errors of the backing store reach the caller as Expected errors. A write-back failure
//   keeps the blocks dirty in RAM and is reported by the next flush() (and by stats()).
//
// Thread-safety: every public method may be called from any thread (BlockStore's contract).

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <thread>

#include "core/cachectl/block_store.h"
#include "core/cachectl/engine/policy.h"

namespace ssdk::cachectl::engine {

class FrameSpace;

enum class WriteMode { WriteThrough, WriteBack };

struct CacheConfig {
    std::uint64_t ramBytes = 256ULL << 20; // data + metadata
    WriteMode writeMode = WriteMode::WriteThrough;
    bool compression = false;
    std::uint64_t sequentialCutoff = 4ULL << 20; // 0 turns bypass off
    // Shares of the cache's block capacity that may be dirty: above high the writer runs
    // until dirty data is down to low; writers block at 100% of high + 1/8 of capacity.
    double dirtyHighWatermark = 0.50;
    double dirtyLowWatermark = 0.25;
    std::chrono::milliseconds writebackInterval{1000};
    // How long a write waits for room when dirty data is at the dirty limit before it fails
    // with Busy (the backing store is failing or far too slow).
    std::chrono::milliseconds dirtyWaitTimeout{30000};
    std::string policy{kDefaultPolicy};
    unsigned shards = 0; // 0: 8 per hardware thread, 64 to 256, fewer for small caches
};

struct CacheStats {
    std::uint64_t readHits = 0;        // 4 KiB blocks read from RAM
    std::uint64_t lockFreeHits = 0;    // of those, read without the shard's lock
    std::uint64_t readMisses = 0;      // blocks read from the backing store
    std::uint64_t bypassed = 0;        // missed or written blocks kept out by the sequential cutoff
    std::uint64_t writes = 0;          // blocks written by callers
    std::uint64_t writebackOps = 0;    // backing writes issued by write-back
    std::uint64_t writebackBlocks = 0; // blocks those writes carried
    std::uint64_t dirtyBytes = 0;
    std::uint64_t cachedBlocks = 0;
    std::uint64_t logicalBytes = 0;  // cached blocks x 4 KiB
    std::uint64_t physicalBytes = 0; // RAM their data takes (compressed or raw)
    std::uint64_t metadataBytes = 0; // index + policy state, measured from the containers
    // Blocks the clocks hold at most now; with compression it follows how well blocks compress.
    std::uint64_t capacityBlocks = 0;
    std::uint64_t ramBytes = 0; // the RAM budget (CacheConfig::ramBytes, or the last resize)
    std::uint64_t writebackErrors = 0;
    // Frame memory huge pages may back (the frames a full cache uses; with compression, only
    // while nearly every block is stored raw).
    std::uint64_t hugePageBytes = 0;
    // Times a compressing cache has reviewed that advice (reviewHugePages): after its first
    // stores, then once per write-back interval. Tests wait on it to see the advice hold.
    std::uint64_t hugePageReviews = 0;

    double hitRatio() const {
        const auto total = readHits + readMisses;
        return total == 0 ? 0.0 : static_cast<double>(readHits) / static_cast<double>(total);
    }
    double compressionRatio() const {
        return physicalBytes == 0
                   ? 1.0
                   : static_cast<double>(logicalBytes) / static_cast<double>(physicalBytes);
    }
};

class CacheEngine final : public BlockStore {
public:
    static constexpr std::uint32_t kBlockSize = 4096;

    // backing must outlive the engine and have a size that is a multiple of 4 KiB.
    // InvalidArgument for a budget too small for one block per shard, a bad watermark or an
    // unknown policy.
    static Expected<std::unique_ptr<CacheEngine>> create(BlockStore& backing, CacheConfig config);
    // Stops the writer after writing dirty blocks back (errors are logged; call flush() first
    // to see them).
    ~CacheEngine() override;

    CacheEngine(const CacheEngine&) = delete;
    CacheEngine& operator=(const CacheEngine&) = delete;

    std::uint64_t size() const override { return m_size; }
    std::uint32_t blockSize() const override { return kBlockSize; }
    Expected<void> read(std::uint64_t offset, std::span<std::byte> out) override;
    Expected<void> write(std::uint64_t offset, std::span<const std::byte> data, bool fua) override;
    Expected<void> flush() override;
    Expected<void> discard(std::uint64_t offset, std::uint64_t length) override;
    Expected<void> writeZeroes(std::uint64_t offset, std::uint64_t length, bool fua) override;

    CacheStats stats() const;
    // The configuration the engine was created with (writeMode and ramBytes: see below).
    const CacheConfig& config() const { return m_config; }

    WriteMode writeMode() const { return m_writeMode.load(std::memory_order_relaxed); }
    // Switches the write mode. Waits for running writes; switching to write-through then
    // writes every dirty block back and flushes the backing store before it returns (on a
    // failure the engine stays in write-through and the dirty blocks stay for a later flush).
    Expected<void> setWriteMode(WriteMode mode);
    // Changes the RAM budget. The shard count stays, so the budget must still hold one block
    // per shard (InvalidArgument otherwise). Shrinking evicts clean blocks at once (the clocks
    // keep their history) and gives their RAM back; dirty blocks past the new capacity stay
    // until written back. I/O goes on meanwhile: each shard is resized under its own lock, and
    // only giving the RAM back holds them all (for one madvise).
    Expected<void> resize(std::uint64_t ramBytes);

private:
    struct Shard;
    class SequentialDetector;

    CacheEngine(BlockStore& backing, CacheConfig config, std::uint64_t capacityBlocks);

    Shard& shardOf(std::uint64_t block) const;
    // A hit decodes the block into out and, when promote, records it with the policy. Shard
    // lock held.
    bool readCachedLocked(Shard& shard, std::uint64_t block, std::byte* out, bool promote);
    // A hit without the shard's lock, when it would change nothing; false: take the lock.
    bool readLockFree(Shard& shard, std::uint64_t block, std::byte* out);
    void insertClean(Shard& shard, std::uint64_t block, const std::byte* data, std::uint64_t epoch);
    // The rest of read() for the blocks it missed (ascending): reads them from the backing
    // store (a run of consecutive blocks at once) and caches them unless the request is part
    // of a sequential stream past the cutoff (`streaming`; asked of the detector when unset).
    Expected<void> readMisses(std::uint64_t offset, std::span<std::byte> out,
                              std::span<const std::uint64_t> missing,
                              std::optional<bool> streaming);
    // Drops what the cache holds of block (dirty data too). Shard lock held.
    void dropBlockLocked(Shard& shard, std::uint64_t block);
    Expected<void> writeDirect(std::uint64_t firstBlock, std::uint64_t offset,
                               std::span<const std::byte> data, bool fua, bool cacheAfter);
    Expected<void> writeBack(std::uint64_t offset, std::span<const std::byte> data);
    // Writes dirty blocks back: all of them (limit 0) or about `limit`. Holds m_writebackMutex.
    Expected<void> writebackPass(std::uint64_t limit);
    void writerLoop();
    // Busy when dirty data stays at the dirty limit for dirtyWaitTimeout.
    Expected<void> waitForDirtyRoom();

    // Capacity and dirty watermarks (blocks) from a RAM budget.
    void setCapacity(std::uint64_t ramBytes, std::uint64_t capacityBlocks);
    void setShardBudgets(std::uint64_t ramBytes, std::size_t perShard);
    void adviseHugePages(std::uint64_t ramBytes, std::uint64_t perShard);
    void reviewHugePages();
    void stored(Shard& shard);

    BlockStore& m_backing;
    CacheConfig m_config;
    std::uint64_t m_size;
    std::atomic<WriteMode> m_writeMode;
    // Held shared by write(), exclusively by setWriteMode (so no write is half-way through a
    // mode when it changes).
    std::shared_mutex m_modeMutex;
    std::mutex m_resizeMutex; // one resize at a time
    std::atomic<std::uint64_t> m_ramBytes{0};
    std::atomic<std::uint64_t> m_capacityBlocks{0};
    std::atomic<std::uint64_t> m_dirtyHigh{0};
    std::atomic<std::uint64_t> m_dirtyLow{0};
    std::atomic<std::uint64_t> m_dirtyLimit{0};
    // The shards' first frames, interleaved (frame_arena.h). Declared before the shards, which
    // address it, so that it outlives them.
    std::unique_ptr<FrameSpace> m_frameSpace;
    // Which frames huge pages may back (adviseHugePages, reviewHugePages).
    std::mutex m_hugePagesMutex;
    std::uint64_t m_hugePageFrames = 0; // per shard, when on
    bool m_denseFrames = false;         // with compression: whether they are on
    std::atomic<std::uint64_t> m_hugePageBytes{0};
    std::atomic<std::uint64_t> m_hugePageReviews{0}; // counted once each review has decided
    std::atomic<std::int64_t> m_storesBeforeReview{0};
    std::vector<std::unique_ptr<Shard>> m_shards;
    std::uint64_t m_shardMask;
    std::unique_ptr<SequentialDetector> m_detector;

    // Lock-free hits, counted per reader slot (a cache line each, so cores do not share one).
    // A slot numbered below the stripes' count has its stripe to itself, and adds without a
    // locked instruction (which waits for the hit's copy to leave the store buffer); the others
    // share the last stripe.
    struct alignas(64) HitStripe {
        std::atomic<std::uint64_t> value{0};
    };
    std::array<HitStripe, 65> m_lockFreeHits;

    std::atomic<std::uint64_t> m_dirtyBlocks{0};
    std::atomic<std::uint64_t> m_bypassed{0};
    std::atomic<std::uint64_t> m_writes{0};
    std::atomic<std::uint64_t> m_writebackOps{0};
    std::atomic<std::uint64_t> m_writebackBlocks{0};
    std::atomic<std::uint64_t> m_writebackErrors{0};

    std::mutex m_writebackMutex; // one write-back pass at a time (writer thread or flush)
    std::mutex m_writerMutex;    // guards m_stop and the two condition variables' predicates
    std::condition_variable m_writerWake;
    std::condition_variable m_dirtyRoom;
    bool m_stop = false;
    std::thread m_writer;
};

} // namespace ssdk::cachectl::engine
