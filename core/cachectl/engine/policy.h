#pragma once
// Replacement policies over block numbers: which blocks a cache of N blocks holds. One
// implementation serves both the trace simulator and the cache engine (which keeps the data of
// the blocks a policy says are resident). Blocks are opaque 64-bit keys; the cache starts cold.
//
// Policies: "clockpro-steered" (the default: CLOCK-Pro, Jiang, Chen & Zhang, ATC'05, where a
// hit only bumps a count in the block's own node, with its cold share picked by sampled shadow
// simulations; see steered_clockpro_policy.cpp), "clockpro" (CLOCK-Pro alone), "lru", "s3fifo"
// (small FIFO + ghost + main FIFO with a 2-bit frequency, Yang et al. SOSP'23), "lirs" (Jiang &
// Zhang, SIGMETRICS'02) and "adaptive" (runs LIRS, S3-FIFO and LRU as experts over the same
// references, follows whichever has earned the most hits recently and converges its own
// resident set to the leader's; see adaptive_policy.cpp). docs/daemon.md compares them.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"

namespace ssdk::cachectl::engine {

// Not thread-safe: the engine gives each shard its own policy under the shard's lock.
class Policy {
public:
    virtual ~Policy() = default;

    // Records one reference to key. Returns true when key was resident (a hit). Afterwards key
    // is resident; the keys that stopped being resident to make room are appended to evicted.
    virtual bool access(std::uint64_t key, std::vector<std::uint64_t>& evicted) = 0;
    virtual bool contains(std::uint64_t key) const = 0;
    // Resident blocks (never more than capacity()).
    virtual std::size_t size() const = 0;
    virtual std::size_t capacity() const = 0;
    virtual std::string_view name() const = 0;
    // Heap bytes the policy holds now (index, queues, ghosts), measured from its containers.
    virtual std::size_t metadataBytes() const = 0;
};

// The names makePolicy accepts, the default first.
std::vector<std::string> policyNames();
inline constexpr std::string_view kDefaultPolicy = "clockpro-steered";

// InvalidArgument for an unknown name or a capacity of 0.
Expected<std::unique_ptr<Policy>> makePolicy(std::string_view name, std::size_t capacityBlocks);
} // namespace ssdk::cachectl::engine
