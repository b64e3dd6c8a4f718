// HelperClient against small stand-in helpers (shell scripts written to a temp directory), so
// process handling is tested without root, pkexec or the real helper.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <unistd.h>

#include "core/rpc/client.h"
#include "tests/support/scoped_env.h"

using namespace ssdk;
using namespace ssdk::rpc;
namespace fs = std::filesystem;

namespace {

class ScriptDir {
public:
    ScriptDir() {
        m_dir = fs::temp_directory_path() / ("ssdk-rpc-test-" + std::to_string(::getpid()));
        fs::create_directories(m_dir);
    }
    ~ScriptDir() {
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }
    fs::path write(const std::string& name, const std::string& body) const {
        const fs::path path = m_dir / name;
        std::ofstream(path) << "#!/bin/sh\n" << body;
        fs::permissions(path, fs::perms::owner_all);
        return path;
    }
    const fs::path& dir() const { return m_dir; }

private:
    fs::path m_dir;
};

// Answers every request with one progress event and {"echo": <verb>}.
const char* const kEchoHelper = R"sh(while read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  verb=$(printf '%s' "$line" | sed -n 's/.*"verb":"\([a-z.]*\)".*/\1/p')
  echo "{\"id\":$id,\"event\":\"progress\",\"data\":{\"fraction\":0.5}}"
  echo "{\"id\":$id,\"ok\":true,\"result\":{\"echo\":\"$verb\"}}"
done
)sh";

using ssdk::test::ScopedEnv;

} // namespace

TEST_CASE("calls reach the helper, events arrive before the response", "[rpc][client]") {
    const ScriptDir scripts;
    HelperClient client({scripts.write("helper", kEchoHelper), false});
    std::vector<double> fractions;
    for (const std::string verb : {"ping", "lab.create"}) {
        auto result = client.call(verb, Json::object(), [&](const Event& event) {
            CHECK(event.name == "progress");
            fractions.push_back(event.data["fraction"].get<double>());
        });
        REQUIRE(result);
        CHECK((*result)["echo"] == verb);
    }
    CHECK(fractions == std::vector<double>{0.5, 0.5});
}

TEST_CASE("an error response keeps its code and context", "[rpc][client]") {
    const ScriptDir scripts;
    HelperClient client({scripts.write("helper", R"(read -r line
echo '{"id":1,"ok":false,"error":{"code":"busy","message":"mounted","context":["lab.destroy"]}}'
)"),
                         false});
    auto result = client.call("lab.destroy", Json::object());
    REQUIRE_FALSE(result);
    CHECK(result.error().code() == ErrorCode::Busy);
    CHECK(result.error().describe() == "lab.destroy: mounted");
}

TEST_CASE("a helper that dies mid-call gives a Protocol error with its exit status",
          "[rpc][client]") {
    const ScriptDir scripts;
    HelperClient client({scripts.write("helper", "read -r line\nexit 3\n"), false});
    auto result = client.call("ping", Json::object());
    REQUIRE_FALSE(result);
    CHECK(result.error().code() == ErrorCode::Protocol);
    CHECK_THAT(result.error().message(), Catch::Contains("exited with status 3"));
    // The next call starts a fresh helper (which dies the same way) instead of hanging.
    auto again = client.call("ping", Json::object());
    REQUIRE_FALSE(again);
    CHECK(again.error().code() == ErrorCode::Protocol);
}

TEST_CASE("a helper that exits before reading does not kill the client with SIGPIPE",
          "[rpc][client]") {
    const ScriptDir scripts;
    HelperClient client({scripts.write("helper", "exec 0<&-\nsleep 0.2\nexit 4\n"), false});
    const Json big{{"pad", std::string(1 << 18, 'x')}};
    auto result = client.call("ping", big);
    REQUIRE_FALSE(result);
    CHECK_THAT(result.error().describe(), Catch::Contains("exited with status 4"));
}

TEST_CASE("a helper answering another id is a Protocol error", "[rpc][client]") {
    const ScriptDir scripts;
    HelperClient client(
        {scripts.write("helper", "read -r line\necho '{\"id\":99,\"ok\":true}'\nsleep 1\n"),
         false});
    auto result = client.call("ping", Json::object());
    REQUIRE_FALSE(result);
    CHECK(result.error().code() == ErrorCode::Protocol);
    CHECK_THAT(result.error().message(), Catch::Contains("99"));
}

TEST_CASE("a missing helper is NotFound and says where it looked", "[rpc][client]") {
    HelperClient client({"/nonexistent/ssdkeeper-helper", false});
    auto result = client.call("ping", Json::object());
    REQUIRE_FALSE(result);
    CHECK(result.error().code() == ErrorCode::NotFound);
    CHECK_THAT(result.error().message(), Catch::Contains("/nonexistent/ssdkeeper-helper"));
}

TEST_CASE("pkexec refusing or missing gives PermissionDenied or ToolMissing", "[rpc][client]") {
    const ScriptDir scripts;
    const fs::path helper = scripts.write("helper", kEchoHelper);
    SECTION("dismissed (126) and not authorized (127)") {
        for (const int code : {126, 127}) {
            scripts.write("pkexec", "exit " + std::to_string(code) + "\n");
            const ScopedEnv path("PATH", scripts.dir().string());
            HelperClient client({helper, true});
            auto result = client.call("ping", Json::object());
            REQUIRE_FALSE(result);
            CHECK(result.error().code() == ErrorCode::PermissionDenied);
            CHECK_THAT(result.error().message(),
                       Catch::Contains("authorization was refused or cancelled"));
        }
    }
    SECTION("pkexec passes the helper's absolute path") {
        scripts.write("pkexec", "exec \"$1\"\n");
        const ScopedEnv path("PATH", scripts.dir().string() + ":/usr/bin:/bin");
        HelperClient client({helper, true});
        auto result = client.call("ping", Json::object());
        REQUIRE(result);
        CHECK((*result)["echo"] == "ping");
    }
    SECTION("the argv is exactly pkexec and the helper's absolute path, found on PATH") {
        const fs::path record = scripts.dir() / "argv";
        scripts.write("pkexec", "printf '%s\\n' \"$0\" \"$#\" \"$@\" > '" + record.string() +
                                    "'\nexec \"$1\"\n");
        const ScopedEnv path("PATH", scripts.dir().string() + ":/usr/bin:/bin");
        const fs::path cwd = fs::current_path();
        fs::current_path(scripts.dir());
        HelperClient client({"helper", true}); // relative: pkexec needs it absolute
        auto result = client.call("ping", Json::object());
        fs::current_path(cwd);
        REQUIRE(result);
        std::ifstream in(record);
        std::string argv0, count, argv1;
        std::getline(in, argv0);
        std::getline(in, count);
        std::getline(in, argv1);
        CHECK(argv0 == (scripts.dir() / "pkexec").string());
        CHECK(count == "1");
        CHECK(argv1 == helper.string());
    }
    SECTION("not installed") {
        const ScopedEnv path("PATH", (scripts.dir() / "empty").string());
        HelperClient client({helper, true});
        auto result = client.call("ping", Json::object());
        REQUIRE_FALSE(result);
        CHECK(result.error().code() == ErrorCode::ToolMissing);
    }
}

TEST_CASE("locateHelper honours SSDK_HELPER, then looks next to the executable", "[rpc][client]") {
    {
        const ScopedEnv helper("SSDK_HELPER", "/opt/x/ssdkeeper-helper");
        CHECK(locateHelper().helperPath == "/opt/x/ssdkeeper-helper");
    }
    const ScopedEnv unset("SSDK_HELPER", "");
    const auto location = locateHelper();
    CHECK(location.usePkexec == (::geteuid() != 0));
    // Test binaries live in build/<dir>/bin next to the helper, once it is built.
    const fs::path sibling = fs::read_symlink("/proc/self/exe").parent_path() / "ssdkeeper-helper";
    if (fs::exists(sibling)) {
        CHECK(location.helperPath == sibling);
    } else {
        CHECK(location.helperPath.is_absolute());
    }
}

TEST_CASE("cancel sends the helper a cancel message for the running call", "[rpc][client]") {
    const ScriptDir scripts;
    // Emits one event, then waits for the next line: a cancel of request 1 ends the call.
    HelperClient client({scripts.write("helper", R"(read -r line
echo '{"id":1,"event":"progress","data":{"fraction":0.1}}'
read -r next
case "$next" in
  *'"cancel":true'*'"id":1'*|*'"id":1'*'"cancel":true'*)
    echo '{"id":1,"ok":false,"error":{"code":"cancelled","message":"stopped","context":[]}}' ;;
  *) echo '{"id":1,"ok":true,"result":{}}' ;;
esac
)"),
                         false});
    client.cancel(); // no call running: nothing is sent
    auto result = client.call("perf.bench", Json::object(), [&](const Event&) { client.cancel(); });
    REQUIRE_FALSE(result);
    CHECK(result.error().code() == ErrorCode::Cancelled);
}
