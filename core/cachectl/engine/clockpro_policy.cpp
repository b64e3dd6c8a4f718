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
//
// Storage: data nodes (resident or detached blocks) and ghost nodes (non-resident keys) are two
// arrays; a block that becomes resident or non-resident moves to the other array (relocate), so
// the engine can keep a block's data at its data node's number.

#include <algorithm>

#include "core/cachectl/engine/policies.h"

namespace ssdk::cachectl::engine {

ClockProPolicy::ClockProPolicy(std::size_t capacity, double minColdShare, double maxColdShare)
    : m_capacity(capacity)
    , m_minShare(minColdShare)
    , m_maxShare(maxColdShare)
    , m_minCold(1)
    , m_maxCold(1)
    , m_maxNonResident(capacity)
    , m_coldTarget(1) {
    setColdShares(minColdShare, maxColdShare);
    m_coldTarget = m_minCold;
    m_data.reserve(capacity);
    m_index.reserve(capacity, keys());
}

void ClockProPolicy::setColdShares(double minColdShare, double maxColdShare) {
    m_minShare = minColdShare;
    m_maxShare = maxColdShare;
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
    return m_index.find(key, keys());
}

bool ClockProPolicy::contains(std::uint64_t key) const {
    const std::uint32_t id = nodeOf(key);
    return id != kNone && resident(node(id));
}

std::uint32_t ClockProPolicy::take(bool ghost) {
    std::vector<Node>& nodes = ghost ? m_ghosts : m_data;
    std::uint32_t& free = ghost ? m_freeGhost : m_freeData;
    std::uint32_t index = free;
    if (index != kNil) {
        free = nodes[index].older;
    } else {
        if (ghost && nodes.size() == nodes.capacity()) {
            // Non-resident keys are at most one more than the capacity: grow no further.
            nodes.reserve(
                std::max(nodes.size() + 1, std::min(std::max<std::size_t>(16, 2 * nodes.size()),
                                                    m_maxNonResident + 1)));
        }
        index = static_cast<std::uint32_t>(nodes.size());
        nodes.emplace_back();
    }
    return ghost ? index | kGhost : index;
}

std::uint32_t ClockProPolicy::allocate(std::uint64_t key) {
    const std::uint32_t id = take(false);
    Node& n = m_data[id];
    n = Node{};
    n.key = key;
    ++m_dataCount;
    m_index.insert(key, id, keys());
    return id;
}

void ClockProPolicy::release(std::uint32_t id) {
    m_index.erase(node(id).key, id, keys());
    setStatus(id, kFree);
    Node& n = node(id);
    n.flags = 0;
    if ((id & kGhost) != 0) {
        n.older = m_freeGhost & kNil;
        m_freeGhost = id & ~kGhost;
    } else {
        --m_dataCount;
        n.older = m_freeData & kNil;
        m_freeData = id;
    }
}

std::uint32_t ClockProPolicy::relocate(std::uint32_t from) {
    const bool toGhost = (from & kGhost) == 0;
    const std::uint32_t to = take(toGhost); // may grow the target array, not the source
    Node& source = node(from);
    Node& target = node(to);
    target = source;
    target.flags = 0;
    if (source.newer == from) {
        target.newer = to & kNil;
        target.older = to & kNil;
    } else if (source.newer != kNil) {
        node(source.newer).older = to & kNil;
        node(source.older).newer = to & kNil;
    }
    for (std::uint32_t* pointer : {&m_head, &m_handHot, &m_handCold, &m_handTest}) {
        if (*pointer == from) {
            *pointer = to;
        }
    }
    m_index.move(source.key, from, to);
    // The status moves with the node, so the counts stay; the old number goes free.
    source.status = kFree;
    source.flags = 0;
    source.newer = kNil;
    if (toGhost) {
        --m_dataCount;
        source.older = m_freeData & kNil;
        m_freeData = from;
    } else {
        ++m_dataCount;
        source.older = m_freeGhost & kNil;
        m_freeGhost = from & ~kGhost;
    }
    return to;
}

void ClockProPolicy::setStatus(std::uint32_t id, Status status) {
    Node& n = node(id);
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
void ClockProPolicy::unlink(std::uint32_t id) {
    Node& n = node(id);
    if (n.newer == id) {
        m_head = kNil;
        m_handHot = kNil;
        m_handCold = kNil;
        m_handTest = kNil;
    } else {
        for (std::uint32_t* hand : {&m_handHot, &m_handCold, &m_handTest}) {
            if (*hand == id) {
                *hand = n.newer;
            }
        }
        if (m_head == id) {
            m_head = n.older;
        }
        node(n.newer).older = n.older;
        node(n.older).newer = n.newer;
    }
    n.newer = kNil;
    n.older = kNil;
}

// Places node at the head with status and a clear reference bit.
void ClockProPolicy::moveToHead(std::uint32_t id, Status status) {
    if (node(id).newer != kNil) {
        unlink(id);
    }
    Node& n = node(id);
    if (m_head == kNil) {
        n.newer = id & kNil;
        n.older = id & kNil;
    } else {
        const std::uint32_t tail = node(m_head).newer;
        n.older = m_head & kNil;
        n.newer = tail & kNil;
        node(tail).older = id & kNil;
        node(m_head).newer = id & kNil;
    }
    m_head = id;
    n.referenced = 0;
    setStatus(id, status);
}

void ClockProPolicy::adjustColdTarget(int delta) {
    if (delta > 0) {
        m_coldTarget = std::min(m_maxCold, m_coldTarget + 1);
    } else if (m_coldTarget > m_minCold) {
        --m_coldTarget;
    }
}

// Ends node's test period (no-op when it has none): a non-resident key leaves the list.
void ClockProPolicy::terminateTest(std::uint32_t id) {
    Node& n = node(id);
    if (!inTest(n)) {
        return;
    }
    // A block referenced in its test period argues for a larger cold share, one whose test
    // period ran out for a smaller one (also for non-resident keys).
    adjustColdTarget(n.referenced != 0 ? +1 : -1);
    if (n.status == kColdInTest) {
        setStatus(id, kCold);
    } else {
        unlink(id);
        release(id);
    }
}

void ClockProPolicy::nextHandCold() {
    if (m_coldCount == 0) {
        m_handCold = kNil;
        return;
    }
    if (m_handCold == kNil) {
        m_handCold = node(m_head).newer;
    }
    while (!residentCold(node(m_handCold))) {
        m_handCold = node(m_handCold).newer;
    }
}

void ClockProPolicy::nextHandTest() {
    if (m_testCount == 0) {
        m_handTest = kNil;
        return;
    }
    if (m_handTest == kNil) {
        m_handTest = m_handHot != kNil ? m_handHot : node(m_head).newer;
    }
    while (!inTest(node(m_handTest))) {
        m_handTest = node(m_handTest).newer;
    }
}

void ClockProPolicy::nextHandHot() {
    if (m_hotCount == 0) {
        m_handHot = kNil;
    } else {
        if (m_handHot == kNil) {
            m_handHot = node(m_head).newer;
        }
        while (node(m_handHot).status != kHot) {
            // Cold blocks behind the oldest hot block are out of their test period.
            const std::uint32_t passed = m_handHot;
            m_handHot = node(passed).newer;
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
        const std::uint32_t id = m_handHot;
        if (node(id).status == kHot) {
            if (node(id).referenced != 0) {
                const unsigned left = node(id).referenced - 1U;
                moveToHead(id, kHot);
                node(id).referenced = left & 3U;
            } else {
                moveToHead(id, kCold);
                demoted = true;
                break;
            }
        } else {
            m_handHot = node(id).newer;
            terminateTest(id);
        }
    }
    nextHandHot();
    return demoted;
}

// node, a cold block referenced in its test period, may turn hot if the hot share has room or
// the hot hand demotes a hot block placed before node.
bool ClockProPolicy::canPromote(std::uint32_t id) {
    if (!inTest(node(id))) {
        return false;
    }
    adjustColdTarget(+1);
    while (m_hotCount + m_coldTarget >= m_capacity) {
        // The hot hand may pass node and end its test period (a non-resident key then leaves).
        if (m_hotCount == 0 || !runHandHot(id) || !inTest(node(id))) {
            return false;
        }
    }
    return true;
}

void ClockProPolicy::runHandCold(std::vector<std::uint64_t>& evicted) {
    const std::uint32_t id = m_handCold;
    Node& n = node(id);
    if (n.referenced != 0) {
        if (canPromote(id)) {
            moveToHead(id, kHot);
        } else {
            moveToHead(id, kColdInTest);
        }
    } else {
        evicted.push_back(n.key);
        if ((n.flags & kPinned) != 0) {
            // The engine still needs the data (it is dirty): out of the clock, kept detached.
            unlink(id);
            setStatus(id, kDetached);
        } else if (n.status == kColdInTest) {
            // Stays in place as a non-resident key until its test period ends.
            m_dropped.push_back(id);
            const std::uint32_t ghost = relocate(id);
            setStatus(ghost, kNonResident);
            m_handCold = node(ghost).newer;
        } else {
            m_dropped.push_back(id);
            unlink(id);
            release(id);
        }
        trimNonResident();
    }
    nextHandCold();
}

void ClockProPolicy::trimNonResident() {
    while (m_nonResidentCount > m_maxNonResident) {
        nextHandTest();
        terminateTest(m_handTest);
    }
}

// Turns the oldest unreferenced hot block cold (referenced ones on the way go back to the head
// as hot), for a cold share that grew.
void ClockProPolicy::demoteHot() {
    nextHandHot();
    while (m_handHot != kNil) {
        const std::uint32_t id = m_handHot;
        if (node(id).status != kHot) {
            m_handHot = node(id).newer;
            terminateTest(id);
        } else if (node(id).referenced != 0) {
            const unsigned left = node(id).referenced - 1U;
            moveToHead(id, kHot);
            node(id).referenced = left & 3U;
        } else {
            moveToHead(id, kCold);
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

ClockProPolicy::Reference ClockProPolicy::reference(std::uint64_t key,
                                                    std::vector<std::uint64_t>& evicted) {
    m_dropped.clear();
    const std::uint32_t found = nodeOf(key);
    if (found != kNone && resident(node(found))) {
        Node& n = node(found);
        // A 2-bit count, not a bit: a hot block referenced often survives several passes of
        // the hot hand (S3-FIFO's frequency, worth about a point on database traces).
        n.referenced = std::min(3U, n.referenced + 1U) & 3U;
        return {true, found};
    }
    // found is kNone, a ghost node (a non-resident key) or a detached data node.
    std::uint32_t id = found;
    if (m_hotCount + m_coldCount < m_capacity) {
        // Warming up: blocks are hot until only the minimum cold share is left free.
        if (id == kNone) {
            id = allocate(key);
        } else if ((id & kGhost) != 0) {
            id = relocate(id);
        }
        const bool hot = m_capacity - m_hotCount - m_coldCount > m_minCold;
        moveToHead(id, hot ? kHot : kColdInTest);
    } else if (id != kNone && node(id).status == kNonResident) {
        // A non-resident key in its test period: its reuse distance is below the oldest hot
        // block's recency, so it turns hot if the hot hand can make room.
        // The hands may end its test period on the way (the key then left the list and comes
        // back as a new block; its ghost node may even be reused for another key).
        makeRoom(evicted);
        const bool mine = node(id).status == kNonResident && node(id).key == key;
        if (mine && canPromote(id)) {
            moveToHead(id, kHot);
        } else {
            if (node(id).status == kFree || node(id).key != key) {
                id = allocate(key);
            }
            moveToHead(id, kColdInTest);
        }
        if ((id & kGhost) != 0) {
            id = relocate(id);
        }
    } else {
        makeRoom(evicted);
        // While the hot share is below its least size (after the cold share bounds moved down)
        // a new block fills it, as during warm-up: test periods alone refill it slowly, since
        // the hot hand sits at the few (recent) hot blocks and ends every older test period.
        // Not below the adaptive target: that drains a zigzag's cold share into the hot one.
        const bool hot = m_hotCount + m_maxCold < m_capacity;
        moveToHead(id == kNone ? (id = allocate(key)) : id, hot ? kHot : kColdInTest);
    }
    if (m_hotCount > 0 && m_hotCount + m_coldTarget > m_capacity) {
        demoteHot();
    }
    nextHandCold();
    nextHandHot();
    return {false, id};
}

std::uint32_t ClockProPolicy::insertDetached(std::uint64_t key) {
    if (const std::uint32_t ghost = nodeOf(key); ghost != kNone) {
        unlink(ghost);
        release(ghost);
        nextHandCold();
        nextHandHot();
    }
    const std::uint32_t id = allocate(key);
    setStatus(id, kDetached);
    return id;
}

void ClockProPolicy::remove(std::uint32_t id) {
    if (node(id).newer != kNil) {
        unlink(id);
    }
    release(id);
    nextHandCold();
    nextHandHot();
}

void ClockProPolicy::setCapacity(std::size_t capacity, std::vector<std::uint64_t>& evicted) {
    m_dropped.clear();
    m_capacity = std::max<std::size_t>(1, capacity);
    m_maxNonResident = m_capacity;
    setColdShares(m_minShare, m_maxShare);
    m_index.reserve(m_capacity, keys());
    // Make the cold share large enough to evict from, then evict down to the capacity.
    while (m_hotCount > 0 && m_hotCount + m_coldTarget > m_capacity) {
        const std::size_t before = m_hotCount;
        demoteHot();
        if (m_hotCount == before) {
            break;
        }
    }
    while (m_hotCount + m_coldCount > m_capacity) {
        nextHandCold();
        if (m_handCold == kNil) {
            demoteHot();
            nextHandCold();
        }
        runHandCold(evicted);
    }
    trimNonResident();
    nextHandCold();
    nextHandHot();
}

std::size_t ClockProPolicy::metadataBytes() const {
    return (m_data.capacity() + m_ghosts.capacity()) * sizeof(Node) + m_index.memoryBytes() +
           m_dropped.capacity() * sizeof(std::uint32_t);
}

} // namespace ssdk::cachectl::engine
