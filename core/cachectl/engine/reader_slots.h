#pragma once
// ReaderSlot: which threads are reading a shard of the cache engine without its lock, so that a
// holder of the lock can wait for them before it frees or moves memory they may be reading (the
// clock's node array, its index's table, the frames; see cache_engine.cpp).
//
// Each thread that reads gets a slot of its own (one cache line, reused after the thread ends):
// enter() names the shard it is about to read, leave() clears it. The lock's holder, its version
// odd (shard_lock.h), calls ShardLock::announceHeld() and then waitForReaders(shard). Either the
// reader sees the odd version and reads nothing, or the holder sees the reader's slot and waits
// until it is left (Dekker's pattern). Readers that enter later see the odd version until the
// holder is done.
//
// Dekker's pattern needs a full fence on both sides, between the write of one's own flag and the
// read of the other's. The reader's side is every lock-free hit, the holder's is rare (a table
// grows or moves, a resize), so where the kernel offers it the fences are asymmetric: the holder
// has the kernel run a full barrier on every core running a thread of the process
// (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED), microseconds), and the reader needs only keep
// the compiler from reordering its store and load. A hit's locked instruction had to wait until
// the 4 KiB copy of the hit before it had left the store buffer: 5-10 % of a hit
// (bench_cache_engine). Elsewhere (and under ThreadSanitizer, which does not model membarrier)
// both sides use sequentially consistent operations.

#include <atomic>
#include <cstddef>

namespace ssdk::cachectl::engine {

class alignas(64) ReaderSlot {
public:
    // The calling thread's slot.
    static ReaderSlot& mine();
    // Returns once no thread is inside enter(shard) ... leave().
    static void waitForReaders(const void* shard);
    // Whether the fences are asymmetric (membarrier), decided once when the program starts.
    static bool asymmetricFences() { return s_asymmetric; }

    void enter(const void* shard) {
        if (s_asymmetric) {
            m_reading.store(shard, std::memory_order_relaxed);
            std::atomic_signal_fence(std::memory_order_seq_cst);
        } else {
            m_reading.exchange(shard, std::memory_order_seq_cst);
        }
    }
    void leave() { m_reading.store(nullptr, std::memory_order_release); }
    // A number of its own among the slots in use (for striped counters): unique among the
    // threads alive, and small (slots are reused).
    std::size_t index() const { return m_index; }

private:
    friend struct SlotOwner;
    explicit ReaderSlot(std::size_t index)
        : m_index(index) {}
    static ReaderSlot* acquire();

    static const bool s_asymmetric;
    std::atomic<const void*> m_reading{nullptr};
    std::atomic<bool> m_taken{true};
    std::size_t m_index;
    ReaderSlot* m_next = nullptr; // slots are never freed: a list that only grows
};

// The holder's asymmetric fence, where the OS has one; implemented under platform/<os>/
// (Linux: membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)).
// Registers the process for it; false when the kernel cannot do it.
bool registerProcessBarrier();
// Runs a full memory barrier on every core running a thread of the process. Only after
// registerProcessBarrier() returned true; false when it failed.
bool runProcessBarrier();

} // namespace ssdk::cachectl::engine
