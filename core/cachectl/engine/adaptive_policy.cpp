// The adaptive policy. No single policy wins everywhere: LIRS is near optimal on loops and
// scans larger than the cache but collapses on a zigzag (a scan that reverses, where LRU is
// optimal), S3-FIFO and 2Q lead on database and VM block traces. So the adaptive policy runs
// LIRS, S3-FIFO and LRU side by side as experts over the same references (their metadata only)
// and scores each by its recent hits (exponentially decayed over a few cache turnovers). Its
// own resident set follows the expert with the best score, the leader:
// - a block the leader admits is admitted, a block the leader evicts is evicted;
// - when the leader changes, the resident blocks the new leader does not hold become orphans,
//   evicted first when room is needed, so the resident set converges to the leader's within
//   one cache-full of misses without flushing what is still useful.
// Invariant: every resident block is held by the leader or is an orphan, so room for a missed
// block can always be found.

#include <algorithm>

#include "core/cachectl/engine/policies.h"

namespace ssdk::cachectl::engine {

namespace {

// A challenger must beat the leader's score by this share (and by one hit) to take over, so
// near ties do not make the resident set flap between experts.
constexpr double kExpertSwitchMargin = 0.02;

} // namespace

AdaptivePolicy::AdaptivePolicy(std::size_t capacity)
    : m_capacity(capacity) {
    // The first expert leads until another earns more hits: LIRS, which keeps what was
    // re-referenced when a cold cache meets a scan.
    m_experts.push_back(std::make_unique<LirsPolicy>(capacity));
    m_experts.push_back(std::make_unique<S3FifoPolicy>(capacity));
    m_experts.push_back(std::make_unique<LruPolicy>(capacity));
    m_scores.assign(m_experts.size(), 0.0);
    const double window = static_cast<double>(std::max<std::size_t>(4 * capacity, 2000));
    m_decay = 1.0 - 1.0 / window;
}

bool AdaptivePolicy::access(std::uint64_t key, std::vector<std::uint64_t>& evicted) {
    const bool hit = m_resident.contains(key);
    for (std::size_t i = 0; i < m_experts.size(); ++i) {
        m_scratch.clear();
        const bool expertHit = m_experts[i]->access(key, m_scratch);
        m_scores[i] = m_scores[i] * m_decay + (expertHit ? 1.0 : 0.0);
        if (i == m_leader) {
            for (const std::uint64_t victim : m_scratch) {
                if (const std::uint8_t* found = m_resident.find(victim); found != nullptr) {
                    m_orphanCount -= *found;
                    m_resident.erase(victim);
                    evicted.push_back(victim);
                }
            }
        }
    }
    if (hit) {
        if (m_orphanCount != 0) {
            if (std::uint8_t* found = m_resident.find(key); found != nullptr && *found != 0) {
                *found = 0;
                --m_orphanCount;
            }
        }
    } else {
        *m_resident.tryEmplace(key).first = 0;
        while (m_resident.size() > m_capacity) {
            evictOrphan(evicted);
        }
    }
    const auto best = static_cast<std::size_t>(std::max_element(m_scores.begin(), m_scores.end()) -
                                               m_scores.begin());
    if (best != m_leader &&
        m_scores[best] > m_scores[m_leader] * (1.0 + kExpertSwitchMargin) + 1.0) {
        switchLeader(best);
    }
    return hit;
}

void AdaptivePolicy::switchLeader(std::size_t to) {
    m_leader = to;
    m_orphans.clear();
    m_orphanCount = 0;
    const Policy& leader = *m_experts[to];
    m_resident.forEach([&](std::uint64_t key, std::uint8_t& orphan) {
        orphan = leader.contains(key) ? 0 : 1;
        if (orphan != 0) {
            m_orphans.push_back(key);
            ++m_orphanCount;
        }
    });
}

void AdaptivePolicy::evictOrphan(std::vector<std::uint64_t>& evicted) {
    while (!m_orphans.empty()) {
        const std::uint64_t key = m_orphans.front();
        m_orphans.pop_front();
        if (const std::uint8_t* found = m_resident.find(key); found != nullptr && *found != 0) {
            --m_orphanCount;
            m_resident.erase(key);
            evicted.push_back(key);
            return;
        }
    }
    // Unreachable while the invariant above holds; evicting an arbitrary block keeps the
    // capacity promise if it ever does not.
    const std::uint64_t key = m_resident.anyKey();
    m_orphanCount -= *m_resident.find(key);
    m_resident.erase(key);
    evicted.push_back(key);
}

std::size_t AdaptivePolicy::metadataBytes() const {
    // A deque allocates 512-byte chunks plus a map of chunk pointers.
    std::size_t bytes =
        m_resident.memoryBytes() + (m_orphans.size() / 64 + 1) * (512 + sizeof(void*));
    for (const auto& expert : m_experts) {
        bytes += expert->metadataBytes();
    }
    return bytes;
}

} // namespace ssdk::cachectl::engine
