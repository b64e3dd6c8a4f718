// cache.* verbs: the probe reports each backend's exact reason, bad arguments are refused
// before anything changes, and only journaled caches can be operated.
#include <catch2/catch.hpp>
#include <fstream>
#include <tuple>
#include <unistd.h>

#include "core/base/replay_process_runner.h"
#include "core/cachectl/backend_fake.h"
#include "helper/cache_verbs.h"
#include "tests/support/allow_all.h"

using namespace ssdk;
using namespace ssdk::helper;
namespace fs = std::filesystem;

namespace {

Json call(HelperService& service, const std::string& verb, const Json& args) {
    static std::uint64_t id = 1;
    auto response =
        parseJson(service.handleLine(rpc::encode(rpc::Request{id++, verb, args})), "response");
    REQUIRE(response);
    return *response;
}

} // namespace

TEST_CASE("cache verbs probe, refuse bad arguments and act only on journaled caches",
          "[helper][cache]") {
    const fs::path state =
        fs::temp_directory_path() / ("ssdk-cacheverbs-" + std::to_string(::getpid()));
    fs::remove_all(state);
    cachectl::BackendRegistry registry;
    registry.add(std::make_unique<cachectl::FakeBackend>(
        "zram-writecache",
        cachectl::ProbeResult{false, {"kernel module dm_mod is not available on kernel 6.1"}},
        cachectl::Capabilities{}));
    ReplayProcessRunner runner;
    cachectl::HostEnv env;
    env.runner = &runner;
    cachectl::CacheManager manager(registry, env, state);
    test::AllowAll authorizer;
    HelperService service(authorizer);
    addCacheVerbs(service, manager);

    const Json probe = call(service, "cache.probe", Json::object());
    REQUIRE(probe["ok"] == true);
    const auto& backend = probe["result"]["backends"][0];
    CHECK(backend["name"] == "zram-writecache");
    CHECK(backend["probe"]["available"] == false);
    CHECK(backend["probe"]["reason"] == "kernel module dm_mod is not available on kernel 6.1");
    CHECK(probe["result"]["ram"]["total_bytes"].get<std::uint64_t>() > 0);
    CHECK(probe["result"]["ram"]["suggested_bytes"].get<std::uint64_t>() <= 4ULL << 30);

    CHECK(call(service, "cache.status", Json::object())["result"]["caches"].empty());

    struct Case {
        std::string verb;
        Json args;
        std::string code;
        std::string mentions;
    };
    const std::vector<Case> cases{
        {"cache.probe", Json{{"x", 1}}, "invalid-argument", "'x'"},
        {"cache.enable", Json{{"device", "/dev/null"}, {"backend", "zram-writecache"}, {"size", 1}},
         "invalid-argument", "not a block device"},
        {"cache.enable", Json{{"device", "/etc/passwd"}, {"backend", "x"}, {"size", 1}},
         "invalid-argument", "under /dev"},
        {"cache.enable", Json{{"device", "/dev/null"}, {"rm", "-rf"}}, "invalid-argument", "'rm'"},
        {"cache.enable",
         Json{{"device", "/dev/null"}, {"backend", "x"}, {"size", 1}, {"writeback_percent", 101}},
         "invalid-argument", "between 0 and 100, not 101"},
        {"cache.enable",
         Json{{"device", "/dev/null"},
              {"backend", "x"},
              {"size", 1},
              {"sequential_cutoff", (1ULL << 30) + 1}},
         "invalid-argument", "at most 1 GiB"},
        {"cache.enable",
         Json{{"device", "/dev/null"}, {"backend", "x"}, {"size", 1}, {"sequential_cutoff", "4M"}},
         "invalid-argument", "sequential_cutoff"},
        {"cache.disable", Json{{"device", "/dev/sda1"}}, "not-found", "no cache is enabled"},
        {"cache.flush", Json{{"device", "/dev/sda1"}}, "not-found", "no cache is enabled"},
        {"cache.mode", Json{{"device", "/dev/sda1"}, {"mode", "fast"}}, "invalid-argument",
         "write-through or write-back"},
        {"cache.resize", Json{{"device", "/dev/sda1"}}, "invalid-argument", "size"},
    };
    for (const auto& [verb, args, code, mentions] : cases) {
        INFO(verb << " " << args.dump());
        const Json response = call(service, verb, args);
        CHECK(response["ok"] == false);
        CHECK(response["error"]["code"] == code);
        CHECK_THAT(errorFromJson(response["error"]).describe(), Catch::Contains(mentions));
    }
    CHECK(runner.requests().empty());
    CHECK_FALSE(fs::exists(state));
}

TEST_CASE("meminfo gives total and available RAM", "[helper][cache]") {
    const auto info = parseMemInfo("MemTotal:        8029356 kB\nMemFree:  100 kB\n"
                                   "MemAvailable:    5000000 kB\n");
    CHECK(info.totalBytes == 8029356ULL * 1024);
    CHECK(info.availableBytes == 5000000ULL * 1024);
}

TEST_CASE("power events and the power policy through the verbs", "[helper][cache]") {
    const fs::path root =
        fs::temp_directory_path() / ("ssdk-cachepower-" + std::to_string(::getpid()));
    fs::remove_all(root);
    // A laptop unplugged: the mains adapter offline, the battery discharging.
    auto attribute = [&](const std::string& path, const std::string& value) {
        fs::create_directories((root / path).parent_path());
        std::ofstream(root / path) << value << "\n";
    };
    attribute("sys/class/power_supply/AC/type", "Mains");
    attribute("sys/class/power_supply/AC/online", "0");
    attribute("sys/class/power_supply/BAT0/type", "Battery");
    attribute("sys/class/power_supply/BAT0/status", "Discharging");
    const PowerSource unplugged = powerSourceOf(SysfsRoot(root));
    CHECK(unplugged.onBattery);
    CHECK_THAT(unplugged.detail, Catch::Contains("BAT0 (Discharging)"));
    attribute("sys/class/power_supply/AC/online", "1");
    CHECK_FALSE(powerSourceOf(SysfsRoot(root)).onBattery);

    cachectl::Capabilities capabilities;
    capabilities.writeBack = true;
    capabilities.compressions = {cachectl::Compression::None};
    cachectl::BackendRegistry registry;
    registry.add(std::make_unique<cachectl::FakeBackend>(
        "zram-writecache", cachectl::ProbeResult{true, {}}, capabilities));
    ReplayProcessRunner runner;
    cachectl::HostEnv env;
    env.root = root;
    env.runner = &runner;
    cachectl::CacheManager manager(registry, env, root / "state");
    REQUIRE(manager.enable("zram-writecache",
                           cachectl::CachePlan{"/dev/labx1", "ssdk-labx1", 64ULL << 20,
                                               cachectl::Compression::None,
                                               cachectl::CacheMode::WriteBack, ""},
                           false, cachectl::PowerPolicy{true, ""}));
    bool onBattery = true;
    test::AllowAll authorizer;
    HelperService service(authorizer);
    addCacheVerbs(service, manager, [&] { return PowerSource{onBattery, "test power"}; });

    runner.expect({"blockdev", "--flushbufs", "/dev/mapper/ssdk-labx1"}, ProcessResult{0, "", ""});
    Json unpluggedEvent = call(service, "cache.power", Json{{"event", "auto"}});
    REQUIRE(unpluggedEvent["ok"] == true);
    CHECK(unpluggedEvent["result"]["event"] == "battery");
    CHECK(unpluggedEvent["result"]["power"] == "test power");
    CHECK(unpluggedEvent["result"]["caches"][0]["action"] ==
          "flushed and switched to write-through (battery)");
    const Json status = call(service, "cache.status", Json::object());
    CHECK(status["result"]["caches"][0]["cache"]["plan"]["mode"] == "write-through");
    CHECK(status["result"]["caches"][0]["power"]["switched_by"] == "battery");

    onBattery = false;
    Json plugged = call(service, "cache.power", Json{{"event", "auto"}});
    CHECK(plugged["result"]["event"] == "ac");
    CHECK(plugged["result"]["caches"][0]["action"] == "back to write-back (ac)");

    Json policy =
        call(service, "cache.policy", Json{{"device", "/dev/labx1"}, {"power_safe", false}});
    REQUIRE(policy["ok"] == true);
    CHECK(policy["result"]["record"]["power"]["safe_on_battery"] == false);

    for (const auto& [verb, args, mentions] :
         std::vector<std::tuple<std::string, Json, std::string>>{
             {"cache.power", Json{{"event", "lunch"}}, "unknown power event"},
             {"cache.policy", Json{{"device", "/dev/labx1"}, {"power_safe", "yes"}},
              "true or false"},
             {"cache.policy", Json{{"device", "/dev/labx1"}}, "'power_safe' is missing"},
             {"cache.boot", Json{{"device", "/dev/labx1"}, {"action", "go"}}, "start or stop"},
             {"cache.boot", Json{{"device", "/dev/labx1"}, {"action", "start"}},
              "not cached at boot"},
         }) {
        INFO(verb << " " << args.dump());
        const Json response = call(service, verb, args);
        CHECK(response["ok"] == false);
        CHECK_THAT(errorFromJson(response["error"]).describe(), Catch::Contains(mentions));
    }
    fs::remove_all(root);
}
