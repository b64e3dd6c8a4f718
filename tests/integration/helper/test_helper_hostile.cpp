// The real ssdkeeper-helper, run as root next to this test binary, fed hostile lines raw on
// its stdin (not through HelperClient, which only sends well-formed requests): each must get
// an error response in valid JSON, and the helper must go on serving the next request.
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <optional>
#include <poll.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "core/base/json.h"
#include "core/rpc/protocol.h"
#include "tests/integration/lab/lab_scratch.h"

using namespace ssdk;
using namespace ssdk::test;
namespace fs = std::filesystem;

namespace {

// One helper process on two pipes; killed and reaped when the test ends.
class RawHelper {
public:
    RawHelper() {
        const fs::path helper = fs::path(SSDK_BINARY_DIR) / "bin" / "ssdkeeper-helper";
        REQUIRE(fs::exists(helper));
        int toChild[2];
        int fromChild[2];
        REQUIRE(::pipe2(toChild, O_CLOEXEC) == 0);
        REQUIRE(::pipe2(fromChild, O_CLOEXEC) == 0);
        m_pid = ::fork();
        REQUIRE(m_pid >= 0);
        if (m_pid == 0) {
            ::dup2(toChild[0], STDIN_FILENO);
            ::dup2(fromChild[1], STDOUT_FILENO);
            ::execl(helper.c_str(), helper.c_str(), static_cast<char*>(nullptr));
            ::_exit(127);
        }
        ::close(toChild[0]);
        ::close(fromChild[1]);
        m_in = toChild[1];
        m_out = fromChild[0];
    }
    ~RawHelper() {
        ::close(m_in);
        ::close(m_out);
        ::kill(m_pid, SIGKILL);
        int status = 0;
        while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
    RawHelper(const RawHelper&) = delete;
    RawHelper& operator=(const RawHelper&) = delete;

    bool send(std::string_view bytes) {
        const auto old = std::signal(SIGPIPE, SIG_IGN);
        bool ok = true;
        while (!bytes.empty()) {
            const auto written = ::write(m_in, bytes.data(), bytes.size());
            if (written < 0 && errno == EINTR) {
                continue;
            }
            if (written <= 0) {
                ok = false;
                break;
            }
            bytes.remove_prefix(static_cast<std::size_t>(written));
        }
        std::signal(SIGPIPE, old);
        return ok;
    }

    // The next line from the helper without its '\n'; nothing when the helper closed its
    // output (it died) or said nothing for 20 seconds.
    std::optional<std::string> readLine() {
        while (true) {
            if (const auto end = m_buffer.find('\n'); end != std::string::npos) {
                std::string line = m_buffer.substr(0, end);
                m_buffer.erase(0, end + 1);
                return line;
            }
            pollfd ready{m_out, POLLIN, 0};
            if (::poll(&ready, 1, 20'000) <= 0) {
                return std::nullopt;
            }
            char chunk[4096];
            const auto got = ::read(m_out, chunk, sizeof chunk);
            if (got < 0 && errno == EINTR) {
                continue;
            }
            if (got <= 0) {
                return std::nullopt;
            }
            m_buffer.append(chunk, static_cast<std::size_t>(got));
        }
    }

    // Whether the process still runs (not exited, not killed by a signal).
    bool alive() {
        int status = 0;
        return ::waitpid(m_pid, &status, WNOHANG) == 0;
    }

private:
    pid_t m_pid = -1;
    int m_in = -1;
    int m_out = -1;
    std::string m_buffer;
};

std::string nested(std::size_t depth) {
    return R"({"id": 12, "verb": "ping", "args": {"a": )" + std::string(depth, '[') +
           std::string(depth, ']') + "}}";
}

} // namespace

TEST_CASE("hostile lines get error responses and the helper keeps serving", "[helper][hostile]") {
    const ScratchState scratch;
    struct Case {
        std::string name;
        std::string line; // sent with a '\n' after it
    };
    const std::vector<Case> cases{
        {"a lone 0xFF byte", "\xff"},
        {"0xFF inside a string argument", R"({"id": 11, "verb": "ping", "args": {"x": ")"
                                          "\xff"
                                          R"("}})"},
        {"invalid UTF-8 as the verb", "{\"id\": 13, \"verb\": \"\xc3\x28\"}"},
        {"a 100,000-deep array in ping's args", nested(100'000)},
        {"100,000 unclosed brackets", std::string(100'000, '[')},
        {"100,000 unclosed braces after an id", "{\"id\": 14, \"x\": " + std::string(100'000, '{')},
        {"a lone surrogate escape", R"({"id": 15, "verb": "ping", "args": {"x": "\ud800"}})"},
        {"NUL bytes", std::string("{\"id\": 16,\0\0\"verb\": \"ping\"}", 27)},
        {"a number too large for a double", R"({"id": 17, "verb": "ping", "args": {"n": 1e400}})"},
        {"an id too large for 64 bits", R"({"id": 18446744073709551616, "verb": "ping"})"},
        {"a line over the size limit", std::string(rpc::kMaxLineBytes + 10, 'a')},
        {"terminal escapes and a bad byte after a valid request",
         "{\"id\": 19, \"verb\": \"ping\"}\x1b]0;owned\x07\xff"},
        {"a shell command verb", R"({"id": 20, "verb": "shell.run", "args": {"cmd": "id"}})"},
        {"ping with an unknown argument", R"({"id": 21, "verb": "ping", "args": {"device": 1}})"},
    };
    RawHelper helper;
    std::uint64_t nextPing = 1000;
    for (const auto& [name, line] : cases) {
        INFO(name);
        REQUIRE(helper.send(line + "\n"));
        const auto answer = helper.readLine();
        REQUIRE(answer);
        const auto response = parseJson(*answer, "the helper's answer");
        REQUIRE(response);
        CHECK((*response)["ok"] == false);
        REQUIRE((*response)["error"].is_object());
        CHECK((*response)["error"]["message"].is_string());

        const std::uint64_t id = ++nextPing;
        REQUIRE(helper.send(rpc::encode(rpc::Request{id, "ping", Json::object()})));
        const auto pong = helper.readLine();
        REQUIRE(pong);
        const auto pongJson = parseJson(*pong, "the helper's answer");
        REQUIRE(pongJson);
        CHECK((*pongJson)["id"] == id);
        CHECK((*pongJson)["ok"] == true);
        CHECK(helper.alive());
    }
}
