// ssdkeeper-cached started as users start it, driven by libnbd and its tools.
#include <catch2/catch.hpp>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <libnbd.h>
#include <random>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/base/json.h"
#include "core/base/system_process_runner.h"
#include "core/cachectl/nbd/protocol.h"
#include "core/cachectl/nbd/socket_io.h"
#include "tests/support/child_process.h"

using namespace ssdk;
namespace nbd = ssdk::cachectl::nbd;

namespace {

const std::string kDaemon = std::string(SSDK_BINARY_DIR) + "/bin/ssdkeeper-cached";

struct RunningDaemon {
    explicit RunningDaemon(std::uint64_t size = 16 << 20, std::vector<std::string> extra = {}) {
        char pattern[] = "/tmp/ssdk-daemon-it-XXXXXX";
        REQUIRE(::mkdtemp(pattern) != nullptr);
        dir = pattern;
        backing = dir / "disk.img";
        std::ofstream(backing).close();
        std::filesystem::resize_file(backing, size);
        socket = dir / "nbd.sock";
        control = dir / "control.sock";
        std::vector<std::string> argv{kDaemon,          "--export",      "disk=" + backing.string(),
                                      "--socket",       socket.string(), "--control",
                                      control.string(), "--log-level",   "warn"};
        argv.insert(argv.end(), extra.begin(), extra.end());
        auto child = ssdk::testing::ChildProcess::spawn(argv, (dir / "daemon.log").string());
        REQUIRE(child);
        process = std::move(*child);
        REQUIRE(process.waitForLine("ready", std::chrono::seconds(10)));
    }
    ~RunningDaemon() {
        process.kill();
        std::filesystem::remove_all(dir);
    }

    std::string uri() const { return "nbd+unix:///disk?socket=" + socket.string(); }

    Json controlRequest(const Json& request) const {
        auto fd = nbd::connectUnixSocket(control);
        REQUIRE(fd);
        const std::string line = request.dump() + "\n";
        REQUIRE(nbd::writeAll(fd->get(), std::as_bytes(std::span(line))));
        std::string answer;
        char c = 0;
        while (::read(fd->get(), &c, 1) == 1 && c != '\n') {
            answer.push_back(c);
        }
        return Json::parse(answer);
    }

    bool alive() const { return ::kill(process.pid(), 0) == 0; }

    std::filesystem::path dir;
    std::filesystem::path backing;
    std::filesystem::path socket;
    std::filesystem::path control;
    ssdk::testing::ChildProcess process;
};

// A connected libnbd handle, closed at scope exit.
struct Client {
    explicit Client(const std::string& uri)
        : handle(nbd_create()) {
        REQUIRE(handle != nullptr);
        INFO(nbd_get_error());
        REQUIRE(nbd_connect_uri(handle, uri.c_str()) == 0);
    }
    ~Client() { nbd_close(handle); }
    nbd_handle* handle;
};

std::vector<std::uint8_t> randomBytes(std::size_t size, unsigned seed) {
    std::mt19937 random(seed);
    std::vector<std::uint8_t> data(size);
    for (auto& byte : data) {
        byte = static_cast<std::uint8_t>(random());
    }
    return data;
}

} // namespace

TEST_CASE("libnbd negotiates and runs every command against the daemon") {
    std::signal(SIGPIPE, SIG_IGN);
    RunningDaemon daemon;
    Client client(daemon.uri());
    nbd_handle* h = client.handle;
    CHECK(nbd_get_size(h) == 16 << 20);
    CHECK(nbd_can_flush(h) == 1);
    CHECK(nbd_can_fua(h) == 1);
    CHECK(nbd_can_trim(h) == 1);
    CHECK(nbd_can_zero(h) == 1);
    CHECK(nbd_can_multi_conn(h) == 1);
    CHECK(nbd_is_read_only(h) == 0);
    CHECK(nbd_get_block_size(h, LIBNBD_SIZE_PREFERRED) == 4096);

    const auto data = randomBytes(1 << 20, 1);
    REQUIRE(nbd_pwrite(h, data.data(), data.size(), 3 << 20, 0) == 0);
    REQUIRE(nbd_pwrite(h, data.data(), 4096, 0, LIBNBD_CMD_FLAG_FUA) == 0);
    REQUIRE(nbd_flush(h, 0) == 0);
    std::vector<std::uint8_t> back(data.size());
    REQUIRE(nbd_pread(h, back.data(), back.size(), 3 << 20, 0) == 0);
    CHECK(back == data);

    REQUIRE(nbd_zero(h, 65536, 3 << 20, 0) == 0);
    REQUIRE(nbd_pread(h, back.data(), 65536, 3 << 20, 0) == 0);
    CHECK(std::all_of(back.begin(), back.begin() + 65536, [](std::uint8_t b) { return b == 0; }));
    REQUIRE(nbd_trim(h, 1 << 20, 8 << 20, 0) == 0);

    // 32 requests in flight at once.
    std::vector<std::int64_t> cookies;
    for (std::uint64_t i = 0; i < 32; ++i) {
        cookies.push_back(nbd_aio_pread(h, back.data() + i * 4096, 4096,
                                        (3 << 20) + 65536 + i * 4096, nbd_completion_callback{},
                                        0));
        REQUIRE(cookies.back() > 0);
    }
    while (nbd_aio_in_flight(h) > 0) {
        REQUIRE(nbd_poll(h, 5000) >= 0);
    }
    for (const auto cookie : cookies) {
        CHECK(nbd_aio_command_completed(h, static_cast<std::uint64_t>(cookie)) == 1);
    }
    CHECK(std::equal(back.begin(), back.begin() + 32 * 4096, data.begin() + 65536));

    // Past the end: libnbd's own check or the server's error, never data.
    CHECK(nbd_pread(h, back.data(), 4096, 16 << 20, 0) == -1);

    const auto stats = daemon.controlRequest(Json{{"cmd", "stats"}});
    REQUIRE(stats["ok"] == true);
    CHECK(stats["exports"][0]["write_ops"].get<int>() >= 2);
    CHECK(stats["exports"][0]["flush_ops"].get<int>() >= 1);
    CHECK(stats["exports"][0]["connections_active"] == 1);
}

TEST_CASE("nbdinfo and nbdcopy work against the daemon, over Unix and loopback TCP") {
    RunningDaemon daemon(16 << 20, {"--tcp", "127.0.0.1:0"});
    SystemProcessRunner runner;
    auto info = runChecked(runner, ProcessRequest{.argv = {"nbdinfo", "--json", daemon.uri()}});
    REQUIRE(info);
    auto json = parseJson(info->standardOutput, "nbdinfo");
    REQUIRE(json);
    CHECK((*json)["protocol"] == "newstyle-fixed");
    CHECK((*json)["exports"][0]["export-size"] == 16 << 20);

    const auto source = daemon.dir / "source.bin";
    const auto copy = daemon.dir / "copy.bin";
    const auto data = randomBytes(4 << 20, 7);
    std::ofstream(source, std::ios::binary)
        .write(reinterpret_cast<const char*>(data.data()),
               static_cast<std::streamsize>(data.size()));
    REQUIRE(runChecked(
        runner, ProcessRequest{.argv = {"nbdcopy", "--flush", source.string(), daemon.uri()}}));
    const auto status = daemon.controlRequest(Json{{"cmd", "status"}});
    const std::string tcp = status["daemon"]["tcp"];
    REQUIRE(runChecked(
        runner, ProcessRequest{.argv = {"nbdcopy", "nbd://" + tcp + "/disk", copy.string()}}));
    std::ifstream in(copy, std::ios::binary);
    std::vector<std::uint8_t> back(data.size());
    in.read(reinterpret_cast<char*>(back.data()), static_cast<std::streamsize>(back.size()));
    CHECK(back == data);
}

TEST_CASE("malformed NBD input gets NBD errors or a closed connection, the daemon lives on") {
    std::signal(SIGPIPE, SIG_IGN);
    RunningDaemon daemon;
    {
        // Garbage instead of the client flags and options.
        auto fd = nbd::connectUnixSocket(daemon.socket);
        REQUIRE(fd);
        const std::string garbage(100, '\xff');
        (void)nbd::writeAll(fd->get(), std::as_bytes(std::span(garbage)));
        std::array<std::byte, 256> sink{};
        while (nbd::readFull(fd->get(), sink).value_or(0) == sink.size()) {
        }
    }
    {
        // A valid handshake, then oversized and out-of-range requests, then a bad magic.
        auto fd = nbd::connectUnixSocket(daemon.socket);
        REQUIRE(fd);
        std::array<std::byte, 18> greeting{};
        REQUIRE(nbd::readExact(fd->get(), greeting));
        std::vector<std::byte> hello(4 + 16 + 10);
        nbd::putBe32(hello.data(), nbd::kClientFlagFixedNewstyle | nbd::kClientFlagNoZeroes);
        nbd::putBe64(hello.data() + 4, nbd::kOptionMagic);
        nbd::putBe32(hello.data() + 12, static_cast<std::uint32_t>(nbd::Option::Go));
        nbd::putBe32(hello.data() + 16, 10);
        nbd::putBe32(hello.data() + 20, 4);
        std::memcpy(hello.data() + 24, "disk", 4);
        REQUIRE(nbd::writeAll(fd->get(), hello));
        while (true) {
            std::array<std::byte, 20> header{};
            REQUIRE(nbd::readExact(fd->get(), header));
            std::vector<std::byte> payload(nbd::getBe32(header.data() + 16));
            REQUIRE(nbd::readExact(fd->get(), payload));
            if (nbd::getBe32(header.data() + 12) == 1) { // ACK
                break;
            }
        }
        const auto ask = [&](nbd::Command command, std::uint64_t offset, std::uint32_t length) {
            const auto request =
                nbd::encodeRequestHeader(nbd::Request{.type = static_cast<std::uint16_t>(command),
                                                      .cookie = 5,
                                                      .offset = offset,
                                                      .length = length});
            REQUIRE(nbd::writeAll(fd->get(), request));
            std::array<std::byte, 16> reply{};
            REQUIRE(nbd::readExact(fd->get(), reply));
            return nbd::parseSimpleReply(reply)->error;
        };
        CHECK(ask(nbd::Command::Read, 0, 0xffffffffU) == 22);    // oversized
        CHECK(ask(nbd::Command::Read, ~0ULL - 100, 4096) == 22); // wraps around
        CHECK(ask(nbd::Command::Trim, 16 << 20, 4096) == 28);    // past the end
        CHECK(ask(nbd::Command::BlockStatus, 0, 4096) == 22);    // not offered
        const std::array<std::byte, 28> badMagic{};
        REQUIRE(nbd::writeAll(fd->get(), badMagic));
        std::array<std::byte, 1> any{};
        CHECK(nbd::readFull(fd->get(), any).value_or(1) == 0);
    }
    CHECK(daemon.alive());
    Client client(daemon.uri());
    const auto data = randomBytes(4096, 3);
    CHECK(nbd_pwrite(client.handle, data.data(), data.size(), 0, 0) == 0);
    const auto stats = daemon.controlRequest(Json{{"cmd", "stats"}});
    CHECK(stats["exports"][0]["error_replies"] == 4);
}

TEST_CASE("SIGTERM flushes, removes the sockets and exits 0") {
    RunningDaemon daemon;
    {
        Client client(daemon.uri());
        const auto data = randomBytes(65536, 5);
        REQUIRE(nbd_pwrite(client.handle, data.data(), data.size(), 1 << 20, 0) == 0);
        daemon.process.signal(SIGTERM);
        CHECK(daemon.process.wait() == 0);
        std::ifstream in(daemon.backing, std::ios::binary);
        in.seekg(1 << 20);
        std::vector<std::uint8_t> back(data.size());
        in.read(reinterpret_cast<char*>(back.data()), static_cast<std::streamsize>(back.size()));
        CHECK(back == data);
    }
    CHECK_FALSE(std::filesystem::exists(daemon.socket));
    CHECK_FALSE(std::filesystem::exists(daemon.control));
}

TEST_CASE("the daemon refuses bad command lines and a socket already served") {
    RunningDaemon daemon;
    SystemProcessRunner runner;
    auto second =
        runner.run(ProcessRequest{.argv = {kDaemon, "--export", "x=" + daemon.backing.string(),
                                           "--socket", daemon.socket.string()}});
    REQUIRE(second);
    CHECK(second->exitCode == 1);
    CHECK(second->standardError.find("another server is listening") != std::string::npos);
    auto missing =
        runner.run(ProcessRequest{.argv = {kDaemon, "--export", "x=/nonexistent/disk.img",
                                           "--socket", (daemon.dir / "other.sock").string()}});
    REQUIRE(missing);
    CHECK(missing->exitCode == 1);
    auto remote = runner.run(
        ProcessRequest{.argv = {kDaemon, "--export", "x=" + daemon.backing.string(), "--socket",
                                (daemon.dir / "other.sock").string(), "--tcp", "0.0.0.0:10809"}});
    REQUIRE(remote);
    CHECK(remote->exitCode == 1);
    CHECK(remote->standardError.find("loopback") != std::string::npos);
    auto cutoff = runner.run(ProcessRequest{
        .argv = {kDaemon, "--export", "x=" + daemon.backing.string(), "--socket",
                 (daemon.dir / "other.sock").string(), "--sequential-cutoff", "lots"}});
    REQUIRE(cutoff);
    CHECK(cutoff->exitCode == 2);
    CHECK(cutoff->standardError.find("--sequential-cutoff") != std::string::npos);
}

namespace {

std::vector<std::uint8_t> fileBytes(const std::filesystem::path& path, std::uint64_t offset,
                                    std::size_t length) {
    std::ifstream file(path, std::ios::binary);
    file.seekg(static_cast<std::streamoff>(offset));
    std::vector<std::uint8_t> bytes(length);
    file.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(length));
    return bytes;
}

} // namespace

TEST_CASE("with a write-back LZ4 cache, data reads back, stats move, mode and flush work") {
    std::signal(SIGPIPE, SIG_IGN);
    RunningDaemon daemon(16 << 20,
                         {"--cache-size", "4M", "--mode", "write-back", "--compression", "lz4",
                          "--dirty-high", "0.6", "--dirty-low", "0.3", "--sequential-cutoff", "0"});
    const auto status = daemon.controlRequest(Json{{"cmd", "status"}});
    CHECK(status["exports"][0]["cache_mode"] == "write-back");
    CHECK(status["exports"][0]["cache_bytes"] == 4 << 20);
    Client client(daemon.uri());
    nbd_handle* h = client.handle;
    // 6 MiB in 64 KiB writes at scattered places: more than the cache holds, so write-back
    // and eviction both run while the data must stay exact.
    const auto data = randomBytes(6 << 20, 7);
    for (std::uint64_t chunk = 0; chunk < 96; ++chunk) {
        const std::uint64_t at = ((chunk * 37) % 96) * 65536;
        REQUIRE(nbd_pwrite(h, data.data() + at, 65536, (8 << 20) + at, 0) == 0);
    }
    std::vector<std::uint8_t> back(data.size());
    for (std::uint64_t at = 0; at < data.size(); at += 65536) {
        REQUIRE(nbd_pread(h, back.data() + at, 65536, (8 << 20) + at, 0) == 0);
    }
    CHECK(back == data);
    // A small hot region read twice: the second pass hits.
    std::vector<std::uint8_t> hot(65536);
    REQUIRE(nbd_pread(h, hot.data(), hot.size(), 0, 0) == 0);
    REQUIRE(nbd_pread(h, hot.data(), hot.size(), 0, 0) == 0);

    auto cache = daemon.controlRequest(Json{{"cmd", "stats"}})["exports"][0]["cache"];
    REQUIRE(cache.is_object());
    CHECK(cache["sequential_cutoff"] == 0);
    CHECK(cache["bypassed"] == 0); // cutoff 0: even the sequential read-back is cached
    CHECK(cache["writes"] == 1536);
    CHECK(cache["hits"].get<std::uint64_t>() >= 16);
    CHECK(cache["misses"].get<std::uint64_t>() >= 16);
    CHECK(cache["cached_blocks"].get<std::uint64_t>() > 0);
    // Dirty blocks the clock evicted stay (detached) until written back, within the capacity.
    CHECK(cache["cached_blocks"].get<std::uint64_t>() <=
          cache["capacity_blocks"].get<std::uint64_t>());
    // Random data does not compress: stored raw.
    CHECK(cache["compression_ratio"].get<double>() < 1.1);

    REQUIRE(daemon.controlRequest(Json{{"cmd", "flush"}})["ok"] == true);
    CHECK(fileBytes(daemon.backing, 8 << 20, data.size()) == data);
    cache = daemon.controlRequest(Json{{"cmd", "stats"}})["exports"][0]["cache"];
    CHECK(cache["dirty_bytes"] == 0);
    CHECK(cache["writeback_blocks"].get<std::uint64_t>() > 0);
    // Coalesced: fewer device writes than blocks written back.
    CHECK(cache["writeback_ops"].get<std::uint64_t>() <
          cache["writeback_blocks"].get<std::uint64_t>());

    // Dirty data, then the switch to write-through puts it on the device before replying.
    const auto more = randomBytes(65536, 8);
    REQUIRE(nbd_pwrite(h, more.data(), more.size(), 1 << 20, 0) == 0);
    const auto mode = daemon.controlRequest(Json{{"cmd", "mode"}, {"mode", "write-through"}});
    REQUIRE(mode["ok"] == true);
    CHECK(mode["previous_mode"] == "write-back");
    CHECK(fileBytes(daemon.backing, 1 << 20, more.size()) == more);
    const auto resized = daemon.controlRequest(Json{{"cmd", "resize"}, {"cache_size", "8M"}});
    REQUIRE(resized["ok"] == true);
    CHECK(daemon.controlRequest(Json{{"cmd", "stats"}})["exports"][0]["cache"]["capacity_bytes"] ==
          8 << 20);
    REQUIRE(nbd_pread(h, back.data(), more.size(), 1 << 20, 0) == 0);
    CHECK(std::equal(more.begin(), more.end(), back.begin()));

    // Back to write-back: SIGTERM writes the dirty blocks back before the daemon exits.
    REQUIRE(daemon.controlRequest(Json{{"cmd", "mode"}, {"mode", "write-back"}})["ok"] == true);
    const auto last = randomBytes(32768, 9);
    REQUIRE(nbd_pwrite(h, last.data(), last.size(), 12 << 20, 0) == 0);
    daemon.process.signal(SIGTERM);
    CHECK(daemon.process.wait() == 0);
    CHECK(fileBytes(daemon.backing, 12 << 20, last.size()) == last);
}

namespace {

std::string fileText(const std::filesystem::path& path) {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Connects to socket as another user (effective uid 65534, what SO_PEERCRED reports; file
// system uid 0, so the socket's 0600 mode and its 0700 directory do not stop it first),
// sends `send` and reports how many bytes came back before the daemon closed the
// connection: 0 when it refused the peer. -1 when the child failed to connect.
int bytesAnsweredToNobody(const std::filesystem::path& socket, const std::string& send) {
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        if (::syscall(SYS_setresuid, -1, 65534, -1) != 0) {
            ::_exit(255);
        }
        ::syscall(SYS_setfsuid, 0);
        auto fd = nbd::connectUnixSocket(socket);
        if (!fd) {
            ::_exit(255);
        }
        (void)::send(fd->get(), send.data(), send.size(), MSG_NOSIGNAL);
        timeval timeout{5, 0};
        ::setsockopt(fd->get(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
        char buffer[256];
        const ssize_t n = ::read(fd->get(), buffer, sizeof(buffer));
        if (n < 0 && errno == ECONNRESET) {
            ::_exit(0); // closed with what it sent unread
        }
        ::_exit(n < 0 ? 254 : static_cast<int>(std::min<ssize_t>(n, 200)));
    }
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    REQUIRE(WIFEXITED(status));
    const int code = WEXITSTATUS(status);
    INFO("child exit " << code);
    REQUIRE(code != 254); // no answer and no close within 5 s
    return code == 255 ? -1 : code;
}

} // namespace

TEST_CASE("with umask 000 every socket the daemon makes is private") {
    const mode_t previous = ::umask(0);
    RunningDaemon daemon;
    ::umask(previous);
    for (const auto& socket : {daemon.socket, daemon.control}) {
        struct stat info {};
        REQUIRE(::lstat(socket.c_str(), &info) == 0);
        INFO(socket << " mode " << std::oct << (info.st_mode & 07777));
        CHECK(S_ISSOCK(info.st_mode));
        CHECK((info.st_mode & 07777) == 0600);
    }
    // A socket directory others may enter or write to is refused with the reason.
    const auto open = daemon.dir / "open";
    std::filesystem::create_directory(open);
    ::chmod(open.c_str(), 0777);
    SystemProcessRunner runner;
    auto shared =
        runner.run(ProcessRequest{.argv = {kDaemon, "--export", "x=" + daemon.backing.string(),
                                           "--socket", (open / "nbd.sock").string()}});
    REQUIRE(shared);
    CHECK(shared->exitCode == 1);
    CHECK_THAT(shared->standardError, Catch::Contains("writable by group or others"));
    CHECK_FALSE(std::filesystem::exists(open / "nbd.sock"));
}

TEST_CASE("only root and the daemon's own user are answered on its sockets (SO_PEERCRED)") {
    std::signal(SIGPIPE, SIG_IGN);
    RunningDaemon daemon;
    // Root (the helper, nbd-client) is answered; uid 65534 is cut off unanswered.
    CHECK(daemon.controlRequest(Json{{"cmd", "status"}})["ok"] == true);
    CHECK(bytesAnsweredToNobody(daemon.control, "{\"cmd\":\"status\"}\n") == 0);
    // The NBD server greets with NBDMAGIC before the client says anything.
    CHECK(bytesAnsweredToNobody(daemon.socket, "") == 0);
    CHECK(daemon.alive());
    CHECK(daemon.controlRequest(Json{{"cmd", "status"}})["ok"] == true);
    Client client(daemon.uri());
    CHECK(nbd_get_size(client.handle) == 16 << 20);
    const std::string log = fileText(daemon.dir / "daemon.log");
    CHECK_THAT(log, Catch::Contains("refusing a control connection: a process of uid 65534"));
    CHECK_THAT(log, Catch::Contains("refusing an NBD connection: a process of uid 65534"));
}

TEST_CASE("a root daemon serves no file of another user and follows no link to its export") {
    RunningDaemon daemon;
    SystemProcessRunner runner;
    const auto foreign = daemon.dir / "foreign.img";
    std::ofstream(foreign).close();
    std::filesystem::resize_file(foreign, 1 << 20);
    REQUIRE(::chown(foreign.c_str(), 65534, 65534) == 0);
    auto refused =
        runner.run(ProcessRequest{.argv = {kDaemon, "--export", "x=" + foreign.string(), "--socket",
                                           (daemon.dir / "other.sock").string()}});
    REQUIRE(refused);
    CHECK(refused->exitCode == 1);
    CHECK_THAT(refused->standardError, Catch::Contains("belongs to uid 65534"));

    const auto link = daemon.dir / "link.img";
    std::filesystem::create_symlink(daemon.backing, link);
    auto linked =
        runner.run(ProcessRequest{.argv = {kDaemon, "--export", "x=" + link.string(), "--socket",
                                           (daemon.dir / "other.sock").string()}});
    REQUIRE(linked);
    CHECK(linked->exitCode == 1);
    CHECK_THAT(linked->standardError, Catch::Contains("symbolic link"));
}
