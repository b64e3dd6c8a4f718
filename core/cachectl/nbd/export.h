#pragma once
// Export: one named device the NBD server offers — the BlockStore it serves, how writes are
// made durable, and the counters the daemon reports.

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "core/cachectl/block_store.h"

namespace ssdk::cachectl::nbd {

// WriteBack: a write is durable after the client's next FLUSH (or when it sets FUA).
// WriteThrough: the server sets FUA on every write, so each is durable before its reply.
enum class WriteMode { WriteBack, WriteThrough };
std::string_view toString(WriteMode mode);
Expected<WriteMode> writeModeFromString(std::string_view name);

// Counters since the export was created; each is updated with relaxed atomics and read as a
// snapshot that may be a few requests apart between fields.
struct ExportStats {
    std::atomic<std::uint64_t> readOps{0};
    std::atomic<std::uint64_t> readBytes{0};
    std::atomic<std::uint64_t> writeOps{0};
    std::atomic<std::uint64_t> writeBytes{0};
    std::atomic<std::uint64_t> flushOps{0};
    std::atomic<std::uint64_t> trimOps{0};
    std::atomic<std::uint64_t> trimBytes{0};
    std::atomic<std::uint64_t> zeroOps{0};
    std::atomic<std::uint64_t> zeroBytes{0};
    std::atomic<std::uint64_t> errorReplies{0};
    std::atomic<std::uint64_t> connectionsTotal{0};
    std::atomic<std::int64_t> connectionsActive{0};
};

class Export {
public:
    // cacheMode names what the store is ("pass-through", or the engine's mode) for status.
    Export(std::string name, std::shared_ptr<BlockStore> store, std::string cacheMode,
           WriteMode writeMode = WriteMode::WriteBack);

    const std::string& name() const { return m_name; }
    // The store requests go to now; a request holds it for its whole duration, so a store
    // replaced by replaceStore lives until the requests using it finish.
    std::shared_ptr<BlockStore> store() const;
    void replaceStore(std::shared_ptr<BlockStore> store, std::string cacheMode);
    std::string cacheMode() const;

    WriteMode writeMode() const { return m_writeMode.load(std::memory_order_relaxed); }
    void setWriteMode(WriteMode mode) { m_writeMode.store(mode, std::memory_order_relaxed); }

    ExportStats& stats() { return m_stats; }
    const ExportStats& stats() const { return m_stats; }

private:
    const std::string m_name;
    mutable std::mutex m_mutex;
    std::shared_ptr<BlockStore> m_store;
    std::string m_cacheMode;
    std::atomic<WriteMode> m_writeMode;
    ExportStats m_stats;
};

} // namespace ssdk::cachectl::nbd
