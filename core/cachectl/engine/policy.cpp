#include "core/cachectl/engine/policy.h"

#include <algorithm>

#include "core/cachectl/engine/policies.h"

namespace ssdk::cachectl::engine {

namespace {

// A deque allocates 512-byte chunks plus a map of chunk pointers.
template <typename T> std::size_t dequeBytes(const std::deque<T>& deque) {
    const std::size_t perChunk = std::max<std::size_t>(1, 512 / sizeof(T));
    const std::size_t chunks = deque.size() / perChunk + 1;
    return chunks * (512 + sizeof(void*));
}

} // namespace

std::vector<std::string> policyNames() {
    return {"clockpro-steered", "adaptive", "lru", "s3fifo", "lirs", "clockpro"};
}

Expected<std::unique_ptr<Policy>> makePolicy(std::string_view name, std::size_t capacityBlocks) {
    if (capacityBlocks == 0) {
        return fail(ErrorCode::InvalidArgument, "a cache needs at least one block");
    }
    if (name == "adaptive") {
        return std::make_unique<AdaptivePolicy>(capacityBlocks);
    }
    if (name == "lru") {
        return std::make_unique<LruPolicy>(capacityBlocks);
    }
    if (name == "s3fifo") {
        return std::make_unique<S3FifoPolicy>(capacityBlocks);
    }
    if (name == "lirs") {
        return std::make_unique<LirsPolicy>(capacityBlocks);
    }
    if (name == "clockpro") {
        return std::make_unique<ClockProPolicy>(capacityBlocks);
    }
    if (name == "clockpro-steered") {
        return std::make_unique<SteeredClockProPolicy>(capacityBlocks);
    }
    return fail(ErrorCode::InvalidArgument,
                "unknown cache policy '" + std::string(name) +
                    "' (clockpro-steered, adaptive, lru, s3fifo, lirs, clockpro)");
}

std::vector<std::string> enginePolicyNames() {
    return {"clockpro-steered", "clockpro"};
}

Expected<std::shared_ptr<ColdShareSteering>>
makeShardSteering(std::string_view name, std::size_t shards, std::size_t perShard) {
    if (name == "clockpro") {
        return nullptr;
    }
    if (name != "clockpro-steered") {
        return fail(ErrorCode::InvalidArgument,
                    "the cache engine keeps its blocks in CLOCK-Pro's nodes: policy '" +
                        std::string(name) +
                        "' is for the simulator only (clockpro-steered, "
                        "clockpro)");
    }
    return std::make_shared<ColdShareSteering>(shards * perShard, shards);
}

Expected<std::vector<std::unique_ptr<SteeredClockProPolicy>>>
makeShardClocks(std::string_view name, std::size_t shards, std::size_t perShard) {
    if (perShard == 0) {
        return fail(ErrorCode::InvalidArgument, "a cache needs at least one block");
    }
    auto steering = makeShardSteering(name, shards, perShard);
    if (!steering) {
        return std::unexpected(steering.error());
    }
    std::vector<std::unique_ptr<SteeredClockProPolicy>> clocks;
    for (std::size_t i = 0; i < shards; ++i) {
        clocks.push_back(std::make_unique<SteeredClockProPolicy>(perShard, *steering));
    }
    return clocks;
}

// ---- LRU ----

LruPolicy::LruPolicy(std::size_t capacity)
    : m_capacity(capacity) {
    // Never more nodes than the capacity: no growth slack.
    m_nodes.reserve(capacity);
}

bool LruPolicy::access(std::uint64_t key, std::vector<std::uint64_t>& evicted) {
    if (const std::uint32_t* found = m_index.find(key); found != nullptr) {
        if (*found != m_head) {
            unlink(*found);
            pushFront(*found);
        }
        return true;
    }
    std::uint32_t node = 0;
    if (m_index.size() >= m_capacity) {
        node = m_tail;
        const std::uint64_t victim = m_nodes[node].key;
        unlink(node);
        m_index.erase(victim);
        evicted.push_back(victim);
    } else {
        node = static_cast<std::uint32_t>(m_nodes.size());
        m_nodes.emplace_back();
    }
    m_nodes[node].key = key;
    pushFront(node);
    *m_index.tryEmplace(key).first = node;
    return false;
}

void LruPolicy::unlink(std::uint32_t node) {
    Node& n = m_nodes[node];
    if (n.prev == kNil) {
        m_head = n.next;
    } else {
        m_nodes[n.prev].next = n.next;
    }
    if (n.next == kNil) {
        m_tail = n.prev;
    } else {
        m_nodes[n.next].prev = n.prev;
    }
    n.prev = kNil;
    n.next = kNil;
}

void LruPolicy::pushFront(std::uint32_t node) {
    Node& n = m_nodes[node];
    n.prev = kNil;
    n.next = m_head;
    if (m_head != kNil) {
        m_nodes[m_head].prev = node;
    }
    m_head = node;
    if (m_tail == kNil) {
        m_tail = node;
    }
}

std::size_t LruPolicy::metadataBytes() const {
    return m_nodes.capacity() * sizeof(Node) + m_index.memoryBytes();
}

// ---- S3-FIFO ----

// References (beyond the first) a block needs while in the small FIFO to move to main.
constexpr int kMoveToMainThreshold = 2;

S3FifoPolicy::S3FifoPolicy(std::size_t capacity)
    : m_capacity(capacity)
    , m_smallCapacity(std::max<std::size_t>(1, capacity / 10))
    , m_ghostCapacity(std::max<std::size_t>(1, capacity - capacity / 10)) {}

bool S3FifoPolicy::access(std::uint64_t key, std::vector<std::uint64_t>& evicted) {
    if (Entry* found = m_resident.find(key); found != nullptr) {
        found->frequency = static_cast<std::uint8_t>(std::min(3, found->frequency + 1));
        return true;
    }
    // A hit ghost's record stays in m_ghostOrder, stale.
    const bool wasGhost = m_ghosts.erase(key);
    while (m_resident.size() >= m_capacity) {
        evictOne(evicted);
    }
    if (wasGhost) {
        m_main.push_front(key);
        *m_resident.tryEmplace(key).first = Entry{.frequency = 0, .inMain = true};
    } else {
        m_small.push_front(key);
        *m_resident.tryEmplace(key).first = Entry{.frequency = 0, .inMain = false};
    }
    return false;
}

void S3FifoPolicy::evictOne(std::vector<std::uint64_t>& evicted) {
    for (;;) {
        if (!m_small.empty() && (m_small.size() > m_smallCapacity || m_main.empty())) {
            const std::uint64_t key = m_small.back();
            m_small.pop_back();
            Entry& entry = *m_resident.find(key);
            if (entry.frequency >= kMoveToMainThreshold) {
                entry.frequency = 0;
                entry.inMain = true;
                m_main.push_front(key);
                continue;
            }
            m_resident.erase(key);
            addGhost(key);
            evicted.push_back(key);
            return;
        }
        const std::uint64_t key = m_main.back();
        m_main.pop_back();
        Entry& entry = *m_resident.find(key);
        if (entry.frequency > 0) {
            --entry.frequency;
            m_main.push_front(key);
            continue;
        }
        m_resident.erase(key);
        evicted.push_back(key);
        return;
    }
}

void S3FifoPolicy::addGhost(std::uint64_t key) {
    const std::uint64_t sequence = ++m_ghostSequence;
    m_ghostOrder.push_back(Ghost{.key = key, .sequence = sequence});
    *m_ghosts.tryEmplace(key).first = sequence;
    if (m_ghosts.size() > m_ghostCapacity) {
        // Drop the oldest live ghost (stale records before it go with it).
        for (;;) {
            const Ghost oldest = m_ghostOrder.front();
            m_ghostOrder.pop_front();
            if (const std::uint64_t* live = m_ghosts.find(oldest.key);
                live != nullptr && *live == oldest.sequence) {
                m_ghosts.erase(oldest.key);
                break;
            }
        }
    }
    if (m_ghostOrder.size() > 2 * m_ghostCapacity + 64) {
        // Many ghosts were hit: drop their stale records.
        std::erase_if(m_ghostOrder, [&](const Ghost& ghost) {
            const std::uint64_t* live = m_ghosts.find(ghost.key);
            return live == nullptr || *live != ghost.sequence;
        });
    }
}

std::size_t S3FifoPolicy::metadataBytes() const {
    return m_resident.memoryBytes() + dequeBytes(m_small) + dequeBytes(m_main) +
           dequeBytes(m_ghostOrder) + m_ghosts.memoryBytes();
}

// ---- LIRS ----

LirsPolicy::LirsPolicy(std::size_t capacity)
    : m_capacity(capacity)
    , m_hirCapacity(std::max<std::size_t>(1, capacity / 100))
    , m_ghostLimit(2 * capacity) {
    m_lirCapacity = capacity > m_hirCapacity ? capacity - m_hirCapacity : 0;
    if (m_lirCapacity == 0) {
        // A one-block cache: the single slot is the HIR queue.
        m_hirCapacity = capacity;
    }
}

bool LirsPolicy::contains(std::uint64_t key) const {
    const std::uint32_t* found = m_entries.find(key);
    return found != nullptr && m_nodes[*found].resident;
}

std::uint32_t LirsPolicy::allocate(std::uint64_t key) {
    std::uint32_t node = 0;
    if (!m_free.empty()) {
        node = m_free.back();
        m_free.pop_back();
        m_nodes[node] = Node{};
    } else {
        node = static_cast<std::uint32_t>(m_nodes.size());
        m_nodes.emplace_back();
    }
    m_nodes[node].key = key;
    *m_entries.tryEmplace(key).first = node;
    return node;
}

void LirsPolicy::release(std::uint32_t node) {
    m_entries.erase(m_nodes[node].key);
    m_free.push_back(node);
}

void LirsPolicy::listPushBack(List& list, std::uint32_t node) {
    Node& n = m_nodes[node];
    n.listPrev = list.back;
    n.listNext = kNil;
    if (list.back == kNil) {
        list.front = node;
    } else {
        m_nodes[list.back].listNext = node;
    }
    list.back = node;
    ++list.size;
}

void LirsPolicy::listUnlink(List& list, std::uint32_t node) {
    Node& n = m_nodes[node];
    if (n.listPrev == kNil) {
        list.front = n.listNext;
    } else {
        m_nodes[n.listPrev].listNext = n.listNext;
    }
    if (n.listNext == kNil) {
        list.back = n.listPrev;
    } else {
        m_nodes[n.listNext].listPrev = n.listPrev;
    }
    n.listPrev = kNil;
    n.listNext = kNil;
    --list.size;
}

void LirsPolicy::pushStack(std::uint32_t node) {
    Node& n = m_nodes[node];
    n.stackUp = kNil;
    n.stackDown = m_stackTop;
    if (m_stackTop == kNil) {
        m_stackBottom = node;
    } else {
        m_nodes[m_stackTop].stackUp = node;
    }
    m_stackTop = node;
    n.inStack = true;
}

void LirsPolicy::removeFromStack(std::uint32_t node) {
    Node& n = m_nodes[node];
    if (n.stackUp == kNil) {
        m_stackTop = n.stackDown;
    } else {
        m_nodes[n.stackUp].stackDown = n.stackDown;
    }
    if (n.stackDown == kNil) {
        m_stackBottom = n.stackUp;
    } else {
        m_nodes[n.stackDown].stackUp = n.stackUp;
    }
    n.stackUp = kNil;
    n.stackDown = kNil;
    n.inStack = false;
}

void LirsPolicy::moveToTop(std::uint32_t node) {
    if (node != m_stackTop) {
        removeFromStack(node);
        pushStack(node);
    }
}

// Removes HIR entries from the bottom of the stack until a LIR block is at the bottom.
void LirsPolicy::pruneStack() {
    while (m_stackBottom != kNil) {
        const std::uint32_t node = m_stackBottom;
        if (m_nodes[node].lir) {
            return;
        }
        removeFromStack(node);
        if (!m_nodes[node].resident) {
            listUnlink(m_ghosts, node);
            release(node);
        }
    }
}

void LirsPolicy::demoteBottomLir() {
    const std::uint32_t node = m_stackBottom;
    removeFromStack(node);
    m_nodes[node].lir = false;
    --m_lirCount;
    listPushBack(m_queue, node);
    m_nodes[node].inQueue = true;
    pruneStack();
}

void LirsPolicy::evictFromQueue(std::vector<std::uint64_t>& evicted) {
    const std::uint32_t node = m_queue.front;
    listUnlink(m_queue, node);
    Node& n = m_nodes[node];
    n.inQueue = false;
    n.resident = false;
    evicted.push_back(n.key);
    if (n.inStack) {
        listPushBack(m_ghosts, node);
    } else {
        release(node);
    }
}

void LirsPolicy::limitGhosts() {
    while (m_ghosts.size > m_ghostLimit) {
        const std::uint32_t node = m_ghosts.front;
        listUnlink(m_ghosts, node);
        removeFromStack(node);
        release(node);
    }
}

bool LirsPolicy::access(std::uint64_t key, std::vector<std::uint64_t>& evicted) {
    const std::uint32_t* found = m_entries.find(key);
    const std::uint32_t node = found == nullptr ? kNil : *found;
    if (node != kNil && m_nodes[node].resident) {
        Node& entry = m_nodes[node]; // no allocation below: stays valid
        if (entry.lir) {
            const bool wasBottom = node == m_stackBottom;
            moveToTop(node);
            if (wasBottom) {
                pruneStack();
            }
        } else if (entry.inStack && m_lirCapacity > 0) {
            moveToTop(node);
            listUnlink(m_queue, node);
            entry.inQueue = false;
            entry.lir = true;
            ++m_lirCount;
            demoteBottomLir();
        } else {
            if (entry.inStack) {
                moveToTop(node);
            } else {
                pushStack(node);
            }
            listUnlink(m_queue, node);
            listPushBack(m_queue, node);
        }
        return true;
    }
    if (m_lirCount < m_lirCapacity) {
        if (node != kNil) {
            listUnlink(m_ghosts, node);
            moveToTop(node);
            m_nodes[node].resident = true;
            m_nodes[node].lir = true;
        } else {
            const std::uint32_t fresh = allocate(key);
            m_nodes[fresh].resident = true;
            m_nodes[fresh].lir = true;
            pushStack(fresh);
        }
        ++m_lirCount;
        return false;
    }
    if (m_queue.size >= m_hirCapacity) {
        // Evicts a resident entry: never key's (non-resident) node.
        evictFromQueue(evicted);
    }
    if (node != kNil && m_lirCapacity == 0) {
        // A one-block cache has no LIR set: the block is the resident HIR block again.
        listUnlink(m_ghosts, node);
        moveToTop(node);
        m_nodes[node].resident = true;
        listPushBack(m_queue, node);
        m_nodes[node].inQueue = true;
    } else if (node != kNil) {
        // A non-resident HIR block still in the stack: its reuse distance beats the bottom
        // LIR block's recency, so it becomes LIR.
        listUnlink(m_ghosts, node);
        moveToTop(node);
        m_nodes[node].resident = true;
        m_nodes[node].lir = true;
        ++m_lirCount;
        demoteBottomLir();
    } else {
        const std::uint32_t fresh = allocate(key);
        m_nodes[fresh].resident = true;
        pushStack(fresh);
        listPushBack(m_queue, fresh);
        m_nodes[fresh].inQueue = true;
    }
    limitGhosts();
    return false;
}

std::size_t LirsPolicy::metadataBytes() const {
    return m_nodes.capacity() * sizeof(Node) + m_free.capacity() * sizeof(std::uint32_t) +
           m_entries.memoryBytes();
}

} // namespace ssdk::cachectl::engine
