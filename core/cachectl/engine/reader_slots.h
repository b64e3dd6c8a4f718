#pragma once
// ReaderSlot: which threads are reading a shard of the cache engine without its lock, so that a
// holder of the lock can wait for them before it frees or moves memory they may be reading (the
// clock's node array, its index's table, the frames; see cache_engine.cpp).
//
// Each thread that reads gets a slot of its own (one cache line, reused after the thread ends):
// enter() names the shard it is about to read, leave() clears it. The lock's holder, its version
// odd (shard_lock.h), calls ShardLock::announceHeld() and then waitForReaders(shard). Both sides
// use sequentially consistent operations, so either the reader sees the odd version and reads
// nothing, or the holder sees the reader's slot and waits until it is left (Dekker's pattern).
// Readers that enter later see the odd version until the holder is done.

#include <atomic>
#include <cstddef>

namespace ssdk::cachectl::engine {

class alignas(64) ReaderSlot {
public:
    // The calling thread's slot.
    static ReaderSlot& mine();
    // Returns once no thread is inside enter(shard) ... leave().
    static void waitForReaders(const void* shard);

    void enter(const void* shard) { m_reading.exchange(shard, std::memory_order_seq_cst); }
    void leave() { m_reading.store(nullptr, std::memory_order_release); }
    // A number of its own among the slots in use (for striped counters).
    std::size_t index() const { return m_index; }

private:
    friend struct SlotOwner;
    explicit ReaderSlot(std::size_t index)
        : m_index(index) {}
    static ReaderSlot* acquire();

    std::atomic<const void*> m_reading{nullptr};
    std::atomic<bool> m_taken{true};
    std::size_t m_index;
    ReaderSlot* m_next = nullptr; // slots are never freed: a list that only grows
};

} // namespace ssdk::cachectl::engine
