// ShardLock (core/cachectl/engine/shard_lock.h): mutual exclusion on the fast, spinning and
// sleeping paths, waits through std::condition_variable_any, and the version lock-free readers
// validate against, and the reader slots a holder waits for (reader_slots.h).

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "core/cachectl/engine/reader_slots.h"
#include "core/cachectl/engine/shard_lock.h"

using namespace ssdk::cachectl::engine;

TEST_CASE("ShardLock excludes, whether a waiter spins or sleeps", "[cachectl][engine]") {
    ShardLock lock;
    std::uint64_t counter = 0; // not atomic: only the lock protects it
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < 20000; ++i) {
                const std::scoped_lock held(lock);
                const std::uint64_t seen = counter;
                if (i % 2000 == t) {
                    // Held long enough that the others give up spinning and sleep.
                    std::this_thread::sleep_for(std::chrono::microseconds(200));
                }
                counter = seen + 1;
            }
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    CHECK(counter == 4 * 20000);
    CHECK(lock.try_lock());
    CHECK_FALSE(lock.try_lock());
    lock.unlock();
}

TEST_CASE("ShardLock works with condition_variable_any", "[cachectl][engine]") {
    ShardLock lock;
    std::condition_variable_any changed;
    bool ready = false;
    std::thread producer([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        {
            const std::scoped_lock held(lock);
            ready = true;
        }
        changed.notify_all();
    });
    std::unique_lock held(lock);
    CHECK(changed.wait_for(held, std::chrono::seconds(10), [&] { return ready; }));
    held.unlock();
    producer.join();
}

TEST_CASE("ShardLock's version tells a lock-free reader whether a holder came between",
          "[cachectl][engine]") {
    ShardLock lock;
    const std::uint32_t before = lock.readBegin();
    CHECK(before % 2 == 0);
    CHECK(lock.readValidate(before)); // nobody held it
    {
        const std::scoped_lock held(lock);
        CHECK(lock.readBegin() % 2 == 1); // a reader reads nothing now
        CHECK_FALSE(lock.readValidate(before));
        lock.announceHeld(); // changes nothing a reader sees
        CHECK(lock.readBegin() % 2 == 1);
    }
    const std::uint32_t after = lock.readBegin();
    CHECK(after % 2 == 0);
    CHECK(after != before);
    CHECK_FALSE(lock.readValidate(before)); // a holder came between
    REQUIRE(lock.try_lock());
    CHECK_FALSE(lock.readValidate(after));
    lock.unlock();
}

TEST_CASE("a holder that waited for readers has the shard to itself until it unlocks",
          "[cachectl][engine]") {
    // Dekker's pattern of reader_slots.h: a reader that entered and saw an even version is
    // waited for; one that enters later sees an odd version. Readers count themselves inside
    // while they would read; after waitForReaders the holder must never see one inside. Run
    // with the fences the process uses (asymmetric where the kernel has membarrier).
    INFO("asymmetric fences: " << ReaderSlot::asymmetricFences());
    ShardLock lock;
    const int shard = 0;
    std::atomic<int> inside{0};
    std::atomic<bool> done{false};
    std::atomic<long> readsInside{0};
    std::atomic<long> readsBlocked{0}; // a reader that came while the holder held the shard
    std::atomic<int> started{0};
    std::vector<std::thread> readers;
    for (int t = 0; t < 2; ++t) {
        readers.emplace_back([&] {
            ReaderSlot& slot = ReaderSlot::mine();
            started.fetch_add(1);
            while (!done.load(std::memory_order_relaxed)) {
                slot.enter(&shard);
                if (const std::uint32_t version = lock.readBegin(); version % 2 == 0) {
                    inside.fetch_add(1);
                    readsInside.fetch_add(1, std::memory_order_relaxed);
                    inside.fetch_sub(1);
                } else {
                    readsBlocked.fetch_add(1, std::memory_order_relaxed);
                }
                slot.leave();
            }
        });
    }
    while (started.load() < 2) {
        std::this_thread::yield();
    }
    // Counted, not timed: at least kRounds rounds, then more until the readers have both read
    // and run into a holder (on two busy cores under TSan a reader may not get a turn at
    // first), up to kMaxRounds.
    constexpr int kRounds = 200;
    constexpr int kMaxRounds = 200000;
    int violations = 0;
    int rounds = 0;
    for (; rounds < kRounds ||
           (rounds < kMaxRounds && (readsInside.load() == 0 || readsBlocked.load() == 0));
         ++rounds) {
        {
            const std::scoped_lock held(lock);
            lock.announceHeld();
            ReaderSlot::waitForReaders(&shard);
            for (int look = 0; look < 50; ++look) {
                violations += inside.load() != 0 ? 1 : 0;
            }
        }
        if (rounds % 64 == 63) {
            std::this_thread::yield(); // unlocked: give the readers a turn
        }
    }
    done = true;
    for (auto& reader : readers) {
        reader.join();
    }
    INFO("rounds " << rounds << ", reads inside " << readsInside.load() << ", reads blocked "
                   << readsBlocked.load());
    CHECK(readsInside.load() > 0);
    CHECK(readsBlocked.load() > 0);
    CHECK(violations == 0);
}
