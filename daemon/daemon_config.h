#pragma once
// DaemonConfig: what one ssdkeeper-cached process serves and where, parsed from its command
// line by pure functions.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/base/error.h"
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

struct DaemonConfig {
    std::vector<ExportConfig> exports;
    std::filesystem::path socket;                 // the NBD Unix socket
    std::optional<TcpAddress> tcp;                // optional loopback TCP listener
    std::optional<std::filesystem::path> control; // the JSON-lines control socket
    unsigned threadsPerConnection = 8;            // NBD requests of one connection running at once
    cachectl::nbd::WriteMode writeMode = cachectl::nbd::WriteMode::WriteBack;
};

// "NAME=PATH" or "PATH" (the export name is then the file name of PATH). Names are at most
// 255 bytes of [A-Za-z0-9._-]; the path must be absolute or relative, not empty.
Expected<ExportConfig> parseExportSpec(std::string_view spec);
// "HOST:PORT" or "[V6HOST]:PORT".
Expected<TcpAddress> parseTcpAddress(std::string_view text);
// Checks the whole configuration: at least one export, unique names, a socket path.
Expected<void> validate(const DaemonConfig& config);

} // namespace ssdk::daemon
