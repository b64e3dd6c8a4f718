#include "core/cachectl/engine/reader_slots.h"

#include <cstdlib>
#include <thread>

#include "core/base/log.h"
#include "core/cachectl/engine/shard_lock.h"

namespace ssdk::cachectl::engine {

namespace {

std::atomic<ReaderSlot*> g_slots{nullptr};
std::atomic<std::size_t> g_slotCount{0};
constexpr int kSpins = 256;

// Registers the process for private expedited membarriers, if the kernel has them.
bool registerMembarrier() {
#if defined(__SANITIZE_THREAD__)
    return false;
#else
    return registerProcessBarrier();
#endif
}

} // namespace

// Initialized before main: no engine runs earlier, and a reader that read it before (false)
// would only have used the full fence.
const bool ReaderSlot::s_asymmetric = registerMembarrier();

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
    // The holder's fence, after announceHeld(): every running reader's slot write is visible
    // now, or its version read comes after the odd version (reader_slots.h).
    if (s_asymmetric && !runProcessBarrier()) {
        // Registered before main, so the kernel has it: readers may be unseen, nothing is safe.
        log::get("cachectl")->critical("membarrier failed after registration; aborting");
        std::abort();
    }
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
