#pragma once
// The server side of the NBD fixed newstyle handshake: greeting, client flags, then option
// haggling (EXPORT_NAME, LIST, INFO, GO, ABORT; every other option is answered "unsupported").

#include <cstdint>
#include <memory>
#include <span>

#include "core/base/error.h"
#include "core/cachectl/nbd/export.h"

namespace ssdk::cachectl::nbd {

struct HandshakeOptions {
    std::uint32_t maxPayload = 32U << 20; // advertised as the maximum block size
};

// Flags advertised for an export: flush, FUA, trim, write zeroes and multi-connection
// (a BlockStore is thread-safe and its flush covers writes from every connection).
std::uint16_t transmissionFlags(const Export& exported);

// The export an empty name selects: one named "" if any, else the first export.
std::shared_ptr<Export> findExport(std::span<const std::shared_ptr<Export>> exports,
                                   std::string_view name);

// Runs the handshake on a connected socket. Returns the export the client chose, nullptr
// when the client ended the handshake itself (NBD_OPT_ABORT or closing the socket), or an
// error when it broke the protocol (the caller closes the connection).
Expected<std::shared_ptr<Export>> negotiate(int fd,
                                            std::span<const std::shared_ptr<Export>> exports,
                                            const HandshakeOptions& options);

} // namespace ssdk::cachectl::nbd
