#pragma once
// BlockIndex: the engine's map from block number to its slot, an open-addressing hash table
// (linear probing, backward-shift deletion) with the values stored inline, so a lookup costs
// one cache miss instead of a bucket array plus a heap node. Keys are block numbers; the
// all-ones key is reserved as the empty marker (no device has 2^64 - 1 blocks).
//
// Pointers returned by find/tryEmplace stay valid until the next tryEmplace or erase (both
// may move entries). Not thread-safe: the engine uses one per shard under the shard's lock.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <utility>

namespace ssdk::cachectl::engine {

template <typename Value> class BlockIndex {
public:
    static constexpr std::uint64_t kEmpty = std::numeric_limits<std::uint64_t>::max();

    BlockIndex() { rehash(16); }

    Value* find(std::uint64_t key) {
        for (std::size_t i = home(key);; i = (i + 1) & m_mask) {
            if (m_entries[i].key == key) {
                return &m_entries[i].value;
            }
            if (m_entries[i].key == kEmpty) {
                return nullptr;
            }
        }
    }
    const Value* find(std::uint64_t key) const { return const_cast<BlockIndex*>(this)->find(key); }
    bool contains(std::uint64_t key) const { return find(key) != nullptr; }
    // Some key of the table (the first in bucket order); kEmpty when the table is empty.
    std::uint64_t anyKey() const {
        for (std::size_t i = 0; i <= m_mask; ++i) {
            if (m_entries[i].key != kEmpty) {
                return m_entries[i].key;
            }
        }
        return kEmpty;
    }

    // The value of key, value-initialized and inserted when absent (second: true).
    std::pair<Value*, bool> tryEmplace(std::uint64_t key) {
        if ((m_size + 1) * 4 > (m_mask + 1) * 3) {
            rehash((m_mask + 1) * 2);
        }
        for (std::size_t i = home(key);; i = (i + 1) & m_mask) {
            if (m_entries[i].key == key) {
                return {&m_entries[i].value, false};
            }
            if (m_entries[i].key == kEmpty) {
                m_entries[i].key = key;
                m_entries[i].value = Value{};
                ++m_size;
                return {&m_entries[i].value, true};
            }
        }
    }

    bool erase(std::uint64_t key) {
        std::size_t hole = home(key);
        for (;; hole = (hole + 1) & m_mask) {
            if (m_entries[hole].key == kEmpty) {
                return false;
            }
            if (m_entries[hole].key == key) {
                break;
            }
        }
        // Backward shift: move later entries of the cluster into the hole when the hole lies
        // between their home and their position.
        for (std::size_t next = (hole + 1) & m_mask;; next = (next + 1) & m_mask) {
            if (m_entries[next].key == kEmpty) {
                break;
            }
            const std::size_t want = home(m_entries[next].key);
            const bool movable = ((next - want) & m_mask) >= ((next - hole) & m_mask);
            if (movable) {
                m_entries[hole] = std::move(m_entries[next]);
                hole = next;
            }
        }
        m_entries[hole].key = kEmpty;
        m_entries[hole].value = Value{};
        --m_size;
        if (m_mask + 1 > 16 && m_size * 8 < m_mask + 1) {
            rehash((m_mask + 1) / 2);
        }
        return true;
    }

    std::size_t size() const { return m_size; }
    // Heap bytes of the table.
    std::size_t memoryBytes() const { return (m_mask + 1) * sizeof(Entry); }

    // fn(key, value&) for every entry; fn must not insert or erase.
    template <typename Fn> void forEach(Fn&& fn) {
        for (std::size_t i = 0; i <= m_mask; ++i) {
            if (m_entries[i].key != kEmpty) {
                fn(m_entries[i].key, m_entries[i].value);
            }
        }
    }

private:
    struct Entry {
        std::uint64_t key = kEmpty;
        Value value{};
    };

    std::size_t home(std::uint64_t key) const {
        std::uint64_t x = key;
        x ^= x >> 33;
        x *= 0xff51afd7ed558ccdULL;
        x ^= x >> 33;
        return static_cast<std::size_t>(x) & m_mask;
    }

    void rehash(std::size_t capacity) {
        auto old = std::move(m_entries);
        const std::size_t oldCapacity = old ? m_mask + 1 : 0;
        m_entries = std::make_unique<Entry[]>(capacity);
        m_mask = capacity - 1;
        for (std::size_t i = 0; i < oldCapacity; ++i) {
            if (old[i].key == kEmpty) {
                continue;
            }
            std::size_t j = home(old[i].key);
            while (m_entries[j].key != kEmpty) {
                j = (j + 1) & m_mask;
            }
            m_entries[j] = std::move(old[i]);
        }
    }

    std::unique_ptr<Entry[]> m_entries;
    std::size_t m_mask = 0;
    std::size_t m_size = 0;
};

} // namespace ssdk::cachectl::engine
