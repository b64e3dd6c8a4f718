// libFuzzer target for ssdkeeper-cached's control socket: the input is what a client sends,
// split into lines as ControlServer::serve splits it, and every line is answered by
// ControlServer::answerText with the daemon's real handler (Daemon::handleControl). Two
// daemons are fuzzed (the first byte picks one): a pass-through export, and two exports each
// behind a write-back LZ4 RAM cache engine. Their backing stores are small files in /dev/shm
// (tmpfs), so flush, mode, resize and the engine all run for real. A daemon that throws,
// crashes, or answers anything but one JSON object per line is a finding.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <unistd.h>

#include "core/base/bytes.h"
#include "core/base/json.h"
#include "core/base/log.h"
#include "daemon/control_server.h"
#include "daemon/daemon.h"

namespace {

using namespace ssdk;
using namespace ssdk::daemon;

// Sizes past these would only make the fuzzer allocate (a cache is RAM the caller asked for)
// or write large sparse files: refused here, before the daemon, with an error reply.
constexpr std::uint64_t kMaxCacheBytes = 64ULL << 20;
constexpr std::uint64_t kMaxExportBytes = 256ULL << 20;

// The scratch directory ($SSDK_FUZZ_DAEMON_DIR, else /dev/shm), removed when the fuzzer exits
// (libFuzzer ends with exit(); after a crash run-fuzzer removes it).
const std::string* g_scratch = nullptr;

std::filesystem::path scratchDirectory() {
    const char* base = std::getenv("SSDK_FUZZ_DAEMON_DIR");
    std::string pattern = std::string(base != nullptr && *base != '\0' ? base : "/dev/shm") +
                          "/ssdk-fuzz-daemon-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) {
        std::perror("mkdtemp");
        std::abort();
    }
    g_scratch = new std::string(pattern);
    std::atexit([] {
        std::error_code ignored;
        std::filesystem::remove_all(*g_scratch, ignored);
    });
    return pattern;
}

Daemon* makeDaemon(const std::filesystem::path& dir, const std::string& tag, bool cached) {
    DaemonConfig config;
    for (const char* name : {"alpha", "beta"}) {
        if (!cached && std::string_view(name) == "beta") {
            break;
        }
        const auto backing = dir / (tag + "-" + name + ".img");
        std::ofstream(backing).close();
        std::filesystem::resize_file(backing, 1 << 20);
        config.exports.push_back(ExportConfig{.name = name, .backing = backing});
    }
    config.socket = dir / (tag + ".sock");
    if (cached) {
        config.cache.cacheBytes = 1 << 20;
        config.cache.compression = true;
        config.cache.mode = cachectl::engine::WriteMode::WriteBack;
    }
    auto daemon = Daemon::create(config);
    if (!daemon) {
        std::fprintf(stderr, "fuzz_daemon_control: %s\n", daemon.error().describe().c_str());
        std::abort();
    }
    (*daemon)->start();
    return daemon->release(); // lives for the whole run
}

bool withinFuzzLimits(const Json& request) {
    if (const auto size = request.find("cache_size"); size != request.end()) {
        if (size->is_number_unsigned() && size->get<std::uint64_t>() > kMaxCacheBytes) {
            return false;
        }
        if (size->is_string()) {
            auto parsed = parseSize(size->get<std::string>());
            if (parsed && parsed->value > kMaxCacheBytes) {
                return false;
            }
        }
    }
    if (const auto size = request.find("size"); size != request.end()) {
        if (size->is_number_unsigned() && size->get<std::uint64_t>() > kMaxExportBytes) {
            return false;
        }
    }
    return true;
}

// One reply line: a JSON object with a boolean "ok", an error object when it is false.
void checkReply(const std::string& text) {
    if (text.empty() || text.back() != '\n' || text.find('\n') != text.size() - 1) {
        std::fprintf(stderr, "reply is not one line: %s\n", text.c_str());
        std::abort();
    }
    auto reply = parseJson(text, "reply");
    if (!reply || !reply->is_object() || !reply->contains("ok") || !(*reply)["ok"].is_boolean()) {
        std::fprintf(stderr, "reply is not a control reply: %s\n", text.c_str());
        std::abort();
    }
    if (!(*reply)["ok"].get<bool>()) {
        const Json& error = (*reply)["error"];
        if (!error.is_object() || !error.contains("code") || !error["code"].is_string()) {
            std::fprintf(stderr, "error reply without an error: %s\n", text.c_str());
            std::abort();
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
    log::setup("off");
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::filesystem::path dir = scratchDirectory();
    static Daemon* const passThrough = makeDaemon(dir, "plain", false);
    static Daemon* const cached = makeDaemon(dir, "cached", true);
    if (size == 0) {
        return 0;
    }
    Daemon* const daemon = (data[0] & 1) != 0 ? cached : passThrough;
    const ControlServer::Handler handler = [daemon](const Json& request) -> Json {
        if (!withinFuzzLimits(request)) {
            return Json{{"ok", false},
                        {"error", toJson(Error(ErrorCode::InvalidArgument, "fuzz limit"))}};
        }
        return daemon->handleControl(request);
    };
    // As ControlServer::serve: one answer per line that is not blank, lines up to
    // kMaxControlLine bytes (a longer one ends the connection).
    const std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
    std::size_t start = 0;
    while (start < input.size()) {
        std::size_t end = input.find('\n', start);
        if (end == std::string_view::npos) {
            end = input.size();
        }
        const std::string_view line = input.substr(start, end - start);
        start = end + 1;
        if (line.size() > kMaxControlLine) {
            break;
        }
        if (line.find_first_not_of(" \t\r") == std::string_view::npos) {
            continue;
        }
        checkReply(ControlServer::answerText(line, handler));
    }
    return 0;
}
