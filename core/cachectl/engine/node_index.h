#pragma once
// NodeIndex: the map from block number to node number for a policy whose nodes hold their own
// keys (CLOCK-Pro). An entry is 4 bytes: a 27-bit node number and a 5-bit tag from the key's
// hash. A tag match is confirmed against the node's key, which a lookup reads anyway (the
// node also holds what the lookup is for); the tag spares that read for 31 of 32 other entries
// on the way. Open addressing with linear probing and backward-shift deletion; moving entries
// (deletion, growth) reads the keys of the nodes moved, through keyOf(node). The table's size is
// any number of entries (the home bucket is the hash scaled to it), kept at most 4/5 full and
// grown by a quarter, so a table sized for a cache's capacity (reserve) is about 4/5 full and
// costs 5 bytes per key.
//
// Not thread-safe (one per policy, under the policy's lock), but for findRacy.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

namespace ssdk::cachectl::engine {

class NodeIndex {
public:
    static constexpr unsigned kNodeBits = 27;
    static constexpr std::uint32_t kNodeMask = (1U << kNodeBits) - 1;
    static constexpr std::uint32_t kNone = 0xffffffffU;

    NodeIndex() { allocate(kMinSlots); }

    // The node holding key, or kNone. keyOf(node) returns that node's key.
    template <typename KeyOf> std::uint32_t find(std::uint64_t key, KeyOf&& keyOf) const {
        const std::uint64_t hash = mix(key);
        const std::uint32_t tag = tagOf(hash);
        for (std::size_t i = home(hash);; i = next(i)) {
            const std::uint32_t entry = m_entries[i];
            if (entry == kEmpty) {
                return kNone;
            }
            if ((entry >> kNodeBits) == tag && keyOf(entry & kNodeMask) == key) {
                return entry & kNodeMask;
            }
        }
    }

    // find() for a reader without the policy's lock, racing with the holder's changes (the
    // cache engine's lock-free hits): it reads entries and keys as they are, so its answer is a
    // candidate the reader validates. racyKeyOf(node) reads node's key the same way; it is only
    // asked for nodes below `nodes`, and the answer is kNone or such a node, after at most a
    // table's length of probes. The table must not move meanwhile (setBeforeMove).
    template <typename RacyKeyOf>
    __attribute__((no_sanitize("thread"))) std::uint32_t
    findRacy(std::uint64_t key, RacyKeyOf&& racyKeyOf, std::size_t nodes) const {
        const std::uint64_t hash = mix(key);
        const std::uint32_t tag = tagOf(hash);
        const std::uint32_t* entries = m_entries.get();
        const std::size_t slots = m_slots;
        std::size_t i = static_cast<std::size_t>(((hash >> 32) * slots) >> 32);
        for (std::size_t probes = 0; probes < slots; ++probes) {
            const std::uint32_t entry = __atomic_load_n(&entries[i], __ATOMIC_RELAXED);
            if (entry == kEmpty) {
                return kNone;
            }
            const std::uint32_t node = entry & kNodeMask;
            if ((entry >> kNodeBits) == tag && node < nodes && racyKeyOf(node) == key) {
                return node;
            }
            i = i + 1 == slots ? 0 : i + 1;
        }
        return kNone;
    }

    // Called before the table is replaced (grown, shrunk or reserved), while nothing changed
    // yet: lock-free readers must be out of the old one before it is freed.
    void setBeforeMove(std::function<void()> hook) { m_beforeMove = std::move(hook); }

    // key must not be in the index; node must be below kNodeMask.
    template <typename KeyOf> void insert(std::uint64_t key, std::uint32_t node, KeyOf&& keyOf) {
        if ((m_size + 1) * 5 > m_slots * 4) {
            rehash(m_slots + m_slots / 4, keyOf);
        }
        const std::uint64_t hash = mix(key);
        std::size_t i = home(hash);
        while (m_entries[i] != kEmpty) {
            i = next(i);
        }
        m_entries[i] = (tagOf(hash) << kNodeBits) | node;
        ++m_size;
    }

    // Makes room for `keys` keys without growing.
    template <typename KeyOf> void reserve(std::size_t keys, KeyOf&& keyOf) {
        if (keys * 5 > m_slots * 4) {
            rehash(keys * 5 / 4 + 1, keyOf);
        }
    }

    // Removes key, which node holds. keyOf must still return key for node.
    template <typename KeyOf> void erase(std::uint64_t key, std::uint32_t node, KeyOf&& keyOf) {
        std::size_t hole = slotOf(key, node);
        if (hole == kNoSlot) {
            return;
        }
        // Backward shift: move later entries of the cluster into the hole when the hole lies
        // between their home and their position.
        for (std::size_t at = next(hole); m_entries[at] != kEmpty; at = next(at)) {
            const std::size_t want = home(mix(keyOf(m_entries[at] & kNodeMask)));
            if (distance(want, at) >= distance(hole, at)) {
                m_entries[hole] = m_entries[at];
                hole = at;
            }
        }
        m_entries[hole] = kEmpty;
        --m_size;
        if (m_slots > kMinSlots && m_size * 8 < m_slots) {
            rehash(std::max(kMinSlots, m_slots / 2), keyOf);
        }
    }

    // key moved from node `from` to node `to` (same key, so the same place in the table).
    void move(std::uint64_t key, std::uint32_t from, std::uint32_t to) {
        if (const std::size_t slot = slotOf(key, from); slot != kNoSlot) {
            m_entries[slot] = (m_entries[slot] & ~kNodeMask) | to;
        }
    }

    std::size_t size() const { return m_size; }
    // Heap bytes of the table.
    std::size_t memoryBytes() const { return m_slots * sizeof(std::uint32_t); }

private:
    // No entry is all ones: node numbers stay below kNodeMask.
    static constexpr std::uint32_t kEmpty = 0xffffffffU;
    static constexpr std::size_t kNoSlot = ~std::size_t{0};
    static constexpr std::size_t kMinSlots = 16;

    static std::uint64_t mix(std::uint64_t key) {
        std::uint64_t x = key;
        x ^= x >> 33;
        x *= 0xff51afd7ed558ccdULL;
        x ^= x >> 33;
        x *= 0xc4ceb9fe1a85ec53ULL;
        x ^= x >> 33;
        return x;
    }
    // The low bits; the home bucket comes from the high half.
    static std::uint32_t tagOf(std::uint64_t hash) {
        return static_cast<std::uint32_t>(hash) & ((1U << (32 - kNodeBits)) - 1);
    }
    std::size_t home(std::uint64_t hash) const {
        return static_cast<std::size_t>(((hash >> 32) * m_slots) >> 32);
    }
    std::size_t next(std::size_t slot) const { return slot + 1 == m_slots ? 0 : slot + 1; }
    // Steps from `from` forward to `to`, around the end.
    std::size_t distance(std::size_t from, std::size_t to) const {
        return to >= from ? to - from : to + m_slots - from;
    }

    std::size_t slotOf(std::uint64_t key, std::uint32_t node) const {
        const std::uint64_t hash = mix(key);
        const std::uint32_t target = (tagOf(hash) << kNodeBits) | node;
        for (std::size_t i = home(hash);; i = next(i)) {
            if (m_entries[i] == target) {
                return i;
            }
            if (m_entries[i] == kEmpty) {
                return kNoSlot;
            }
        }
    }

    void allocate(std::size_t slots) {
        m_entries = std::make_unique<std::uint32_t[]>(slots);
        std::fill_n(m_entries.get(), slots, kEmpty);
        m_slots = slots;
    }

    template <typename KeyOf> void rehash(std::size_t slots, KeyOf&& keyOf) {
        if (m_beforeMove) {
            m_beforeMove();
        }
        auto old = std::move(m_entries);
        const std::size_t oldSlots = m_slots;
        allocate(slots);
        for (std::size_t i = 0; i < oldSlots; ++i) {
            if (old[i] == kEmpty) {
                continue;
            }
            std::size_t j = home(mix(keyOf(old[i] & kNodeMask)));
            while (m_entries[j] != kEmpty) {
                j = next(j);
            }
            m_entries[j] = old[i];
        }
    }

    std::unique_ptr<std::uint32_t[]> m_entries;
    std::size_t m_slots = 0;
    std::size_t m_size = 0;
    std::function<void()> m_beforeMove;
};

} // namespace ssdk::cachectl::engine
