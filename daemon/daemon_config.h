#pragma once
// DaemonConfig: what one ssdkeeper-cached process serves and where, parsed from its command
// line by pure functions.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/cachectl/engine/cache_engine.h"
#include "core/cachectl/nbd/export.h"

namespace ssdk::daemon {

// One cached device: the NBD export name and the backing device or file it caches.
struct ExportConfig {
    std::string name;
    std::filesystem::path backing;
};

struct TcpAddress {
    std::string host;
    std::uint16_t port = 0;
};

// The RAM cache in front of every export (each export gets its own engine of cacheBytes).
struct CacheOptions {
    std::uint64_t cacheBytes = 0; // 0: no cache, the export serves its backing store directly
    bool compression = false;     // LZ4 per block
    cachectl::engine::WriteMode mode = cachectl::engine::WriteMode::WriteThrough;
    double dirtyHigh = 0.50; // shares of the cache that may be dirty (write-back)
    double dirtyLow = 0.25;
    std::string policy{cachectl::engine::kDefaultPolicy};
    // Misses of a sequential stream past this many bytes bypass the cache; 0: never.
    std::uint64_t sequentialCutoff = 4ULL << 20;
};

struct DaemonConfig {
    std::vector<ExportConfig> exports;
    std::filesystem::path socket;                 // the NBD Unix socket
    std::optional<TcpAddress> tcp;                // optional loopback TCP listener
    std::optional<std::filesystem::path> control; // the JSON-lines control socket
    unsigned threadsPerConnection = 8;            // NBD requests of one connection running at once
    cachectl::nbd::WriteMode writeMode = cachectl::nbd::WriteMode::WriteBack;
    CacheOptions cache;
};

// The engine's write modes by their option names: "write-through", "write-back".
std::string_view toString(cachectl::engine::WriteMode mode);
Expected<cachectl::engine::WriteMode> cacheModeFromString(std::string_view name);

// "NAME=PATH" or "PATH" (the export name is then the file name of PATH). Names are at most
// 255 bytes of [A-Za-z0-9._-]; the path must be absolute or relative, not empty.
Expected<ExportConfig> parseExportSpec(std::string_view spec);
// "HOST:PORT" or "[V6HOST]:PORT".
Expected<TcpAddress> parseTcpAddress(std::string_view text);
// Checks the whole configuration: at least one export, unique names, a socket path, dirty
// watermarks 0 <= low < high <= 1.
Expected<void> validate(const DaemonConfig& config);

} // namespace ssdk::daemon
