#pragma once
// GhostFilter: the keys CLOCK-Pro remembers after evicting them in their test period (its
// non-resident cold blocks), in about 4 bytes per cached block instead of a list node and an index
// entry per key. A key is stored with the time its block was last placed in the clock (a 32-bit
// count of placements); its test period lasts while that is later than the oldest hot block's
// placement, and at most about `capacity` keys are remembered.
//
// Keys go into a ring of Bloom filters, a generation each: a generation takes a twelfth of the
// capacity and remembers the earliest and latest placement among its keys. The clock evicts in
// placement order, so the generations are in placement order too: expire(floor) drops the oldest
// generations whose keys were all placed at or before floor, and a new generation beyond the ring
// drops the oldest (the paper's bound on non-resident keys). A key found stands for its
// generation's earliest placement, so its test period may end up to a generation early.
//
// Each filter is blocked (a key's bits all lie in one 32-byte line), 32 bits per key with 7 set
// per key: a few false positives per 100000 look-ups per generation. A false positive only makes
// a new block count as returning; it never affects what data the cache holds.
//
// Not thread-safe (one per policy, under the policy's lock).

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace ssdk::cachectl::engine {

class GhostFilter {
public:
    explicit GhostFilter(std::size_t capacity) { resize(capacity); }

    // Whether placement time a is at or before b (times wrap around).
    static bool atOrBefore(std::uint32_t a, std::uint32_t b) {
        return static_cast<std::int32_t>(b - a) >= 0;
    }

    // What insert() forgot to stay within the capacity.
    struct Forgotten {
        std::size_t expired = 0;                 // keys not found again
        std::optional<std::uint32_t> placedUpTo; // their latest placement, if any went
    };

    // Remembers key, whose block was last placed at `placed`.
    Forgotten insert(std::uint64_t key, std::uint32_t placed) {
        Forgotten forgotten;
        if (m_live == 0 || newest().keys >= m_generationKeys) {
            if (m_live == kGenerations) {
                forgotten.placedUpTo = m_ring[m_oldest].latest;
                forgotten.expired = dropOldest();
            }
            Generation& opened = m_ring[(m_oldest + m_live) % kGenerations];
            ++m_live;
            // A cache that never evicts in test never pays for its filters.
            opened.lines.resize(m_lines);
            opened.keys = 0;
            opened.found = 0;
            opened.latest = placed;
            opened.earliest = placed;
        }
        Generation& current = newest();
        const Probe probe = probeOf(key, current);
        Line& line = current.lines[probe.line];
        for (unsigned k = 0; k < kBitsPerKey; ++k) {
            const unsigned bit = probe.bits[k];
            line[bit / 64] |= std::uint64_t{1} << (bit % 64);
        }
        ++current.keys;
        current.earliest = atOrBefore(placed, current.earliest) ? placed : current.earliest;
        current.latest = atOrBefore(current.latest, placed) ? placed : current.latest;
        return forgotten;
    }

    // If key is remembered (newest generation first): the earliest placement of its generation,
    // which stands in for its own. A key found counts as returned for the tallies.
    std::optional<std::uint32_t> find(std::uint64_t key) {
        for (std::size_t i = m_live; i-- > 0;) {
            Generation& generation = m_ring[(m_oldest + i) % kGenerations];
            if (holds(generation, key)) {
                ++generation.found;
                return generation.earliest;
            }
        }
        return std::nullopt;
    }

    // Ends the test periods of keys placed at or before floor (a generation at a time); returns
    // how many of them had not been found again.
    std::size_t expire(std::uint32_t floor) {
        std::size_t expired = 0;
        while (m_live > 0 && atOrBefore(m_ring[m_oldest].latest, floor)) {
            expired += dropOldest();
        }
        return expired;
    }

    // Ends every test period; returns how many of the keys had not been found again.
    std::size_t clear() {
        std::size_t expired = 0;
        while (m_live > 0) {
            expired += dropOldest();
        }
        return expired;
    }

    // Sizes the generations opened from now on for a new capacity; what is remembered stays.
    void resize(std::size_t capacity) {
        m_generationKeys =
            std::max<std::size_t>(1, (capacity + kGenerations - 2) / (kGenerations - 1));
        m_lines = (m_generationKeys * kFilterBitsPerKey + kLineBits - 1) / kLineBits;
        m_capacity = capacity;
    }

    // Keys remembered (those found again included, until their generation goes).
    std::size_t size() const {
        std::size_t keys = 0;
        for (std::size_t i = 0; i < m_live; ++i) {
            keys += m_ring[(m_oldest + i) % kGenerations].keys;
        }
        return keys;
    }
    std::size_t capacity() const { return m_capacity; }
    std::size_t memoryBytes() const {
        std::size_t bytes = 0;
        for (const Generation& generation : m_ring) {
            bytes += generation.lines.capacity() * sizeof(Line);
        }
        return bytes;
    }

private:
    // Generations in the ring; all but the one being filled hold the capacity.
    static constexpr std::size_t kGenerations = 13;
    static constexpr unsigned kBitsPerKey = 7;           // bits set per key (8-bit numbers)
    static constexpr std::size_t kFilterBitsPerKey = 32; // filter size per key it takes
    static constexpr std::size_t kLineBits = 256;
    using Line = std::array<std::uint64_t, kLineBits / 64>;
    struct Generation {
        std::vector<Line> lines;
        std::size_t keys = 0;       // inserted since opened
        std::size_t found = 0;      // find() hits in this generation
        std::uint32_t earliest = 0; // placements among its keys
        std::uint32_t latest = 0;
    };
    struct Probe {
        std::size_t line;
        std::array<unsigned, kBitsPerKey> bits;
    };

    Generation& newest() { return m_ring[(m_oldest + m_live - 1) % kGenerations]; }

    // Clears the oldest generation; returns its keys that were not found again.
    std::size_t dropOldest() {
        Generation& oldest = m_ring[m_oldest];
        const std::size_t expired = oldest.keys - std::min(oldest.keys, oldest.found);
        std::fill(oldest.lines.begin(), oldest.lines.end(), Line{});
        oldest.keys = 0;
        oldest.found = 0;
        m_oldest = (m_oldest + 1) % kGenerations;
        --m_live;
        return expired;
    }

    // Moremur (Pelle Evensen's variant of the murmur3 finalizer): neither NodeIndex's hash nor
    // the steering's sampling hash (splitmix64), so a sample of keys still spreads over all lines.
    static std::uint64_t mix(std::uint64_t x) {
        x ^= x >> 27;
        x *= 0x3c79ac492ba7b653ULL;
        x ^= x >> 33;
        x *= 0x1c69b3f74ac4ae35ULL;
        return x ^ (x >> 27);
    }
    // The line from the high half of one hash, 7 bit numbers of 8 bits each from a second.
    static Probe probeOf(std::uint64_t key, const Generation& generation) {
        const std::uint64_t h = mix(key);
        Probe probe{};
        probe.line = static_cast<std::size_t>(((h >> 32) * generation.lines.size()) >> 32);
        std::uint64_t bits = mix(h ^ 0x5851f42d4c957f2dULL);
        for (unsigned k = 0; k < kBitsPerKey; ++k, bits >>= 8) {
            probe.bits[k] = static_cast<unsigned>(bits & (kLineBits - 1));
        }
        return probe;
    }
    static bool holds(const Generation& generation, std::uint64_t key) {
        const Probe probe = probeOf(key, generation);
        const Line& line = generation.lines[probe.line];
        for (unsigned k = 0; k < kBitsPerKey; ++k) {
            const unsigned bit = probe.bits[k];
            if ((line[bit / 64] & (std::uint64_t{1} << (bit % 64))) == 0) {
                return false;
            }
        }
        return true;
    }

    std::array<Generation, kGenerations> m_ring;
    std::size_t m_oldest = 0; // ring position of the oldest live generation
    std::size_t m_live = 0;   // live generations, the newest being filled
    std::size_t m_generationKeys = 1;
    std::size_t m_lines = 1; // per generation
    std::size_t m_capacity = 0;
};

} // namespace ssdk::cachectl::engine
