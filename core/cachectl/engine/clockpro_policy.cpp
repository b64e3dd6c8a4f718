// CLOCK-Pro (Jiang, Chen & Zhang, "CLOCK-Pro: An Effective Improvement of the CLOCK
// Replacement", USENIX ATC'05). Like LIRS it keeps the blocks with a small reuse distance hot and
// lets blocks seen once pass through a small cold share, but a hit only sets the block's
// reference bit: the recency order LIRS keeps in a stack is approximated by where the hands find
// the bit set, and all list work happens when a miss needs room.
//
// One circular list holds the resident blocks, placed at the head when they enter or a hand
// moves them; the hands sweep from the tail (placed longest ago) towards the head:
// - the cold hand stops at resident cold blocks: a referenced one in its test period turns hot
//   (its reuse distance beat the oldest hot block's recency), a referenced one out of test gets a
//   new test period, an unreferenced one is evicted, and if it was in its test period its key is
//   remembered as non-resident;
// - the hot hand stops at hot blocks to turn the oldest unreferenced one cold when the hot share
//   is full; the cold blocks it passes are older than every hot block, so their test period ends.
// A miss on a remembered key (a block evicted in its test period and back soon) turns hot if the
// hot hand can make room. The resident cold share adapts: a block referenced during its test
// period raises it by one, a test period that ends without a reference lowers it by one.
//
// The paper keeps non-resident keys in the list, where the hot hand ends their test period as it
// passes them and a third hand drops the oldest beyond the capacity; that costs a node and an
// index entry per key, more than a data node's own metadata. Here they are kept in a GhostFilter
// with the time their block was placed (every node records when it was last placed): a key's
// test period ends once the oldest hot block was placed after it, which is when the hot hand
// would have passed it, or when the hot hand goes on from the head to the tail, having passed
// every block. The filter drops the oldest keys beyond about the capacity, and the resident
// blocks placed before them leave their test period too, as the test hand would have ended it.
// A filter look-up costs about 4 bytes per cached block instead of about 20 for the paper's
// ghost nodes; the hit ratios on the reference traces stayed within noise (docs/daemon.md).

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <type_traits>

#include "core/cachectl/engine/policies.h"

namespace ssdk::cachectl::engine {

ClockProPolicy::ClockProPolicy(std::size_t capacity, double minColdShare, double maxColdShare)
    : m_capacity(capacity)
    , m_minShare(minColdShare)
    , m_maxShare(maxColdShare)
    , m_minCold(1)
    , m_maxCold(1)
    , m_coldTarget(1)
    , m_nonResident(capacity) {
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

std::uint32_t ClockProPolicy::allocate(std::uint64_t key) {
    std::uint32_t id = m_free;
    if (id != kNil) {
        m_free = m_data[id].older;
    } else {
        id = static_cast<std::uint32_t>(m_data.size());
        if (m_data.size() == m_data.capacity() && m_beforeMove) {
            m_beforeMove();
        }
        m_data.emplace_back();
        // For findSaturatedRacy, which must not read the vector's own fields as it grows.
        __atomic_store_n(&m_racyNodes, m_data.data(), __ATOMIC_RELAXED);
        __atomic_store_n(&m_racyNodeCount, m_data.size(), __ATOMIC_RELEASE);
    }
    Node& n = m_data[id];
    n = Node{};
    n.key = key & kMaxKey; // keys are below 2^36 (kMaxKey)
    ++m_dataCount;
    m_index.insert(key, id, keys());
    return id;
}

void ClockProPolicy::release(std::uint32_t id) {
    m_index.erase(node(id).key, id, keys());
    setStatus(id, kFree);
    Node& n = node(id);
    n.flags = 0;
    --m_dataCount;
    n.older = m_free & kNil;
    m_free = id;
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
            break;
        default:
            break;
        }
    };
    count(-1);
    n.status = status & 7U;
    count(+1);
}

// Moves the hot hand one block towards the head. From the head it goes on at the tail, having
// passed every block: no remembered key is in its test period any more.
void ClockProPolicy::stepHot() {
    const std::uint32_t from = m_handHot;
    m_handHot = node(from).newer;
    if (from == m_head) {
        lowerColdTarget(m_nonResident.clear());
    }
}

// Takes node out of the list; a hand on it steps to the next block towards the head, where its
// sweep would have gone on.
void ClockProPolicy::unlink(std::uint32_t id) {
    Node& n = node(id);
    if (n.newer == id) {
        m_head = kNil;
        m_handHot = kNil;
        m_handCold = kNil;
    } else {
        if (m_handHot == id) {
            stepHot();
        }
        if (m_handCold == id) {
            m_handCold = n.newer;
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
    n.placed = ++m_time;
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

// Ends node's test period (no-op when it has none).
void ClockProPolicy::terminateTest(std::uint32_t id) {
    Node& n = node(id);
    if (n.status != kColdInTest) {
        return;
    }
    // A block referenced in its test period argues for a larger cold share, one whose test
    // period ran out for a smaller one.
    adjustColdTarget(n.referenced != 0 ? +1 : -1);
    setStatus(id, kCold);
}

// node's block, evicted in its test period, is remembered; the keys forgotten for it ended their
// test period without coming back.
void ClockProPolicy::rememberEvicted(std::uint32_t id) {
    const auto forgotten = m_nonResident.insert(node(id).key, placedAt(id));
    lowerColdTarget(forgotten.expired);
    if (forgotten.placedUpTo) {
        endTestsUpTo(*forgotten.placedUpTo);
    }
}

// Ends the test periods of resident blocks placed at or before `placed`, as those of the keys
// forgotten to stay within the bound on remembered keys. Blocks older than the oldest hot
// block are out of test already, so the walk starts there.
void ClockProPolicy::endTestsUpTo(std::uint32_t placed) {
    if (m_head == kNil) {
        return;
    }
    for (std::uint32_t id = m_handHot != kNil ? m_handHot : node(m_head).newer;;
         id = node(id).newer) {
        if (!GhostFilter::atOrBefore(placedAt(id), placed)) {
            break;
        }
        terminateTest(id);
        if (id == m_head) {
            break;
        }
    }
}

// Whether a block placed at `placed` would still be in its test period: the hot hand has not
// passed it (no hot block is older).
bool ClockProPolicy::inTestSince(std::uint32_t placed) const {
    return m_handHot == kNil || !GhostFilter::atOrBefore(placed, placedAt(m_handHot));
}

// Test periods that ended without a reference: one block each off the cold share.
void ClockProPolicy::lowerColdTarget(std::size_t expired) {
    m_coldTarget = std::max(m_minCold, m_coldTarget - std::min(m_coldTarget, expired));
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
            stepHot();
            terminateTest(passed);
        }
        // Remembered keys placed before the oldest hot block are out of their test period too.
        lowerColdTarget(m_nonResident.expire(placedAt(m_handHot)));
    }
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
            stepHot();
            terminateTest(id);
        }
    }
    nextHandHot();
    return demoted;
}

// node, a cold block referenced in its test period, may turn hot if the hot share has room or
// the hot hand demotes a hot block placed before node.
bool ClockProPolicy::canPromote(std::uint32_t id) {
    if (node(id).status != kColdInTest) {
        return false;
    }
    adjustColdTarget(+1);
    while (m_hotCount + m_coldTarget >= m_capacity) {
        // The hot hand may pass node and end its test period.
        if (m_hotCount == 0 || !runHandHot(id) || node(id).status != kColdInTest) {
            return false;
        }
    }
    return true;
}

// A remembered key missed again, its block placed at `placed`: its reuse distance is below the
// oldest hot block's recency, so it turns hot if the hot hand can make room before it passes
// `placed`.
bool ClockProPolicy::canPromoteReturning(std::uint32_t placed) {
    if (!inTestSince(placed)) {
        return false;
    }
    adjustColdTarget(+1);
    while (m_hotCount + m_coldTarget >= m_capacity) {
        if (m_hotCount == 0 || !runHandHot(kNil) || !inTestSince(placed)) {
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
        } else {
            if (n.status == kColdInTest) {
                rememberEvicted(id);
            }
            m_dropped.push_back(id);
            unlink(id);
            release(id);
        }
    }
    nextHandCold();
}

// Turns the oldest unreferenced hot block cold (referenced ones on the way go back to the head
// as hot), for a cold share that grew.
void ClockProPolicy::demoteHot() {
    nextHandHot();
    while (m_handHot != kNil) {
        const std::uint32_t id = m_handHot;
        if (node(id).status != kHot) {
            stepHot();
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

// Resident and detached blocks both hold the engine's RAM: the clock evicts until they fit the
// capacity together with `adding` new ones, as long as it has resident blocks left (dirty data
// past that stays detached until it is written back).
void ClockProPolicy::makeRoom(std::size_t adding, std::vector<std::uint64_t>& evicted) {
    while (m_dataCount + adding > m_capacity && m_hotCount + m_coldCount > 0) {
        if (m_handCold == kNil) {
            // Every resident block is hot (the detached ones took the cold share). The hot hand
            // may only take a reference off a block (always so when one block is left), so
            // look again.
            demoteHot();
            nextHandCold();
            continue;
        }
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
    // found is kNone or a detached data node (which holds its data already).
    std::uint32_t id = found;
    const std::size_t adding = id == kNone ? 1 : 0;
    if (m_dataCount + adding <= m_capacity) {
        // Warming up: blocks are hot until only the minimum cold share is left free.
        if (id == kNone) {
            id = allocate(key);
        }
        const bool hot = m_capacity - m_dataCount > m_minCold;
        moveToHead(id, hot ? kHot : kColdInTest);
    } else if (const auto placed = id == kNone ? m_nonResident.find(key) : std::nullopt) {
        // A key evicted in its test period, back within it.
        makeRoom(adding, evicted);
        const bool hot = canPromoteReturning(*placed);
        id = allocate(key);
        moveToHead(id, hot ? kHot : kColdInTest);
    } else {
        makeRoom(adding, evicted);
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

std::uint32_t ClockProPolicy::findSaturatedRacy(std::uint64_t key, std::uint32_t excluded) const {
    const std::size_t count = __atomic_load_n(&m_racyNodeCount, __ATOMIC_ACQUIRE);
    const Node* nodes = __atomic_load_n(&m_racyNodes, __ATOMIC_RELAXED);
    const auto racyKeyOf = [nodes](std::uint32_t id) { return racyKey(nodes[id]); };
    const std::uint32_t id = m_index.findRacy(key, racyKeyOf, count);
    if (id == kNone) {
        return kNone;
    }
    const Node n = nodes[id]; // one copy: the checks below look at one state of the node
    const bool saturated = n.status >= kHot && n.status <= kColdInTest && n.referenced == 3U;
    return saturated && n.key == key && (n.flags & excluded) == 0 ? id : kNone;
}

std::uint64_t ClockProPolicy::racyKey(const Node& n) {
    // The key is the low kKeyBits of the node's first word (GCC and Clang allocate bit-fields
    // from the least significant bit up on the targets built for). The holder of the lock
    // rewrites that word as it links the node (the same key bits).
    static_assert(std::is_trivially_copyable_v<Node> && sizeof(Node) == 2 * sizeof(std::uint64_t));
    return __atomic_load_n(reinterpret_cast<const std::uint64_t*>(&n), __ATOMIC_RELAXED) & kMaxKey;
}

void ClockProPolicy::setBeforeMove(std::function<void()> hook) {
    m_beforeMove = hook;
    m_index.setBeforeMove(std::move(hook));
}

std::uint32_t ClockProPolicy::insertDetached(std::uint64_t key) {
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
    if (m_capacity != m_nonResident.capacity()) {
        m_nonResident.resize(m_capacity);
    }
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
    nextHandCold();
    makeRoom(0, evicted);
    nextHandHot();
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> ClockProPolicy::compact(std::size_t limit) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> moves;
    if (m_data.size() <= limit || limit < m_dataCount) {
        return moves;
    }
    m_dropped.clear();
    std::vector<std::uint32_t> free;
    for (std::uint32_t id = 0; id < limit; ++id) {
        if (m_data[id].status == kFree) {
            free.push_back(id);
        }
    }
    auto unused = free.begin();
    for (auto from = static_cast<std::uint32_t>(limit); from < m_data.size(); ++from) {
        if (m_data[from].status == kFree) {
            continue;
        }
        const std::uint32_t to = *unused++;
        Node& n = m_data[to];
        n = m_data[from];
        if (n.newer == from) { // alone in the list
            n.newer = to & kNil;
            n.older = to & kNil;
        } else if (n.newer != kNil) {
            node(static_cast<std::uint32_t>(n.newer)).older = to & kNil;
            node(static_cast<std::uint32_t>(n.older)).newer = to & kNil;
        }
        for (std::uint32_t* at : {&m_head, &m_handHot, &m_handCold}) {
            if (*at == from) {
                *at = to;
            }
        }
        m_index.erase(n.key, from, keys());
        m_index.insert(n.key, to, keys());
        moves.emplace_back(from, to);
    }
    if (m_beforeMove) {
        m_beforeMove();
    }
    m_data.resize(limit);
    m_data.shrink_to_fit();
    __atomic_store_n(&m_racyNodes, m_data.data(), __ATOMIC_RELAXED);
    __atomic_store_n(&m_racyNodeCount, m_data.size(), __ATOMIC_RELEASE);
    // The free list from the lowest number up.
    m_free = kNil;
    for (auto id = free.rbegin(); id != std::make_reverse_iterator(unused); ++id) {
        m_data[*id].older = m_free & kNil;
        m_free = *id;
    }
    return moves;
}

std::size_t ClockProPolicy::metadataBytes() const {
    return m_data.capacity() * sizeof(Node) + m_index.memoryBytes() + m_nonResident.memoryBytes() +
           m_dropped.capacity() * sizeof(std::uint32_t);
}

} // namespace ssdk::cachectl::engine
