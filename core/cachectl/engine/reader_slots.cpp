#include "core/cachectl/engine/reader_slots.h"

#include <thread>

#include "core/cachectl/engine/shard_lock.h"

namespace ssdk::cachectl::engine {

namespace {

std::atomic<ReaderSlot*> g_slots{nullptr};
std::atomic<std::size_t> g_slotCount{0};
constexpr int kSpins = 256;

} // namespace

// Gives the thread's slot back when the thread ends.
struct SlotOwner {
    ReaderSlot* slot = nullptr;
    ~SlotOwner() {
        if (slot != nullptr) {
            slot->m_taken.store(false, std::memory_order_release);
        }
    }
};

ReaderSlot& ReaderSlot::mine() {
    thread_local SlotOwner owner;
    if (owner.slot == nullptr) {
        owner.slot = acquire();
    }
    return *owner.slot;
}

ReaderSlot* ReaderSlot::acquire() {
    for (ReaderSlot* slot = g_slots.load(std::memory_order_acquire); slot != nullptr;
         slot = slot->m_next) {
        bool taken = false;
        if (!slot->m_taken.load(std::memory_order_relaxed) &&
            slot->m_taken.compare_exchange_strong(taken, true, std::memory_order_acquire)) {
            return slot;
        }
    }
    auto* slot = new ReaderSlot(g_slotCount.fetch_add(1, std::memory_order_relaxed));
    slot->m_next = g_slots.load(std::memory_order_relaxed);
    while (!g_slots.compare_exchange_weak(slot->m_next, slot, std::memory_order_release,
                                          std::memory_order_relaxed)) {
    }
    return slot;
}

void ReaderSlot::waitForReaders(const void* shard) {
    for (const ReaderSlot* slot = g_slots.load(std::memory_order_acquire); slot != nullptr;
         slot = slot->m_next) {
        // A reader is done within a 4 KiB copy, unless it lost its core: then give it ours.
        for (int spin = 0; slot->m_reading.load(std::memory_order_seq_cst) == shard; ++spin) {
            if (spin < kSpins) {
                cpuRelax();
            } else {
                std::this_thread::yield();
            }
        }
    }
}

} // namespace ssdk::cachectl::engine
