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
// Meets Lockable: std::scoped_lock, std::unique_lock and std::condition_variable_any take it.

#include <atomic>
#include <cstdint>

namespace ssdk::cachectl::engine {

class ShardLock {
public:
    void lock() {
        std::uint32_t expected = kFree;
        if (m_state.compare_exchange_strong(expected, kLocked, std::memory_order_acquire)) {
            return;
        }
        for (int spin = 0; spin < kSpins; ++spin) {
            relax();
            expected = kFree;
            if (m_state.load(std::memory_order_relaxed) == kFree &&
                m_state.compare_exchange_weak(expected, kLocked, std::memory_order_acquire)) {
                return;
            }
        }
        // Mark the lock contended, so its holder wakes a sleeper, and sleep until it is free.
        while (m_state.exchange(kContended, std::memory_order_acquire) != kFree) {
            m_state.wait(kContended, std::memory_order_relaxed);
        }
    }

    bool try_lock() {
        std::uint32_t expected = kFree;
        return m_state.compare_exchange_strong(expected, kLocked, std::memory_order_acquire);
    }

    void unlock() {
        if (m_state.exchange(kFree, std::memory_order_release) == kContended) {
            m_state.notify_one();
        }
    }

private:
    static void relax() {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        asm volatile("yield");
#endif
    }

    static constexpr std::uint32_t kFree = 0;
    static constexpr std::uint32_t kLocked = 1;
    static constexpr std::uint32_t kContended = 2; // locked, and someone may be sleeping
    static constexpr int kSpins = 64;

    std::atomic<std::uint32_t> m_state{kFree};
};

} // namespace ssdk::cachectl::engine
