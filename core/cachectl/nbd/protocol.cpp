#include "core/cachectl/nbd/protocol.h"

#include <fmt/core.h>

namespace ssdk::cachectl::nbd {

void putBe16(std::byte* out, std::uint16_t value) {
    out[0] = static_cast<std::byte>(value >> 8);
    out[1] = static_cast<std::byte>(value);
}

void putBe32(std::byte* out, std::uint32_t value) {
    for (int i = 0; i < 4; ++i) {
        out[i] = static_cast<std::byte>(value >> (24 - 8 * i));
    }
}

void putBe64(std::byte* out, std::uint64_t value) {
    for (int i = 0; i < 8; ++i) {
        out[i] = static_cast<std::byte>(value >> (56 - 8 * i));
    }
}

std::uint16_t getBe16(const std::byte* in) {
    return static_cast<std::uint16_t>((std::to_integer<unsigned>(in[0]) << 8) |
                                      std::to_integer<unsigned>(in[1]));
}

std::uint32_t getBe32(const std::byte* in) {
    std::uint32_t value = 0;
    for (int i = 0; i < 4; ++i) {
        value = (value << 8) | std::to_integer<std::uint32_t>(in[i]);
    }
    return value;
}

std::uint64_t getBe64(const std::byte* in) {
    std::uint64_t value = 0;
    for (int i = 0; i < 8; ++i) {
        value = (value << 8) | std::to_integer<std::uint64_t>(in[i]);
    }
    return value;
}

std::array<std::byte, 18> encodeServerGreeting() {
    std::array<std::byte, 18> out{};
    putBe64(out.data(), kInitMagic);
    putBe64(out.data() + 8, kOptionMagic);
    putBe16(out.data() + 16, kFlagFixedNewstyle | kFlagNoZeroes);
    return out;
}

Expected<ClientFlags> parseClientFlags(std::span<const std::byte, 4> bytes) {
    const std::uint32_t flags = getBe32(bytes.data());
    if ((flags & ~(kClientFlagFixedNewstyle | kClientFlagNoZeroes)) != 0) {
        return fail(ErrorCode::Protocol, fmt::format("unknown NBD client flags {:#x}", flags));
    }
    return ClientFlags{.fixedNewstyle = (flags & kClientFlagFixedNewstyle) != 0,
                       .noZeroes = (flags & kClientFlagNoZeroes) != 0};
}

Expected<OptionHeader> parseOptionHeader(std::span<const std::byte, kOptionHeaderSize> bytes) {
    const std::uint64_t magic = getBe64(bytes.data());
    if (magic != kOptionMagic) {
        return fail(ErrorCode::Protocol, fmt::format("bad NBD option magic {:#x}", magic));
    }
    return OptionHeader{.option = getBe32(bytes.data() + 8), .length = getBe32(bytes.data() + 12)};
}

Expected<InfoRequest> parseInfoRequest(std::span<const std::byte> data) {
    if (data.size() < 6) {
        return fail(ErrorCode::Parse,
                    fmt::format("NBD info request of {} bytes is shorter than 6", data.size()));
    }
    const std::uint32_t nameLength = getBe32(data.data());
    if (nameLength > kMaxNameLength) {
        return fail(ErrorCode::Parse, fmt::format("NBD export name of {} bytes is longer than {}",
                                                  nameLength, kMaxNameLength));
    }
    // nameLength <= 4096, so the sum cannot overflow.
    if (data.size() < std::size_t{4} + nameLength + 2) {
        return fail(ErrorCode::Parse,
                    fmt::format("NBD info request of {} bytes cannot hold a {}-byte name",
                                data.size(), nameLength));
    }
    InfoRequest request;
    request.name.assign(reinterpret_cast<const char*>(data.data() + 4), nameLength);
    const std::byte* countAt = data.data() + 4 + nameLength;
    const std::uint16_t count = getBe16(countAt);
    const std::size_t expected = std::size_t{4} + nameLength + 2 + std::size_t{2} * count;
    if (data.size() != expected) {
        return fail(ErrorCode::Parse,
                    fmt::format("NBD info request is {} bytes, its {} requests need {}",
                                data.size(), count, expected));
    }
    request.requests.reserve(count);
    for (std::uint16_t i = 0; i < count; ++i) {
        request.requests.push_back(getBe16(countAt + 2 + std::size_t{2} * i));
    }
    return request;
}

std::vector<std::byte> encodeOptionReply(std::uint32_t option, OptionReply type,
                                         std::span<const std::byte> payload) {
    std::vector<std::byte> out(20 + payload.size());
    putBe64(out.data(), kOptionReplyMagic);
    putBe32(out.data() + 8, option);
    putBe32(out.data() + 12, static_cast<std::uint32_t>(type));
    putBe32(out.data() + 16, static_cast<std::uint32_t>(payload.size()));
    std::copy(payload.begin(), payload.end(), out.begin() + 20);
    return out;
}

std::vector<std::byte> encodeOptionError(std::uint32_t option, OptionReply type,
                                         std::string_view message) {
    return encodeOptionReply(option, type, std::as_bytes(std::span(message)));
}

std::vector<std::byte> encodeInfoExport(std::uint64_t size, std::uint16_t transmissionFlags) {
    std::vector<std::byte> out(12);
    putBe16(out.data(), static_cast<std::uint16_t>(InfoType::Export));
    putBe64(out.data() + 2, size);
    putBe16(out.data() + 10, transmissionFlags);
    return out;
}

std::vector<std::byte> encodeInfoBlockSize(std::uint32_t minimum, std::uint32_t preferred,
                                           std::uint32_t maximum) {
    std::vector<std::byte> out(14);
    putBe16(out.data(), static_cast<std::uint16_t>(InfoType::BlockSize));
    putBe32(out.data() + 2, minimum);
    putBe32(out.data() + 6, preferred);
    putBe32(out.data() + 10, maximum);
    return out;
}

std::vector<std::byte> encodeServerEntry(std::string_view name) {
    std::vector<std::byte> out(4 + name.size());
    putBe32(out.data(), static_cast<std::uint32_t>(name.size()));
    const auto bytes = std::as_bytes(std::span(name));
    std::copy(bytes.begin(), bytes.end(), out.begin() + 4);
    return out;
}

std::vector<std::byte> encodeExportNameReply(std::uint64_t size, std::uint16_t transmissionFlags,
                                             bool noZeroes) {
    std::vector<std::byte> out(noZeroes ? 10 : 10 + 124);
    putBe64(out.data(), size);
    putBe16(out.data() + 8, transmissionFlags);
    return out;
}

Expected<Request> parseRequestHeader(std::span<const std::byte, kRequestHeaderSize> bytes) {
    const std::uint32_t magic = getBe32(bytes.data());
    if (magic != kRequestMagic) {
        return fail(ErrorCode::Protocol, fmt::format("bad NBD request magic {:#x}", magic));
    }
    return Request{.flags = getBe16(bytes.data() + 4),
                   .type = getBe16(bytes.data() + 6),
                   .cookie = getBe64(bytes.data() + 8),
                   .offset = getBe64(bytes.data() + 16),
                   .length = getBe32(bytes.data() + 24)};
}

std::array<std::byte, kRequestHeaderSize> encodeRequestHeader(const Request& request) {
    std::array<std::byte, kRequestHeaderSize> out{};
    putBe32(out.data(), kRequestMagic);
    putBe16(out.data() + 4, request.flags);
    putBe16(out.data() + 6, request.type);
    putBe64(out.data() + 8, request.cookie);
    putBe64(out.data() + 16, request.offset);
    putBe32(out.data() + 24, request.length);
    return out;
}

namespace {

bool rangeInside(std::uint64_t offset, std::uint64_t length, std::uint64_t size) {
    return offset <= size && length <= size - offset;
}

} // namespace

WireError validateRequest(const Request& request, const ExportLimits& limits) {
    const auto command = static_cast<Command>(request.type);
    std::uint16_t allowedFlags = 0;
    bool writes = false;
    switch (command) {
    case Command::Read:
        if (request.length > limits.maxPayload) {
            return WireError::Inval;
        }
        break;
    case Command::Write:
        allowedFlags = kCmdFlagFua;
        writes = true;
        if (request.length > limits.maxPayload) {
            return WireError::Inval;
        }
        break;
    case Command::Flush:
    case Command::Disconnect:
        // Offset and length are reserved (zero) for these; tolerate what clients send.
        return request.flags == 0 ? WireError::None : WireError::Inval;
    case Command::Trim:
        allowedFlags = kCmdFlagFua;
        writes = true;
        break;
    case Command::WriteZeroes:
        allowedFlags = kCmdFlagFua | kCmdFlagNoHole;
        writes = true;
        break;
    case Command::Cache:
    case Command::BlockStatus:
    default:
        return WireError::Inval;
    }
    if ((request.flags & ~allowedFlags) != 0) {
        return WireError::Inval;
    }
    if (writes && limits.readOnly) {
        return WireError::Perm;
    }
    if (!rangeInside(request.offset, request.length, limits.size)) {
        // The spec asks for ENOSPC on writes past the end and EINVAL on reads.
        return writes ? WireError::NoSpc : WireError::Inval;
    }
    return WireError::None;
}

std::uint32_t payloadLength(const Request& request) {
    return static_cast<Command>(request.type) == Command::Write ? request.length : 0;
}

std::array<std::byte, kSimpleReplySize> encodeSimpleReply(WireError error, std::uint64_t cookie) {
    std::array<std::byte, kSimpleReplySize> out{};
    putBe32(out.data(), kSimpleReplyMagic);
    putBe32(out.data() + 4, static_cast<std::uint32_t>(error));
    putBe64(out.data() + 8, cookie);
    return out;
}

Expected<SimpleReply> parseSimpleReply(std::span<const std::byte, kSimpleReplySize> bytes) {
    const std::uint32_t magic = getBe32(bytes.data());
    if (magic != kSimpleReplyMagic) {
        return fail(ErrorCode::Protocol, fmt::format("bad NBD reply magic {:#x}", magic));
    }
    return SimpleReply{.error = getBe32(bytes.data() + 4), .cookie = getBe64(bytes.data() + 8)};
}

WireError wireErrorFor(const Error& error) {
    switch (error.code()) {
    case ErrorCode::InvalidArgument:
        return WireError::Inval;
    case ErrorCode::NoSpace:
        return WireError::NoSpc;
    case ErrorCode::PermissionDenied:
        return WireError::Perm;
    case ErrorCode::Unsupported:
        return WireError::NotSup;
    case ErrorCode::Cancelled:
        return WireError::Shutdown;
    default:
        return WireError::Io;
    }
}

} // namespace ssdk::cachectl::nbd
