// CacheClient over the in-process transport against the real cache verbs and fake backends:
// every verb's typed request reaches the helper's handler through JSON lines and its typed
// result comes back, and the helper's refusals arrive as errors.
#include <catch2/catch.hpp>
#include <fstream>
#include <optional>

#include "core/base/replay_process_runner.h"
#include "core/cachectl/backend_fake.h"
#include "core/cachectl/cache_client.h"
#include "core/rpc/progress.h"
#include "helper/cache_verbs.h"
#include "helper/in_process_transport.h"
#include "tests/support/allow_all.h"
#include "tests/support/temp_dir.h"

using namespace ssdk;
using namespace ssdk::cachectl;
namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kGiB = 1ULL << 30;

struct Host {
    Host()
        : dir("ssdk-cacheclient") {
        fs::create_directories(dir.path / "proc/self");
        std::ofstream(dir.path / "proc/self/mountinfo") << "";
        Capabilities capabilities;
        capabilities.writeBack = true;
        capabilities.resizeLive = true;
        capabilities.compressions = {Compression::None, Compression::Lz4};
        auto backend =
            std::make_unique<FakeBackend>("zram-writecache", ProbeResult{true, {}}, capabilities);
        fake = backend.get();
        registry.add(std::move(backend));
        registry.add(std::make_unique<FakeBackend>(
            "engine", ProbeResult{false, {"kernel module nbd is not available"}}, capabilities));
        env.root = dir.path;
        env.runner = &runner;
        manager.emplace(registry, env, dir.path / "state");
        helper::CacheVerbEnv verbEnv;
        // Made-up device paths: /dev/lab* are taken as they are, anything else is refused.
        verbEnv.validateDevice = [](std::string_view path,
                                    const helper::DeviceRules&) -> Expected<std::string> {
            if (!path.starts_with("/dev/lab")) {
                return fail(ErrorCode::InvalidArgument, std::string(path) + " is not a lab device");
            }
            return std::string(path);
        };
        verbEnv.readRam = [] { return helper::RamInfo{8 * kGiB, 5 * kGiB}; };
        verbEnv.power = [this] { return helper::PowerSource{onBattery, "test power"}; };
        helper::addCacheVerbs(service, *manager, verbEnv);
    }

    test::TempDir dir;
    BackendRegistry registry;
    FakeBackend* fake = nullptr;
    ReplayProcessRunner runner;
    HostEnv env;
    std::optional<CacheManager> manager;
    bool onBattery = false;
    test::AllowAll authorizer;
    helper::HelperService service{authorizer, {}};
    helper::InProcessTransport transport{service};
    CacheClient client{transport};
};

} // namespace

TEST_CASE("CacheClient drives every cache verb through the in-process transport",
          "[helper][cache][rpc]") {
    Host host;
    auto& client = host.client;

    auto probe = client.probe();
    REQUIRE(probe);
    REQUIRE(probe->backends.size() == 2);
    CHECK(probe->backends[0].name == "zram-writecache");
    CHECK(probe->backends[0].probe.available);
    CHECK(probe->backends[0].capabilities.compressions.size() == 2);
    CHECK_FALSE(probe->backends[1].probe.available);
    CHECK(probe->backends[1].probe.reasonText() == "kernel module nbd is not available");
    CHECK(probe->ram.totalBytes == 8 * kGiB);
    CHECK(probe->ram.availableBytes == 5 * kGiB);
    CHECK(probe->ram.suggestedBytes == 2 * kGiB);

    std::vector<rpc::Event> events;
    EnableRequest request;
    request.device = "/dev/lab1";
    request.backend = "zram-writecache";
    request.size = 64ULL << 20;
    request.compression = Compression::Lz4;
    request.mode = CacheMode::WriteBack;
    request.powerSafe = true;
    auto enabled =
        client.enable(request, [&](const rpc::Event& event) { events.push_back(event); });
    REQUIRE(enabled);
    REQUIRE(enabled->record);
    CHECK_FALSE(enabled->fstab);
    CHECK(enabled->record->active.plan.origin == "/dev/lab1");
    CHECK(enabled->record->active.plan.name == "ssdk-lab1");
    CHECK(enabled->record->active.plan.compression == Compression::Lz4);
    CHECK(enabled->record->power.safeOnBattery);
    REQUIRE(events.size() == 1);
    CHECK(events[0].name == rpc::kEventProgress);
    CHECK(host.fake->calls().front() == "enable /dev/lab1");

    auto status = client.status();
    REQUIRE(status);
    REQUIRE(status->caches.size() == 1);
    CHECK(status->caches[0].record.active.backend == "zram-writecache");
    CHECK(status->caches[0].stats.has_value());

    auto mode = client.setMode({"/dev/lab1", CacheMode::WriteThrough});
    REQUIRE(mode);
    CHECK(mode->record.active.plan.mode == CacheMode::WriteThrough);
    auto resized = client.resize({"/dev/lab1", 128ULL << 20});
    REQUIRE(resized);
    CHECK(resized->record.active.plan.cacheBytes == 128ULL << 20);
    auto policy = client.setPolicy({"/dev/lab1", false});
    REQUIRE(policy);
    CHECK_FALSE(policy->record.power.safeOnBattery);

    host.runner.expect({"blockdev", "--flushbufs", "/dev/mapper/ssdk-lab1"}, ProcessResult{});
    auto flushed = client.flush({"/dev/lab1"});
    REQUIRE(flushed);
    CHECK(flushed->flushed == "/dev/lab1");

    host.onBattery = true;
    auto power = client.power({});
    REQUIRE(power);
    CHECK(power->event == PowerEvent::Battery);
    CHECK(power->onBattery);
    CHECK(power->power == "test power");
    REQUIRE(power->caches.size() == 1);
    CHECK(power->caches[0].origin == "/dev/lab1");

    auto boot = client.boot({"/dev/lab1", BootAction::Start});
    REQUIRE_FALSE(boot);
    CHECK_THAT(boot.error().describe(), Catch::Contains("not cached at boot"));

    auto disabled = client.disable({"/dev/lab1"});
    REQUIRE(disabled);
    CHECK(disabled->disabled == "/dev/lab1");
    CHECK(host.fake->calls().back() == "disable /dev/lab1");
    CHECK(client.status()->caches.empty());
}

TEST_CASE("CacheClient returns the helper's refusals", "[helper][cache][rpc]") {
    Host host;
    EnableRequest request;
    request.device = "/dev/sda1";
    request.backend = "zram-writecache";
    request.size = 64ULL << 20;
    auto refused = host.client.enable(request);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code() == ErrorCode::InvalidArgument);
    CHECK_THAT(refused.error().describe(), Catch::Contains("not a lab device"));
    CHECK_THAT(refused.error().describe(), Catch::Contains("argument 'device'"));
    // The verb's name is the helper's log's business, not the person's.
    CHECK_THAT(refused.error().describe(), !Catch::Contains(cachectl::kVerbEnable));

    request.device = "/dev/lab1";
    request.writebackPercent = 101;
    auto outOfRange = host.client.enable(request);
    REQUIRE_FALSE(outOfRange);
    CHECK_THAT(outOfRange.error().describe(), Catch::Contains("between 0 and 100, not 101"));

    auto missing = host.client.flush({"/dev/lab9"});
    REQUIRE_FALSE(missing);
    CHECK(missing.error().code() == ErrorCode::NotFound);
    CHECK(host.fake->calls().empty());
}
