#include "core/cachectl/verbs.h"

#include "core/base/json_args.h"

namespace ssdk::cachectl {

namespace {

constexpr std::size_t kMaxEnumBytes = 16;

// {device} and nothing else for disable and flush; with more keys for the others.
Expected<std::string> deviceArg(const Json& args, std::initializer_list<std::string_view> keys) {
    if (auto checked = requireOnlyKeys(args, keys); !checked) {
        return std::unexpected(checked.error());
    }
    return stringArg(args, "device", kMaxDevicePathBytes);
}

Expected<void> noArgs(const Json& args) {
    return requireOnlyKeys(args, {});
}

// sequential_cutoff and writeback_percent of cache.enable, checked before anything else.
Expected<void> tuningArgs(const Json& args, EnableRequest& request) {
    if (args.contains("sequential_cutoff")) {
        auto cutoff = unsignedArg(args, "sequential_cutoff");
        if (!cutoff) {
            return std::unexpected(cutoff.error());
        }
        request.sequentialCutoff = *cutoff;
    }
    if (args.contains("writeback_percent")) {
        auto percent = unsignedArg(args, "writeback_percent");
        if (!percent) {
            return std::unexpected(percent.error());
        }
        if (*percent > 100) {
            return fail(ErrorCode::InvalidArgument,
                        "the writeback percent must be between 0 and 100, not " +
                            std::to_string(*percent));
        }
        request.writebackPercent = static_cast<unsigned>(*percent);
    }
    CachePlan tuning;
    tuning.sequentialCutoff = request.sequentialCutoff;
    tuning.writebackPercent = request.writebackPercent;
    return checkTuning(tuning);
}

Expected<std::string> stringField(const Json& json, const char* key, const char* what) {
    if (!json.contains(key) || !json[key].is_string()) {
        return fail(ErrorCode::Parse, std::string(what) + " needs '" + key + "', a string");
    }
    return json[key].get<std::string>();
}

Expected<CacheRecord> recordField(const Json& json, const char* what) {
    if (!json.contains("record")) {
        return fail(ErrorCode::Parse, std::string(what) + " needs 'record'");
    }
    return cacheRecordFromJson(json["record"]);
}

ProbeResult probeResultFromJson(const Json& json) {
    ProbeResult probe;
    probe.available = json.value("available", false);
    probe.reasons = json.value("reasons", std::vector<std::string>{});
    if (probe.reasons.empty() && !probe.available) {
        // An answer that only gave the joined text.
        if (auto reason = json.value("reason", std::string()); !reason.empty()) {
            probe.reasons.push_back(std::move(reason));
        }
    }
    return probe;
}

} // namespace

Json toJson(const ProbeRequest& /*request*/) {
    return Json::object();
}

Expected<ProbeRequest> probeRequestFromJson(const Json& args) {
    if (auto checked = noArgs(args); !checked) {
        return std::unexpected(checked.error());
    }
    return ProbeRequest{};
}

Json toJson(const ProbeReply& reply) {
    Json backends = Json::array();
    for (const auto& report : reply.backends) {
        backends.push_back(toJson(report));
    }
    return Json{{"backends", backends},
                {"ram",
                 {{"total_bytes", reply.ram.totalBytes},
                  {"available_bytes", reply.ram.availableBytes},
                  {"suggested_bytes", reply.ram.suggestedBytes}}}};
}

Expected<ProbeReply> probeReplyFromJson(const Json& json) {
    return readReply(json, "the cache probe", [&]() -> Expected<ProbeReply> {
        ProbeReply reply;
        for (const auto& item : json.value("backends", Json::array())) {
            auto name = stringField(item, "name", "a backend report");
            if (!name) {
                return std::unexpected(name.error());
            }
            reply.backends.push_back(
                BackendReport{*name, item.value("title", std::string()),
                              probeResultFromJson(item.value("probe", Json::object())),
                              capabilitiesFromJson(item.value("capabilities", Json::object()))});
        }
        const Json ram = json.value("ram", Json::object());
        reply.ram.totalBytes = ram.value("total_bytes", std::uint64_t{0});
        reply.ram.availableBytes = ram.value("available_bytes", std::uint64_t{0});
        reply.ram.suggestedBytes = ram.value("suggested_bytes", std::uint64_t{0});
        return reply;
    });
}

Json toJson(const StatusRequest& /*request*/) {
    return Json::object();
}

Expected<StatusRequest> statusRequestFromJson(const Json& args) {
    if (auto checked = noArgs(args); !checked) {
        return std::unexpected(checked.error());
    }
    return StatusRequest{};
}

Json toJson(const StatusReply& reply) {
    Json caches = Json::array();
    for (const auto& status : reply.caches) {
        caches.push_back(toJson(status));
    }
    return Json{{"caches", caches}};
}

Expected<StatusReply> statusReplyFromJson(const Json& json) {
    return readReply(json, "the cache status", [&]() -> Expected<StatusReply> {
        StatusReply reply;
        for (const auto& item : json.value("caches", Json::array())) {
            auto record = cacheRecordFromJson(item);
            if (!record) {
                return std::unexpected(record.error());
            }
            CacheStatus status{*record, std::nullopt, item.value("stats_error", std::string())};
            if (item.contains("stats") && item["stats"].is_object()) {
                auto stats = cacheStatsFromJson(item["stats"]);
                if (!stats) {
                    return std::unexpected(stats.error());
                }
                status.stats = *stats;
            }
            reply.caches.push_back(std::move(status));
        }
        return reply;
    });
}

Json toJson(const EnableRequest& request) {
    Json json{{"device", request.device},
              {"backend", request.backend},
              {"size", request.size},
              {"compression", toString(request.compression)},
              {"mode", toString(request.mode)}};
    if (request.cacheDevice) {
        json["cache_device"] = *request.cacheDevice;
    }
    // Flags only when set, as a person would write the request.
    for (const auto& [key, value] :
         {std::pair{"apply_now", request.applyNow}, std::pair{"power_safe", request.powerSafe},
          std::pair{"at_next_boot", request.atNextBoot}, std::pair{"preview", request.preview}}) {
        if (value) {
            json[key] = true;
        }
    }
    if (!request.fstabLine.empty()) {
        json["fstab_line"] = request.fstabLine;
    }
    if (request.sequentialCutoff) {
        json["sequential_cutoff"] = *request.sequentialCutoff;
    }
    if (request.writebackPercent) {
        json["writeback_percent"] = *request.writebackPercent;
    }
    return json;
}

Expected<EnableRequest> enableRequestFromJson(const Json& args) {
    if (auto keys = requireOnlyKeys(args, {"device", "backend", "size", "compression", "mode",
                                           "cache_device", "apply_now", "power_safe",
                                           "at_next_boot", "preview", "fstab_line",
                                           "sequential_cutoff", "writeback_percent"});
        !keys) {
        return std::unexpected(keys.error());
    }
    EnableRequest request;
    if (auto checked = tuningArgs(args, request); !checked) {
        return std::unexpected(checked.error());
    }
    auto device = stringArg(args, "device", kMaxDevicePathBytes);
    auto backend = stringArg(args, "backend", kMaxBackendNameBytes);
    auto size = unsignedArg(args, "size");
    auto compression = stringArg(args, "compression", kMaxEnumBytes, "none");
    auto mode = stringArg(args, "mode", kMaxEnumBytes, "write-through");
    if (auto error = firstError(device, backend, size, compression, mode)) {
        return std::unexpected(*error);
    }
    auto parsedCompression = parseCompression(*compression);
    auto parsedMode = parseCacheMode(*mode);
    if (auto error = firstError(parsedCompression, parsedMode)) {
        return std::unexpected(*error);
    }
    auto applyNow = boolArg(args, "apply_now", false);
    auto powerSafe = boolArg(args, "power_safe", false);
    auto atNextBoot = boolArg(args, "at_next_boot", false);
    auto preview = boolArg(args, "preview", false);
    if (auto error = firstError(applyNow, powerSafe, atNextBoot, preview)) {
        return std::unexpected(*error);
    }
    if (*applyNow && *atNextBoot) {
        return fail(ErrorCode::InvalidArgument, "apply_now and at_next_boot exclude each other");
    }
    if (*preview && !*atNextBoot) {
        return fail(ErrorCode::InvalidArgument, "preview is for at_next_boot");
    }
    auto fstabLine = stringArg(args, "fstab_line", kMaxDevicePathBytes, "");
    if (!fstabLine) {
        return std::unexpected(fstabLine.error());
    }
    if (args.contains("cache_device")) {
        auto cacheDevice = stringArg(args, "cache_device", kMaxDevicePathBytes);
        if (!cacheDevice) {
            return std::unexpected(cacheDevice.error());
        }
        request.cacheDevice = *cacheDevice;
    }
    request.device = *device;
    request.backend = *backend;
    request.size = *size;
    request.compression = *parsedCompression;
    request.mode = *parsedMode;
    request.applyNow = *applyNow;
    request.powerSafe = *powerSafe;
    request.atNextBoot = *atNextBoot;
    request.preview = *preview;
    request.fstabLine = *fstabLine;
    return request;
}

FstabPreview fstabPreviewOf(const FstabChange& change) {
    return FstabPreview{change.path, change.line + 1, change.before, change.after, change.diff()};
}

Json toJson(const EnableReply& reply) {
    if (reply.fstab) {
        return Json{{"fstab",
                     {{"path", reply.fstab->path},
                      {"line", reply.fstab->line},
                      {"before", reply.fstab->before},
                      {"after", reply.fstab->after},
                      {"diff", reply.fstab->diff}}}};
    }
    return Json{{"record", reply.record ? toJson(*reply.record) : Json(nullptr)}};
}

Expected<EnableReply> enableReplyFromJson(const Json& json) {
    return readReply(json, "the cache.enable result", [&]() -> Expected<EnableReply> {
        EnableReply reply;
        if (json.contains("fstab") && json["fstab"].is_object()) {
            const Json& fstab = json["fstab"];
            reply.fstab = FstabPreview{
                fstab.value("path", std::string()), fstab.value("line", std::size_t{0}),
                fstab.value("before", std::string()), fstab.value("after", std::string()),
                fstab.value("diff", std::string())};
            return reply;
        }
        auto record = recordField(json, "the cache.enable result");
        if (!record) {
            return std::unexpected(record.error());
        }
        reply.record = *record;
        return reply;
    });
}

Json toJson(const DeviceRequest& request) {
    return Json{{"device", request.device}};
}

Expected<DeviceRequest> deviceRequestFromJson(const Json& args) {
    auto device = deviceArg(args, {"device"});
    if (!device) {
        return std::unexpected(device.error());
    }
    return DeviceRequest{*device};
}

namespace {

// {key: device}, the answer of cache.disable and cache.flush.
Expected<std::string> deviceReply(const Json& json, const char* key, const char* what) {
    return readReply(json, what, [&] { return stringField(json, key, what); });
}

} // namespace

Json toJson(const DisableReply& reply) {
    return Json{{"disabled", reply.disabled}};
}

Expected<DisableReply> disableReplyFromJson(const Json& json) {
    auto device = deviceReply(json, "disabled", "the cache.disable result");
    if (!device) {
        return std::unexpected(device.error());
    }
    return DisableReply{*device};
}

Json toJson(const FlushReply& reply) {
    return Json{{"flushed", reply.flushed}};
}

Expected<FlushReply> flushReplyFromJson(const Json& json) {
    auto device = deviceReply(json, "flushed", "the cache.flush result");
    if (!device) {
        return std::unexpected(device.error());
    }
    return FlushReply{*device};
}

Json toJson(const RecordReply& reply) {
    return Json{{"record", toJson(reply.record)}};
}

Expected<RecordReply> recordReplyFromJson(const Json& json) {
    return readReply(json, "the cache's record", [&]() -> Expected<RecordReply> {
        auto record = recordField(json, "the answer");
        if (!record) {
            return std::unexpected(record.error());
        }
        return RecordReply{*record};
    });
}

Json toJson(const ModeRequest& request) {
    return Json{{"device", request.device}, {"mode", toString(request.mode)}};
}

Expected<ModeRequest> modeRequestFromJson(const Json& args) {
    auto device = deviceArg(args, {"device", "mode"});
    if (!device) {
        return std::unexpected(device.error());
    }
    auto text = stringArg(args, "mode", kMaxEnumBytes);
    if (!text) {
        return std::unexpected(text.error());
    }
    auto mode = parseCacheMode(*text);
    if (!mode) {
        return std::unexpected(mode.error());
    }
    return ModeRequest{*device, *mode};
}

Json toJson(const ResizeRequest& request) {
    return Json{{"device", request.device}, {"size", request.size}};
}

Expected<ResizeRequest> resizeRequestFromJson(const Json& args) {
    auto device = deviceArg(args, {"device", "size"});
    if (!device) {
        return std::unexpected(device.error());
    }
    auto size = unsignedArg(args, "size");
    if (!size) {
        return std::unexpected(size.error());
    }
    return ResizeRequest{*device, *size};
}

Json toJson(const PolicyRequest& request) {
    return Json{{"device", request.device}, {"power_safe", request.powerSafe}};
}

Expected<PolicyRequest> policyRequestFromJson(const Json& args) {
    auto device = deviceArg(args, {"device", "power_safe"});
    if (!device) {
        return std::unexpected(device.error());
    }
    if (!args.contains("power_safe")) {
        return fail(ErrorCode::InvalidArgument, "argument 'power_safe' is missing");
    }
    auto safe = boolArg(args, "power_safe", false);
    if (!safe) {
        return std::unexpected(safe.error());
    }
    return PolicyRequest{*device, *safe};
}

std::string_view toString(BootAction action) {
    return action == BootAction::Stop ? "stop" : "start";
}

Json toJson(const BootRequest& request) {
    return Json{{"device", request.device}, {"action", toString(request.action)}};
}

Expected<BootRequest> bootRequestFromJson(const Json& args) {
    auto device = deviceArg(args, {"device", "action"});
    if (!device) {
        return std::unexpected(device.error());
    }
    auto action = stringArg(args, "action", 8);
    if (!action) {
        return std::unexpected(action.error());
    }
    if (*action == "start") {
        return BootRequest{*device, BootAction::Start};
    }
    if (*action == "stop") {
        return BootRequest{*device, BootAction::Stop};
    }
    return fail(ErrorCode::InvalidArgument, "argument 'action' must be start or stop");
}

Json toJson(const PowerRequest& request) {
    return Json{{"event", request.event ? toString(*request.event) : "auto"}};
}

Expected<PowerRequest> powerRequestFromJson(const Json& args) {
    if (auto keys = requireOnlyKeys(args, {"event"}); !keys) {
        return std::unexpected(keys.error());
    }
    auto text = stringArg(args, "event", kMaxEnumBytes);
    if (!text) {
        return std::unexpected(text.error());
    }
    if (*text == "auto") {
        return PowerRequest{};
    }
    auto event = parsePowerEvent(*text);
    if (!event) {
        return std::unexpected(event.error());
    }
    return PowerRequest{*event};
}

Json toJson(const PowerReply& reply) {
    Json caches = Json::array();
    for (const auto& outcome : reply.caches) {
        caches.push_back(toJson(outcome));
    }
    return Json{{"event", std::string(toString(reply.event))},
                {"on_battery", reply.onBattery},
                {"power", reply.power},
                {"caches", caches}};
}

Expected<PowerReply> powerReplyFromJson(const Json& json) {
    return readReply(json, "the cache.power result", [&]() -> Expected<PowerReply> {
        auto text = stringField(json, "event", "the cache.power result");
        if (!text) {
            return std::unexpected(text.error());
        }
        auto event = parsePowerEvent(*text);
        if (!event) {
            return std::unexpected(event.error());
        }
        PowerReply reply{
            *event, json.value("on_battery", false), json.value("power", std::string()), {}};
        for (const auto& item : json.value("caches", Json::array())) {
            reply.caches.push_back(PowerOutcome{
                item.value("name", std::string()), item.value("origin", std::string()),
                item.value("action", std::string()), item.value("error", std::string())});
        }
        return reply;
    });
}

} // namespace ssdk::cachectl
