#pragma once
// Trace-driven simulation of a policy: every reference is one block, the cache starts cold,
// hit ratio = hits / references (REFERENCE.md's convention).

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/base/error.h"

namespace ssdk::cachectl::engine {

struct SimulationResult {
    std::string policy;
    std::uint64_t cacheBlocks = 0;
    std::uint64_t requests = 0;
    std::uint64_t uniqueBlocks = 0;
    std::uint64_t hits = 0;
    std::uint64_t metadataBytes = 0; // the policy's, once the whole trace was replayed

    // A fraction in [0, 1]; 0 for an empty trace.
    double hitRatio() const {
        return requests == 0 ? 0.0 : static_cast<double>(hits) / static_cast<double>(requests);
    }
};

// A trace ready to replay, prepared once for any number of simulations (a miss-ratio curve replays
// it at many sizes): its distinct blocks are counted, and when some block number does not fit a
// policy's keys (ClockProPolicy::kMaxKey) its blocks are renumbered in order of first reference.
// Only which blocks the default policy's steering samples depends on the numbers.
class ReplayTrace {
public:
    explicit ReplayTrace(std::vector<std::uint64_t> refs);

    std::span<const std::uint64_t> refs() const { return m_refs; }
    std::uint64_t uniqueBlocks() const { return m_uniqueBlocks; }
    bool renumbered() const { return m_renumbered; }

private:
    std::vector<std::uint64_t> m_refs;
    std::uint64_t m_uniqueBlocks = 0;
    bool m_renumbered = false;
};

// InvalidArgument for an unknown policy or a cache of 0 blocks.
Expected<SimulationResult> simulate(const ReplayTrace& trace, std::string_view policy,
                                    std::uint64_t cacheBlocks);
// Prepares refs (a copy) and replays them once.
Expected<SimulationResult> simulate(std::span<const std::uint64_t> refs, std::string_view policy,
                                    std::uint64_t cacheBlocks);

// Cache sizes for a miss-ratio curve: `points` sizes spread geometrically from 1/1000 of the
// unique blocks (at least 16) to the unique blocks, ascending and distinct.
std::vector<std::uint64_t> mrcSizes(std::uint64_t uniqueBlocks, std::size_t points);

} // namespace ssdk::cachectl::engine
