#pragma once
// The concrete policies behind makePolicy (policy.h). Exposed so the adaptive policy can hold
// them as experts and tests can drive each one.

#include <atomic>
#include <deque>
#include <functional>
#include <mutex>

#include "core/cachectl/engine/block_index.h"
#include "core/cachectl/engine/ghost_filter.h"
#include "core/cachectl/engine/node_index.h"
#include "core/cachectl/engine/policy.h"

namespace ssdk::cachectl::engine {

class LruPolicy final : public Policy {
public:
    explicit LruPolicy(std::size_t capacity);

    bool access(std::uint64_t key, std::vector<std::uint64_t>& evicted) override;
    bool contains(std::uint64_t key) const override { return m_index.contains(key); }
    std::size_t size() const override { return m_index.size(); }
    std::size_t capacity() const override { return m_capacity; }
    std::string_view name() const override { return "lru"; }
    std::size_t metadataBytes() const override;

private:
    // The recency list is intrusive over a node array (32-bit links), the index maps a key to
    // its node: no allocation per access once the cache is full.
    static constexpr std::uint32_t kNil = 0xffffffffU;
    struct Node {
        std::uint64_t key = 0;
        std::uint32_t prev = kNil; // towards the most recent
        std::uint32_t next = kNil; // towards the least recent
    };
    void unlink(std::uint32_t node);
    void pushFront(std::uint32_t node);

    std::size_t m_capacity;
    std::vector<Node> m_nodes;
    std::uint32_t m_head = kNil; // most recent
    std::uint32_t m_tail = kNil; // least recent
    BlockIndex<std::uint32_t> m_index;
};

// S3-FIFO: new blocks enter a small FIFO (10% of the cache); a block referenced again while
// there moves to the main FIFO when it leaves, others leave to a ghost FIFO of keys (as many
// as the main FIFO holds). A miss on a ghost key enters main directly. Main evicts with a
// 2-bit frequency: a block with frequency > 0 is reinserted with frequency - 1.
class S3FifoPolicy final : public Policy {
public:
    explicit S3FifoPolicy(std::size_t capacity);

    bool access(std::uint64_t key, std::vector<std::uint64_t>& evicted) override;
    bool contains(std::uint64_t key) const override { return m_resident.contains(key); }
    std::size_t size() const override { return m_resident.size(); }
    std::size_t capacity() const override { return m_capacity; }
    std::string_view name() const override { return "s3fifo"; }
    std::size_t metadataBytes() const override;

private:
    struct Entry {
        std::uint8_t frequency = 0;
        bool inMain = false;
    };
    // A ghost in FIFO order; a ghost that was hit (or re-added) leaves its old record behind,
    // recognized as stale by a sequence number different from the index's.
    struct Ghost {
        std::uint64_t key = 0;
        std::uint64_t sequence = 0;
    };
    void evictOne(std::vector<std::uint64_t>& evicted);
    void addGhost(std::uint64_t key);

    std::size_t m_capacity;
    std::size_t m_smallCapacity;
    std::size_t m_ghostCapacity;
    BlockIndex<Entry> m_resident;
    std::deque<std::uint64_t> m_small;  // front = newest
    std::deque<std::uint64_t> m_main;   // front = newest
    std::deque<Ghost> m_ghostOrder;     // front = oldest
    BlockIndex<std::uint64_t> m_ghosts; // key -> its live record's sequence
    std::uint64_t m_ghostSequence = 0;
};

// LIRS with a HIR share of 1% of the cache (at least one block) and a stack holding at most
// 2x the cache in non-resident HIR entries beyond the resident blocks.
class LirsPolicy final : public Policy {
public:
    explicit LirsPolicy(std::size_t capacity);

    bool access(std::uint64_t key, std::vector<std::uint64_t>& evicted) override;
    bool contains(std::uint64_t key) const override;
    std::size_t size() const override { return m_lirCount + m_queue.size; }
    std::size_t capacity() const override { return m_capacity; }
    std::string_view name() const override { return "lirs"; }
    std::size_t metadataBytes() const override;

private:
    static constexpr std::uint32_t kNil = 0xffffffffU;
    // One entry: a resident block, or a non-resident HIR block still in the stack. The lists
    // are intrusive over the node array with 32-bit links; the queue and the ghost list share
    // one pair of links (an entry is in the queue only while resident, a ghost only while not).
    struct Node {
        std::uint64_t key = 0;
        std::uint32_t stackUp = kNil;   // towards the top (most recent)
        std::uint32_t stackDown = kNil; // towards the bottom
        std::uint32_t listPrev = kNil;  // towards the front
        std::uint32_t listNext = kNil;
        bool lir = false;
        bool resident = false;
        bool inStack = false;
        bool inQueue = false;
    };
    struct List {
        std::uint32_t front = kNil;
        std::uint32_t back = kNil;
        std::size_t size = 0;
    };
    std::uint32_t allocate(std::uint64_t key);
    void release(std::uint32_t node);
    void listPushBack(List& list, std::uint32_t node);
    void listUnlink(List& list, std::uint32_t node);
    void pushStack(std::uint32_t node);
    void removeFromStack(std::uint32_t node);
    void moveToTop(std::uint32_t node);
    void pruneStack();
    void demoteBottomLir();
    void evictFromQueue(std::vector<std::uint64_t>& evicted);
    void limitGhosts();

    std::size_t m_capacity;
    std::size_t m_lirCapacity;
    std::size_t m_hirCapacity;
    std::size_t m_ghostLimit;
    std::size_t m_lirCount = 0;
    std::vector<Node> m_nodes;
    std::vector<std::uint32_t> m_free;
    std::uint32_t m_stackTop = kNil;
    std::uint32_t m_stackBottom = kNil;
    List m_queue;                        // resident HIR blocks, front = next victim
    List m_ghosts;                       // non-resident HIR blocks in the stack, front = oldest
    BlockIndex<std::uint32_t> m_entries; // key -> node
};

// CLOCK-Pro (Jiang, Chen & Zhang, USENIX ATC'05): LIRS's hot/cold split approximated on one
// clock so that a hit only sets the block's reference count; all list work happens on a miss.
// Hot and cold resident blocks share one circular list in the order they were (re)placed at its
// head; two hands sweep it from the oldest end. The keys of cold blocks evicted in their test
// period (the paper's non-resident cold pages) are remembered in a GhostFilter, not in the list.
// See clockpro_policy.cpp.
//
// It is also the cache engine's block table. A block whose data the engine holds has a
// "data node": its number is where the engine keeps the data (a frame), and it carries 5 bits
// of the engine's own (dataFlags). A data node with kPinned set (dirty data) is not dropped when
// the clock evicts it: it leaves the clock as a detached node and keeps its data until the
// engine removes it. Detached nodes count against the capacity: the clock evicts until resident
// and detached blocks fit it together (while it has resident blocks). A node is 16 bytes, an index
// entry 4 and a remembered key about 4 (its share of the filters).
class ClockProPolicy final : public Policy {
public:
    static constexpr std::uint32_t kNone = NodeIndex::kNone;
    // dataFlags bits the policy reads: a pinned node is detached instead of dropped.
    static constexpr std::uint32_t kPinned = 1;
    // Keys are below 2^36 (block numbers of a device up to 256 TiB): the node packs the key with
    // its links. The engine and the simulator keep to that (CacheEngine::create, ReplayTrace).
    static constexpr unsigned kKeyBits = 36;
    static constexpr std::uint64_t kMaxKey = (std::uint64_t{1} << kKeyBits) - 1;
    // Data nodes are numbered below this (2^25 - 1: 128 GiB of 4 KiB blocks per clock).
    static constexpr std::uint32_t kMaxNodes = (1U << 25) - 1;

    // The resident cold share adapts between minColdShare and maxColdShare of the capacity (at
    // least one block cold, at least one hot unless the cache holds one block); the paper's
    // setting is the default. Equal shares pin it.
    explicit ClockProPolicy(std::size_t capacity, double minColdShare = 0.01,
                            double maxColdShare = 0.99);

    bool access(std::uint64_t key, std::vector<std::uint64_t>& evicted) override {
        return reference(key, evicted).hit;
    }
    bool contains(std::uint64_t key) const override;
    std::size_t size() const override { return m_hotCount + m_coldCount; }
    std::size_t capacity() const override { return m_capacity; }
    std::string_view name() const override { return "clockpro"; }
    std::size_t metadataBytes() const override;

    // The resident cold share the policy aims for now (tests, benches).
    std::size_t coldTarget() const { return m_coldTarget; }
    std::size_t hotBlocks() const { return m_hotCount; }
    // Keys of evicted blocks remembered (in their test period, or found again since).
    std::size_t nonResidentBlocks() const { return m_nonResident.size(); }
    // Moves the bounds of the cold share (as for the constructor). A larger cold share takes
    // effect over the next misses, each demoting at most one hot block.
    void setColdShares(double minColdShare, double maxColdShare);

    // ---- the engine's block table ----
    struct Reference {
        bool hit;           // key was resident
        std::uint32_t node; // key's data node now
    };
    // access() that also says which data node holds key afterwards. The data nodes whose data
    // the clock dropped to make room are in droppedData() until the next call; the returned node
    // may be one of them (its number was reused), so drop their data first.
    Reference reference(std::uint64_t key, std::vector<std::uint64_t>& evicted);
    const std::vector<std::uint32_t>& droppedData() const { return m_dropped; }
    // key's data node (resident or detached), or kNone.
    std::uint32_t findData(std::uint64_t key) const {
        return findData(key, [](std::uint32_t) {});
    }
    // The same, calling candidate(node) for each data node whose tag matches before its key is
    // read (the engine starts loading the node's data then, overlapping the two misses).
    template <typename Candidate>
    std::uint32_t findData(std::uint64_t key, Candidate&& candidate) const {
        return m_index.find(key, [&](std::uint32_t other) {
            candidate(other);
            return m_data[other].key;
        });
    }
    // A hit on a data node that is not detached: bumps its reference count, as access() does.
    // A count already at its top is not written: the node's cache line stays shared between the
    // cores that hit it, instead of moving to each in turn.
    void hit(std::uint32_t node) {
        Node& n = m_data[node];
        if (n.referenced != 3U) {
            n.referenced = (n.referenced + 1U) & 3U;
        }
    }
    // findData() for a reader without the lock (the engine's lock-free hits): key's data node
    // if it is resident and its reference count at its top, so that a hit would change nothing,
    // else kNone. It reads as the lock's holder writes: the reader validates the answer (a
    // sequence lock, shard_lock.h), and the node array must not move meanwhile (setBeforeMove).
    // A node with any of the engine's `excluded` flags is kNone too.
    __attribute__((no_sanitize("thread"))) std::uint32_t
    findSaturatedRacy(std::uint64_t key, std::uint32_t excluded = 0) const;
    // Called before the node array or the index's table moves, while nothing changed yet.
    void setBeforeMove(std::function<void()> hook);
    bool detached(std::uint32_t node) const { return m_data[node].status == kDetached; }
    // A data node for key (which has none) outside the clock: data the policy is not told of
    // (a bypassed stream's dirty blocks).
    std::uint32_t insertDetached(std::uint64_t key);
    // Forgets a data node (discarded or overwritten data); the engine drops its data itself.
    void remove(std::uint32_t node);
    std::uint32_t dataFlags(std::uint32_t node) const { return m_data[node].flags; }
    void setDataFlags(std::uint32_t node, std::uint32_t flags) { m_data[node].flags = flags & 31U; }
    std::uint64_t keyOf(std::uint32_t node) const { return m_data[node].key; }
    // Data node numbers are below this.
    std::size_t dataNodes() const { return m_data.size(); }
    // Nodes that hold data: resident and detached.
    std::size_t dataBlocks() const { return m_dataCount; }
    // fn(key, node) for every data node.
    template <typename Fn> void forEachData(Fn&& fn) const {
        for (std::uint32_t i = 0; i < m_data.size(); ++i) {
            if (m_data[i].status != kFree) {
                fn(m_data[i].key, i);
            }
        }
    }
    // Changes the capacity in place: a smaller one evicts at once (droppedData() lists the data
    // dropped; pinned nodes are detached).
    void setCapacity(std::size_t capacity, std::vector<std::uint64_t>& evicted);
    // Renumbers the data nodes below `limit` (at least dataBlocks()): each node numbered from
    // limit up moves to a free number below it, and the node array ends at limit, so that the
    // engine can give back the data beyond (a cache resized smaller). Returns the moves (from,
    // to); the engine moves the nodes' data. Lock-free readers must be out (setBeforeMove).
    std::vector<std::pair<std::uint32_t, std::uint32_t>> compact(std::size_t limit);

private:
    // A node is 16 bytes: the key, the links, the status and reference count, the engine's
    // flags and when the node was last placed at the head (a 32-bit count of placements, for
    // the test periods), in two words. The key is in the first word's low bits, where
    // findSaturatedRacy reads it.
    static constexpr std::uint32_t kNil = kMaxNodes;
    static_assert(kMaxNodes <= NodeIndex::kNodeMask);
    enum Status : std::uint8_t {
        kFree,       // on the free list (linked through `older`)
        kHot,        // resident
        kCold,       // resident, test period over
        kColdInTest, // resident, in its test period
        kDetached,   // evicted pinned block: data, but out of the clock
    };
    struct Node {
        std::uint64_t key : kKeyBits = 0;
        std::uint64_t newer : 25 = kNil; // towards the head (most recently placed)
        std::uint64_t status : 3 = kFree;
        std::uint64_t older : 25 = kNil;  // towards the tail
        std::uint64_t referenced : 2 = 0; // references since a hand last passed, up to 3
        std::uint64_t flags : 5 = 0;      // the engine's
        std::uint64_t placed : 32 = 0;    // when last placed at the head (wraps)
    };
    static_assert(sizeof(Node) == 16);
    // n's key, read without the lock (findSaturatedRacy).
    __attribute__((no_sanitize("thread"))) static std::uint64_t racyKey(const Node& n);
    static bool residentCold(const Node& n) { return n.status == kCold || n.status == kColdInTest; }
    static bool resident(const Node& n) {
        return n.status == kHot || n.status == kCold || n.status == kColdInTest;
    }

    Node& node(std::uint32_t id) { return m_data[id]; }
    const Node& node(std::uint32_t id) const { return m_data[id]; }
    std::uint32_t placedAt(std::uint32_t id) const {
        return static_cast<std::uint32_t>(m_data[id].placed);
    }
    // keyOf for the index.
    auto keys() const {
        return [this](std::uint32_t id) { return m_data[id].key; };
    }
    // The data node of key, or kNone.
    std::uint32_t nodeOf(std::uint64_t key) const;
    // A new data node for key, out of the list and indexed.
    std::uint32_t allocate(std::uint64_t key);
    // node must be out of the list already.
    void release(std::uint32_t node);
    void setStatus(std::uint32_t node, Status status);
    void unlink(std::uint32_t node);
    void moveToHead(std::uint32_t node, Status status);
    void makeRoom(std::size_t adding, std::vector<std::uint64_t>& evicted);
    void runHandCold(std::vector<std::uint64_t>& evicted);
    bool runHandHot(std::uint32_t trigger);
    bool canPromote(std::uint32_t node);
    bool canPromoteReturning(std::uint32_t placed);
    bool inTestSince(std::uint32_t placed) const;
    void terminateTest(std::uint32_t node);
    void nextHandCold();
    void nextHandHot();
    void adjustColdTarget(int delta);
    void demoteHot();
    void rememberEvicted(std::uint32_t node);
    void lowerColdTarget(std::size_t expired);
    void endTestsUpTo(std::uint32_t placed);
    void stepHot();

    std::size_t m_capacity;
    double m_minShare;
    double m_maxShare;
    std::size_t m_minCold;
    std::size_t m_maxCold;
    std::size_t m_coldTarget;
    std::size_t m_hotCount = 0;
    std::size_t m_coldCount = 0; // resident cold, in test or not
    std::size_t m_dataCount = 0;
    std::vector<Node> m_data; // resident and detached blocks
    std::uint32_t m_time = 0; // placements so far (wraps)
    std::uint32_t m_free = kNil;
    std::uint32_t m_head = kNil;
    std::uint32_t m_handHot = kNil;  // the hot block placed longest ago
    std::uint32_t m_handCold = kNil; // the resident cold block placed longest ago: next victim
    NodeIndex m_index;               // key -> data node
    GhostFilter m_nonResident;       // keys evicted in their test period
    std::vector<std::uint32_t> m_dropped;
    std::function<void()> m_beforeMove;
    // m_data's nodes and their number, for findSaturatedRacy (atomic accesses: set as nodes are
    // added, read without the lock).
    const Node* m_racyNodes = nullptr;
    std::size_t m_racyNodeCount = 0;
};

// The miniature simulations that steer clockpro-steered's cold share: CLOCK-Pro shadows with a
// few fixed cold shares over a hashed sample of the keys, at the sampled fraction of the
// capacity, scored by their recent hits. One instance sees the whole cache: the engine's shards
// share it (each shard's clock takes the leading share), so it has its own lock, and a sampled
// reference that finds it busy is left out of the sample. See steered_clockpro_policy.cpp.
class ColdShareSteering {
public:
    // capacity: blocks of the whole cache; sharers: how many policies use it (for
    // metadataShare()).
    ColdShareSteering(std::size_t capacity, std::size_t sharers);

    // Whether key is in the sample; any thread (the threshold is set at construction).
    bool sampled(std::uint64_t key) const {
        return m_sampleBelow == ~std::uint64_t{0} || sampleHash(key) < m_sampleBelow;
    }
    // Records a reference to a sampled key. Thread-safe.
    void observe(std::uint64_t key);
    // The leading shadow (an index for coldShare()); a relaxed read, any thread.
    std::size_t leader() const { return m_leader.load(std::memory_order_relaxed); }
    static double coldShare(std::size_t leader);
    // Heap bytes of the shadows divided among the sharers.
    std::size_t metadataShare() const;

private:
    // splitmix64's finalizer: a different mix from NodeIndex's and GhostFilter's, so a sample is
    // not a run of home buckets or filter lines.
    static std::uint64_t sampleHash(std::uint64_t key) {
        std::uint64_t x = key + 0x9e3779b97f4a7c15ULL;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
        return x ^ (x >> 31);
    }

    std::size_t m_sharers;
    std::uint64_t m_sampleBelow; // a key is sampled when its hash is below this
    mutable std::mutex m_mutex;  // guards everything below but m_leader
    std::vector<ClockProPolicy> m_shadows;
    std::vector<double> m_scores; // exponentially decayed hit counts over sampled references
    double m_decay;
    std::vector<std::uint64_t> m_scratch;
    std::atomic<std::size_t> m_leader{0};
};

// CLOCK-Pro whose cold share is steered by miniature simulations (ColdShareSteering): the
// clock pins the share of the shadow with the most recent hits. A hit on an unsampled key
// only bumps the count in its own node. Without steering it is plain CLOCK-Pro ("clockpro",
// its cold share adapting): the engine's shards are these either way.
class SteeredClockProPolicy final : public Policy {
public:
    // With steering of its own (the simulator, a single cache).
    explicit SteeredClockProPolicy(std::size_t capacity);
    // One shard of a cache whose shards share steering (null: plain CLOCK-Pro).
    SteeredClockProPolicy(std::size_t capacity, std::shared_ptr<ColdShareSteering> steering);

    bool access(std::uint64_t key, std::vector<std::uint64_t>& evicted) override {
        return reference(key, evicted).hit;
    }
    bool contains(std::uint64_t key) const override { return m_main.contains(key); }
    std::size_t size() const override { return m_main.size(); }
    std::size_t capacity() const override { return m_main.capacity(); }
    std::string_view name() const override { return m_steering ? "clockpro-steered" : "clockpro"; }
    std::size_t metadataBytes() const override;

    // ClockProPolicy::reference through the steering.
    ClockProPolicy::Reference reference(std::uint64_t key, std::vector<std::uint64_t>& evicted);
    // Whether the steering samples key: its hits must reach the steering (reference(), or
    // observeRacy() after a lock-free hit), so that the shadow simulations see the same
    // references as the simulator's policy does.
    bool sampled(std::uint64_t key) const { return m_steering && m_steering->sampled(key); }
    // ClockProPolicy::findSaturatedRacy: a hit on such a node changes nothing in the clock.
    std::uint32_t findSaturatedRacy(std::uint64_t key, std::uint32_t excluded = 0) const {
        return m_main.findSaturatedRacy(key, excluded);
    }
    // What reference() does besides the clock for a hit found by findSaturatedRacy, without the
    // lock: a sampled key's reference goes to the steering (which has a lock of its own). A new
    // leading share reaches the clock at its next reference(), before the clock changes again,
    // as the simulator's policy would have applied it. Call after the sequence lock's reader
    // validated its read, while still announced as a reader (reader_slots.h): the holder of the
    // lock waits for such readers before it replaces the steering (resize()).
    void observeRacy(std::uint64_t key) const {
        ColdShareSteering* steering = __atomic_load_n(&m_racySteering, __ATOMIC_ACQUIRE);
        if (steering != nullptr && steering->sampled(key)) {
            steering->observe(key);
        }
    }
    // The clock, for the engine's block table (everything but references).
    ClockProPolicy& clock() { return m_main; }
    const ClockProPolicy& clock() const { return m_main; }
    // A new capacity (ClockProPolicy::setCapacity) and steering for it (null keeps the old).
    void resize(std::size_t capacity, std::shared_ptr<ColdShareSteering> steering,
                std::vector<std::uint64_t>& evicted);

    // The cold share the clock follows now.
    double coldShare() const { return ColdShareSteering::coldShare(m_applied); }

private:
    void setSteering(std::shared_ptr<ColdShareSteering> steering);

    ClockProPolicy m_main;
    std::shared_ptr<ColdShareSteering> m_steering;
    std::size_t m_applied = 0; // the leader whose share m_main has
    // m_steering's object, for observeRacy (atomic accesses).
    ColdShareSteering* m_racySteering = nullptr;
};

// The policies the cache engine takes (its block table is the clock's nodes), the default first.
std::vector<std::string> enginePolicyNames();
// The steering a cache of `shards` shards of `perShard` blocks shares (null for "clockpro");
// InvalidArgument for a policy the engine does not take.
Expected<std::shared_ptr<ColdShareSteering>>
makeShardSteering(std::string_view name, std::size_t shards, std::size_t perShard);
// The shards' clocks, sharing one steering (clockpro-steered's shadow simulations would be too
// small, or as large as the shard, per shard).
Expected<std::vector<std::unique_ptr<SteeredClockProPolicy>>>
makeShardClocks(std::string_view name, std::size_t shards, std::size_t perShard);

// Three experts and a resident set that follows the best; see adaptive_policy.cpp.
class AdaptivePolicy final : public Policy {
public:
    explicit AdaptivePolicy(std::size_t capacity);

    bool access(std::uint64_t key, std::vector<std::uint64_t>& evicted) override;
    bool contains(std::uint64_t key) const override { return m_resident.contains(key); }
    std::size_t size() const override { return m_resident.size(); }
    std::size_t capacity() const override { return m_capacity; }
    std::string_view name() const override { return "adaptive"; }
    std::size_t metadataBytes() const override;

    // The expert the resident set follows now ("lirs", "s3fifo" or "lru").
    std::string_view leader() const { return m_experts[m_leader]->name(); }

private:
    void switchLeader(std::size_t to);
    void evictOrphan(std::vector<std::uint64_t>& evicted);

    std::size_t m_capacity;
    std::vector<std::unique_ptr<Policy>> m_experts;
    std::vector<double> m_scores; // exponentially decayed hit counts
    double m_decay;
    std::size_t m_leader = 0;
    // Resident blocks; the value is 1 for an orphan: a resident block the leader does not hold
    // (left over from an earlier leader), evicted first, oldest first.
    BlockIndex<std::uint8_t> m_resident;
    // Orphans in eviction order; entries that are no longer orphans are skipped lazily.
    std::deque<std::uint64_t> m_orphans;
    std::size_t m_orphanCount = 0;
    std::vector<std::uint64_t> m_scratch;
};

} // namespace ssdk::cachectl::engine
