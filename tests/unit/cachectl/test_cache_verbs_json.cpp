// core/cachectl/verbs.h: every request and result survives its JSON (as a line, parsed back),
// and requests refuse unknown keys, wrong types and values out of range with the helper's
// InvalidArgument messages.
#include <catch2/catch.hpp>

#include "core/cachectl/verbs.h"

using namespace ssdk;
using namespace ssdk::cachectl;

namespace {

// The JSON as it travels: dumped to a line and parsed again.
Json overTheWire(const Json& json) {
    auto parsed = parseJson(json.dump(), "line");
    REQUIRE(parsed);
    return *parsed;
}

template <typename T, typename Parse> T roundTrip(const T& value, Parse parse) {
    auto back = parse(overTheWire(toJson(value)));
    INFO(toJson(value).dump());
    REQUIRE(back);
    CHECK(toJson(*back) == toJson(value));
    return *back;
}

CacheRecord sampleRecord() {
    CachePlan plan{"/dev/sdb1",       "ssdk-sdb1",          64ULL << 20,
                   Compression::Zstd, CacheMode::WriteBack, ""};
    plan.sequentialCutoff = 0;
    plan.writebackPercent = 20;
    CacheRecord record{CachePhase::Active,
                       ActiveCache{"bcache", plan, "/dev/bcache0", Json{{"set", "abc"}}},
                       MountRecord{"/mnt/data", "ext4", "rw,noatime"}};
    record.power = PowerPolicy{true, "battery"};
    record.boot = BootRecord{"/dev/disk/by-partuuid/1", "ssdkeeper-cache@x.service", "/etc/fstab",
                             "before", "after"};
    return record;
}

} // namespace

TEST_CASE("cache verb names are the helper's", "[cachectl][verbs]") {
    CHECK(std::string(kVerbEnable) == "cache.enable");
    CHECK(std::size(kCacheVerbs) == 10);
    for (const char* verb : kCacheVerbs) {
        CHECK(std::string(verb).starts_with("cache."));
    }
}

TEST_CASE("cache verb requests round-trip through JSON", "[cachectl][verbs]") {
    roundTrip(ProbeRequest{}, probeRequestFromJson);
    roundTrip(StatusRequest{}, statusRequestFromJson);

    EnableRequest enable;
    enable.device = "/dev/sdb1";
    enable.backend = "bcache";
    enable.size = 2ULL << 30;
    enable.compression = Compression::Lz4;
    enable.mode = CacheMode::WriteBack;
    enable.cacheDevice = "/dev/nvme0n1p3";
    enable.atNextBoot = true;
    enable.powerSafe = true;
    enable.fstabLine = "/dev/bcache0 /data ext4 defaults 0 2";
    enable.sequentialCutoff = 0;
    enable.writebackPercent = 40;
    const EnableRequest back = roundTrip(enable, enableRequestFromJson);
    CHECK(back.cacheDevice == enable.cacheDevice);
    CHECK(back.sequentialCutoff == std::optional<std::uint64_t>(0));
    CHECK(back.writebackPercent == std::optional<unsigned>(40));
    CHECK(back.atNextBoot);
    CHECK_FALSE(back.applyNow);

    // Only what is needed: the defaults fill the rest.
    const auto minimal = enableRequestFromJson(
        Json{{"device", "/dev/sdb1"}, {"backend", "zram-writecache"}, {"size", 1 << 26}});
    REQUIRE(minimal);
    CHECK(minimal->compression == Compression::None);
    CHECK(minimal->mode == CacheMode::WriteThrough);
    CHECK_FALSE(minimal->cacheDevice);
    CHECK_FALSE(minimal->sequentialCutoff);
    CHECK(toJson(*minimal).size() == 5); // device, backend, size, compression, mode

    CHECK(roundTrip(DisableRequest{"ssdk-sdb1"}, deviceRequestFromJson).device == "ssdk-sdb1");
    CHECK(roundTrip(ModeRequest{"/dev/sdb1", CacheMode::WriteBack}, modeRequestFromJson).mode ==
          CacheMode::WriteBack);
    CHECK(roundTrip(ResizeRequest{"/dev/sdb1", 1ULL << 30}, resizeRequestFromJson).size ==
          1ULL << 30);
    CHECK(roundTrip(PolicyRequest{"/dev/sdb1", true}, policyRequestFromJson).powerSafe);
    CHECK(roundTrip(BootRequest{"/dev/sdb1", BootAction::Stop}, bootRequestFromJson).action ==
          BootAction::Stop);
    CHECK_FALSE(roundTrip(PowerRequest{}, powerRequestFromJson).event);
    CHECK(toJson(PowerRequest{})["event"] == "auto");
    CHECK(roundTrip(PowerRequest{PowerEvent::Suspend}, powerRequestFromJson).event ==
          PowerEvent::Suspend);
}

TEST_CASE("cache verb requests refuse what the helper refuses", "[cachectl][verbs]") {
    const Json base{{"device", "/dev/sdb1"}, {"backend", "bcache"}, {"size", 1 << 26}};
    auto with = [&](const char* key, const Json& value) {
        Json args = base;
        args[key] = value;
        return args;
    };
    struct Case {
        Json args;
        std::string mentions;
    };
    const std::vector<Case> enableCases{
        {with("rm", "-rf"), "unknown argument 'rm'"},
        {with("size", "big"), "argument 'size' must be a non-negative integer"},
        {with("size", -1), "argument 'size' must be a non-negative integer"},
        {with("backend", 7), "argument 'backend' must be a string"},
        {with("backend", std::string(65, 'x')), "argument 'backend' is longer than 64 bytes"},
        {with("device", std::string("/dev/a\0b", 8)), "contains a NUL byte"},
        {with("compression", "gzip"), "compression must be none, lz4 or zstd"},
        {with("mode", "fast"), "write-through or write-back"},
        {with("apply_now", "yes"), "argument 'apply_now' must be true or false"},
        {with("writeback_percent", 101), "between 0 and 100, not 101"},
        {with("sequential_cutoff", (1ULL << 30) + 1), "at most 1 GiB"},
        {with("sequential_cutoff", "4M"), "sequential_cutoff"},
        {with("preview", true), "preview is for at_next_boot"},
        {with("cache_device", 1), "argument 'cache_device' must be a string"},
        {Json{{"backend", "x"}, {"size", 1}}, "argument 'device' is missing"},
        {Json::array(), "arguments must be a JSON object"},
    };
    for (const auto& [args, mentions] : enableCases) {
        INFO(args.dump());
        const auto parsed = enableRequestFromJson(args);
        REQUIRE_FALSE(parsed);
        CHECK(parsed.error().code() == ErrorCode::InvalidArgument);
        CHECK_THAT(parsed.error().describe(), Catch::Contains(mentions));
    }
    Json both = with("apply_now", true);
    both["at_next_boot"] = true;
    CHECK_THAT(enableRequestFromJson(both).error().describe(),
               Catch::Contains("apply_now and at_next_boot exclude each other"));

    CHECK_THAT(probeRequestFromJson(Json{{"x", 1}}).error().describe(),
               Catch::Contains("unknown argument 'x'"));
    CHECK_FALSE(statusRequestFromJson(Json{{"x", 1}}));
    CHECK_THAT(deviceRequestFromJson(Json{{"device", "/dev/a"}, {"now", true}}).error().describe(),
               Catch::Contains("unknown argument 'now'"));
    CHECK_THAT(deviceRequestFromJson(Json::object()).error().describe(),
               Catch::Contains("argument 'device' is missing"));
    CHECK_THAT(modeRequestFromJson(Json{{"device", "/dev/a"}, {"mode", "fast"}}).error().describe(),
               Catch::Contains("write-through or write-back"));
    CHECK_THAT(resizeRequestFromJson(Json{{"device", "/dev/a"}}).error().describe(),
               Catch::Contains("argument 'size' is missing"));
    CHECK_THAT(policyRequestFromJson(Json{{"device", "/dev/a"}}).error().describe(),
               Catch::Contains("'power_safe' is missing"));
    CHECK_THAT(
        policyRequestFromJson(Json{{"device", "/dev/a"}, {"power_safe", "yes"}}).error().describe(),
        Catch::Contains("true or false"));
    CHECK_THAT(bootRequestFromJson(Json{{"device", "/dev/a"}, {"action", "go"}}).error().describe(),
               Catch::Contains("start or stop"));
    CHECK_THAT(powerRequestFromJson(Json{{"event", "lunch"}}).error().describe(),
               Catch::Contains("unknown power event"));
    CHECK_THAT(powerRequestFromJson(Json{{"event", "ac"}, {"why", 1}}).error().describe(),
               Catch::Contains("unknown argument 'why'"));
}

TEST_CASE("cache verb results round-trip through JSON", "[cachectl][verbs]") {
    Capabilities capabilities;
    capabilities.writeBack = true;
    capabilities.compressions = {Compression::None, Compression::Zstd};
    capabilities.noSequentialCutoffReason = "no knob";
    const ProbeReply probe{
        {BackendReport{"engine", "Engine", ProbeResult{false, {"no nbd", "no root"}}, capabilities},
         BackendReport{"zram-writecache", "zram", ProbeResult{true, {}}, capabilities}},
        RamReport{8ULL << 30, 5ULL << 30, 2ULL << 30}};
    const ProbeReply probeBack = roundTrip(probe, probeReplyFromJson);
    CHECK(probeBack.backends[0].probe.reasons == std::vector<std::string>{"no nbd", "no root"});
    CHECK(probeBack.ram.suggestedBytes == 2ULL << 30);

    CacheStats stats;
    stats.hits = 30;
    stats.misses = 10;
    stats.writebackPercent = 20;
    const StatusReply status{{CacheStatus{sampleRecord(), stats, ""},
                              CacheStatus{sampleRecord(), std::nullopt, "the daemon died"}}};
    const StatusReply statusBack = roundTrip(status, statusReplyFromJson);
    REQUIRE(statusBack.caches.size() == 2);
    CHECK(statusBack.caches[0].stats->hits == 30);
    CHECK_FALSE(statusBack.caches[1].stats);
    CHECK(statusBack.caches[1].statsError == "the daemon died");
    CHECK(statusBack.caches[0].record.boot->unit == "ssdkeeper-cache@x.service");

    const EnableReply enabled =
        roundTrip(EnableReply{sampleRecord(), std::nullopt}, enableReplyFromJson);
    CHECK(enabled.record->active.plan.writebackPercent == std::optional<unsigned>(20));
    const FstabPreview preview{"/etc/fstab", 2, "a b", "c d", "-a b\n+c d\n"};
    const EnableReply previewed =
        roundTrip(EnableReply{std::nullopt, preview}, enableReplyFromJson);
    REQUIRE(previewed.fstab);
    CHECK_FALSE(previewed.record);
    CHECK(previewed.fstab->line == 2);
    CHECK(previewed.fstab->after == "c d");

    CHECK(roundTrip(DisableReply{"/dev/sdb1"}, disableReplyFromJson).disabled == "/dev/sdb1");
    CHECK(roundTrip(FlushReply{"/dev/sdb1"}, flushReplyFromJson).flushed == "/dev/sdb1");
    CHECK(roundTrip(RecordReply{sampleRecord()}, recordReplyFromJson).record.mount->mountPoint ==
          "/mnt/data");
    const PowerReply power{PowerEvent::Shutdown,
                           true,
                           "BAT0 (Discharging)",
                           {PowerOutcome{"ssdk-sdb1", "/dev/sdb1", "flushed", ""}}};
    const PowerReply powerBack = roundTrip(power, powerReplyFromJson);
    CHECK(powerBack.event == PowerEvent::Shutdown);
    CHECK(powerBack.caches.at(0).action == "flushed");

    // Answers that lack what the result needs are Parse errors.
    CHECK(recordReplyFromJson(Json::object()).error().code() == ErrorCode::Parse);
    CHECK(disableReplyFromJson(Json{{"disabled", 1}}).error().code() == ErrorCode::Parse);
    CHECK_FALSE(powerReplyFromJson(Json{{"event", "lunch"}}));
    CHECK(probeReplyFromJson(Json{{"backends", Json::array({Json{{"title", "x"}}})}})
              .error()
              .code() == ErrorCode::Parse);
    CHECK(statusReplyFromJson(Json::array()).error().code() == ErrorCode::Parse);
}
