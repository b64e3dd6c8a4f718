#include "core/perf/verbs.h"

#include <algorithm>
#include <fmt/format.h>

#include "core/base/json_args.h"

namespace ssdk::perf {

namespace {

constexpr std::size_t kMaxConfirmBytes = 256;
constexpr std::size_t kMaxPresetBytes = 32;
constexpr std::size_t kMaxPickBytes = 16;
constexpr std::uint64_t kMaxBenchSeconds = 24 * 3600;
constexpr std::size_t kMaxGaps = 16;
constexpr std::uint64_t kMaxGapSeconds = 3600;

Expected<unsigned> boundedArg(const Json& args, std::string_view key, unsigned fallback,
                              std::uint64_t low, std::uint64_t high) {
    auto value = unsignedArg(args, key, fallback);
    if (!value) {
        return std::unexpected(value.error());
    }
    if (*value < low || *value > high) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("argument '{}' must be {} to {}", key, low, high));
    }
    return static_cast<unsigned>(*value);
}

Expected<std::vector<unsigned>> gapsArg(const Json& args, std::vector<unsigned> fallback) {
    const auto it = args.find("gaps_s");
    if (it == args.end()) {
        return fallback;
    }
    if (!it->is_array() || it->empty() || it->size() > kMaxGaps) {
        return fail(ErrorCode::InvalidArgument,
                    "argument 'gaps_s' must be a list of 1 to 16 idle gaps in seconds");
    }
    std::vector<unsigned> gaps;
    for (const auto& gap : *it) {
        if (!gap.is_number_unsigned() || gap.get<std::uint64_t>() > kMaxGapSeconds) {
            return fail(ErrorCode::InvalidArgument,
                        "argument 'gaps_s' must hold whole seconds from 0 to 3600");
        }
        gaps.push_back(gap.get<unsigned>());
    }
    return gaps;
}

// duration_s, loops, round_s, gaps_s and burst into options; the first error.
Expected<void> runOptions(const Json& args, BenchOptions& options) {
    auto duration = boundedArg(args, "duration_s", 0, 0, kMaxBenchSeconds);
    auto loops = boundedArg(args, "loops", 1, 1, 9);
    auto round = boundedArg(args, "round_s", 60, 1, 3600);
    auto gaps = gapsArg(args, options.gapsS);
    auto burst = unsignedArg(args, "burst", 0);
    if (!duration || !loops || !round || !gaps || !burst) {
        return fail(ErrorCode::InvalidArgument, !duration ? duration.error().message()
                                                : !loops  ? loops.error().message()
                                                : !round  ? round.error().message()
                                                : !gaps   ? gaps.error().message()
                                                          : burst.error().message());
    }
    if (*burst > options.size.value) {
        return fail(ErrorCode::InvalidArgument, "argument 'burst' must not exceed 'size'");
    }
    options.durationS = *duration;
    options.loops = *loops;
    options.roundS = *round;
    options.gapsS = *gaps;
    options.burst = Bytes(*burst);
    return {};
}

} // namespace

Json toJson(const BenchRequest& request) {
    const BenchOptions& options = request.options;
    return Json{{"device", request.device},          {"preset", options.preset},
                {"confirm", request.confirm},        {"size", options.size.value},
                {"duration_s", options.durationS},   {"loops", options.loops},
                {"pick", cdmPickName(options.pick)}, {"round_s", options.roundS},
                {"gaps_s", options.gapsS},           {"burst", options.burst.value}};
}

Expected<BenchRequest> benchRequestFromJson(const Json& args) {
    if (auto keys = requireOnlyKeys(args, {"device", "preset", "confirm", "size", "duration_s",
                                           "loops", "pick", "round_s", "gaps_s", "burst"});
        !keys) {
        return std::unexpected(keys.error());
    }
    BenchRequest request;
    auto device = stringArg(args, "device", kMaxDevicePathBytes);
    auto confirm = stringArg(args, "confirm", kMaxConfirmBytes, "");
    auto preset = stringArg(args, "preset", kMaxPresetBytes);
    auto size = unsignedArg(args, "size", request.options.size.value);
    for (const auto* value : {&device, &confirm, &preset}) {
        if (!*value) {
            return std::unexpected(value->error());
        }
    }
    if (!size) {
        return std::unexpected(size.error());
    }
    if (*size < Bytes::mib(1).value) {
        return fail(ErrorCode::InvalidArgument, "argument 'size' must be at least 1 MiB");
    }
    request.device = *device;
    request.confirm = *confirm;
    request.options.preset = *preset;
    request.options.size = Bytes(*size);
    if (auto checked = runOptions(args, request.options); !checked) {
        return std::unexpected(checked.error());
    }
    if (args.contains("pick")) {
        auto pick = stringArg(args, "pick", kMaxPickBytes);
        const auto parsed = pick ? cdmPickFromName(*pick) : std::nullopt;
        if (!parsed) {
            return fail(ErrorCode::InvalidArgument, "argument 'pick' must be \"best\" or "
                                                    "\"average\"");
        }
        request.options.pick = *parsed;
    }
    if (std::ranges::find(benchPresets(), request.options.preset) == benchPresets().end()) {
        return fail(ErrorCode::Unsupported,
                    "preset '" + request.options.preset + "' is not available");
    }
    return request;
}

Json toJson(const BenchProgress& progress) {
    return Json{{"fraction", progress.fraction},
                {"text", progress.text},
                {"elapsed_s", progress.elapsedS},
                {"read_bytes_per_s", progress.readBytesPerS},
                {"write_bytes_per_s", progress.writeBytesPerS},
                {"read_iops", progress.readIops},
                {"write_iops", progress.writeIops}};
}

Json toJson(const TraceRecordRequest& request) {
    return Json{{"device", request.device}, {"seconds", request.seconds}};
}

Expected<TraceRecordRequest> traceRecordRequestFromJson(const Json& args) {
    if (auto keys = requireOnlyKeys(args, {"device", "seconds"}); !keys) {
        return std::unexpected(keys.error());
    }
    auto device = stringArg(args, "device", kMaxDevicePathBytes);
    if (!device) {
        return std::unexpected(device.error());
    }
    if (!device->starts_with("/dev/")) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("'{}' is not a device path under /dev", *device));
    }
    auto seconds = unsignedArg(args, "seconds", kDefaultTraceSeconds);
    if (!seconds) {
        return std::unexpected(seconds.error());
    }
    if (*seconds < 1 || *seconds > kMaxTraceSeconds) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("argument 'seconds' must be 1 to {}", kMaxTraceSeconds));
    }
    return TraceRecordRequest{*device, static_cast<unsigned>(*seconds)};
}

Json toJson(const TraceProgress& progress) {
    return Json{{"fraction", progress.fraction},
                {"text", progress.text},
                {"elapsed_s", progress.elapsedS},
                {"requests", progress.requests}};
}

Json toJson(const TraceChunk& chunk) {
    return Json{{"lines", chunk.lines}};
}

std::optional<TraceChunk> traceChunkOf(const std::string& eventName, const Json& data) {
    if (eventName != kEventTrace || !data.is_object()) {
        return std::nullopt;
    }
    const auto lines = data.find("lines");
    if (lines == data.end() || !lines->is_string()) {
        return std::nullopt;
    }
    return TraceChunk{lines->get<std::string>()};
}

Json toJson(const TraceRecordReply& reply) {
    return Json{{"device", reply.device},
                {"seconds", reply.seconds},
                {"requests", reply.requests},
                {"reads", reply.reads},
                {"writes", reply.writes},
                {"discards", reply.discards},
                {"bytes_read", reply.bytesRead},
                {"bytes_written", reply.bytesWritten},
                {"unparsed", reply.unparsed},
                {"lost_events", reply.lostEvents},
                {"stopped_early", reply.stoppedEarly},
                {"truncated", reply.truncated},
                {"truncated_reason", reply.truncatedReason},
                {"header", reply.header}};
}

Json summaryJson(const TraceRecordReply& reply) {
    Json json = toJson(reply);
    json.erase("header");
    return json;
}

Expected<TraceRecordReply> traceRecordReplyFromJson(const Json& json) {
    return readReply(json, "the trace recording", [&]() -> Expected<TraceRecordReply> {
        TraceRecordReply reply;
        reply.device = json.value("device", std::string());
        reply.seconds = json.value("seconds", 0.0);
        reply.requests = json.value("requests", std::uint64_t{0});
        reply.reads = json.value("reads", std::uint64_t{0});
        reply.writes = json.value("writes", std::uint64_t{0});
        reply.discards = json.value("discards", std::uint64_t{0});
        reply.bytesRead = json.value("bytes_read", std::uint64_t{0});
        reply.bytesWritten = json.value("bytes_written", std::uint64_t{0});
        reply.unparsed = json.value("unparsed", std::uint64_t{0});
        reply.lostEvents = json.value("lost_events", std::uint64_t{0});
        reply.stoppedEarly = json.value("stopped_early", false);
        reply.truncated = json.value("truncated", false);
        reply.truncatedReason = json.value("truncated_reason", std::string());
        reply.header = json.value("header", std::string());
        return reply;
    });
}

} // namespace ssdk::perf
