#pragma once
// The NBD wire protocol (fixed newstyle handshake, simple replies) as pure encode/decode
// functions over bytes. Every integer on the wire is big-endian. Nothing here does I/O, so
// the parsers are unit tested and fuzzed directly.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/base/error.h"

namespace ssdk::cachectl::nbd {

// Handshake magics.
inline constexpr std::uint64_t kInitMagic = 0x4e42444d41474943ULL;   // "NBDMAGIC"
inline constexpr std::uint64_t kOptionMagic = 0x49484156454f5054ULL; // "IHAVEOPT"
inline constexpr std::uint64_t kOptionReplyMagic = 0x0003e889045565a9ULL;
// Transmission magics.
inline constexpr std::uint32_t kRequestMagic = 0x25609513U;
inline constexpr std::uint32_t kSimpleReplyMagic = 0x67446698U;

// Handshake flags (server → client, 16 bits).
inline constexpr std::uint16_t kFlagFixedNewstyle = 1U << 0;
inline constexpr std::uint16_t kFlagNoZeroes = 1U << 1;
// Client flags (client → server, 32 bits).
inline constexpr std::uint32_t kClientFlagFixedNewstyle = 1U << 0;
inline constexpr std::uint32_t kClientFlagNoZeroes = 1U << 1;

// Transmission flags (per export, 16 bits).
inline constexpr std::uint16_t kTransHasFlags = 1U << 0;
inline constexpr std::uint16_t kTransReadOnly = 1U << 1;
inline constexpr std::uint16_t kTransSendFlush = 1U << 2;
inline constexpr std::uint16_t kTransSendFua = 1U << 3;
inline constexpr std::uint16_t kTransRotational = 1U << 4;
inline constexpr std::uint16_t kTransSendTrim = 1U << 5;
inline constexpr std::uint16_t kTransSendWriteZeroes = 1U << 6;
inline constexpr std::uint16_t kTransCanMultiConn = 1U << 8;

enum class Option : std::uint32_t {
    ExportName = 1,
    Abort = 2,
    List = 3,
    StartTls = 5,
    Info = 6,
    Go = 7,
    StructuredReply = 8,
    ListMetaContext = 9,
    SetMetaContext = 10,
};

inline constexpr std::uint32_t kReplyErrorBit = 1U << 31;
enum class OptionReply : std::uint32_t {
    Ack = 1,
    Server = 2,
    Info = 3,
    ErrUnsup = kReplyErrorBit | 1,
    ErrPolicy = kReplyErrorBit | 2,
    ErrInvalid = kReplyErrorBit | 3,
    ErrPlatform = kReplyErrorBit | 4,
    ErrTlsReqd = kReplyErrorBit | 5,
    ErrUnknown = kReplyErrorBit | 6,
    ErrShutdown = kReplyErrorBit | 7,
    ErrBlockSizeReqd = kReplyErrorBit | 8,
    ErrTooBig = kReplyErrorBit | 9,
};

enum class InfoType : std::uint16_t {
    Export = 0,
    Name = 1,
    Description = 2,
    BlockSize = 3,
};

enum class Command : std::uint16_t {
    Read = 0,
    Write = 1,
    Disconnect = 2,
    Flush = 3,
    Trim = 4,
    Cache = 5,
    WriteZeroes = 6,
    BlockStatus = 7,
};

// Command flags (16 bits).
inline constexpr std::uint16_t kCmdFlagFua = 1U << 0;
inline constexpr std::uint16_t kCmdFlagNoHole = 1U << 1;

// Error values carried in simple replies (the protocol's own numbering, equal to Linux errno).
enum class WireError : std::uint32_t {
    None = 0,
    Perm = 1,
    Io = 5,
    NoMem = 12,
    Inval = 22,
    NoSpc = 28,
    Overflow = 75,
    NotSup = 95,
    Shutdown = 108,
};

inline constexpr std::size_t kOptionHeaderSize = 16;  // magic 8, option 4, length 4
inline constexpr std::size_t kRequestHeaderSize = 28; // magic 4, flags 2, type 2, cookie 8,
                                                      // offset 8, length 4
inline constexpr std::size_t kSimpleReplySize = 16;   // magic 4, error 4, cookie 8
// Export names longer than this are refused (the spec's limit is 4096 bytes).
inline constexpr std::uint32_t kMaxNameLength = 4096;

// --- Byte order helpers ----------------------------------------------------------------

void putBe16(std::byte* out, std::uint16_t value);
void putBe32(std::byte* out, std::uint32_t value);
void putBe64(std::byte* out, std::uint64_t value);
std::uint16_t getBe16(const std::byte* in);
std::uint32_t getBe32(const std::byte* in);
std::uint64_t getBe64(const std::byte* in);

// --- Handshake -----------------------------------------------------------------------------

// "NBDMAGIC" "IHAVEOPT" + handshake flags (fixed newstyle, no zeroes): 18 bytes.
std::array<std::byte, 18> encodeServerGreeting();

struct ClientFlags {
    bool fixedNewstyle = false;
    bool noZeroes = false;
};
// The client's 32-bit flags; unknown bits are a Protocol error (the spec says to disconnect).
Expected<ClientFlags> parseClientFlags(std::span<const std::byte, 4> bytes);

struct OptionHeader {
    std::uint32_t option = 0;
    std::uint32_t length = 0; // bytes of option data that follow the header
};
// A Protocol error when the magic is not IHAVEOPT.
Expected<OptionHeader> parseOptionHeader(std::span<const std::byte, kOptionHeaderSize> bytes);

// The data of NBD_OPT_INFO / NBD_OPT_GO: export name and the information types requested.
struct InfoRequest {
    std::string name;
    std::vector<std::uint16_t> requests;
};
// A Parse error when the lengths inside disagree with the data's size.
Expected<InfoRequest> parseInfoRequest(std::span<const std::byte> data);

// An option reply: magic, option, reply type, length, payload.
std::vector<std::byte> encodeOptionReply(std::uint32_t option, OptionReply type,
                                         std::span<const std::byte> payload = {});
// An error reply whose payload is a human-readable message (the spec allows UTF-8 text).
std::vector<std::byte> encodeOptionError(std::uint32_t option, OptionReply type,
                                         std::string_view message);
// NBD_REP_INFO payloads.
std::vector<std::byte> encodeInfoExport(std::uint64_t size, std::uint16_t transmissionFlags);
std::vector<std::byte> encodeInfoBlockSize(std::uint32_t minimum, std::uint32_t preferred,
                                           std::uint32_t maximum);
// NBD_REP_SERVER payload for NBD_OPT_LIST: name length + name.
std::vector<std::byte> encodeServerEntry(std::string_view name);
// The reply to NBD_OPT_EXPORT_NAME: size, transmission flags, and 124 zero bytes unless the
// client negotiated no-zeroes.
std::vector<std::byte> encodeExportNameReply(std::uint64_t size, std::uint16_t transmissionFlags,
                                             bool noZeroes);

// --- Transmission --------------------------------------------------------------------------

struct Request {
    std::uint16_t flags = 0;
    std::uint16_t type = 0; // a Command value, or an unknown number the server rejects
    std::uint64_t cookie = 0;
    std::uint64_t offset = 0;
    std::uint32_t length = 0;
};
// A Protocol error when the magic is wrong: the stream is out of step and must be closed.
Expected<Request> parseRequestHeader(std::span<const std::byte, kRequestHeaderSize> bytes);
std::array<std::byte, kRequestHeaderSize> encodeRequestHeader(const Request& request);

// What the server accepts in transmission, for validateRequest.
struct ExportLimits {
    std::uint64_t size = 0;
    std::uint32_t maxPayload = 0; // the largest READ or WRITE length served
    bool readOnly = false;
};
// None when the request may be executed; otherwise the error to reply with. Does not look at
// the payload: a WRITE's payload is on the wire whatever this says (see payloadLength).
WireError validateRequest(const Request& request, const ExportLimits& limits);
// Bytes of payload that follow this request header on the wire (the length of a WRITE).
std::uint32_t payloadLength(const Request& request);

std::array<std::byte, kSimpleReplySize> encodeSimpleReply(WireError error, std::uint64_t cookie);
struct SimpleReply {
    std::uint32_t error = 0;
    std::uint64_t cookie = 0;
};
Expected<SimpleReply> parseSimpleReply(std::span<const std::byte, kSimpleReplySize> bytes);

// A store error mapped to the reply error the client sees.
WireError wireErrorFor(const Error& error);

} // namespace ssdk::cachectl::nbd
