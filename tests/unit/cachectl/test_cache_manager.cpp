#include <catch2/catch.hpp>
#include <sys/stat.h>

#include "core/cachectl/backend_fake.h"
#include "core/cachectl/cache_manager.h"
#include "tests/unit/cachectl/cache_backend_fixture.h"

using namespace ssdk;
using namespace ssdk::cachectl;
using namespace ssdk::cachectl::testing;

namespace {

Capabilities fakeCapabilities() {
    Capabilities capabilities;
    capabilities.writeBack = true;
    capabilities.compression = true;
    capabilities.resizeLive = true;
    capabilities.compressions = {Compression::None, Compression::Lz4};
    return capabilities;
}

struct Setup {
    ScratchHost host{"manager"};
    BackendRegistry registry;
    FakeBackend* fake = nullptr;
    std::filesystem::path state = host.dir / "state";

    Setup() {
        auto backend =
            std::make_unique<FakeBackend>("fake", ProbeResult{true, {}}, fakeCapabilities());
        fake = backend.get();
        registry.add(std::move(backend));
        registry.add(std::make_unique<FakeBackend>(
            "absent", ProbeResult{false, {"kernel module dm_cache is not available"}},
            fakeCapabilities()));
    }
    CacheManager manager() { return CacheManager(registry, host.env, state); }
};

// The umount/mount commands run so far, as "umount /mnt/lab data" / "mount /mnt/lab data".
std::vector<std::string> commandsRun(Setup& setup) {
    std::vector<std::string> commands;
    for (const auto& request : setup.host.runner.requests()) {
        commands.push_back(request.argv[0] + " " + request.argv.back());
    }
    return commands;
}

// The mount of device at /mnt/lab data with the lab filesystem's options, answered ok.
void expectMount(Setup& setup, const std::string& device) {
    setup.host.runner.expect({"mount", "-t", "ext4", "-o",
                              "rw,relatime,errors=remount-ro,nosuid,nodev", device,
                              "/mnt/lab data"},
                             ok());
}

const std::string kMounted =
    "36 25 7:1 / /mnt/lab\\040data rw,relatime shared:1 - ext4 /dev/labx1 rw,errors=remount-ro\n";
const std::string kCachedMounted = "36 25 253:0 / /mnt/lab\\040data rw,relatime shared:1 - ext4 "
                                   "/dev/mapper/ssdk-labx1 rw,errors=remount-ro\n";

} // namespace

TEST_CASE("an unmounted device is cached, operated and released, the journal follows",
          "[cache-manager]") {
    Setup setup;
    auto manager = setup.manager();
    const auto reports = manager.probeAll();
    REQUIRE(reports.size() == 2);
    CHECK(reports[1].probe.reasonText() == "kernel module dm_cache is not available");
    auto refused = manager.enable("absent", labPlan(), false);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message() ==
          "absent is unavailable: kernel module dm_cache is not available");

    auto record = manager.enable("fake", labPlan(), false);
    REQUIRE(record);
    CHECK(record->phase == CachePhase::Active);
    CHECK_FALSE(record->mount);
    CHECK(std::filesystem::exists(setup.state / "ssdk-labx1.json"));
    CHECK(manager.enable("fake", labPlan(), false).error().code() == ErrorCode::Busy);

    // Found by origin, cached device or name.
    CHECK(manager.find("/dev/mapper/ssdk-labx1"));
    CHECK(manager.find("ssdk-labx1"));
    CHECK(manager.find("/dev/other").error().code() == ErrorCode::NotFound);

    auto statuses = manager.status();
    REQUIRE(statuses.size() == 1);
    REQUIRE(statuses[0].stats);
    const auto first = *statuses[0].stats;
    const auto second = *manager.status()[0].stats;
    CHECK(second.hits > first.hits); // the fake cache warms up

    setup.host.runner.expect({"blockdev", "--flushbufs", "/dev/mapper/ssdk-labx1"}, ok());
    REQUIRE(manager.flush("/dev/labx1"));
    auto moded = manager.setMode("/dev/labx1", CacheMode::WriteThrough);
    REQUIRE(moded);
    auto resized = manager.resize("/dev/labx1", 128 * kMiB);
    REQUIRE(resized);
    CHECK(manager.resize("/dev/labx1", 4096).error().code() == ErrorCode::InvalidArgument);

    // A new manager (a restarted helper) reads the journal: the mode and size changes stuck.
    auto restarted = setup.manager();
    auto reloaded = restarted.find("/dev/labx1");
    REQUIRE(reloaded);
    CHECK(reloaded->active.plan.mode == CacheMode::WriteThrough);
    CHECK(reloaded->active.plan.cacheBytes == 128 * kMiB);
    REQUIRE(restarted.disable("/dev/labx1"));
    CHECK_FALSE(std::filesystem::exists(setup.state / "ssdk-labx1.json"));
    CHECK(setup.fake->calls() == std::vector<std::string>{"enable /dev/labx1", "flush",
                                                          "mode write-through", "resize 134217728",
                                                          "flush", "disable /dev/labx1"});
}

TEST_CASE("a mounted filesystem moves onto the cache only when applied now, and back",
          "[cache-manager]") {
    Setup setup;
    setup.host.file("/proc/self/mountinfo", kMounted);
    auto manager = setup.manager();
    auto refused = manager.enable("fake", labPlan(), false);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code() == ErrorCode::Busy);
    CHECK(
        refused.error().message().starts_with("/dev/labx1 is mounted on /mnt/lab data: apply now"));
    CHECK(setup.fake->calls().empty());

    setup.host.runner.expect({"umount", "/mnt/lab data"}, ok());
    expectMount(setup, "/dev/mapper/ssdk-labx1");
    auto record = manager.enable("fake", labPlan(), true);
    REQUIRE(record);
    REQUIRE(record->mount);
    CHECK(record->mount->mountPoint == "/mnt/lab data");

    setup.host.file("/proc/self/mountinfo", kCachedMounted);
    expectMount(setup, "/dev/labx1");
    REQUIRE(setup.manager().disable("/dev/labx1"));
    CHECK(commandsRun(setup) ==
          std::vector<std::string>{"umount /mnt/lab data", "mount /mnt/lab data",
                                   "umount /mnt/lab data", "mount /mnt/lab data"});
    CHECK(setup.fake->calls() ==
          std::vector<std::string>{"enable /dev/labx1", "flush", "disable /dev/labx1"});
}

TEST_CASE("a cache stacked in place (bcache) is unmounted, torn down and mounted back",
          "[cache-manager]") {
    Setup setup;
    setup.fake->setCachesInPlace(true);
    setup.host.file("/proc/self/mountinfo", kMounted);
    setup.host.runner.expect({"umount", "/mnt/lab data"}, ok());
    expectMount(setup, "/dev/labx1");
    auto record = setup.manager().enable("fake", labPlan(), true);
    REQUIRE(record);
    CHECK(record->active.cachedDevice == "/dev/labx1");

    // The origin is mounted now, but through the cached device, which disabling unmounts:
    // it is mounted back all the same.
    setup.host.runner.expect({"umount", "/mnt/lab data"}, ok());
    expectMount(setup, "/dev/labx1");
    REQUIRE(setup.manager().disable("/dev/labx1"));
    CHECK(commandsRun(setup) ==
          std::vector<std::string>{"umount /mnt/lab data", "mount /mnt/lab data",
                                   "umount /mnt/lab data", "mount /mnt/lab data"});
}

TEST_CASE("a cache that cannot be mounted is torn down and the origin mounted back",
          "[cache-manager]") {
    Setup setup;
    setup.host.file("/proc/self/mountinfo", kMounted);
    setup.host.runner.expect({"umount", "/mnt/lab data"}, ok());
    setup.host.runner.expect({"mount", "-t", "ext4", "-o",
                              "rw,relatime,errors=remount-ro,nosuid,nodev",
                              "/dev/mapper/ssdk-labx1", "/mnt/lab data"},
                             failed(32, "mount: wrong fs type\n"));
    expectMount(setup, "/dev/labx1");
    auto manager = setup.manager();
    auto record = manager.enable("fake", labPlan(), true);
    REQUIRE_FALSE(record);
    CHECK(record.error().describe().find("wrong fs type") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(setup.state / "ssdk-labx1.json"));
    CHECK(setup.fake->calls().back() == "disable /dev/labx1");
    CHECK(setup.host.runner.requests().back().argv[5] == "/dev/labx1");
}

TEST_CASE("the journal directory is private whatever the umask, a shared one is refused",
          "[cache-manager]") {
    Setup setup;
    auto manager = setup.manager();
    // Made with umask 000 (pkexec keeps the caller's): 0700 all the same.
    const mode_t previous = ::umask(0);
    auto record = manager.enable("fake", labPlan(), false);
    ::umask(previous);
    REQUIRE(record);
    struct stat info {};
    REQUIRE(::lstat(setup.state.c_str(), &info) == 0);
    CHECK((info.st_mode & 07777) == 0700);
    REQUIRE(manager.disable("/dev/labx1"));

    // An older, merely readable directory of ours is closed.
    ::chmod(setup.state.c_str(), 0755);
    REQUIRE(manager.enable("fake", labPlan(), false));
    REQUIRE(::lstat(setup.state.c_str(), &info) == 0);
    CHECK((info.st_mode & 07777) == 0700);

    // One others can write to may hold journals they planted: neither read nor written.
    ::chmod(setup.state.c_str(), 0777);
    auto found = manager.find("/dev/labx1");
    REQUIRE_FALSE(found);
    CHECK(found.error().code() == ErrorCode::PermissionDenied);
    CHECK_THAT(found.error().describe(), Catch::Contains("writable by group or others"));
    CHECK(manager.status().empty());
    auto other = labPlan();
    other.origin = "/dev/labx2";
    other.name = "ssdk-labx2";
    auto refused = manager.enable("fake", other, false);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code() == ErrorCode::PermissionDenied);
    ::chmod(setup.state.c_str(), 0700);

    // A symbolic link in its place is not followed.
    const auto real = setup.host.dir / "elsewhere";
    std::filesystem::rename(setup.state, real);
    std::filesystem::create_directory_symlink(real, setup.state);
    auto linked = manager.find("/dev/labx1");
    REQUIRE_FALSE(linked);
    CHECK_THAT(linked.error().describe(), Catch::Contains("symbolic link"));
}
