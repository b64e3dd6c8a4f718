#pragma once
// ShardLock: the lock of a cache engine shard. A hit holds it for a few hundred nanoseconds
// (one index look-up and a 4 KiB copy), so taking and releasing it is a noticeable share of a
// hit: pthread_mutex_lock and _unlock, two calls into the C library, cost about 10 % of the hit
// rate and made two threads scale worse (bench_cache_engine). This is the three-state futex
// mutex of Drepper's "Futexes Are Tricky" with inline atomics: an uncontended lock is one
// compare-exchange, an unlock one exchange; a waiter spins briefly (the holder is likely
// copying) and then sleeps in the kernel (std::atomic::wait), so a holder that is preempted or
// runs long (write-back decoding a block) costs its waiters no CPU. Not recursive.
//
// It is also a sequence lock for the hit path's lock-free readers (cache_engine.cpp): a version
// that is odd while the lock is held. A reader notes an even version (readBegin), reads, and keeps
// what it read only if readValidate finds the same version: no holder changed anything meanwhile.
// Readers never write the lock, so hits on one shard from several cores do not move its cache
// line between them. A version wraps after 2^31 holds: a reader would have to stall that long.
//
// Meets Lockable: std::scoped_lock, std::unique_lock and std::condition_variable_any take it.

#include <atomic>
#include <cstdint>

namespace ssdk::cachectl::engine {

// Tells the CPU this thread is spinning on a value another core will change.
inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

class ShardLock {
public:
    void lock() {
        std::uint32_t expected = kFree;
        if (m_state.compare_exchange_strong(expected, kLocked, std::memory_order_acquire)) {
            beginWrite();
            return;
        }
        for (int spin = 0; spin < kSpins; ++spin) {
            cpuRelax();
            expected = kFree;
            if (m_state.load(std::memory_order_relaxed) == kFree &&
                m_state.compare_exchange_weak(expected, kLocked, std::memory_order_acquire)) {
                beginWrite();
                return;
            }
        }
        // Mark the lock contended, so its holder wakes a sleeper, and sleep until it is free.
        while (m_state.exchange(kContended, std::memory_order_acquire) != kFree) {
            m_state.wait(kContended, std::memory_order_relaxed);
        }
        beginWrite();
    }

    bool try_lock() {
        std::uint32_t expected = kFree;
        if (!m_state.compare_exchange_strong(expected, kLocked, std::memory_order_acquire)) {
            return false;
        }
        beginWrite();
        return true;
    }

    void unlock() {
        m_version.store(m_version.load(std::memory_order_relaxed) + 1, std::memory_order_release);
        if (m_state.exchange(kFree, std::memory_order_release) == kContended) {
            m_state.notify_one();
        }
    }

    // ---- lock-free readers ----
    // The version now; odd while the lock is held (read nothing then). Sequentially consistent
    // (a plain load on x86-64), so that a holder's announceHeld() and a reader's
    // ReaderSlot::enter() see each other (reader_slots.h).
    std::uint32_t readBegin() const { return m_version.load(std::memory_order_seq_cst); }
    // Whether nothing changed since readBegin returned `version`.
    bool readValidate(std::uint32_t version) const {
        std::atomic_thread_fence(std::memory_order_acquire);
        return m_version.load(std::memory_order_relaxed) == version;
    }
    // For the holder, before it frees or moves memory readers may be in: puts its odd version
    // in the order of sequentially consistent operations, so every reader that has not noted it
    // is one ReaderSlot::waitForReaders() sees.
    void announceHeld() { m_version.fetch_add(0, std::memory_order_seq_cst); }

private:
    static constexpr std::uint32_t kFree = 0;
    static constexpr std::uint32_t kLocked = 1;
    static constexpr std::uint32_t kContended = 2; // locked, and someone may be sleeping
    static constexpr int kSpins = 64;

    // The version turns odd before the holder changes anything readers read (the seqlock of
    // Boehm, "Can seqlocks get along with programming language memory models?", MSPC'12).
    void beginWrite() {
        m_version.store(m_version.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        std::atomic_thread_fence(std::memory_order_release);
    }

    std::atomic<std::uint32_t> m_state{kFree};
    std::atomic<std::uint32_t> m_version{0};
};

} // namespace ssdk::cachectl::engine
