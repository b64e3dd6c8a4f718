#pragma once
// NodeIndex: the map from block number to node number for a policy whose nodes hold their own
// keys (CLOCK-Pro). An entry is 4 bytes: a 27-bit node number and a 5-bit tag from the key's
// hash. A tag match is confirmed against the node's key, which a lookup reads anyway (the
// node also holds what the lookup is for); the tag spares that read for 31 of 32 other entries
// on the way. Open addressing with linear probing and backward-shift deletion; moving entries
// (deletion, growth) reads the keys of the nodes moved, through keyOf(node).
//
// Not thread-safe (one per policy, under the policy's lock).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace ssdk::cachectl::engine {

class NodeIndex {
public:
    static constexpr unsigned kNodeBits = 27;
    static constexpr std::uint32_t kNodeMask = (1U << kNodeBits) - 1;
    static constexpr std::uint32_t kNone = 0xffffffffU;

    NodeIndex() { allocate(16); }

    // The node holding key, or kNone. keyOf(node) returns that node's key.
    template <typename KeyOf> std::uint32_t find(std::uint64_t key, KeyOf&& keyOf) const {
        const std::uint64_t hash = mix(key);
        const std::uint32_t tag = tagOf(hash);
        for (std::size_t i = hash & m_mask;; i = (i + 1) & m_mask) {
            const std::uint32_t entry = m_entries[i];
            if (entry == kEmpty) {
                return kNone;
            }
            if ((entry >> kNodeBits) == tag && keyOf(entry & kNodeMask) == key) {
                return entry & kNodeMask;
            }
        }
    }

    // key must not be in the index; node must be below kNodeMask.
    template <typename KeyOf> void insert(std::uint64_t key, std::uint32_t node, KeyOf&& keyOf) {
        if ((m_size + 1) * 4 > (m_mask + 1) * 3) {
            rehash((m_mask + 1) * 2, keyOf);
        }
        const std::uint64_t hash = mix(key);
        std::size_t i = hash & m_mask;
        while (m_entries[i] != kEmpty) {
            i = (i + 1) & m_mask;
        }
        m_entries[i] = (tagOf(hash) << kNodeBits) | node;
        ++m_size;
    }

    // Removes key, which node holds. keyOf must still return key for node.
    template <typename KeyOf> void erase(std::uint64_t key, std::uint32_t node, KeyOf&& keyOf) {
        std::size_t hole = slotOf(key, node);
        if (hole == kNoSlot) {
            return;
        }
        // Backward shift: move later entries of the cluster into the hole when the hole lies
        // between their home and their position.
        for (std::size_t next = (hole + 1) & m_mask; m_entries[next] != kEmpty;
             next = (next + 1) & m_mask) {
            const std::size_t want = mix(keyOf(m_entries[next] & kNodeMask)) & m_mask;
            if (((next - want) & m_mask) >= ((next - hole) & m_mask)) {
                m_entries[hole] = m_entries[next];
                hole = next;
            }
        }
        m_entries[hole] = kEmpty;
        --m_size;
        if (m_mask + 1 > 16 && m_size * 8 < m_mask + 1) {
            rehash((m_mask + 1) / 2, keyOf);
        }
    }

    // key moved from node `from` to node `to` (same key, so the same place in the table).
    void move(std::uint64_t key, std::uint32_t from, std::uint32_t to) {
        if (const std::size_t slot = slotOf(key, from); slot != kNoSlot) {
            m_entries[slot] = (m_entries[slot] & ~kNodeMask) | to;
        }
    }

    // Starts loading key's home bucket into the CPU cache (a hint).
    void prefetch(std::uint64_t key) const { __builtin_prefetch(&m_entries[mix(key) & m_mask]); }
    std::size_t size() const { return m_size; }
    // Heap bytes of the table.
    std::size_t memoryBytes() const { return (m_mask + 1) * sizeof(std::uint32_t); }

private:
    // No entry is all ones: node numbers stay below kNodeMask.
    static constexpr std::uint32_t kEmpty = 0xffffffffU;
    static constexpr std::size_t kNoSlot = ~std::size_t{0};

    static std::uint64_t mix(std::uint64_t key) {
        std::uint64_t x = key;
        x ^= x >> 33;
        x *= 0xff51afd7ed558ccdULL;
        x ^= x >> 33;
        x *= 0xc4ceb9fe1a85ec53ULL;
        x ^= x >> 33;
        return x;
    }
    // The top bits: the home bucket takes the low ones.
    static std::uint32_t tagOf(std::uint64_t hash) {
        return static_cast<std::uint32_t>(hash >> (64 - (32 - kNodeBits)));
    }

    std::size_t slotOf(std::uint64_t key, std::uint32_t node) const {
        const std::uint64_t hash = mix(key);
        const std::uint32_t target = (tagOf(hash) << kNodeBits) | node;
        for (std::size_t i = hash & m_mask;; i = (i + 1) & m_mask) {
            if (m_entries[i] == target) {
                return i;
            }
            if (m_entries[i] == kEmpty) {
                return kNoSlot;
            }
        }
    }

    void allocate(std::size_t capacity) {
        m_entries = std::make_unique<std::uint32_t[]>(capacity);
        std::fill_n(m_entries.get(), capacity, kEmpty);
        m_mask = capacity - 1;
    }

    template <typename KeyOf> void rehash(std::size_t capacity, KeyOf&& keyOf) {
        auto old = std::move(m_entries);
        const std::size_t oldCapacity = m_mask + 1;
        allocate(capacity);
        for (std::size_t i = 0; i < oldCapacity; ++i) {
            if (old[i] == kEmpty) {
                continue;
            }
            std::size_t j = mix(keyOf(old[i] & kNodeMask)) & m_mask;
            while (m_entries[j] != kEmpty) {
                j = (j + 1) & m_mask;
            }
            m_entries[j] = old[i];
        }
    }

    std::unique_ptr<std::uint32_t[]> m_entries;
    std::size_t m_mask = 0;
    std::size_t m_size = 0;
};

} // namespace ssdk::cachectl::engine
