#pragma once
// NodeIndex: the map from block number to node number for a policy whose nodes hold their own
// keys (CLOCK-Pro). An entry is 8 bytes, a 32-bit fingerprint of the key and the node number,
// half of a BlockIndex<std::uint32_t> entry; a fingerprint match is confirmed against the
// node's key, which a lookup reads anyway. Open addressing with linear probing and
// backward-shift deletion. The home bucket comes from the fingerprint, so moving entries never
// reads a node.
//
// Not thread-safe (one per policy, under the policy's lock).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace ssdk::cachectl::engine {

class NodeIndex {
public:
    static constexpr std::uint32_t kNone = 0xffffffffU;

    NodeIndex() { rehash(16); }

    // The node holding key, or kNone. keyOf(node) returns that node's key.
    template <typename KeyOf> std::uint32_t find(std::uint64_t key, KeyOf&& keyOf) const {
        const std::uint32_t print = fingerprint(key);
        for (std::size_t i = print & m_mask;; i = (i + 1) & m_mask) {
            const std::uint64_t entry = m_entries[i];
            if (entry == kEmpty) {
                return kNone;
            }
            const auto node = static_cast<std::uint32_t>(entry);
            if (static_cast<std::uint32_t>(entry >> 32) == print && keyOf(node) == key) {
                return node;
            }
        }
    }

    // key must not be in the index; node must not be kNone.
    void insert(std::uint64_t key, std::uint32_t node) {
        if ((m_size + 1) * 4 > (m_mask + 1) * 3) {
            rehash((m_mask + 1) * 2);
        }
        place((std::uint64_t{fingerprint(key)} << 32) | node);
        ++m_size;
    }

    // Removes key, which node holds.
    void erase(std::uint64_t key, std::uint32_t node) {
        const std::uint64_t target = (std::uint64_t{fingerprint(key)} << 32) | node;
        std::size_t hole = home(target);
        while (m_entries[hole] != target) {
            if (m_entries[hole] == kEmpty) {
                return;
            }
            hole = (hole + 1) & m_mask;
        }
        // Backward shift: move later entries of the cluster into the hole when the hole lies
        // between their home and their position.
        for (std::size_t next = (hole + 1) & m_mask; m_entries[next] != kEmpty;
             next = (next + 1) & m_mask) {
            const std::size_t want = home(m_entries[next]);
            if (((next - want) & m_mask) >= ((next - hole) & m_mask)) {
                m_entries[hole] = m_entries[next];
                hole = next;
            }
        }
        m_entries[hole] = kEmpty;
        --m_size;
        if (m_mask + 1 > 16 && m_size * 8 < m_mask + 1) {
            rehash((m_mask + 1) / 2);
        }
    }

    // Starts loading key's home bucket into the CPU cache (a hint).
    void prefetch(std::uint64_t key) const {
        __builtin_prefetch(&m_entries[fingerprint(key) & m_mask]);
    }
    std::size_t size() const { return m_size; }
    // Heap bytes of the table.
    std::size_t memoryBytes() const { return (m_mask + 1) * sizeof(std::uint64_t); }

private:
    // No entry is all ones: node numbers stay below kNone.
    static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};

    static std::uint32_t fingerprint(std::uint64_t key) {
        std::uint64_t x = key;
        x ^= x >> 33;
        x *= 0xff51afd7ed558ccdULL;
        x ^= x >> 33;
        return static_cast<std::uint32_t>(x);
    }
    std::size_t home(std::uint64_t entry) const {
        return static_cast<std::size_t>(entry >> 32) & m_mask;
    }
    void place(std::uint64_t entry) {
        std::size_t i = home(entry);
        while (m_entries[i] != kEmpty) {
            i = (i + 1) & m_mask;
        }
        m_entries[i] = entry;
    }

    void rehash(std::size_t capacity) {
        auto old = std::move(m_entries);
        const std::size_t oldCapacity = old ? m_mask + 1 : 0;
        m_entries = std::make_unique<std::uint64_t[]>(capacity);
        std::fill_n(m_entries.get(), capacity, kEmpty);
        m_mask = capacity - 1;
        for (std::size_t i = 0; i < oldCapacity; ++i) {
            if (old[i] != kEmpty) {
                place(old[i]);
            }
        }
    }

    std::unique_ptr<std::uint64_t[]> m_entries;
    std::size_t m_mask = 0;
    std::size_t m_size = 0;
};

} // namespace ssdk::cachectl::engine
