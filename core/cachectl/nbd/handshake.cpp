#include "core/cachectl/nbd/handshake.h"

#include <fmt/core.h>

#include "core/base/log.h"
#include "core/cachectl/nbd/protocol.h"
#include "core/cachectl/nbd/socket_io.h"

namespace ssdk::cachectl::nbd {

namespace {

// Option data longer than this is refused; longer than kMaxDiscardedOption closes the
// connection instead of reading it (a client sending that much is not an NBD client).
constexpr std::uint32_t kMaxOptionLength = 64 * 1024;
constexpr std::uint32_t kMaxDiscardedOption = 1U << 20;

Expected<void> sendReply(int fd, std::uint32_t option, OptionReply type,
                         std::span<const std::byte> payload = {}) {
    return writeAll(fd, encodeOptionReply(option, type, payload));
}

Expected<void> sendError(int fd, std::uint32_t option, OptionReply type, std::string_view message) {
    return writeAll(fd, encodeOptionError(option, type, message));
}

// Answers NBD_OPT_INFO / NBD_OPT_GO; returns the export when the client may go on with it.
Expected<std::shared_ptr<Export>> answerInfo(int fd, std::uint32_t option,
                                             std::span<const std::byte> data,
                                             std::span<const std::shared_ptr<Export>> exports,
                                             const HandshakeOptions& options) {
    auto request = parseInfoRequest(data);
    if (!request) {
        if (auto sent = sendError(fd, option, OptionReply::ErrInvalid, request.error().message());
            !sent) {
            return std::unexpected(sent.error());
        }
        return nullptr;
    }
    auto chosen = findExport(exports, request->name);
    if (!chosen) {
        if (auto sent = sendError(fd, option, OptionReply::ErrUnknown,
                                  fmt::format("no export named '{}'", request->name));
            !sent) {
            return std::unexpected(sent.error());
        }
        return nullptr;
    }
    const auto store = chosen->store();
    if (auto sent = sendReply(fd, option, OptionReply::Info,
                              encodeInfoExport(store->size(), transmissionFlags(*chosen)));
        !sent) {
        return std::unexpected(sent.error());
    }
    for (const std::uint16_t type : request->requests) {
        if (type == static_cast<std::uint16_t>(InfoType::Name)) {
            std::vector<std::byte> payload(2);
            putBe16(payload.data(), type);
            const auto name = std::as_bytes(std::span(chosen->name()));
            payload.insert(payload.end(), name.begin(), name.end());
            if (auto sent = sendReply(fd, option, OptionReply::Info, payload); !sent) {
                return std::unexpected(sent.error());
            }
        }
    }
    // Sent whether requested or not: minimum 1 means any alignment is accepted.
    const std::uint32_t preferred = std::max<std::uint32_t>(store->blockSize(), 4096);
    if (auto sent = sendReply(fd, option, OptionReply::Info,
                              encodeInfoBlockSize(1, preferred, options.maxPayload));
        !sent) {
        return std::unexpected(sent.error());
    }
    if (auto sent = sendReply(fd, option, OptionReply::Ack); !sent) {
        return std::unexpected(sent.error());
    }
    return chosen;
}

} // namespace

std::uint16_t transmissionFlags(const Export& /*exported*/) {
    return kTransHasFlags | kTransSendFlush | kTransSendFua | kTransSendTrim |
           kTransSendWriteZeroes | kTransCanMultiConn;
}

std::shared_ptr<Export> findExport(std::span<const std::shared_ptr<Export>> exports,
                                   std::string_view name) {
    for (const auto& candidate : exports) {
        if (candidate->name() == name) {
            return candidate;
        }
    }
    if (name.empty() && !exports.empty()) {
        return exports.front();
    }
    return nullptr;
}

Expected<std::shared_ptr<Export>> negotiate(int fd,
                                            std::span<const std::shared_ptr<Export>> exports,
                                            const HandshakeOptions& options) {
    auto logger = log::get("nbd");
    if (auto sent = writeAll(fd, encodeServerGreeting()); !sent) {
        return std::unexpected(sent.error());
    }
    std::array<std::byte, 4> flagBytes{};
    auto got = readFull(fd, flagBytes);
    if (!got) {
        return std::unexpected(got.error());
    }
    if (*got == 0) {
        return nullptr;
    }
    if (*got != flagBytes.size()) {
        return fail(ErrorCode::Protocol, "the NBD client closed inside its flags");
    }
    auto clientFlags = parseClientFlags(flagBytes);
    if (!clientFlags) {
        return std::unexpected(clientFlags.error());
    }

    std::vector<std::byte> data;
    while (true) {
        std::array<std::byte, kOptionHeaderSize> headerBytes{};
        got = readFull(fd, headerBytes);
        if (!got) {
            return std::unexpected(got.error());
        }
        if (*got == 0) {
            return nullptr;
        }
        if (*got != headerBytes.size()) {
            return fail(ErrorCode::Protocol, "the NBD client closed inside an option header");
        }
        auto header = parseOptionHeader(headerBytes);
        if (!header) {
            return std::unexpected(header.error());
        }
        const std::uint32_t option = header->option;
        if (header->length > kMaxOptionLength) {
            if (header->length > kMaxDiscardedOption) {
                return fail(ErrorCode::Protocol,
                            fmt::format("NBD option {} carries {} bytes", option, header->length));
            }
            if (auto dropped = discardBytes(fd, header->length); !dropped) {
                return std::unexpected(dropped.error());
            }
            if (auto sent = sendError(fd, option, OptionReply::ErrTooBig, "option data too long");
                !sent) {
                return std::unexpected(sent.error());
            }
            continue;
        }
        data.resize(header->length);
        if (auto read = readExact(fd, data); !read) {
            return std::unexpected(read.error());
        }

        switch (static_cast<Option>(option)) {
        case Option::ExportName: {
            const std::string name(reinterpret_cast<const char*>(data.data()), data.size());
            auto chosen = findExport(exports, name);
            if (!chosen) {
                // This option has no error reply: the spec says to close the connection.
                return fail(ErrorCode::NotFound, fmt::format("no NBD export named '{}'", name));
            }
            if (auto sent = writeAll(fd, encodeExportNameReply(chosen->store()->size(),
                                                               transmissionFlags(*chosen),
                                                               clientFlags->noZeroes));
                !sent) {
                return std::unexpected(sent.error());
            }
            return chosen;
        }
        case Option::Abort:
            // Best effort: the client may already have closed its end.
            (void)sendReply(fd, option, OptionReply::Ack);
            return nullptr;
        case Option::List: {
            if (!data.empty()) {
                if (auto sent = sendError(fd, option, OptionReply::ErrInvalid,
                                          "NBD_OPT_LIST takes no data");
                    !sent) {
                    return std::unexpected(sent.error());
                }
                break;
            }
            for (const auto& candidate : exports) {
                if (auto sent = sendReply(fd, option, OptionReply::Server,
                                          encodeServerEntry(candidate->name()));
                    !sent) {
                    return std::unexpected(sent.error());
                }
            }
            if (auto sent = sendReply(fd, option, OptionReply::Ack); !sent) {
                return std::unexpected(sent.error());
            }
            break;
        }
        case Option::Info:
        case Option::Go: {
            auto chosen = answerInfo(fd, option, data, exports, options);
            if (!chosen) {
                return std::unexpected(chosen.error());
            }
            if (*chosen && static_cast<Option>(option) == Option::Go) {
                return *chosen;
            }
            break;
        }
        default:
            logger->debug("NBD option {} is not supported", option);
            if (auto sent = sendError(fd, option, OptionReply::ErrUnsup,
                                      fmt::format("option {} is not supported", option));
                !sent) {
                return std::unexpected(sent.error());
            }
            break;
        }
    }
}

} // namespace ssdk::cachectl::nbd
