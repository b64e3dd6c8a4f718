// ssdkeeper-cached's logic without the process: command-line values, control requests
// (status, stats, flush, mode, resize) against a daemon over a temporary file.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/unique_fd.h"
#include "core/cachectl/nbd/socket_io.h"
#include "daemon/control_server.h"
#include "daemon/daemon.h"
#include "tests/support/temp_dir.h"

#include "nbd_test_client.h"

using namespace ssdk;
using namespace ssdk::daemon;
using ssdk::test::TempDir;

namespace {

DaemonConfig configIn(const TempDir& dir, std::uint64_t size = 1 << 20) {
    const auto backing = dir.path / "disk.img";
    std::ofstream(backing).close();
    std::filesystem::resize_file(backing, size);
    DaemonConfig config;
    config.exports.push_back(ExportConfig{.name = "disk", .backing = backing});
    config.socket = dir.path / "nbd.sock";
    config.control = dir.path / "control.sock";
    return config;
}

} // namespace

TEST_CASE("export specs: NAME=PATH, PATH alone, and bad names") {
    auto named = parseExportSpec("cache0=/dev/loop3");
    REQUIRE(named);
    CHECK(named->name == "cache0");
    CHECK(named->backing == "/dev/loop3");
    auto bare = parseExportSpec("/var/lib/disk.img");
    REQUIRE(bare);
    CHECK(bare->name == "disk.img");
    CHECK_FALSE(parseExportSpec("bad name=/x"));
    CHECK_FALSE(parseExportSpec("=/x"));
    CHECK_FALSE(parseExportSpec("name="));
}

TEST_CASE("TCP addresses") {
    auto v4 = parseTcpAddress("127.0.0.1:10809");
    REQUIRE(v4);
    CHECK(v4->host == "127.0.0.1");
    CHECK(v4->port == 10809);
    auto v6 = parseTcpAddress("[::1]:0");
    REQUIRE(v6);
    CHECK(v6->host == "::1");
    CHECK(v6->port == 0);
    CHECK_FALSE(parseTcpAddress("127.0.0.1"));
    CHECK_FALSE(parseTcpAddress("127.0.0.1:70000"));
    CHECK_FALSE(parseTcpAddress("127.0.0.1:12x"));
}

TEST_CASE("a configuration needs exports with unique names and a socket") {
    DaemonConfig config;
    CHECK_FALSE(validate(config));
    config.exports = {ExportConfig{"a", "/x"}, ExportConfig{"a", "/y"}};
    config.socket = "/tmp/s";
    CHECK_FALSE(validate(config));
    config.exports[1].name = "b";
    CHECK(validate(config));
}

TEST_CASE("a missing backing file is a clear error") {
    const TempDir dir("ssdk-daemon-unit");
    auto config = configIn(dir);
    config.exports[0].backing = dir.path / "absent.img";
    auto daemon = Daemon::create(config);
    REQUIRE_FALSE(daemon);
    CHECK(daemon.error().describe().find("absent.img") != std::string::npos);
}

TEST_CASE("an empty backing file is refused, with or without a cache") {
    const TempDir dir("ssdk-daemon-unit");
    auto config = configIn(dir, 0);
    auto daemon = Daemon::create(config);
    REQUIRE_FALSE(daemon);
    CHECK(daemon.error().describe().find("is empty") != std::string::npos);
    config.cache.cacheBytes = 16 << 20;
    CHECK_FALSE(Daemon::create(config));
    CHECK_FALSE(std::filesystem::exists(config.socket));
}

TEST_CASE("control: status and stats describe the exports") {
    const TempDir dir("ssdk-daemon-unit");
    auto daemon = Daemon::create(configIn(dir));
    REQUIRE(daemon);
    auto status = (*daemon)->handleControl(Json{{"cmd", "status"}});
    CHECK(status["ok"] == true);
    REQUIRE(status["exports"].size() == 1);
    CHECK(status["exports"][0]["name"] == "disk");
    CHECK(status["exports"][0]["size"] == 1 << 20);
    CHECK(status["exports"][0]["cache_mode"] == "pass-through");
    CHECK(status["exports"][0]["write_mode"] == "write-back");
    CHECK(status["exports"][0]["backing_kind"] == "file");
    auto stats = (*daemon)->handleControl(Json{{"cmd", "stats"}});
    CHECK(stats["ok"] == true);
    CHECK(stats["exports"][0]["read_ops"] == 0);
}

TEST_CASE("control: flush, mode and their errors") {
    const TempDir dir("ssdk-daemon-unit");
    auto daemon = Daemon::create(configIn(dir));
    REQUIRE(daemon);
    auto flushed = (*daemon)->handleControl(Json{{"cmd", "flush"}});
    CHECK(flushed["ok"] == true);
    CHECK(flushed["flushed"] == Json::array({"disk"}));
    auto unknownExport = (*daemon)->handleControl(Json{{"cmd", "flush"}, {"export", "x"}});
    CHECK(unknownExport["ok"] == false);
    CHECK(unknownExport["error"]["code"] == "not-found");

    auto mode = (*daemon)->handleControl(
        Json{{"cmd", "mode"}, {"export", "disk"}, {"write_mode", "write-through"}});
    CHECK(mode["ok"] == true);
    CHECK(mode["previous"] == "write-back");
    CHECK((*daemon)->handleControl(Json{{"cmd", "status"}})["exports"][0]["write_mode"] ==
          "write-through");
    auto badMode = (*daemon)->handleControl(Json{{"cmd", "mode"}, {"write_mode", "fast"}});
    CHECK(badMode["ok"] == false);
    CHECK(badMode["error"]["code"] == "invalid-argument");

    CHECK((*daemon)->handleControl(Json{{"cmd", "reboot"}})["ok"] == false);
    CHECK((*daemon)->handleControl(Json{{"nothing", 1}})["ok"] == false);
}

TEST_CASE("control: resize grows the file, shrinking needs allow_shrink") {
    const TempDir dir("ssdk-daemon-unit");
    auto config = configIn(dir);
    auto daemon = Daemon::create(config);
    REQUIRE(daemon);
    auto grown = (*daemon)->handleControl(Json{{"cmd", "resize"}, {"size", 2 << 20}});
    CHECK(grown["ok"] == true);
    CHECK(grown["previous_size"] == 1 << 20);
    CHECK(std::filesystem::file_size(config.exports[0].backing) == 2 << 20);
    CHECK((*daemon)->handleControl(Json{{"cmd", "status"}})["exports"][0]["size"] == 2 << 20);

    auto refused = (*daemon)->handleControl(Json{{"cmd", "resize"}, {"size", 1 << 20}});
    CHECK(refused["ok"] == false);
    CHECK(std::filesystem::file_size(config.exports[0].backing) == 2 << 20);
    auto unaligned = (*daemon)->handleControl(Json{{"cmd", "resize"}, {"size", 5000}});
    CHECK(unaligned["ok"] == false);
    auto negative = (*daemon)->handleControl(Json{{"cmd", "resize"}, {"size", -4096}});
    CHECK(negative["ok"] == false);
    auto shrunk = (*daemon)->handleControl(
        Json{{"cmd", "resize"}, {"size", 1 << 20}, {"allow_shrink", true}});
    CHECK(shrunk["ok"] == true);
    CHECK(std::filesystem::file_size(config.exports[0].backing) == 1 << 20);
}

TEST_CASE("the control socket answers JSON lines, bad lines included") {
    const TempDir dir("ssdk-daemon-unit");
    auto config = configIn(dir);
    auto daemon = Daemon::create(config);
    REQUIRE(daemon);
    (*daemon)->start();
    auto fd = cachectl::nbd::connectUnixSocket(*config.control);
    REQUIRE(fd);
    const std::string requests = "{\"cmd\":\"status\"}\nnot json\n[1]\n{\"cmd\":\"flush\"}\n";
    REQUIRE(cachectl::nbd::writeAll(fd->get(), std::as_bytes(std::span(requests))));
    std::string answers;
    while (std::count(answers.begin(), answers.end(), '\n') < 4) {
        char buffer[4096];
        const ssize_t n = ::read(fd->get(), buffer, sizeof(buffer));
        REQUIRE(n > 0);
        answers.append(buffer, static_cast<std::size_t>(n));
    }
    std::vector<Json> replies;
    std::size_t start = 0;
    for (std::size_t end = answers.find('\n'); end != std::string::npos;
         start = end + 1, end = answers.find('\n', start)) {
        replies.push_back(Json::parse(answers.substr(start, end - start)));
    }
    REQUIRE(replies.size() == 4);
    CHECK(replies[0]["ok"] == true);
    CHECK(replies[1]["error"]["code"] == "parse");
    CHECK(replies[2]["error"]["code"] == "invalid-argument");
    CHECK(replies[3]["ok"] == true);
    REQUIRE((*daemon)->shutdown());
    CHECK_FALSE(std::filesystem::exists(*config.control));
    CHECK_FALSE(std::filesystem::exists(config.socket));
}

TEST_CASE("shutdown flushes data written over NBD into the backing file") {
    const TempDir dir("ssdk-daemon-unit");
    auto config = configIn(dir);
    auto daemon = Daemon::create(config);
    REQUIRE(daemon);
    (*daemon)->start();
    auto fd = cachectl::nbd::connectUnixSocket(config.socket);
    REQUIRE(fd);
    ssdk::testing::NbdTestClient client(fd->get());
    REQUIRE(client.go("disk"));
    std::vector<std::byte> data(4096, std::byte{0x5a});
    REQUIRE(client.call(cachectl::nbd::Command::Write, 8192, 4096, 0, data) ==
            std::optional<std::uint32_t>(0));
    REQUIRE((*daemon)->shutdown());
    std::ifstream file(config.exports[0].backing, std::ios::binary);
    file.seekg(8192);
    std::vector<char> back(4096);
    file.read(back.data(), 4096);
    CHECK(std::all_of(back.begin(), back.end(), [](char c) { return c == 0x5a; }));
}

namespace {

std::vector<std::byte> fileRange(const std::filesystem::path& path, std::uint64_t offset,
                                 std::size_t length) {
    std::ifstream file(path, std::ios::binary);
    file.seekg(static_cast<std::streamoff>(offset));
    std::vector<std::byte> bytes(length);
    file.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(length));
    return bytes;
}

} // namespace

TEST_CASE("with --cache-size the export serves a write-back cache: data, stats, mode, flush") {
    const TempDir dir("ssdk-daemon-unit");
    auto config = configIn(dir, 4 << 20);
    config.cache.cacheBytes = 1 << 20;
    config.cache.mode = cachectl::engine::WriteMode::WriteBack;
    config.cache.compression = true;
    config.cache.sequentialCutoff = 64 << 10; // --sequential-cutoff 64K
    auto daemon = Daemon::create(config);
    REQUIRE(daemon);
    (*daemon)->start();
    auto status = (*daemon)->handleControl(Json{{"cmd", "status"}});
    CHECK(status["exports"][0]["cache_mode"] == "write-back");
    CHECK(status["exports"][0]["cache_bytes"] == 1 << 20);

    auto fd = cachectl::nbd::connectUnixSocket(config.socket);
    REQUIRE(fd);
    ssdk::testing::NbdTestClient client(fd->get());
    REQUIRE(client.go("disk"));
    std::vector<std::byte> data(16384);
    const std::string_view text = "cached block contents, quite repetitive; ";
    for (std::size_t i = 0; i < data.size(); ++i) {
        data[i] = static_cast<std::byte>(text[i % text.size()]);
    }
    REQUIRE(client.call(cachectl::nbd::Command::Write, 65536, 16384, 0, data) ==
            std::optional<std::uint32_t>(0));
    std::vector<std::byte> back;
    REQUIRE(client.call(cachectl::nbd::Command::Read, 65536, 16384, 0, {}, &back) ==
            std::optional<std::uint32_t>(0));
    CHECK(back == data);

    auto stats = (*daemon)->handleControl(Json{{"cmd", "stats"}});
    REQUIRE(stats["ok"] == true);
    const Json cache = stats["exports"][0]["cache"];
    REQUIRE(cache.is_object());
    CHECK(cache["mode"] == "write-back");
    CHECK(cache["compression"] == "lz4");
    CHECK(cache["sequential_cutoff"] == 64 << 10);
    CHECK(cache["capacity_bytes"] == 1 << 20);
    CHECK(cache["writes"] == 4);
    CHECK(cache["hits"] == 4);
    CHECK(cache["lock_free_hits"] == 0); // compressed blocks are read under the shard's lock
    CHECK(cache["cached_blocks"] == 4);
    CHECK(cache["logical_bytes"] == 4 * 4096);
    CHECK(cache["compression_ratio"].get<double>() > 1.5);
    CHECK(cache["metadata_bytes"].get<std::uint64_t>() > 0);
    CHECK(cache["huge_page_bytes"] == 0); // blocks that compress: frames on 4 KiB pages
    CHECK(cache["ram_used_bytes"].get<std::uint64_t>() ==
          cache["physical_bytes"].get<std::uint64_t>() +
              cache["metadata_bytes"].get<std::uint64_t>());
    // Absorbed in RAM (the writer wakes once a second, so it may already be on its way).
    CHECK(cache["dirty_bytes"].get<std::uint64_t>() <= 4 * 4096);

    auto flushed = (*daemon)->handleControl(Json{{"cmd", "flush"}});
    REQUIRE(flushed["ok"] == true);
    CHECK(fileRange(config.exports[0].backing, 65536, 16384) == data);
    auto afterFlush = (*daemon)->handleControl(Json{{"cmd", "stats"}})["exports"][0]["cache"];
    CHECK(afterFlush["dirty_bytes"] == 0);
    CHECK(afterFlush["writeback_blocks"] == 4);
    CHECK(afterFlush["writeback_ops"].get<std::uint64_t>() >= 1);

    // Dirty again, then switching to write-through writes it back before replying.
    std::vector<std::byte> second(4096, std::byte{0x3c});
    REQUIRE(client.call(cachectl::nbd::Command::Write, 0, 4096, 0, second) ==
            std::optional<std::uint32_t>(0));
    auto mode = (*daemon)->handleControl(Json{{"cmd", "mode"}, {"mode", "write-through"}});
    REQUIRE(mode["ok"] == true);
    CHECK(mode["previous_mode"] == "write-back");
    CHECK(fileRange(config.exports[0].backing, 0, 4096) == second);
    CHECK((*daemon)->handleControl(Json{{"cmd", "stats"}})["exports"][0]["cache"]["mode"] ==
          "write-through");
    CHECK((*daemon)->handleControl(Json{{"cmd", "status"}})["exports"][0]["cache_mode"] ==
          "write-through");
    // In write-through a write is on the device when it is acknowledged.
    std::vector<std::byte> third(4096, std::byte{0x71});
    REQUIRE(client.call(cachectl::nbd::Command::Write, 8192, 4096, 0, third) ==
            std::optional<std::uint32_t>(0));
    CHECK(fileRange(config.exports[0].backing, 8192, 4096) == third);
    CHECK((*daemon)->handleControl(Json{{"cmd", "mode"}, {"mode", "sideways"}})["ok"] == false);

    // The cache's RAM changes at run time; the data stays readable.
    auto resized = (*daemon)->handleControl(Json{{"cmd", "resize"}, {"cache_size", "512K"}});
    REQUIRE(resized["ok"] == true);
    CHECK(resized["previous_cache_size"] == 1 << 20);
    CHECK(resized["cache_size"] == 512 << 10);
    auto shrunk = (*daemon)->handleControl(Json{{"cmd", "stats"}})["exports"][0]["cache"];
    CHECK(shrunk["capacity_bytes"] == 512 << 10);
    CHECK(shrunk["sequential_cutoff"] == 64 << 10);
    CHECK(shrunk["capacity_blocks"].get<std::uint64_t>() <
          afterFlush["capacity_blocks"].get<std::uint64_t>());
    REQUIRE(client.call(cachectl::nbd::Command::Read, 65536, 16384, 0, {}, &back) ==
            std::optional<std::uint32_t>(0));
    CHECK(back == data);
    CHECK((*daemon)->handleControl(Json{{"cmd", "resize"}, {"cache_size", 0}})["ok"] == false);
    REQUIRE((*daemon)->shutdown());
}

TEST_CASE("a pass-through export has no cache to switch or resize") {
    const TempDir dir("ssdk-daemon-unit");
    auto daemon = Daemon::create(configIn(dir));
    REQUIRE(daemon);
    CHECK((*daemon)->handleControl(Json{{"cmd", "stats"}})["exports"][0]["cache"].is_null());
    auto mode = (*daemon)->handleControl(Json{{"cmd", "mode"}, {"mode", "write-back"}});
    CHECK(mode["ok"] == false);
    CHECK(mode["error"]["code"] == "unsupported");
    auto resize = (*daemon)->handleControl(Json{{"cmd", "resize"}, {"cache_size", 1 << 20}});
    CHECK(resize["ok"] == false);
    CHECK(resize["error"]["code"] == "unsupported");
}

TEST_CASE("cache options are validated") {
    const TempDir dir("ssdk-daemon-unit");
    auto config = configIn(dir);
    config.cache.dirtyLow = 0.6;
    CHECK_FALSE(validate(config));
    CHECK(cacheModeFromString("write-back") == cachectl::engine::WriteMode::WriteBack);
    CHECK_FALSE(cacheModeFromString("fast"));
    config.cache.dirtyLow = 0.25;
    config.cache.cacheBytes = 100; // holds no block
    CHECK_FALSE(Daemon::create(config));
}

namespace {

// The replies to everything sent on one control connection, one per line sent.
std::vector<std::string> controlExchange(const std::filesystem::path& socket,
                                         const std::string& lines, std::size_t expected) {
    auto fd = cachectl::nbd::connectUnixSocket(socket);
    REQUIRE(fd);
    REQUIRE(cachectl::nbd::writeAll(fd->get(), std::as_bytes(std::span(lines))));
    std::string answers;
    while (static_cast<std::size_t>(std::count(answers.begin(), answers.end(), '\n')) < expected) {
        char buffer[4096];
        const ssize_t n = ::read(fd->get(), buffer, sizeof(buffer));
        REQUIRE(n > 0);
        answers.append(buffer, static_cast<std::size_t>(n));
    }
    std::vector<std::string> replies;
    std::size_t start = 0;
    for (std::size_t end = answers.find('\n'); end != std::string::npos;
         start = end + 1, end = answers.find('\n', start)) {
        replies.push_back(answers.substr(start, end - start));
    }
    return replies;
}

// Thread stacks mapped in this process: each has a 4 KiB inaccessible guard page below it
// (glibc), kept until the thread is joined (and for a few cached stacks after).
std::size_t stackGuardPages() {
    std::ifstream maps("/proc/self/maps");
    std::string line;
    std::size_t guards = 0;
    while (std::getline(maps, line)) {
        unsigned long long begin = 0;
        unsigned long long end = 0;
        char perms[5] = {};
        if (std::sscanf(line.c_str(), "%llx-%llx %4s", &begin, &end, perms) == 3 &&
            std::string_view(perms) == "---p" && end - begin == 4096) {
            ++guards;
        }
    }
    return guards;
}

} // namespace

TEST_CASE("control: a value of the wrong type or a throwing handler gets an error reply") {
    const TempDir dir("ssdk-daemon-unit");
    auto config = configIn(dir);
    auto daemon = Daemon::create(config);
    REQUIRE(daemon);
    const ControlServer::Handler handler = [&](const Json& request) {
        return (*daemon)->handleControl(request);
    };
    // A string where a bool belongs threw nlohmann's type_error out of the daemon.
    Json reply;
    REQUIRE_NOTHROW(reply = ControlServer::answerLine(
                        R"({"cmd":"resize","size":8192,"allow_shrink":"yes"})", handler));
    CHECK(reply["ok"] == false);
    CHECK(reply["error"]["code"] == "invalid-argument");
    CHECK_THAT(reply["error"]["message"].get<std::string>(), Catch::Contains("allow_shrink"));
    CHECK(std::filesystem::file_size(config.exports[0].backing) == 1 << 20);

    const ControlServer::Handler thrower = [](const Json&) -> Json {
        throw std::runtime_error("boom");
    };
    REQUIRE_NOTHROW(reply = ControlServer::answerLine(R"({"cmd":"status"})", thrower));
    CHECK(reply["ok"] == false);
    CHECK(reply["error"]["code"] == "internal");
    CHECK_THAT(reply["error"]["message"].get<std::string>(), Catch::Contains("boom"));

    // Parsing 100 000 nested arrays overflowed the stack.
    REQUIRE_NOTHROW(reply = ControlServer::answerLine(
                        std::string(100000, '[') + std::string(100000, ']'), handler));
    CHECK(reply["error"]["code"] == "parse");
    // More than the machine's RAM is refused before the engine is asked.
    auto cached = configIn(dir);
    cached.socket = dir.path / "cached.sock";
    cached.control.reset();
    cached.cache.cacheBytes = 1 << 20;
    auto withCache = Daemon::create(cached);
    REQUIRE(withCache);
    auto huge = (*withCache)->handleControl(Json{{"cmd", "resize"}, {"cache_size", 1ULL << 62}});
    CHECK(huge["ok"] == false);
    CHECK_THAT(huge["error"]["message"].get<std::string>(), Catch::Contains("RAM"));
}

TEST_CASE("the control socket survives bytes that are not UTF-8 and deep nesting") {
    const TempDir dir("ssdk-daemon-unit");
    auto config = configIn(dir);
    auto daemon = Daemon::create(config);
    REQUIRE(daemon);
    (*daemon)->start();
    // The parse error quoted the 0xFF byte, and dumping the reply threw in the serving thread:
    // std::terminate, and a write-back cache's dirty blocks were gone.
    const std::string lines = std::string("{\"cmd\":\"status\"\xff}\n") + std::string(60000, '[') +
                              "\n" + "{\"cmd\":\"\xff\"}\n" + R"({"cmd":"flush","export":"di)" +
                              "\xfe" + "sk\"}\n" + "{\"cmd\":\"status\"}\n";
    const auto replies = controlExchange(*config.control, lines, 5);
    REQUIRE(replies.size() == 5);
    std::vector<Json> parsed;
    for (const auto& line : replies) {
        auto json = parseJson(line, "reply");
        REQUIRE(json);
        parsed.push_back(*json);
    }
    CHECK(parsed[0]["error"]["code"] == "parse");
    CHECK(parsed[1]["error"]["code"] == "parse");
    CHECK(parsed[2]["error"]["code"] == "parse");
    CHECK(parsed[3]["error"]["code"] == "parse");
    CHECK(parsed[4]["ok"] == true);
    REQUIRE((*daemon)->shutdown());
}

TEST_CASE("control connections that ended give their threads back") {
    const TempDir dir("ssdk-daemon-unit");
    auto config = configIn(dir);
    auto daemon = Daemon::create(config);
    REQUIRE(daemon);
    (*daemon)->start();
    REQUIRE(controlExchange(*config.control, "{\"cmd\":\"status\"}\n", 1).size() == 1);
    const std::size_t before = stackGuardPages();
    // Each connection had a thread that was joined only at shutdown, keeping its 8 MiB stack:
    // a client polling once a second exhausted the daemon within days.
    for (int i = 0; i < 64; ++i) {
        REQUIRE(controlExchange(*config.control, "{\"cmd\":\"status\"}\n", 1).size() == 1);
    }
    const std::size_t after = stackGuardPages();
    INFO("thread stacks " << before << " -> " << after);
    CHECK(after < before + 16);
    REQUIRE((*daemon)->shutdown());
}

TEST_CASE("exports are opened without following links: block devices and own files only") {
    const TempDir dir("ssdk-daemon-unit");
    auto config = configIn(dir);
    const auto disk = config.exports[0].backing;

    config.exports[0].backing = dir.path / "link.img";
    std::filesystem::create_symlink(disk, config.exports[0].backing);
    auto linked = Daemon::create(config);
    REQUIRE_FALSE(linked);
    CHECK(linked.error().code() == ErrorCode::PermissionDenied);
    CHECK_THAT(linked.error().describe(), Catch::Contains("symbolic link"));
    CHECK_FALSE(std::filesystem::exists(config.socket));

    // A hard link could name a file of root's in a directory its owner can write.
    config.exports[0].backing = disk;
    std::filesystem::create_hard_link(disk, dir.path / "second.img");
    auto hardLinked = Daemon::create(config);
    REQUIRE_FALSE(hardLinked);
    CHECK_THAT(hardLinked.error().describe(), Catch::Contains("2 hard links"));
    std::filesystem::remove(dir.path / "second.img");

    config.exports[0].backing = "/dev/null";
    auto character = Daemon::create(config);
    REQUIRE_FALSE(character);
    CHECK_THAT(character.error().describe(),
               Catch::Contains("neither a block device nor a regular file"));

    config.exports[0].backing = disk;
    auto daemon = Daemon::create(config);
    REQUIRE(daemon);
    CHECK((*daemon)->handleControl(Json{{"cmd", "status"}})["exports"][0]["backing_kind"] ==
          "file");
}

TEST_CASE("resize works on the file the export opened, not on what its path names now") {
    const TempDir dir("ssdk-daemon-unit");
    auto config = configIn(dir);
    const auto disk = config.exports[0].backing;
    auto daemon = Daemon::create(config);
    REQUIRE(daemon);
    const auto victim = dir.path / "victim.img";
    std::ofstream(victim).close();
    std::filesystem::resize_file(victim, 1 << 20);

    // The path became a link to another file: truncate(2) followed it.
    std::filesystem::rename(disk, dir.path / "moved.img");
    std::filesystem::create_symlink(victim, disk);
    auto viaLink = (*daemon)->handleControl(Json{{"cmd", "resize"}, {"size", 2 << 20}});
    CHECK(viaLink["ok"] == false);
    CHECK(std::filesystem::file_size(victim) == 1 << 20);

    // Another regular file in its place: not the export's file, left alone.
    std::filesystem::remove(disk);
    std::filesystem::copy_file(victim, disk);
    auto swapped = (*daemon)->handleControl(Json{{"cmd", "resize"}, {"size", 2 << 20}});
    CHECK(swapped["ok"] == false);
    CHECK(swapped["error"]["code"] == "busy");
    CHECK(std::filesystem::file_size(disk) == 1 << 20);

    // Back in place, the resize goes through.
    std::filesystem::remove(disk);
    std::filesystem::rename(dir.path / "moved.img", disk);
    auto grown = (*daemon)->handleControl(Json{{"cmd", "resize"}, {"size", 2 << 20}});
    CHECK(grown["ok"] == true);
    CHECK(std::filesystem::file_size(disk) == 2 << 20);
}

TEST_CASE("sockets are made private whatever the umask, and only in a private directory") {
    const TempDir dir("ssdk-daemon-unit");
    auto config = configIn(dir);
    const mode_t previous = ::umask(0);
    auto daemon = Daemon::create(config);
    ::umask(previous);
    REQUIRE(daemon);
    for (const auto& socket : {config.socket, *config.control}) {
        struct stat info {};
        REQUIRE(::lstat(socket.c_str(), &info) == 0);
        INFO(socket << " mode " << std::oct << (info.st_mode & 07777));
        CHECK(S_ISSOCK(info.st_mode));
        CHECK((info.st_mode & 07777) == 0600);
    }
    REQUIRE((*daemon)->shutdown());

    // A directory others can enter or write to, or a link to a private one, is refused.
    const auto open = dir.path / "open";
    std::filesystem::create_directory(open);
    ::chmod(open.c_str(), 0755);
    config.socket = open / "nbd.sock";
    auto shared = Daemon::create(config);
    REQUIRE_FALSE(shared);
    CHECK(shared.error().code() == ErrorCode::PermissionDenied);
    CHECK_THAT(shared.error().describe(), Catch::Contains("group or others have access"));
    CHECK_FALSE(std::filesystem::exists(config.socket));

    const auto link = dir.path / "link";
    const auto inner = dir.path / "private";
    std::filesystem::create_directory(inner);
    ::chmod(inner.c_str(), 0700);
    std::filesystem::create_directory_symlink(inner, link);
    config.socket = link / "nbd.sock";
    auto linked = Daemon::create(config);
    REQUIRE_FALSE(linked);
    CHECK_THAT(linked.error().describe(), Catch::Contains("symbolic link"));

    config.socket = dir.path / "nbd.sock";
    config.control = open / "control.sock";
    auto control = Daemon::create(config);
    REQUIRE_FALSE(control);
    CHECK_THAT(control.error().describe(), Catch::Contains("control.sock"));
}

TEST_CASE("socket peers: root and the daemon's own user only") {
    CHECK(cachectl::nbd::peerUidAllowed(0, 1000));
    CHECK(cachectl::nbd::peerUidAllowed(1000, 1000));
    CHECK_FALSE(cachectl::nbd::peerUidAllowed(1001, 1000));
    CHECK(cachectl::nbd::peerUidAllowed(0, 0));
    CHECK_FALSE(cachectl::nbd::peerUidAllowed(65534, 0));
    // A connection of this very process passes; a TCP one is left to the caller.
    const TempDir dir("ssdk-daemon-unit");
    auto listener = cachectl::nbd::listenUnixSocket(dir.path / "peer.sock");
    REQUIRE(listener);
    auto client = cachectl::nbd::connectUnixSocket(dir.path / "peer.sock");
    REQUIRE(client);
    UniqueFd accepted(::accept4(listener->get(), nullptr, nullptr, SOCK_CLOEXEC));
    REQUIRE(accepted.valid());
    CHECK(cachectl::nbd::checkUnixPeer(accepted.get()));
    CHECK(cachectl::nbd::checkUnixPeer(client->get()));
}
