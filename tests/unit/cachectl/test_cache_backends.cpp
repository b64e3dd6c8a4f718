#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <thread>

#include "core/cachectl/backend.h"
#include "core/cachectl/backends/bcache_backend.h"
#include "core/cachectl/backends/dm_cache.h"
#include "core/cachectl/backends/engine_backend.h"
#include "tests/unit/cachectl/cache_backend_fixture.h"

using namespace ssdk;
using namespace ssdk::cachectl;
using namespace ssdk::cachectl::testing;

namespace {

constexpr std::uint64_t kGiB = 1024ULL * kMiB;

CachePlan zramPlan() {
    CachePlan plan;
    plan.origin = "/dev/labx1";
    plan.name = "ssdk-labx1";
    plan.cacheBytes = 256 * kMiB;
    plan.compression = Compression::Lz4;
    plan.mode = CacheMode::WriteBack;
    return plan;
}

// The machine the lab VM is: every module there, dmsetup installed, running as root.
void dmReady(ScratchHost& host) {
    for (const char* module : {"dm_mod", "dm_cache", "dm_cache_smq", "zram"}) {
        host.module(module);
    }
    host.tool("dmsetup");
    std::filesystem::create_directories(host.dir / "sys/class/zram-control");
    host.blockDevice("labx1", 2 * kGiB);
}

const std::string kStatusDirty =
    "0 4194304 cache 8 27/2048 64 4000/8128 1200 300 50 10 0 40 12 1 writeback 2 "
    "migration_threshold 2048 smq 0 rw -\n";
const std::string kStatusClean =
    "0 4194304 cache 8 27/2048 64 4000/8128 1300 300 50 10 0 40 0 1 writeback 2 "
    "migration_threshold 2048 cleaner 0 rw -\n";

// A drain of ssdk-labx1: the cleaner table is loaded, status reads dirty twice and then clean,
// and `after` is loaded back (each load a reload, suspend and resume).
void expectDrain(ScratchHost& host, const std::string& cleaner, const std::string& after) {
    host.runner.expectOnce({"dmsetup", "status", "ssdk-labx1"}, ok(kStatusDirty));
    host.runner.expectOnce({"dmsetup", "status", "ssdk-labx1"}, ok(kStatusDirty));
    host.runner.expectOnce({"dmsetup", "status", "ssdk-labx1"}, ok(kStatusClean));
    host.runner.expect({"dmsetup", "reload", "ssdk-labx1", "--table", cleaner}, ok());
    host.runner.expect({"dmsetup", "reload", "ssdk-labx1", "--table", after}, ok());
    host.runner.expect({"dmsetup", "suspend", "ssdk-labx1"}, ok());
    host.runner.expect({"dmsetup", "resume", "ssdk-labx1"}, ok());
}

} // namespace

TEST_CASE("cache modes, compressions and plans are checked", "[cache-backend]") {
    CHECK(parseCacheMode("write-back").value() == CacheMode::WriteBack);
    CHECK_FALSE(parseCacheMode("writeback"));
    CHECK(parseCompression("zstd").value() == Compression::Zstd);
    CHECK_FALSE(parseCompression("gzip"));

    CHECK(suggestedCacheBytes(16 * kGiB) == 4 * kGiB);
    CHECK(suggestedCacheBytes(64 * kGiB) == 4 * kGiB);
    CHECK(suggestedCacheBytes(2 * kGiB) == 512 * kMiB);
    CHECK(suggestedCacheBytes(3 * kGiB + 5) == 768 * kMiB);

    Capabilities zram;
    zram.writeBack = true;
    zram.compressions = {Compression::Lz4, Compression::Zstd};
    CHECK(checkPlan(zramPlan(), zram));
    auto plan = zramPlan();
    plan.compression = Compression::None;
    auto noCompression = checkPlan(plan, zram);
    REQUIRE_FALSE(noCompression);
    CHECK(noCompression.error().message() == "this backend does not offer compression 'none'");
    plan = zramPlan();
    plan.name = "Bad Name";
    CHECK_FALSE(checkPlan(plan, zram));
    plan = zramPlan();
    plan.cacheBytes = 1 * kMiB;
    CHECK(checkPlan(plan, zram).error().message() == "a RAM cache needs at least 16 MiB");
    zram.writeBack = false;
    CHECK(checkPlan(zramPlan(), zram).error().code() == ErrorCode::Unsupported);
}

TEST_CASE("plans, active caches and statistics round-trip through JSON", "[cache-backend]") {
    ActiveCache active{"zram-writecache", zramPlan(), "/dev/mapper/ssdk-labx1",
                       Json{{"zram", {2, 3}}}};
    auto back = activeCacheFromJson(toJson(active));
    REQUIRE(back);
    CHECK(back->plan.origin == "/dev/labx1");
    CHECK(back->plan.mode == CacheMode::WriteBack);
    CHECK(back->plan.compression == Compression::Lz4);
    CHECK(back->resources["zram"][1] == 3);

    CacheStats stats;
    stats.hits = 3;
    stats.misses = 1;
    stats.logicalBytes = 300;
    stats.physicalBytes = 100;
    CHECK(stats.hitRatio() == Approx(0.75));
    CHECK(stats.compressionRatio() == Approx(3.0));
    const Json json = toJson(stats);
    CHECK(json["hit_ratio"].get<double>() == Approx(0.75));
    CHECK(cacheStatsFromJson(json)->hits == 3);
    CHECK(CacheStats{}.hitRatio() == 0.0);
    CHECK(CacheStats{}.compressionRatio() == 1.0);
}

TEST_CASE("dm-cache status lines are parsed", "[cache-backend]") {
    auto status = parseDmCacheStatus(kStatusDirty);
    REQUIRE(status);
    CHECK(status->cacheBlockSectors == 64);
    CHECK(status->usedBlocks == 4000);
    CHECK(status->totalBlocks == 8128);
    CHECK(status->readHits == 1200);
    CHECK(status->readMisses == 300);
    CHECK(status->dirtyBlocks == 12);
    CHECK(status->writeBack);
    CHECK(status->policy == "smq");
    CHECK_FALSE(parseDmCacheStatus("0 100 linear 8:1 0"));
    CHECK(dmCacheTable(100, "/dev/zram2", "/dev/zram3", "/dev/sdb1", CacheMode::WriteThrough,
                       "smq") ==
          "0 100 cache /dev/zram2 /dev/zram3 /dev/sdb1 64 1 writethrough smq 0");
    CHECK(dmCacheMetadataBytes(64 * kMiB) == 8 * kMiB);
    CHECK(dmCacheMetadataBytes(64 * kGiB) == 36 * kMiB);
}

TEST_CASE("a host without device-mapper says exactly why zram-writecache is unavailable",
          "[cache-backend]") {
    ScratchHost host("probe");
    host.env.isRoot = false;
    for (const char* module : {"zram", "dm_mod", "dm_cache", "dm_cache_smq"}) {
        host.runner.expect({"modprobe", "-n", "-q", module}, failed(1, ""));
        host.runner.expect({"modprobe", "-n", module},
                           failed(1, std::string("modprobe: FATAL: Module ") + module +
                                         " not found in directory /lib/modules/6.1.0-test\n"));
    }
    ZramCacheBackend backend(host.env);
    const auto probe = backend.probe();
    CHECK_FALSE(probe.available);
    // Modules missing from the kernel are said once, without modprobe's line for each.
    REQUIRE(probe.reasons.size() == 4);
    CHECK(probe.reasons[0] == "kernel module zram is not available on kernel 6.1.0-test");
    CHECK(probe.reasons[1] == "needs root (run through ssdkeeper-helper)");
    CHECK(probe.reasons[2] ==
          "kernel modules dm_mod, dm_cache and dm_cache_smq are not available on kernel "
          "6.1.0-test");
    CHECK(probe.reasons[3] == "dmsetup is not installed (Debian package dmsetup)");

    // A module modprobe refuses for another reason is named with modprobe's words.
    ScratchHost blocked("probe-blocked");
    blocked.runner.expect({"modprobe", "-n", "-q", "dm_mod"}, failed(1, ""));
    blocked.runner.expect({"modprobe", "-n", "dm_mod"},
                          failed(1, "modprobe: FATAL: Module dm_mod not found in directory "
                                    "/lib/modules/6.1.0-test\n"));
    blocked.runner.expect({"modprobe", "-n", "-q", "dm_cache"}, failed(1, ""));
    blocked.runner.expect({"modprobe", "-n", "dm_cache"},
                          failed(1,
                                 "modprobe: ERROR: ../libkmod/libkmod.c:586 kmod_search_moddep() "
                                 "could not open moddep file\n"));
    CHECK(blocked.env.modulesProblem({"dm_mod", "dm_cache"}) ==
          "kernel module dm_mod is not available on kernel 6.1.0-test; kernel module dm_cache "
          "cannot be loaded (modprobe: ERROR: ../libkmod/libkmod.c:586 kmod_search_moddep() "
          "could not open moddep file)");

    // Loaded modules (in /proc/modules or /sys/module) and a loadable one are fine.
    host.env.isRoot = true;
    host.module("zram");
    std::filesystem::create_directories(host.dir / "sys/class/zram-control");
    host.file("/proc/modules", "dm_mod 1 0 - Live 0x0\n");
    host.runner.expect({"modprobe", "-n", "-q", "dm_cache"}, ok());
    host.runner.expect({"modprobe", "-n", "-q", "dm_cache_smq"}, ok());
    host.tool("dmsetup");
    CHECK(ZramCacheBackend(host.env).probe().available);
}

TEST_CASE("zram-writecache stacks dm-cache on two zram devices and drains before removing",
          "[cache-backend]") {
    ScratchHost host("zram");
    dmReady(host);
    // hot_add answers a new id each time it is read.
    const auto hotAdd = host.dir / "sys/class/zram-control/hot_add";
    REQUIRE(::mkfifo(hotAdd.c_str(), 0600) == 0);
    std::thread kernel([&] {
        std::ofstream(hotAdd) << "2\n";
        // The second answer only once the first reader has gone on to set zram2 up.
        for (int i = 0; i < 2000 && !std::filesystem::exists(host.dir / "sys/block/zram2/disksize");
             ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        std::ofstream(hotAdd) << "3\n";
    });
    for (const char* id : {"2", "3"}) {
        std::filesystem::create_directories(host.dir / "sys/block" / (std::string("zram") + id));
    }
    const std::string table =
        "0 4194304 cache /dev/zram2 /dev/zram3 /dev/labx1 64 1 writeback smq 0";
    host.runner.expect({"dmsetup", "create", "ssdk-labx1", "--table", table}, ok());
    host.runner.expect({"udevadm", "settle", "--timeout=10"}, ok());
    host.runner.expect({"dmsetup", "mknodes", "ssdk-labx1"}, ok());
    host.runner.expect({"dmsetup", "message", "ssdk-labx1", "0", "migration_threshold", "262144"},
                       ok());

    ZramCacheBackend backend(host.env);
    auto active = backend.enable(zramPlan());
    kernel.join();
    REQUIRE(active);
    CHECK(active->cachedDevice == "/dev/mapper/ssdk-labx1");
    CHECK(host.contents("/sys/block/zram2/comp_algorithm") == "lz4");
    CHECK(host.contents("/sys/block/zram2/disksize") == std::to_string(8 * kMiB));
    CHECK(host.contents("/sys/block/zram3/disksize") == std::to_string(248 * kMiB));

    // Statistics: dm-cache counters plus zram's compression.
    host.file("/sys/block/zram2/mm_stat", "4096 1024 8192 0 8192 0 0 0\n");
    host.file("/sys/block/zram3/mm_stat", "262139904 87379968 90000000 0 90000000 12 0 0\n");
    host.runner.expectOnce({"dmsetup", "status", "ssdk-labx1"}, ok(kStatusDirty));
    auto stats = backend.stats(*active);
    REQUIRE(stats);
    CHECK(stats->hits == 1250);
    CHECK(stats->misses == 310);
    CHECK(stats->dirtyBytes == 12 * 32 * 1024);
    CHECK(stats->ramUsedBytes == 90008192);
    CHECK(stats->compressionRatio() == Approx(3.0).epsilon(0.01));
    CHECK(stats->mode == CacheMode::WriteBack);

    // Disable: dirty blocks → cleaner until clean → smq, then remove, then the zram devices.
    const std::string cleaner =
        "0 4194304 cache /dev/zram2 /dev/zram3 /dev/labx1 64 1 writeback cleaner 0";
    expectDrain(host, cleaner, table);
    host.runner.expect({"dmsetup", "remove", "--retry", "ssdk-labx1"}, ok());
    REQUIRE(backend.disable(*active));
    CHECK(host.sleeps == 1);
    CHECK(host.contents("/sys/class/zram-control/hot_remove") == "3");
    CHECK(host.contents("/sys/block/zram2/reset") == "1");
    std::vector<std::string> dm;
    for (const auto& request : host.runner.requests()) {
        if (request.argv[0] == "dmsetup" && request.argv[1] != "status") {
            dm.push_back(request.argv[1] + (request.argv.size() > 4 ? " " + request.argv[4] : ""));
        }
    }
    CHECK(dm == std::vector<std::string>{
                    "create " + table, "mknodes", "message migration_threshold",
                    "reload " + cleaner, "suspend", "resume", "reload " + table, "suspend",
                    "resume", "message migration_threshold", "remove", "mknodes"});
}

TEST_CASE("switching to write-through drains with the cleaner already in write-through",
          "[cache-backend]") {
    ScratchHost host("zrammode");
    dmReady(host);
    CachePlan plan = zramPlan();
    plan.mode = CacheMode::WriteBack;
    ActiveCache active{"zram-writecache", plan, "/dev/mapper/ssdk-labx1",
                       Json{{"origin_sectors", 4194304},
                            {"meta", "/dev/zram2"},
                            {"data", "/dev/zram3"},
                            {"zram", {2, 3}}}};
    // Writes that arrive while the cleaner drains go to the origin as well, so no block can
    // be dirty again between the drain and the switch.
    const std::string cleaner =
        "0 4194304 cache /dev/zram2 /dev/zram3 /dev/labx1 64 1 writethrough cleaner 0";
    const std::string smq =
        "0 4194304 cache /dev/zram2 /dev/zram3 /dev/labx1 64 1 writethrough smq 0";
    expectDrain(host, cleaner, smq);
    host.runner.expect({"dmsetup", "message", "ssdk-labx1", "0", "migration_threshold", "262144"},
                       ok());
    ZramCacheBackend backend(host.env);
    REQUIRE(backend.setMode(active, CacheMode::WriteThrough));
    CHECK(active.plan.mode == CacheMode::WriteThrough);
    const auto dmSince = [&](std::size_t first) {
        std::vector<std::string> dm;
        const auto requests = host.runner.requests();
        for (std::size_t i = first; i < requests.size(); ++i) {
            const auto& argv = requests[i].argv;
            dm.push_back(argv[1] + (argv.size() > 4 ? " " + argv[4] : ""));
        }
        return dm;
    };
    CHECK(dmSince(0) == std::vector<std::string>{"status", "reload " + cleaner, "suspend", "resume",
                                                 "status", "status", "reload " + smq, "suspend",
                                                 "resume", "message migration_threshold"});
    // Even with nothing dirty now, the switch goes through the write-through cleaner: a write
    // between a look at the status and the switch could otherwise stay dirty.
    const std::size_t before = host.runner.requests().size();
    host.runner.expect({"dmsetup", "status", "ssdk-labx1"}, ok(kStatusClean));
    REQUIRE(backend.setMode(active, CacheMode::WriteThrough));
    CHECK(dmSince(before) == std::vector<std::string>{"status", "reload " + cleaner, "suspend",
                                                      "resume", "status", "reload " + smq,
                                                      "suspend", "resume",
                                                      "message migration_threshold"});
}

TEST_CASE("ssd-cache removes its linear devices and their /dev/mapper nodes", "[cache-backend]") {
    ScratchHost host("ssdcache");
    dmReady(host);
    CachePlan plan = zramPlan();
    plan.compression = Compression::None;
    plan.cacheDevice = "/dev/labssd";
    ActiveCache active{"ssd-cache", plan, "/dev/mapper/ssdk-labx1",
                       Json{{"origin_sectors", 4194304},
                            {"meta", "/dev/mapper/ssdk-labx1-cmeta"},
                            {"data", "/dev/mapper/ssdk-labx1-cdata"},
                            {"linear", {"ssdk-labx1-cmeta", "ssdk-labx1-cdata"}}}};
    host.runner.expect({"dmsetup", "status", "ssdk-labx1"}, ok(kStatusClean));
    for (const char* name : {"ssdk-labx1", "ssdk-labx1-cdata", "ssdk-labx1-cmeta"}) {
        host.runner.expect({"dmsetup", "remove", "--retry", name}, ok());
        host.runner.expect({"dmsetup", "mknodes", name}, ok());
    }
    REQUIRE(SsdCacheBackend(host.env).disable(active));
    std::vector<std::string> dm;
    for (const auto& request : host.runner.requests()) {
        if (request.argv[1] != "status") {
            dm.push_back(request.argv[1] + " " + request.argv.back());
        }
    }
    CHECK(dm == std::vector<std::string>{"remove ssdk-labx1", "mknodes ssdk-labx1",
                                         "remove ssdk-labx1-cdata", "mknodes ssdk-labx1-cdata",
                                         "remove ssdk-labx1-cmeta", "mknodes ssdk-labx1-cmeta"});
}

TEST_CASE("a failing dmsetup create leaves no zram device behind", "[cache-backend]") {
    ScratchHost host("zramfail");
    dmReady(host);
    host.file("/sys/class/zram-control/hot_add", "5\n");
    std::filesystem::create_directories(host.dir / "sys/block/zram5");
    host.runner.expect({"dmsetup", "create", "ssdk-labx1", "--table",
                        "0 4194304 cache /dev/zram5 /dev/zram5 /dev/labx1 64 1 writeback smq 0"},
                       failed(1, "device-mapper: reload ioctl on ssdk-labx1 failed: "
                                 "No such device or address\n"));
    auto active = ZramCacheBackend(host.env).enable(zramPlan());
    REQUIRE_FALSE(active);
    CHECK(active.error().describe().find("No such device or address") != std::string::npos);
    CHECK(host.contents("/sys/class/zram-control/hot_remove") == "5");
}

TEST_CASE("the engine backend reads the daemon's statistics and probes honestly",
          "[cache-backend]") {
    const Json reply = Json::parse(R"({"ok":true,"exports":[
        {"name":"other","hits":1,"misses":1},
        {"name":"ssdk-labx1","read_hits":900,"read_misses":100,"dirty_bytes":8192,
         "logical_bytes":4000000,"physical_bytes":1000000,"metadata_bytes":24000,
         "capacity_blocks":65536,"write_mode":"write-back"}]})");
    auto stats = engineStatsFromJson(reply, "ssdk-labx1");
    REQUIRE(stats);
    CHECK(stats->hitRatio() == Approx(0.9));
    CHECK(stats->compressionRatio() == Approx(4.0));
    CHECK(stats->ramUsedBytes == 1024000);
    CHECK(stats->cacheBytes == 256 * kMiB);
    CHECK(stats->mode == CacheMode::WriteBack);
    CHECK(engineStatsFromJson(reply, "nope").error().code() == ErrorCode::NotFound);
    const Json passThrough = Json::parse(R"({"ok":true,"exports":[{"name":"x","read_ops":5}]})");
    CHECK(engineStatsFromJson(passThrough, "x").error().code() == ErrorCode::Unsupported);

    const auto argv =
        engineDaemonArgv("/usr/libexec/ssdkeeper/ssdkeeper-cached", zramPlan(), "/run/ssdkeeper");
    CHECK(describeCommand(argv) ==
          "/usr/libexec/ssdkeeper/ssdkeeper-cached --export ssdk-labx1=/dev/labx1 --socket "
          "/run/ssdkeeper/ssdk-labx1.sock --control /run/ssdkeeper/ssdk-labx1.ctl --cache-size "
          "268435456 --compression lz4 --mode write-back");

    ScratchHost host("engine");
    host.env.daemonCandidates = {"/usr/libexec/ssdkeeper/ssdkeeper-cached"};
    host.file("/usr/libexec/ssdkeeper/ssdkeeper-cached", "");
    host.runner.expect({"/usr/libexec/ssdkeeper/ssdkeeper-cached", "--help"},
                       ok("ssdkeeper-cached --export NAME=PATH --socket PATH\n"));
    host.runner.expect({"modprobe", "-n", "-q", "nbd"}, failed(1, ""));
    host.runner.expect({"modprobe", "-n", "nbd"},
                       failed(1, "modprobe: FATAL: Module nbd not found in directory "
                                 "/lib/modules/6.1.0-test\n"));
    const auto probe = EngineBackend(host.env).probe();
    CHECK_FALSE(probe.available);
    CHECK(probe.reasonText() ==
          "ssdkeeper-cached at /usr/libexec/ssdkeeper/ssdkeeper-cached has no cache engine (no "
          "--cache-size option); kernel module nbd is not available on kernel 6.1.0-test; "
          "nbd-client is not installed (Debian package nbd-client)");
}

TEST_CASE("the engine backend recovers a cache whose daemon was killed", "[cache-backend]") {
    ScratchHost host("engine-crash");
    const std::string control = "/run/ssdkeeper/ssdk-labx1.ctl";
    const std::string cmdline = std::string("/usr/libexec/ssdkeeper/ssdkeeper-cached") + '\0' +
                                "--control" + '\0' + control;
    host.file("/proc/4242/stat", "4242 (ssdkeeper-cache) S 1 4242 4242 0 -1\n");
    host.file("/proc/4242/cmdline", cmdline);
    CHECK(engineDaemonRunning(host.env, 4242, control));
    // A recycled pid running something else, a zombie, no process, no pid at all.
    CHECK_FALSE(engineDaemonRunning(host.env, 4242, "/run/ssdkeeper/other.ctl"));
    host.file("/proc/4243/stat", "4243 (a) b) Z 1 4243 4243 0 -1\n");
    host.file("/proc/4243/cmdline", cmdline);
    CHECK_FALSE(engineDaemonRunning(host.env, 4243, control));
    CHECK_FALSE(engineDaemonRunning(host.env, 4244, control));
    CHECK_FALSE(engineDaemonRunning(host.env, -1, control));

    // The daemon (pid 4243) is gone: disable detaches /dev/nbd0 without a flush and removes
    // the sockets it left.
    ActiveCache active{
        "engine", zramPlan(), "/dev/nbd0",
        Json{{"pid", 4243}, {"socket", "/run/ssdkeeper/ssdk-labx1.sock"}, {"control", control}}};
    host.file("/run/ssdkeeper/ssdk-labx1.sock", "");
    host.file(control, "");
    host.file("/sys/block/nbd0/pid", "4250\n");
    host.runner.expect({"nbd-client", "-d", "/dev/nbd0"}, ok());
    EngineBackend backend(host.env);
    // While the daemon runs, nothing happens before the unmount.
    ActiveCache alive = active;
    alive.resources["pid"] = 4242;
    REQUIRE(backend.releaseDeadDevice(alive));
    CHECK(host.runner.requests().empty());
    // Once it is gone, /dev/nbd0 is disconnected before the unmount: the kernel then fails the
    // requests it holds instead of waiting for their replies forever (the unmount hung). The
    // device itself stays until the unmount closes it.
    REQUIRE(backend.releaseDeadDevice(active));
    REQUIRE(host.runner.requests().size() == 1);
    CHECK(host.runner.requests()[0].argv ==
          std::vector<std::string>{"nbd-client", "-d", "/dev/nbd0"});
    auto stuck = backend.disable(active);
    REQUIRE_FALSE(stuck);
    CHECK(stuck.error().describe().find("/dev/nbd0 stays attached") != std::string::npos);

    std::filesystem::remove(host.dir / "sys/block/nbd0/pid");
    REQUIRE(backend.releaseDeadDevice(active));
    REQUIRE(backend.disable(active));
    CHECK_FALSE(std::filesystem::exists(host.dir / "run/ssdkeeper/ssdk-labx1.sock"));
    CHECK_FALSE(std::filesystem::exists(host.dir / "run/ssdkeeper/ssdk-labx1.ctl"));
    // Flush and statistics say what happened instead of "connection refused".
    auto flushed = backend.flush(active);
    REQUIRE_FALSE(flushed);
    CHECK(flushed.error().describe().find("is not running (killed or crashed)") !=
          std::string::npos);
}

TEST_CASE("bcache sizes and modes are read, and a filesystem is never reformatted",
          "[cache-backend]") {
    CHECK(parseBcacheSize("0") == 0U);
    CHECK(parseBcacheSize("512k") == 512U * 1024U);
    CHECK(parseBcacheSize("1.5M\n") == 1572864U);
    CHECK_FALSE(parseBcacheSize("lots"));
    CHECK(selectedBcacheMode("writethrough [writeback] writearound none") == "writeback");
    CHECK(bcacheBucketBytes(64 * kMiB) == 64 * 1024);
    CHECK(bcacheBucketBytes(100 * kMiB) == 64 * 1024);
    CHECK(bcacheBucketBytes(512 * kMiB) == 512 * 1024);
    CHECK(bcacheBucketBytes(4 * kGiB) == 512 * 1024);
    CHECK(bcacheBucketBytes(1 * kMiB) == 4096);

    ScratchHost host("bcache");
    host.module("bcache");
    host.tool("make-bcache");
    std::filesystem::create_directories(host.dir / "sys/fs/bcache");
    host.blockDevice("labx1", 2 * kGiB);
    host.runner.expect({"udevadm", "settle", "--timeout=10"}, ok());
    auto plan = zramPlan();
    auto refused = BcacheBackend(host.env).enable(plan);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message().starts_with("/dev/labx1 is not a bcache backing device"));
    CHECK(refused.error().message().find("without reformatting") != std::string::npos);
    for (const auto& request : host.runner.requests()) {
        CHECK(request.argv[0] != "make-bcache");
    }

    // A backing device: its filesystem is on /dev/bcache3. While that is mounted, the backing
    // partition is refused (disable could not mount it back); /dev/bcache3 itself is the origin.
    std::filesystem::create_directories(host.dir / "sys/class/block/labx1/holders/bcache3");
    host.file("/sys/block/bcache3/bcache/cache_mode", "[writethrough] writeback\n");
    host.file("/sys/block/bcache3/bcache/sequential_cutoff", "4.0M\n");
    host.file("/sys/block/bcache3/queue/logical_block_size", "512\n");
    plan.origin = "/dev/bcache3";
    auto smallBlocks = BcacheBackend(host.env).enable(plan);
    REQUIRE_FALSE(smallBlocks);
    CHECK(smallBlocks.error().message().starts_with(
        "/dev/bcache3 was formatted for bcache with 512-byte blocks"));
    plan.origin = "/dev/labx1";
    host.file("/sys/block/bcache3/bcache/cache", ""); // a set is attached: adopted
    host.file("/proc/self/mountinfo",
              "36 25 251:3 / /mnt/data rw,noatime shared:1 - ext4 /dev/bcache3 rw\n");
    auto busy = BcacheBackend(host.env).enable(plan);
    REQUIRE_FALSE(busy);
    CHECK(busy.error().message() == "/dev/labx1 is the backing device of /dev/bcache3, mounted "
                                    "on /mnt/data: cache /dev/bcache3 instead");
    plan.origin = "/dev/bcache3";
    auto adopted = BcacheBackend(host.env).enable(plan);
    REQUIRE(adopted);
    CHECK(adopted->cachedDevice == "/dev/bcache3");
    CHECK(adopted->resources.value("adopted", false));
    CHECK(host.contents("/sys/block/bcache3/bcache/cache_mode") == "writeback");
}

TEST_CASE("the sequential cutoff and writeback percent round-trip, also from old journals",
          "[cache-backend][tuning]") {
    auto plan = zramPlan();
    plan.sequentialCutoff = 0;
    plan.writebackPercent = 20;
    const Json json = toJson(plan);
    CHECK(json["sequential_cutoff"] == 0);
    CHECK(json["writeback_percent"] == 20);
    auto back = planFromJson(json);
    REQUIRE(back);
    CHECK(back->sequentialCutoff == std::optional<std::uint64_t>(0));
    CHECK(back->writebackPercent == std::optional<unsigned>(20U));

    // Unset: absent from the JSON, and a journal written before the fields existed loads.
    CHECK_FALSE(toJson(zramPlan()).contains("sequential_cutoff"));
    CHECK_FALSE(toJson(zramPlan()).contains("writeback_percent"));
    const Json oldJournal = Json::parse(R"({"backend":"bcache","cached_device":"/dev/bcache3",
        "plan":{"origin":"/dev/bcache3","name":"ssdk-bcache3","cache_bytes":268435456,
                "compression":"lz4","mode":"write-back","cache_device":""},
        "resources":{"adopted":true,"previous_mode":"writethrough",
                     "previous_sequential_cutoff":"4.0M"}})");
    auto old = activeCacheFromJson(oldJournal);
    REQUIRE(old);
    CHECK_FALSE(old->plan.sequentialCutoff);
    CHECK_FALSE(old->plan.writebackPercent);
    CHECK(old->plan.mode == CacheMode::WriteBack);

    Json wrong = json;
    wrong["sequential_cutoff"] = "4M";
    CHECK(planFromJson(wrong).error().message() ==
          "field 'sequential_cutoff' must be a non-negative integer");
    wrong = json;
    wrong["writeback_percent"] = 101;
    CHECK(planFromJson(wrong).error().code() == ErrorCode::Parse);

    CacheStats stats;
    stats.sequentialCutoff = 4 * kMiB;
    stats.writebackPercent = 10;
    auto statsBack = cacheStatsFromJson(toJson(stats));
    REQUIRE(statsBack);
    CHECK(statsBack->sequentialCutoff == std::optional<std::uint64_t>(4 * kMiB));
    CHECK(statsBack->writebackPercent == std::optional<unsigned>(10U));
    CHECK(toJson(CacheStats{})["sequential_cutoff"].is_null());
    CHECK_FALSE(cacheStatsFromJson(toJson(CacheStats{}))->writebackPercent);

    Capabilities capabilities;
    capabilities.sequentialCutoff = true;
    capabilities.noWritebackPercentReason = "no such knob";
    const auto capabilitiesBack = capabilitiesFromJson(toJson(capabilities));
    CHECK(capabilitiesBack.sequentialCutoff);
    CHECK_FALSE(capabilitiesBack.writebackPercent);
    CHECK(capabilitiesBack.noWritebackPercentReason == "no such knob");
}

TEST_CASE("tuning values are range-checked and refused by backends without the knob",
          "[cache-backend][tuning]") {
    Capabilities tunable;
    tunable.writeBack = true;
    tunable.compressions = {Compression::Lz4};
    tunable.sequentialCutoff = true;
    tunable.writebackPercent = true;
    auto plan = zramPlan();
    plan.sequentialCutoff = kGiB;
    plan.writebackPercent = 100;
    CHECK(checkPlan(plan, tunable));
    plan.sequentialCutoff = kGiB + 1;
    auto tooLong = checkPlan(plan, tunable);
    REQUIRE_FALSE(tooLong);
    CHECK(tooLong.error().code() == ErrorCode::InvalidArgument);
    CHECK(tooLong.error().message() == "the sequential cutoff must be at most 1 GiB (0: never "
                                       "bypass the cache), not 1073741825 bytes (1.00 GiB)");
    plan.sequentialCutoff = 0;
    plan.writebackPercent = 101;
    auto tooMuch = checkTuning(plan);
    REQUIRE_FALSE(tooMuch);
    CHECK(tooMuch.error().code() == ErrorCode::InvalidArgument);
    CHECK(tooMuch.error().message() == "the writeback percent must be between 0 and 100, not 101");

    // zram-writecache and ssd-cache (dm-cache, smq) have neither knob; the engine no writeback
    // percent. Each refuses before touching anything, and says why.
    ScratchHost host("tuning-refused");
    dmReady(host);
    plan = zramPlan();
    plan.sequentialCutoff = 0;
    auto zram = ZramCacheBackend(host.env).enable(plan);
    REQUIRE_FALSE(zram);
    CHECK(zram.error().code() == ErrorCode::Unsupported);
    CHECK(zram.error().message().starts_with("this backend cannot set a sequential cutoff: "
                                             "dm-cache's smq policy has no sequential cutoff"));
    auto ssdPlan = zramPlan();
    ssdPlan.compression = Compression::None;
    ssdPlan.cacheDevice = "/dev/laby1";
    ssdPlan.writebackPercent = 20;
    auto ssd = SsdCacheBackend(host.env).enable(ssdPlan);
    REQUIRE_FALSE(ssd);
    CHECK(ssd.error().message().starts_with("this backend cannot set a writeback percent: "
                                            "dm-cache writes dirty blocks back"));
    auto enginePlan = zramPlan();
    enginePlan.writebackPercent = 20;
    auto engine = EngineBackend(host.env).enable(enginePlan);
    REQUIRE_FALSE(engine);
    CHECK(engine.error().code() == ErrorCode::Unsupported);
    CHECK(engine.error().message().find("the engine writes every dirty block back") !=
          std::string::npos);
    CHECK(host.runner.requests().empty());
    CHECK(EngineBackend(host.env).capabilities().sequentialCutoff);
    CHECK(BcacheBackend(host.env).capabilities().writebackPercent);
}

TEST_CASE("the engine passes the sequential cutoff to ssdkeeper-cached and reports it",
          "[cache-backend][tuning]") {
    auto plan = zramPlan();
    plan.sequentialCutoff = 512 * 1024;
    const auto argv = engineDaemonArgv("/usr/libexec/ssdkeeper/ssdkeeper-cached", plan, "/run/s");
    REQUIRE(argv.size() >= 2);
    CHECK(argv[argv.size() - 2] == "--sequential-cutoff");
    CHECK(argv.back() == "524288");
    const auto defaults =
        engineDaemonArgv("/usr/libexec/ssdkeeper/ssdkeeper-cached", zramPlan(), "/run/s");
    CHECK(std::ranges::find(defaults, "--sequential-cutoff") == defaults.end());

    const Json reply = Json::parse(R"({"ok":true,"exports":[{"name":"ssdk-labx1",
        "cache":{"hits":1,"misses":1,"mode":"write-back","sequential_cutoff":0}}]})");
    auto stats = engineStatsFromJson(reply, "ssdk-labx1");
    REQUIRE(stats);
    CHECK(stats->sequentialCutoff == std::optional<std::uint64_t>(0));
    CHECK_FALSE(stats->writebackPercent);

    // A daemon from before --sequential-cutoff: refused with the reason, nothing started.
    ScratchHost host("engine-cutoff");
    host.env.daemonCandidates = {"/usr/libexec/ssdkeeper/ssdkeeper-cached"};
    host.file("/usr/libexec/ssdkeeper/ssdkeeper-cached", "");
    host.module("nbd");
    host.tool("nbd-client");
    host.runner.expect({"/usr/libexec/ssdkeeper/ssdkeeper-cached", "--help"},
                       ok("ssdkeeper-cached --export NAME=PATH --cache-size BYTES\n"));
    auto old = EngineBackend(host.env).enable(plan);
    REQUIRE_FALSE(old);
    CHECK(old.error().code() == ErrorCode::Unsupported);
    CHECK(old.error().message() ==
          "ssdkeeper-cached at /usr/libexec/ssdkeeper/ssdkeeper-cached has no "
          "--sequential-cutoff option: update it, or leave the sequential cutoff at its default");
}

TEST_CASE("bcache writes the sequential cutoff and writeback percent and restores them",
          "[cache-backend][tuning]") {
    ScratchHost host("bcache-tuning");
    host.module("bcache");
    host.tool("make-bcache");
    std::filesystem::create_directories(host.dir / "sys/fs/bcache");
    const std::string sys = "/sys/block/bcache3/bcache/";
    host.file(sys + "cache_mode", "[writethrough] writeback writearound none\n");
    host.file(sys + "sequential_cutoff", "4.0M\n");
    host.file(sys + "writeback_percent", "10\n");
    host.file(sys + "dirty_data", "0\n");
    host.file(sys + "cache", ""); // an attached set: adopted
    host.file("/sys/block/bcache3/queue/logical_block_size", "4096\n");

    auto plan = zramPlan();
    plan.origin = "/dev/bcache3";
    plan.sequentialCutoff = 0;
    plan.writebackPercent = 20;
    BcacheBackend backend(host.env);
    auto active = backend.enable(plan);
    REQUIRE(active);
    CHECK(host.contents(sys + "sequential_cutoff") == "0");
    CHECK(host.contents(sys + "writeback_percent") == "20");
    CHECK(host.contents(sys + "cache_mode") == "writeback");
    CHECK(active->resources["previous_sequential_cutoff"] == 4 * kMiB);
    CHECK(active->resources["previous_writeback_percent"] == 10);
    // The journal keeps the plan's tuning, so disable knows what to put back.
    auto journaled = activeCacheFromJson(toJson(*active));
    REQUIRE(journaled);
    CHECK(journaled->plan.writebackPercent == std::optional<unsigned>(20U));

    // Statistics read what is in effect from sysfs.
    host.file(sys + "sequential_cutoff", "0\n");
    auto stats = backend.stats(*active);
    REQUIRE(stats);
    CHECK(stats->sequentialCutoff == std::optional<std::uint64_t>(0));
    CHECK(stats->writebackPercent == std::optional<unsigned>(20U));

    REQUIRE(backend.disable(*journaled));
    CHECK(host.contents(sys + "sequential_cutoff") == "4194304"); // bcache shows "4.0M"
    CHECK(host.contents(sys + "writeback_percent") == "10");
    CHECK(host.contents(sys + "cache_mode") == "writethrough");

    // Only what the plan set is touched; a cutoff bcache printed rounded stays as it was.
    host.file(sys + "sequential_cutoff", "976.5k\n");
    plan.sequentialCutoff.reset();
    plan.writebackPercent = 0;
    auto percentOnly = backend.enable(plan);
    REQUIRE(percentOnly);
    CHECK(host.contents(sys + "sequential_cutoff") == "976.5k\n");
    CHECK(host.contents(sys + "writeback_percent") == "0");
    REQUIRE(backend.disable(*percentOnly));
    CHECK(host.contents(sys + "sequential_cutoff") == "976.5k\n");
    CHECK(host.contents(sys + "writeback_percent") == "10");

    // A journal from before the tuning kept the cutoff as bcache printed it.
    ActiveCache older = *active;
    older.resources["previous_sequential_cutoff"] = "1.5M";
    older.resources.erase("previous_writeback_percent");
    host.file(sys + "writeback_percent", "33\n");
    REQUIRE(backend.disable(older));
    CHECK(host.contents(sys + "sequential_cutoff") == "1572864");
    CHECK(host.contents(sys + "writeback_percent") == "10"); // the kernel default
}

TEST_CASE("the engine's run directory is private whatever the umask, a shared one is refused",
          "[cache-backend]") {
    ScratchHost host("engine-rundir");
    // A daemon the fake host has and this machine does not: spawning it fails harmlessly.
    const std::string daemon = "/opt/ssdk-no-such-dir/ssdkeeper-cached";
    host.env.daemonCandidates = {daemon};
    host.file(daemon, "");
    host.module("nbd");
    host.tool("nbd-client");
    host.file("/sys/block/nbd0/size", "0\n");
    host.runner.expect({daemon, "--help"}, ok("ssdkeeper-cached --cache-size BYTES\n"));
    const auto run = host.dir / "run" / "ssdkeeper";
    const mode_t previous = ::umask(0);
    auto started = EngineBackend(host.env, run).enable(zramPlan());
    ::umask(previous);
    REQUIRE_FALSE(started);
    CHECK_THAT(started.error().describe(), Catch::Contains("starting " + daemon));
    struct stat info {};
    REQUIRE(::lstat(run.c_str(), &info) == 0);
    CHECK((info.st_mode & 07777) == 0700);

    // Writable by others: they could put their own socket where the helper connects.
    ::chmod(run.c_str(), 0777);
    auto shared = EngineBackend(host.env, run).enable(zramPlan());
    REQUIRE_FALSE(shared);
    CHECK(shared.error().code() == ErrorCode::PermissionDenied);
    CHECK_THAT(shared.error().describe(), Catch::Contains("run directory"));
    ::chmod(run.c_str(), 0700);
    // A symbolic link in its place is not followed.
    std::filesystem::rename(run, host.dir / "run" / "real");
    std::filesystem::create_directory_symlink(host.dir / "run" / "real", run);
    auto linked = EngineBackend(host.env, run).enable(zramPlan());
    REQUIRE_FALSE(linked);
    CHECK_THAT(linked.error().describe(), Catch::Contains("symbolic link"));
}
