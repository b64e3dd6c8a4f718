#include "core/cachectl/engine/policy.h"

#include <algorithm>

#include "core/cachectl/engine/policies.h"

namespace ssdk::cachectl::engine {

namespace {

template <typename Map> std::size_t mapBytes(const Map& map) {
    return map.bucket_count() * sizeof(void*) +
           map.size() * (sizeof(typename Map::value_type) + kNodeOverhead);
}

template <typename T> std::size_t listBytes(const std::list<T>& list) {
    return list.size() * (sizeof(T) + kNodeOverhead);
}

// A deque allocates 512-byte chunks plus a map of chunk pointers.
template <typename T> std::size_t dequeBytes(const std::deque<T>& deque) {
    const std::size_t perChunk = std::max<std::size_t>(1, 512 / sizeof(T));
    const std::size_t chunks = deque.size() / perChunk + 1;
    return chunks * (512 + sizeof(void*));
}

} // namespace

std::vector<std::string> policyNames() {
    return {"adaptive", "lru", "s3fifo", "lirs"};
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
    return fail(ErrorCode::InvalidArgument,
                "unknown cache policy '" + std::string(name) + "' (adaptive, lru, s3fifo, lirs)");
}

// ---- LRU ----

LruPolicy::LruPolicy(std::size_t capacity)
    : m_capacity(capacity) {}

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
    bool wasGhost = false;
    if (auto ghost = m_ghosts.find(key); ghost != m_ghosts.end()) {
        m_ghostOrder.erase(ghost->second);
        m_ghosts.erase(ghost);
        wasGhost = true;
    }
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
    m_ghostOrder.push_back(key);
    m_ghosts.emplace(key, std::prev(m_ghostOrder.end()));
    if (m_ghosts.size() > m_ghostCapacity) {
        m_ghosts.erase(m_ghostOrder.front());
        m_ghostOrder.pop_front();
    }
}

std::size_t S3FifoPolicy::metadataBytes() const {
    return m_resident.memoryBytes() + dequeBytes(m_small) + dequeBytes(m_main) +
           mapBytes(m_ghosts) + listBytes(m_ghostOrder);
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
    const Entry* found = m_entries.find(key);
    return found != nullptr && found->resident;
}

void LirsPolicy::pushStack(std::uint64_t key, Entry& entry) {
    m_stack.push_front(key);
    entry.stackPos = m_stack.begin();
    entry.inStack = true;
}

void LirsPolicy::removeFromStack(Entry& entry) {
    m_stack.erase(entry.stackPos);
    entry.inStack = false;
}

// Removes HIR entries from the bottom of the stack until a LIR block is at the bottom.
void LirsPolicy::pruneStack() {
    while (!m_stack.empty()) {
        const std::uint64_t key = m_stack.back();
        Entry& entry = *m_entries.find(key);
        if (entry.lir) {
            return;
        }
        m_stack.pop_back();
        entry.inStack = false;
        if (!entry.resident) {
            m_ghosts.erase(entry.ghostPos);
            m_entries.erase(key);
        }
    }
}

void LirsPolicy::demoteBottomLir() {
    const std::uint64_t key = m_stack.back();
    Entry& entry = *m_entries.find(key);
    m_stack.pop_back();
    entry.inStack = false;
    entry.lir = false;
    --m_lirCount;
    m_queue.push_back(key);
    entry.queuePos = std::prev(m_queue.end());
    entry.inQueue = true;
    pruneStack();
}

void LirsPolicy::evictFromQueue(std::vector<std::uint64_t>& evicted) {
    const std::uint64_t key = m_queue.front();
    m_queue.pop_front();
    Entry& entry = *m_entries.find(key);
    entry.inQueue = false;
    entry.resident = false;
    evicted.push_back(key);
    if (entry.inStack) {
        m_ghosts.push_back(key);
        entry.ghostPos = std::prev(m_ghosts.end());
    } else {
        m_entries.erase(key);
    }
}

void LirsPolicy::limitGhosts() {
    while (m_ghosts.size() > m_ghostLimit) {
        const std::uint64_t key = m_ghosts.front();
        m_ghosts.pop_front();
        removeFromStack(*m_entries.find(key));
        m_entries.erase(key);
    }
}

bool LirsPolicy::access(std::uint64_t key, std::vector<std::uint64_t>& evicted) {
    // Entry pointers stay valid until the next insertion or erase in m_entries.
    Entry* found = m_entries.find(key);
    if (found != nullptr && found->resident) {
        Entry& entry = *found;
        if (entry.lir) {
            const bool wasBottom = entry.stackPos == std::prev(m_stack.end());
            m_stack.splice(m_stack.begin(), m_stack, entry.stackPos);
            if (wasBottom) {
                pruneStack();
            }
        } else if (entry.inStack && m_lirCapacity > 0) {
            m_stack.splice(m_stack.begin(), m_stack, entry.stackPos);
            m_queue.erase(entry.queuePos);
            entry.inQueue = false;
            entry.lir = true;
            ++m_lirCount;
            demoteBottomLir();
        } else {
            if (entry.inStack) {
                m_stack.splice(m_stack.begin(), m_stack, entry.stackPos);
            } else {
                pushStack(key, entry);
            }
            m_queue.splice(m_queue.end(), m_queue, entry.queuePos);
        }
        return true;
    }
    if (m_lirCount < m_lirCapacity) {
        if (found != nullptr) {
            Entry& entry = *found;
            m_ghosts.erase(entry.ghostPos);
            m_stack.splice(m_stack.begin(), m_stack, entry.stackPos);
            entry.resident = true;
            entry.lir = true;
        } else {
            Entry& entry = *m_entries.tryEmplace(key).first;
            entry.resident = true;
            entry.lir = true;
            pushStack(key, entry);
        }
        ++m_lirCount;
        return false;
    }
    if (m_queue.size() >= m_hirCapacity) {
        evictFromQueue(evicted); // may erase entries (and move others): look key up again
        found = m_entries.find(key);
    }
    if (found != nullptr && m_lirCapacity == 0) {
        // A one-block cache has no LIR set: the block is the resident HIR block again.
        Entry& entry = *found;
        m_ghosts.erase(entry.ghostPos);
        m_stack.splice(m_stack.begin(), m_stack, entry.stackPos);
        entry.resident = true;
        m_queue.push_back(key);
        entry.queuePos = std::prev(m_queue.end());
        entry.inQueue = true;
    } else if (found != nullptr) {
        // A non-resident HIR block still in the stack: its reuse distance beats the bottom
        // LIR block's recency, so it becomes LIR.
        Entry& entry = *found;
        m_ghosts.erase(entry.ghostPos);
        m_stack.splice(m_stack.begin(), m_stack, entry.stackPos);
        entry.resident = true;
        entry.lir = true;
        ++m_lirCount;
        demoteBottomLir();
    } else {
        Entry& entry = *m_entries.tryEmplace(key).first;
        entry.resident = true;
        pushStack(key, entry);
        m_queue.push_back(key);
        entry.queuePos = std::prev(m_queue.end());
        entry.inQueue = true;
    }
    limitGhosts();
    return false;
}

std::size_t LirsPolicy::metadataBytes() const {
    return m_entries.memoryBytes() + listBytes(m_stack) + listBytes(m_queue) + listBytes(m_ghosts);
}

} // namespace ssdk::cachectl::engine
