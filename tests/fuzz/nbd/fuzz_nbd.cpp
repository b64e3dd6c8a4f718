// Fuzz target for the NBD server: the pure parsers on the raw input, then a real server
// connection (socketpair) fed the input as everything a client sends — either from the first
// byte of the handshake, or after a valid handshake so the bytes hit the request parser.
// The server must answer with NBD replies or close the connection, and never crash or hang.

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "core/base/log.h"
#include "core/cachectl/nbd/protocol.h"
#include "core/cachectl/nbd/server.h"
#include "core/cachectl/nbd/socket_io.h"

namespace {

using namespace ssdk::cachectl;
using namespace ssdk::cachectl::nbd;

void fuzzParsers(std::span<const std::byte> input) {
    (void)parseInfoRequest(input);
    if (input.size() >= kRequestHeaderSize) {
        auto request = parseRequestHeader(input.first<kRequestHeaderSize>());
        if (request) {
            const ExportLimits limits{.size = 1 << 20, .maxPayload = 65536};
            const WireError error = validateRequest(*request, limits);
            if (error == WireError::None && static_cast<Command>(request->type) != Command::Flush &&
                static_cast<Command>(request->type) != Command::Disconnect &&
                (request->offset > limits.size ||
                 request->length > limits.size - request->offset)) {
                std::abort(); // validation let an out-of-range request through
            }
        }
    }
    if (input.size() >= kOptionHeaderSize) {
        (void)parseOptionHeader(input.first<kOptionHeaderSize>());
    }
    if (input.size() >= 4) {
        (void)parseClientFlags(input.first<4>());
    }
}

// The client bytes of a valid handshake: flags, then NBD_OPT_GO for the default export.
std::vector<std::byte> validHandshake() {
    std::vector<std::byte> out(4 + 16 + 6);
    putBe32(out.data(), kClientFlagFixedNewstyle | kClientFlagNoZeroes);
    putBe64(out.data() + 4, kOptionMagic);
    putBe32(out.data() + 12, static_cast<std::uint32_t>(Option::Go));
    putBe32(out.data() + 16, 6); // empty name, no info requests
    return out;
}

void fuzzConnection(std::span<const std::byte> input, bool afterHandshake) {
    static Server server(
        {std::make_shared<Export>("", std::make_shared<MemoryBlockStore>(1 << 20), "memory")},
        ServerOptions{.maxPayload = 65536, .threadsPerConnection = 2});
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
        std::abort();
    }
    std::thread serving([fd = fds[1]] { server.serveConnection(ssdk::UniqueFd(fd)); });
    // Replies are drained concurrently so the server never blocks on a full socket.
    std::thread draining([fd = fds[0]] {
        std::array<std::byte, 65536> sink{};
        while (true) {
            auto got = readFull(fd, sink);
            if (!got || *got < sink.size()) {
                return;
            }
        }
    });
    if (afterHandshake) {
        (void)writeAll(fds[0], validHandshake());
    }
    (void)writeAll(fds[0], input);
    ::shutdown(fds[0], SHUT_WR);
    serving.join();
    draining.join();
    ::close(fds[0]);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const bool quiet = [] {
        ssdk::log::setup("off");
        return true;
    }();
    (void)quiet;
    const auto input = std::as_bytes(std::span(data, size));
    fuzzParsers(input);
    if (input.empty()) {
        return 0;
    }
    // The first byte picks where the stream starts; the rest is what the client sends.
    fuzzConnection(input.subspan(1), (std::to_integer<unsigned>(input[0]) & 1) != 0);
    return 0;
}
