// CLOCK-Pro (Jiang, Chen & Zhang, "CLOCK-Pro: An Effective Improvement of the CLOCK
// Replacement", USENIX ATC'05). Like LIRS it keeps the blocks with a small reuse distance hot and
// lets blocks seen once pass through a small cold share, but a hit only sets the block's
// reference bit: the recency order LIRS keeps in a stack is approximated by where the hands find
// the bit set, and all list work happens when a miss needs room.
//
// One circular list holds every block the policy knows, placed at the head when it enters or a
// hand moves it; the hands sweep from the tail (placed longest ago) towards the head:
// - the cold hand stops at resident cold blocks: a referenced one in its test period turns hot
//   (its reuse distance beat the oldest hot block's recency), a referenced one out of test gets a
//   new test period, an unreferenced one is evicted and stays as a non-resident key while its test
//   period lasts;
// - the hot hand stops at hot blocks to turn the oldest unreferenced one cold when the hot share
//   is full; the cold blocks it passes are older than every hot block, so their test period ends
//   (a non-resident key leaves the list);
// - the test hand ends test periods when there are more non-resident keys than the capacity.
// The resident cold share adapts: a block referenced during its test period raises it by one, a
// test period that ends without a reference lowers it by one.

#include <algorithm>

#include "core/cachectl/engine/policies.h"

namespace ssdk::cachectl::engine {

ClockProPolicy::ClockProPolicy(std::size_t capacity, double minColdShare, double maxColdShare)
    : m_capacity(capacity)
    , m_minCold(1)
    , m_maxCold(1)
    , m_maxNonResident(capacity)
    , m_coldTarget(1) {
    setColdShares(minColdShare, maxColdShare);
    m_coldTarget = m_minCold;
    // A full cache holds `capacity` resident nodes; the non-resident ones grow it up to twice.
    m_nodes.reserve(capacity);
}

void ClockProPolicy::setColdShares(double minColdShare, double maxColdShare) {
    const auto blocks = [&](double share) {
        const auto n = static_cast<std::size_t>(share * static_cast<double>(m_capacity));
        // At least one cold block (the victims come from the cold share) and, when there is
        // room, at least one hot block.
        return std::clamp<std::size_t>(n, 1, std::max<std::size_t>(1, m_capacity - 1));
    };
    m_minCold = blocks(minColdShare);
    m_maxCold = std::max(m_minCold, blocks(maxColdShare));
    m_coldTarget = std::clamp(m_coldTarget, m_minCold, m_maxCold);
}

std::uint32_t ClockProPolicy::nodeOf(std::uint64_t key) const {
    return m_index.find(key, [this](std::uint32_t node) { return m_nodes[node].key; });
}

bool ClockProPolicy::contains(std::uint64_t key) const {
    const std::uint32_t node = nodeOf(key);
    return node != NodeIndex::kNone && m_nodes[node].status != kNonResident;
}

std::uint32_t ClockProPolicy::allocate(std::uint64_t key) {
    std::uint32_t node = m_free;
    if (node != kNil) {
        m_free = m_nodes[node].older;
    } else {
        node = static_cast<std::uint32_t>(m_nodes.size());
        m_nodes.emplace_back();
    }
    Node& n = m_nodes[node];
    n.key = key;
    n.newer = kNil;
    n.older = kNil;
    n.status = kFree;
    n.referenced = 0;
    m_index.insert(key, node);
    return node;
}

// node must be out of the list already.
void ClockProPolicy::release(std::uint32_t node) {
    m_index.erase(m_nodes[node].key, node);
    setStatus(node, kFree);
    m_nodes[node].older = m_free & kNil;
    m_free = node;
}

void ClockProPolicy::setStatus(std::uint32_t node, Status status) {
    Node& n = m_nodes[node];
    const auto count = [&](int delta) {
        const auto step = static_cast<std::size_t>(delta); // wraps for -1 as intended
        switch (n.status) {
        case kHot:
            m_hotCount += step;
            break;
        case kCold:
            m_coldCount += step;
            break;
        case kColdInTest:
            m_coldCount += step;
            m_testCount += step;
            break;
        case kNonResident:
            m_nonResidentCount += step;
            m_testCount += step;
            break;
        default:
            break;
        }
    };
    count(-1);
    n.status = status & 7U;
    count(+1);
}

// Takes node out of the list; a hand on it steps to the next block towards the head, where its
// sweep would have gone on.
void ClockProPolicy::unlink(std::uint32_t node) {
    Node& n = m_nodes[node];
    if (n.newer == node) {
        m_head = kNil;
        m_handHot = kNil;
        m_handCold = kNil;
        m_handTest = kNil;
    } else {
        for (std::uint32_t* hand : {&m_handHot, &m_handCold, &m_handTest}) {
            if (*hand == node) {
                *hand = n.newer;
            }
        }
        if (m_head == node) {
            m_head = n.older;
        }
        m_nodes[n.newer].older = n.older;
        m_nodes[n.older].newer = n.newer;
    }
    n.newer = kNil;
    n.older = kNil;
}

// Places node at the head with status and a clear reference bit.
void ClockProPolicy::moveToHead(std::uint32_t node, Status status) {
    if (m_nodes[node].newer != kNil) {
        unlink(node);
    }
    Node& n = m_nodes[node];
    if (m_head == kNil) {
        n.newer = node;
        n.older = node & kNil;
    } else {
        const std::uint32_t tail = m_nodes[m_head].newer;
        n.older = m_head & kNil;
        n.newer = tail;
        m_nodes[tail].older = node & kNil;
        m_nodes[m_head].newer = node;
    }
    m_head = node;
    n.referenced = 0;
    setStatus(node, status);
}

void ClockProPolicy::adjustColdTarget(int delta) {
    if (delta > 0) {
        m_coldTarget = std::min(m_maxCold, m_coldTarget + 1);
    } else if (m_coldTarget > m_minCold) {
        --m_coldTarget;
    }
}

// Ends node's test period (no-op when it has none): a non-resident key leaves the list.
void ClockProPolicy::terminateTest(std::uint32_t node) {
    Node& n = m_nodes[node];
    if (!inTest(n)) {
        return;
    }
    // A block referenced in its test period argues for a larger cold share, one whose test
    // period ran out for a smaller one (also for non-resident keys).
    adjustColdTarget(n.referenced != 0 ? +1 : -1);
    if (n.status == kColdInTest) {
        setStatus(node, kCold);
    } else {
        unlink(node);
        release(node);
    }
}

void ClockProPolicy::nextHandCold() {
    if (m_coldCount == 0) {
        m_handCold = kNil;
        return;
    }
    if (m_handCold == kNil) {
        m_handCold = m_nodes[m_head].newer;
    }
    while (!residentCold(m_nodes[m_handCold])) {
        m_handCold = m_nodes[m_handCold].newer;
    }
}

void ClockProPolicy::nextHandTest() {
    if (m_testCount == 0) {
        m_handTest = kNil;
        return;
    }
    if (m_handTest == kNil) {
        m_handTest = m_handHot != kNil ? m_handHot : m_nodes[m_head].newer;
    }
    while (!inTest(m_nodes[m_handTest])) {
        m_handTest = m_nodes[m_handTest].newer;
    }
}

void ClockProPolicy::nextHandHot() {
    if (m_hotCount == 0) {
        m_handHot = kNil;
    } else {
        if (m_handHot == kNil) {
            m_handHot = m_nodes[m_head].newer;
        }
        while (m_nodes[m_handHot].status != kHot) {
            // Cold blocks behind the oldest hot block are out of their test period.
            const std::uint32_t passed = m_handHot;
            m_handHot = m_nodes[passed].newer;
            terminateTest(passed);
        }
    }
    // The hot hand may have ended the test period the test hand points at.
    nextHandTest();
}

// Demotes the oldest unreferenced hot block between the hot hand and trigger (a cold block in
// its test period); referenced hot blocks on the way go back to the head. False when the hand
// reached trigger without demoting one.
bool ClockProPolicy::runHandHot(std::uint32_t trigger) {
    if (m_handHot == kNil) {
        nextHandHot();
    }
    bool demoted = false;
    while (m_handHot != trigger) {
        const std::uint32_t node = m_handHot;
        if (m_nodes[node].status == kHot) {
            if (m_nodes[node].referenced != 0) {
                const unsigned left = m_nodes[node].referenced - 1U;
                moveToHead(node, kHot);
                m_nodes[node].referenced = left & 3U;
            } else {
                moveToHead(node, kCold);
                demoted = true;
                break;
            }
        } else {
            m_handHot = m_nodes[node].newer;
            terminateTest(node);
        }
    }
    nextHandHot();
    return demoted;
}

// node, a cold block referenced in its test period, may turn hot if the hot share has room or
// the hot hand demotes a hot block placed before node.
bool ClockProPolicy::canPromote(std::uint32_t node) {
    if (!inTest(m_nodes[node])) {
        return false;
    }
    adjustColdTarget(+1);
    while (m_hotCount + m_coldTarget >= m_capacity) {
        // The hot hand may pass node and end its test period (a non-resident key then leaves).
        if (m_hotCount == 0 || !runHandHot(node) || !inTest(m_nodes[node])) {
            return false;
        }
    }
    return true;
}

void ClockProPolicy::runHandCold(std::vector<std::uint64_t>& evicted) {
    const std::uint32_t node = m_handCold;
    Node& n = m_nodes[node];
    if (n.referenced != 0) {
        if (canPromote(node)) {
            moveToHead(node, kHot);
        } else {
            moveToHead(node, kColdInTest);
        }
    } else {
        evicted.push_back(n.key);
        if (n.status == kColdInTest) {
            // Stays in place as a non-resident key until its test period ends.
            setStatus(node, kNonResident);
            m_handCold = n.newer;
        } else {
            unlink(node);
            release(node);
        }
        while (m_nonResidentCount > m_maxNonResident) {
            nextHandTest();
            terminateTest(m_handTest);
        }
    }
    nextHandCold();
}

// Turns the oldest unreferenced hot block cold (referenced ones on the way go back to the head
// as hot), for a cold share that grew.
void ClockProPolicy::demoteHot() {
    nextHandHot();
    while (m_handHot != kNil) {
        const std::uint32_t node = m_handHot;
        if (m_nodes[node].status != kHot) {
            m_handHot = m_nodes[node].newer;
            terminateTest(node);
        } else if (m_nodes[node].referenced != 0) {
            const unsigned left = m_nodes[node].referenced - 1U;
            moveToHead(node, kHot);
            m_nodes[node].referenced = left & 3U;
        } else {
            moveToHead(node, kCold);
            break;
        }
    }
    nextHandHot();
}

void ClockProPolicy::makeRoom(std::vector<std::uint64_t>& evicted) {
    while (m_hotCount + m_coldCount >= m_capacity) {
        runHandCold(evicted);
    }
}

bool ClockProPolicy::access(std::uint64_t key, std::vector<std::uint64_t>& evicted) {
    const std::uint32_t found = nodeOf(key);
    if (found != NodeIndex::kNone && m_nodes[found].status != kNonResident) {
        Node& n = m_nodes[found];
        // A 2-bit count, not a bit: a hot block referenced often survives several passes of
        // the hot hand (S3-FIFO's frequency, worth about a point on database traces).
        n.referenced = std::min(3U, n.referenced + 1U) & 3U;
        return true;
    }
    if (m_hotCount + m_coldCount < m_capacity) {
        // Warming up: blocks are hot until only the minimum cold share is left free.
        const std::uint32_t node = found != NodeIndex::kNone ? found : allocate(key);
        const bool hot = m_capacity - m_hotCount - m_coldCount > m_minCold;
        moveToHead(node, hot ? kHot : kColdInTest);
    } else if (found != NodeIndex::kNone) {
        // A non-resident key in its test period: its reuse distance is below the oldest hot
        // block's recency, so it turns hot if the hot hand can make room.
        // The hands may end its test period on the way (the key then left the list and comes
        // back as a new block); nothing is allocated meanwhile, so the node stays free.
        const std::uint32_t node = found;
        makeRoom(evicted);
        if (m_nodes[node].status == kNonResident && canPromote(node)) {
            moveToHead(node, kHot);
        } else {
            moveToHead(m_nodes[node].status == kFree ? allocate(key) : node, kColdInTest);
        }
    } else {
        makeRoom(evicted);
        // While the hot share is below its least size (after the cold share bounds moved down)
        // a new block fills it, as during warm-up: test periods alone refill it slowly, since
        // the hot hand sits at the few (recent) hot blocks and ends every older test period.
        // Not below the adaptive target: that drains a zigzag's cold share into the hot one.
        const bool hot = m_hotCount + m_maxCold < m_capacity;
        moveToHead(allocate(key), hot ? kHot : kColdInTest);
    }
    if (m_hotCount > 0 && m_hotCount + m_coldTarget > m_capacity) {
        demoteHot();
    }
    nextHandCold();
    nextHandHot();
    return false;
}

std::size_t ClockProPolicy::metadataBytes() const {
    return m_nodes.capacity() * sizeof(Node) + m_index.memoryBytes();
}

} // namespace ssdk::cachectl::engine
