// The NBD server in process: handshake, every command, FUA and write-through, error replies
// for bad requests, and a broken client that does not take the server down.
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

#include "core/cachectl/nbd/server.h"

#include "nbd_test_client.h"

using namespace ssdk;
using namespace ssdk::cachectl;
using namespace ssdk::cachectl::nbd;
using ssdk::testing::NbdTestClient;

namespace {

std::vector<std::byte> pattern(std::size_t size, unsigned seed) {
    std::vector<std::byte> data(size);
    for (std::size_t i = 0; i < size; ++i) {
        data[i] = static_cast<std::byte>((i * 13 + seed) & 0xff);
    }
    return data;
}

// A MemoryBlockStore that counts calls, remembers FUA and fails reads at one offset.
class RecordingStore final : public BlockStore {
public:
    explicit RecordingStore(std::uint64_t size)
        : m_memory(size) {}
    std::uint64_t size() const override { return m_memory.size(); }
    std::uint32_t blockSize() const override { return 4096; }
    Expected<void> read(std::uint64_t offset, std::span<std::byte> out) override {
        if (offset == kFailingOffset) {
            return fail(ErrorCode::Io, "simulated media error");
        }
        return m_memory.read(offset, out);
    }
    Expected<void> write(std::uint64_t offset, std::span<const std::byte> data, bool fua) override {
        fuaWrites += fua ? 1 : 0;
        return m_memory.write(offset, data, fua);
    }
    Expected<void> flush() override {
        ++flushes;
        return {};
    }
    Expected<void> discard(std::uint64_t offset, std::uint64_t length) override {
        ++discards;
        return m_memory.discard(offset, length);
    }
    Expected<void> writeZeroes(std::uint64_t offset, std::uint64_t length, bool fua) override {
        return m_memory.writeZeroes(offset, length, fua);
    }

    static constexpr std::uint64_t kFailingOffset = 1 << 19;
    std::atomic<int> fuaWrites{0};
    std::atomic<int> flushes{0};
    std::atomic<int> discards{0};

private:
    MemoryBlockStore m_memory;
};

struct Harness {
    Harness()
        : store(std::make_shared<RecordingStore>(1 << 20))
        , exported(std::make_shared<Export>("disk", store, "pass-through"))
        , server(std::vector<std::shared_ptr<Export>>{exported},
                 ServerOptions{.maxPayload = 65536, .threadsPerConnection = 4}) {}

    // Connects a client over a socketpair served by a server thread.
    int connect() {
        int fds[2];
        REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0);
        threads.emplace_back([this, fd = fds[1]] { server.serveConnection(UniqueFd(fd)); });
        clientFds.push_back(fds[0]);
        return fds[0];
    }

    ~Harness() {
        for (const int fd : clientFds) {
            ::shutdown(fd, SHUT_RDWR);
        }
        for (auto& thread : threads) {
            thread.join();
        }
        for (const int fd : clientFds) {
            ::close(fd);
        }
    }

    std::shared_ptr<RecordingStore> store;
    std::shared_ptr<Export> exported;
    Server server;
    std::vector<std::thread> threads;
    std::vector<int> clientFds;
};

constexpr auto kOk = std::optional<std::uint32_t>(0);

} // namespace

TEST_CASE("NBD_OPT_GO gives the size and flags, then every command works") {
    Harness harness;
    NbdTestClient client(harness.connect());
    auto info = client.go("disk");
    REQUIRE(info);
    CHECK(info->first == 1 << 20);
    CHECK((info->second & (kTransHasFlags | kTransSendFlush | kTransSendFua | kTransSendTrim |
                           kTransSendWriteZeroes)) == 0x6d);
    CHECK((info->second & kTransReadOnly) == 0);

    const auto data = pattern(8192, 3);
    CHECK(client.call(Command::Write, 4096, 8192, 0, data) == kOk);
    std::vector<std::byte> back;
    CHECK(client.call(Command::Read, 4096, 8192, 0, {}, &back) == kOk);
    CHECK(back == data);

    CHECK(client.call(Command::Write, 0, 4096, kCmdFlagFua, std::span(data).first(4096)) == kOk);
    CHECK(harness.store->fuaWrites == 1);
    CHECK(client.call(Command::Flush, 0, 0) == kOk);
    CHECK(harness.store->flushes == 1);

    CHECK(client.call(Command::WriteZeroes, 4096, 4096) == kOk);
    CHECK(client.call(Command::Read, 4096, 4096, 0, {}, &back) == kOk);
    CHECK(back == std::vector<std::byte>(4096));
    CHECK(client.call(Command::Trim, 8192, 4096) == kOk);
    CHECK(harness.store->discards == 1);

    const auto& stats = harness.exported->stats();
    CHECK(stats.writeOps == 2);
    CHECK(stats.readOps == 2);
    CHECK(stats.writeBytes == 8192 + 4096);
    CHECK(stats.zeroOps == 1);
    CHECK(stats.trimOps == 1);
    CHECK(stats.connectionsActive == 1);
}

TEST_CASE("write-through mode sets FUA on every write") {
    Harness harness;
    harness.exported->setWriteMode(WriteMode::WriteThrough);
    NbdTestClient client(harness.connect());
    REQUIRE(client.go("disk"));
    const auto data = pattern(4096, 1);
    CHECK(client.call(Command::Write, 0, 4096, 0, data) == kOk);
    CHECK(client.call(Command::Write, 4096, 4096, 0, data) == kOk);
    CHECK(harness.store->fuaWrites == 2);
}

TEST_CASE("bad requests get NBD errors and the connection goes on") {
    Harness harness;
    NbdTestClient client(harness.connect());
    REQUIRE(client.go("disk"));
    // Past the end, oversized, unknown command, unsupported flag.
    CHECK(client.call(Command::Read, 1 << 20, 4096) == std::optional<std::uint32_t>(22));
    CHECK(client.call(Command::Write, (1 << 20) - 100, 4096, 0, pattern(4096, 0)) ==
          std::optional<std::uint32_t>(28));
    CHECK(client.call(Command::Read, 0, 65537) == std::optional<std::uint32_t>(22));
    // An oversized WRITE's payload is read and dropped, so framing survives it.
    CHECK(client.call(Command::Write, 0, 70000, 0, pattern(70000, 0)) ==
          std::optional<std::uint32_t>(22));
    CHECK(client.call(Command::BlockStatus, 0, 4096) == std::optional<std::uint32_t>(22));
    CHECK(client.call(Command::Read, 0, 4096, kCmdFlagNoHole) == std::optional<std::uint32_t>(22));
    // A store failure reaches the client as EIO, with no data after the reply.
    CHECK(client.call(Command::Read, RecordingStore::kFailingOffset, 4096) ==
          std::optional<std::uint32_t>(5));
    std::vector<std::byte> back;
    CHECK(client.call(Command::Read, 0, 4096, 0, {}, &back) == kOk);
    CHECK(harness.exported->stats().errorReplies == 7);
}

TEST_CASE("a request with a bad magic closes that connection only") {
    Harness harness;
    NbdTestClient broken(harness.connect());
    REQUIRE(broken.go("disk"));
    const std::array<std::byte, 28> garbage{std::byte{0xde}, std::byte{0xad}};
    REQUIRE(nbd::writeAll(broken.fd(), garbage));
    std::array<std::byte, 1> any{};
    CHECK(nbd::readFull(broken.fd(), any).value_or(1) == 0); // end of stream

    NbdTestClient healthy(harness.connect());
    REQUIRE(healthy.go("disk"));
    CHECK(healthy.call(Command::Flush, 0, 0) == kOk);
}

TEST_CASE("pipelined requests all get their replies") {
    Harness harness;
    NbdTestClient client(harness.connect());
    REQUIRE(client.go("disk"));
    const auto data = pattern(4096, 9);
    for (std::uint64_t i = 0; i < 64; ++i) {
        REQUIRE(client.send(Command::Write, i * 4096, 4096, 0, data, 1000 + i));
    }
    std::set<std::uint64_t> cookies;
    for (int i = 0; i < 64; ++i) {
        std::uint64_t cookie = 0;
        CHECK(client.receive(nullptr, 0, &cookie) == kOk);
        cookies.insert(cookie);
    }
    CHECK(cookies.size() == 64);
    CHECK(*cookies.begin() == 1000);
    CHECK(*cookies.rbegin() == 1063);
}

TEST_CASE("option haggling: LIST, INFO, unknown export, unsupported options, EXPORT_NAME") {
    Harness harness;
    NbdTestClient client(harness.connect());
    REQUIRE(client.greet());

    REQUIRE(client.sendOption(static_cast<std::uint32_t>(Option::List), {}));
    auto entry = client.readOptionReply();
    REQUIRE(entry);
    CHECK(entry->type == static_cast<std::uint32_t>(OptionReply::Server));
    CHECK(entry->payload.size() == 8);
    auto ack = client.readOptionReply();
    REQUIRE(ack);
    CHECK(ack->type == static_cast<std::uint32_t>(OptionReply::Ack));

    REQUIRE(client.sendOption(static_cast<std::uint32_t>(Option::Info),
                              NbdTestClient::infoData("nope")));
    auto unknown = client.readOptionReply();
    REQUIRE(unknown);
    CHECK(unknown->type == static_cast<std::uint32_t>(OptionReply::ErrUnknown));

    const std::vector<std::byte> malformed{std::byte{0}, std::byte{0}, std::byte{0}, std::byte{9}};
    REQUIRE(client.sendOption(static_cast<std::uint32_t>(Option::Go), malformed));
    auto invalid = client.readOptionReply();
    REQUIRE(invalid);
    CHECK(invalid->type == static_cast<std::uint32_t>(OptionReply::ErrInvalid));

    REQUIRE(client.sendOption(static_cast<std::uint32_t>(Option::StructuredReply), {}));
    auto unsupported = client.readOptionReply();
    REQUIRE(unsupported);
    CHECK(unsupported->type == static_cast<std::uint32_t>(OptionReply::ErrUnsup));

    // INFO with NAME and BLOCK_SIZE requested, then EXPORT_NAME with the empty default name.
    REQUIRE(client.sendOption(static_cast<std::uint32_t>(Option::Info),
                              NbdTestClient::infoData("", {1, 3})));
    std::vector<std::uint16_t> infoTypes;
    while (auto answer = client.readOptionReply()) {
        if (answer->type == static_cast<std::uint32_t>(OptionReply::Ack)) {
            break;
        }
        infoTypes.push_back(getBe16(answer->payload.data()));
    }
    CHECK(infoTypes == std::vector<std::uint16_t>{0, 1, 3});

    REQUIRE(client.sendOption(static_cast<std::uint32_t>(Option::ExportName), {}));
    std::array<std::byte, 10> reply{};
    REQUIRE(nbd::readExact(client.fd(), reply));
    CHECK(getBe64(reply.data()) == 1 << 20);
    CHECK(client.call(Command::Flush, 0, 0) == kOk);
}

TEST_CASE("the server listens on a Unix socket and stop() ends connections") {
    char pattern[] = "/tmp/ssdk-nbd-unit-XXXXXX";
    REQUIRE(::mkdtemp(pattern) != nullptr);
    const std::filesystem::path dir(pattern);
    {
        auto store = std::make_shared<MemoryBlockStore>(1 << 20);
        Server server({std::make_shared<Export>("disk", store, "pass-through")});
        REQUIRE(server.listenUnix(dir / "nbd.sock"));
        // A second server on the same live socket is refused.
        Server other({std::make_shared<Export>("disk", store, "pass-through")});
        server.start();
        auto busy = other.listenUnix(dir / "nbd.sock");
        REQUIRE_FALSE(busy);
        CHECK(busy.error().code() == ErrorCode::Busy);
        // TCP is loopback only.
        CHECK_FALSE(server.listenTcp("0.0.0.0", 0));

        auto fd = connectUnixSocket(dir / "nbd.sock");
        REQUIRE(fd);
        NbdTestClient client(fd->get());
        REQUIRE(client.go("disk"));
        CHECK(client.call(Command::Flush, 0, 0) == kOk);
        server.stop();
        std::array<std::byte, 1> any{};
        CHECK(nbd::readFull(fd->get(), any).value_or(1) == 0);
        CHECK_FALSE(std::filesystem::exists(dir / "nbd.sock"));
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("stop() does not hang on a client that stopped reading its replies") {
    auto store = std::make_shared<MemoryBlockStore>(1 << 20);
    Server server({std::make_shared<Export>("disk", store, "pass-through")},
                  ServerOptions{.maxPayload = 65536,
                                .threadsPerConnection = 2,
                                .stopGracePeriod = std::chrono::seconds(1)});
    int fds[2];
    REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0);
    std::thread serving([&server, fd = fds[1]] { server.serveConnection(UniqueFd(fd)); });
    NbdTestClient client(fds[0]);
    REQUIRE(client.go("disk"));
    // Far more reply data than the socket buffers hold, never read.
    for (std::uint64_t i = 0; i < 256; ++i) {
        REQUIRE(client.send(Command::Read, 0, 65536, 0, {}, i));
    }
    const auto started = std::chrono::steady_clock::now();
    server.stop();
    serving.join();
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
    ::close(fds[0]);
}
