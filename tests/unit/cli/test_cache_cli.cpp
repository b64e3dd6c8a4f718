// `ssdkeeperctl cache enable` against a stand-in helper (a shell script that records every
// request and answers it): what the tuning options put into the cache.enable request, and
// that bad values are usage errors found before the helper is asked anything.
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <unistd.h>

#include "tests/support/run_tool.h"
#include "tests/support/scoped_env.h"

using ssdk::Json;
using ssdk::test::runCtl;
namespace fs = std::filesystem;

namespace {

using ssdk::test::ScopedEnv;

// A helper that appends each request line to `requests` and answers cache.probe (bcache
// available) and cache.enable (a record); pkexec (used when the test is not root) runs it.
class FakeHelper {
public:
    FakeHelper() {
        m_dir = fs::temp_directory_path() / ("ssdk-cli-cache-" + std::to_string(::getpid()));
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
        write("ssdkeeper-helper", R"sh(while read -r line; do
  printf '%s\n' "$line" >> ")sh" + requestsPath().string() +
                                      R"sh("
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  verb=$(printf '%s' "$line" | sed -n 's/.*"verb":"\([a-z.]*\)".*/\1/p')
  case "$verb" in
  cache.probe) result='{"backends":[{"name":"bcache","probe":{"available":true,"reason":""}}],"ram":{"total_bytes":1073741824,"available_bytes":536870912,"suggested_bytes":268435456}}' ;;
  cache.enable) result='{"record":{"phase":"active","cache":{"backend":"bcache","cached_device":"/dev/bcache3","plan":{"origin":"/dev/sdz1","name":"ssdk-sdz1","cache_bytes":67108864,"compression":"lz4","mode":"write-back"}},"mount":null}}' ;;
  *) result='{}' ;;
  esac
  echo "{\"id\":$id,\"ok\":true,\"result\":$result}"
done
)sh");
        write("pkexec", "exec \"$1\"\n");
    }
    ~FakeHelper() {
        std::error_code ignored;
        fs::remove_all(m_dir, ignored);
    }
    FakeHelper(const FakeHelper&) = delete;
    FakeHelper& operator=(const FakeHelper&) = delete;

    const fs::path& dir() const { return m_dir; }
    fs::path requestsPath() const { return m_dir / "requests"; }
    // The args of every request with this verb, in order.
    std::vector<Json> requests(const std::string& verb) const {
        std::vector<Json> found;
        std::ifstream in(requestsPath());
        for (std::string line; std::getline(in, line);) {
            const Json request = Json::parse(line);
            if (request.value("verb", "") == verb) {
                found.push_back(request["args"]);
            }
        }
        return found;
    }
    void clear() const { fs::remove(requestsPath()); }

private:
    void write(const std::string& name, const std::string& body) const {
        const fs::path path = m_dir / name;
        std::ofstream(path) << "#!/bin/sh\n" << body;
        fs::permissions(path, fs::perms::owner_all);
    }

    fs::path m_dir;
};

} // namespace

TEST_CASE("cache enable passes --sequential-cutoff and --writeback-percent to the helper",
          "[cli][cache]") {
    const FakeHelper helper;
    const ScopedEnv helperPath("SSDK_HELPER", (helper.dir() / "ssdkeeper-helper").string());
    const char* path = std::getenv("PATH");
    const ScopedEnv searchPath("PATH",
                               helper.dir().string() + ":" + (path != nullptr ? path : "/usr/bin"));

    auto result =
        runCtl({"cache", "enable", "/dev/sdz1", "--backend", "bcache", "--size", "64M", "--mode",
                "write-back", "--sequential-cutoff", "4M", "--writeback-percent", "20"});
    INFO(result.standardOutput << result.standardError);
    REQUIRE(result.exitCode == 0);
    auto enables = helper.requests("cache.enable");
    REQUIRE(enables.size() == 1);
    CHECK(enables[0]["device"] == "/dev/sdz1");
    CHECK(enables[0]["size"] == 64ULL << 20);
    CHECK(enables[0]["sequential_cutoff"] == 4ULL << 20);
    CHECK(enables[0]["writeback_percent"] == 20);
    CHECK(result.standardOutput.find("sequential cutoff 4.00 MiB, writeback percent 20") !=
          std::string::npos);

    // 0: never bypass; sizes as --size takes them.
    helper.clear();
    result = runCtl({"cache", "enable", "/dev/sdz1", "--backend", "bcache", "--sequential-cutoff",
                     "0", "--writeback-percent", "0"});
    REQUIRE(result.exitCode == 0);
    enables = helper.requests("cache.enable");
    REQUIRE(enables.size() == 1);
    CHECK(enables[0]["sequential_cutoff"] == 0);
    CHECK(enables[0]["writeback_percent"] == 0);
    CHECK(enables[0]["size"] == 268435456); // the suggestion from cache.probe

    // Not given: left to the backend, absent from the request.
    helper.clear();
    result = runCtl({"cache", "enable", "/dev/sdz1", "--backend", "bcache"});
    REQUIRE(result.exitCode == 0);
    enables = helper.requests("cache.enable");
    REQUIRE(enables.size() == 1);
    CHECK_FALSE(enables[0].contains("sequential_cutoff"));
    CHECK_FALSE(enables[0].contains("writeback_percent"));

    // Usage errors: exit 2, and the helper is never started.
    helper.clear();
    for (const auto& bad : std::vector<std::vector<std::string>>{
             {"--writeback-percent", "101"},
             {"--writeback-percent", "-1"},
             {"--writeback-percent", "half"},
             {"--sequential-cutoff", "2G"},
             {"--sequential-cutoff", "lots"},
         }) {
        std::vector<std::string> args{"cache", "enable", "/dev/sdz1", "--backend", "bcache"};
        args.insert(args.end(), bad.begin(), bad.end());
        const auto refused = runCtl(args);
        INFO(bad[0] << " " << bad[1] << ": " << refused.standardError);
        CHECK(refused.exitCode == 2);
        CHECK(refused.standardError.find(bad[0]) != std::string::npos);
    }
    CHECK_FALSE(fs::exists(helper.requestsPath()));
}
