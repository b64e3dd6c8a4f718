// The NBD codec: byte layouts from the protocol document, round trips, and every way a
// request can be refused.
#include <catch2/catch.hpp>

#include "core/cachectl/nbd/protocol.h"

using namespace ssdk;
using namespace ssdk::cachectl::nbd;

namespace {

std::vector<std::byte> bytes(std::initializer_list<unsigned> values) {
    std::vector<std::byte> out;
    for (const unsigned value : values) {
        out.push_back(static_cast<std::byte>(value));
    }
    return out;
}

ExportLimits limits() {
    return ExportLimits{.size = 1 << 20, .maxPayload = 65536};
}

Request request(Command command, std::uint64_t offset, std::uint32_t length,
                std::uint16_t flags = 0) {
    return Request{.flags = flags,
                   .type = static_cast<std::uint16_t>(command),
                   .cookie = 9,
                   .offset = offset,
                   .length = length};
}

} // namespace

TEST_CASE("the greeting is NBDMAGIC IHAVEOPT and fixed newstyle + no zeroes") {
    const auto greeting = encodeServerGreeting();
    const std::string text(reinterpret_cast<const char*>(greeting.data()), 16);
    CHECK(text == "NBDMAGICIHAVEOPT");
    CHECK(getBe16(greeting.data() + 16) == 3);
}

TEST_CASE("client flags: known bits parse, unknown bits are a protocol error") {
    const auto both = bytes({0, 0, 0, 3});
    auto flags = parseClientFlags(std::span<const std::byte, 4>(both.data(), 4));
    REQUIRE(flags);
    CHECK(flags->fixedNewstyle);
    CHECK(flags->noZeroes);
    const auto unknown = bytes({0, 0, 1, 1});
    auto refused = parseClientFlags(std::span<const std::byte, 4>(unknown.data(), 4));
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code() == ErrorCode::Protocol);
}

TEST_CASE("option headers need the IHAVEOPT magic") {
    std::vector<std::byte> header(16);
    putBe64(header.data(), kOptionMagic);
    putBe32(header.data() + 8, 7);
    putBe32(header.data() + 12, 42);
    auto parsed = parseOptionHeader(std::span<const std::byte, 16>(header.data(), 16));
    REQUIRE(parsed);
    CHECK(parsed->option == 7);
    CHECK(parsed->length == 42);
    header[0] = std::byte{0};
    CHECK_FALSE(parseOptionHeader(std::span<const std::byte, 16>(header.data(), 16)));
}

TEST_CASE("info requests: name and requested types, lengths checked against the data") {
    // name "ab", 2 requests: NAME (1) and BLOCK_SIZE (3)
    const auto good = bytes({0, 0, 0, 2, 'a', 'b', 0, 2, 0, 1, 0, 3});
    auto parsed = parseInfoRequest(good);
    REQUIRE(parsed);
    CHECK(parsed->name == "ab");
    CHECK(parsed->requests == std::vector<std::uint16_t>{1, 3});

    CHECK_FALSE(parseInfoRequest(bytes({0, 0, 0})));                          // too short
    CHECK_FALSE(parseInfoRequest(bytes({0, 0, 0, 9, 'a', 'b', 0, 0})));       // name past end
    CHECK_FALSE(parseInfoRequest(bytes({0, 0, 0, 2, 'a', 'b', 0, 2, 0, 1}))); // count lies
    CHECK_FALSE(parseInfoRequest(bytes({0, 0, 0, 0, 0, 0, 7})));              // trailing byte
    CHECK_FALSE(parseInfoRequest(bytes({0xff, 0xff, 0xff, 0xff, 0, 0})));     // huge name
    auto empty = parseInfoRequest(bytes({0, 0, 0, 0, 0, 0}));
    REQUIRE(empty);
    CHECK(empty->name.empty());
}

TEST_CASE("option replies and info payloads have the documented layout") {
    const auto reply = encodeOptionReply(7, OptionReply::Info, encodeInfoExport(4096, 0x4d));
    REQUIRE(reply.size() == 20 + 12);
    CHECK(getBe64(reply.data()) == 0x3e889045565a9ULL);
    CHECK(getBe32(reply.data() + 8) == 7);
    CHECK(getBe32(reply.data() + 12) == 3);
    CHECK(getBe32(reply.data() + 16) == 12);
    CHECK(getBe16(reply.data() + 20) == 0);
    CHECK(getBe64(reply.data() + 22) == 4096);
    CHECK(getBe16(reply.data() + 30) == 0x4d);

    const auto blockSize = encodeInfoBlockSize(1, 4096, 1 << 25);
    CHECK(getBe16(blockSize.data()) == 3);
    CHECK(getBe32(blockSize.data() + 2) == 1);
    CHECK(getBe32(blockSize.data() + 6) == 4096);
    CHECK(getBe32(blockSize.data() + 10) == 1U << 25);

    const auto error = encodeOptionError(9, OptionReply::ErrUnsup, "no");
    CHECK(getBe32(error.data() + 12) == 0x80000001U);
    CHECK(getBe32(error.data() + 16) == 2);

    CHECK(encodeExportNameReply(1, 2, true).size() == 10);
    CHECK(encodeExportNameReply(1, 2, false).size() == 134);
    const auto entry = encodeServerEntry("disk");
    CHECK(getBe32(entry.data()) == 4);
    CHECK(entry.size() == 8);
}

TEST_CASE("request headers round trip and need the request magic") {
    const Request original{.flags = 1,
                           .type = 1,
                           .cookie = 0x1122334455667788ULL,
                           .offset = 1ULL << 40,
                           .length = 4096};
    auto header = encodeRequestHeader(original);
    CHECK(getBe32(header.data()) == 0x25609513U);
    auto parsed = parseRequestHeader(header);
    REQUIRE(parsed);
    CHECK(parsed->flags == original.flags);
    CHECK(parsed->type == original.type);
    CHECK(parsed->cookie == original.cookie);
    CHECK(parsed->offset == original.offset);
    CHECK(parsed->length == original.length);
    header[3] = std::byte{0};
    auto bad = parseRequestHeader(header);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().code() == ErrorCode::Protocol);
}

TEST_CASE("simple replies round trip") {
    auto reply = encodeSimpleReply(WireError::Inval, 77);
    CHECK(getBe32(reply.data()) == 0x67446698U);
    auto parsed = parseSimpleReply(reply);
    REQUIRE(parsed);
    CHECK(parsed->error == 22);
    CHECK(parsed->cookie == 77);
}

TEST_CASE("valid requests pass validation") {
    CHECK(validateRequest(request(Command::Read, 0, 4096), limits()) == WireError::None);
    CHECK(validateRequest(request(Command::Write, (1 << 20) - 4096, 4096, kCmdFlagFua), limits()) ==
          WireError::None);
    CHECK(validateRequest(request(Command::Flush, 0, 0), limits()) == WireError::None);
    CHECK(validateRequest(request(Command::Trim, 0, 1 << 20), limits()) == WireError::None);
    CHECK(validateRequest(request(Command::WriteZeroes, 0, 1 << 20, kCmdFlagNoHole | kCmdFlagFua),
                          limits()) == WireError::None);
    CHECK(validateRequest(request(Command::Read, 1 << 20, 0), limits()) == WireError::None);
}

TEST_CASE("malformed and oversized requests get the protocol's error") {
    // Longer than the advertised maximum payload.
    CHECK(validateRequest(request(Command::Read, 0, 65537), limits()) == WireError::Inval);
    CHECK(validateRequest(request(Command::Write, 0, 0xffffffffU), limits()) == WireError::Inval);
    // Past the end: EINVAL for reads, ENOSPC for writes.
    CHECK(validateRequest(request(Command::Read, 1 << 20, 1), limits()) == WireError::Inval);
    CHECK(validateRequest(request(Command::Write, (1 << 20) - 1, 2), limits()) == WireError::NoSpc);
    CHECK(validateRequest(request(Command::Trim, 0, (1 << 20) + 1), limits()) == WireError::NoSpc);
    // Offset + length wrapping around 2^64 must not look in range.
    CHECK(validateRequest(request(Command::Read, ~0ULL - 10, 4096), limits()) == WireError::Inval);
    CHECK(validateRequest(request(Command::WriteZeroes, ~0ULL, 1), limits()) == WireError::NoSpc);
    // Flags a command does not take, and commands not offered.
    CHECK(validateRequest(request(Command::Read, 0, 512, kCmdFlagFua), limits()) ==
          WireError::Inval);
    CHECK(validateRequest(request(Command::Write, 0, 512, 0x8000), limits()) == WireError::Inval);
    CHECK(validateRequest(request(Command::Flush, 0, 0, kCmdFlagFua), limits()) ==
          WireError::Inval);
    CHECK(validateRequest(request(Command::Cache, 0, 512), limits()) == WireError::Inval);
    CHECK(validateRequest(request(Command::BlockStatus, 0, 512), limits()) == WireError::Inval);
    Request unknown = request(Command::Read, 0, 512);
    unknown.type = 999;
    CHECK(validateRequest(unknown, limits()) == WireError::Inval);
    // Writes to a read-only export.
    ExportLimits readOnly = limits();
    readOnly.readOnly = true;
    CHECK(validateRequest(request(Command::Write, 0, 512), readOnly) == WireError::Perm);
    CHECK(validateRequest(request(Command::Read, 0, 512), readOnly) == WireError::None);
}

TEST_CASE("only WRITE carries a payload on the wire") {
    CHECK(payloadLength(request(Command::Write, 0, 4096)) == 4096);
    CHECK(payloadLength(request(Command::Read, 0, 4096)) == 0);
    CHECK(payloadLength(request(Command::WriteZeroes, 0, 4096)) == 0);
}

TEST_CASE("store errors map to NBD errors") {
    CHECK(wireErrorFor(Error(ErrorCode::InvalidArgument, "x")) == WireError::Inval);
    CHECK(wireErrorFor(Error(ErrorCode::NoSpace, "x")) == WireError::NoSpc);
    CHECK(wireErrorFor(Error(ErrorCode::Io, "x")) == WireError::Io);
    CHECK(wireErrorFor(Error(ErrorCode::Unsupported, "x")) == WireError::NotSup);
}
