#include "core/maintenance/verbs.h"

#include <fmt/format.h>

#include "core/base/json_args.h"

namespace ssdk::maintenance {

namespace {

constexpr std::size_t kMaxEnumBytes = 16;
constexpr std::size_t kMaxMethodBytes = 40;
constexpr std::size_t kMaxConfirmBytes = 256;

// The enum value whose toString() is `text`, among candidates.
template <typename Enum>
Expected<Enum> enumField(const Json& json, const char* key, std::initializer_list<Enum> candidates,
                         const char* what) {
    const std::string text = json.value(key, std::string());
    for (const Enum candidate : candidates) {
        if (toString(candidate) == text) {
            return candidate;
        }
    }
    return fail(ErrorCode::Parse, fmt::format("{}: unknown {} '{}'", what, key, text));
}

Expected<std::string> stringField(const Json& json, const char* key, const char* what) {
    if (!json.contains(key) || !json[key].is_string()) {
        return fail(ErrorCode::Parse, fmt::format("{} needs '{}', a string", what, key));
    }
    return json[key].get<std::string>();
}

// A key holding a value or null.
template <typename T> std::optional<T> optionalField(const Json& json, const char* key) {
    if (!json.contains(key) || json[key].is_null()) {
        return std::nullopt;
    }
    return json[key].get<T>();
}

template <typename T> Json optionalJson(const std::optional<T>& value) {
    return value ? Json(*value) : Json(nullptr);
}

Expected<std::string> pathArg(const Json& args, std::string_view key,
                              std::initializer_list<std::string_view> keys) {
    if (auto checked = requireOnlyKeys(args, keys); !checked) {
        return std::unexpected(checked.error());
    }
    return stringArg(args, key, kMaxPathBytes);
}

// A request whose one argument is the path under key.
template <typename Request>
Expected<Request> onePathRequest(const Json& args, std::string_view key) {
    auto path = pathArg(args, key, {key});
    if (!path) {
        return std::unexpected(path.error());
    }
    return Request{*path};
}

Expected<erase::Method> methodNamed(const std::string& name, const char* what) {
    const auto method = erase::methodFromString(name);
    if (!method) {
        return fail(ErrorCode::Parse, fmt::format("{}: unknown erase method '{}'", what, name));
    }
    return *method;
}

} // namespace

Json toJson(const AuditRequest& request) {
    return Json{{"target", request.target}};
}

Expected<AuditRequest> auditRequestFromJson(const Json& args) {
    return onePathRequest<AuditRequest>(args, "target");
}

Expected<trim::TrimAudit> trimAuditFromJson(const Json& json) {
    constexpr const char* kWhat = "the TRIM audit";
    return readReply(json, kWhat, [&]() -> Expected<trim::TrimAudit> {
        using trim::LayerStatus;
        using trim::ReadAfterTrim;
        trim::TrimAudit audit;
        audit.target = json.value("target", std::string());
        audit.reachesDrive = json.value("reaches_drive", false);
        audit.filesystemDiscards = json.value("filesystem_discards", false);
        audit.verdict = json.value("verdict", std::string());
        auto readAfterTrim = enumField(json, "read_after_trim",
                                       {ReadAfterTrim::Zeros, ReadAfterTrim::Ones,
                                        ReadAfterTrim::Deterministic, ReadAfterTrim::Unspecified},
                                       kWhat);
        if (!readAfterTrim) {
            return std::unexpected(readAfterTrim.error());
        }
        audit.readAfterTrim = *readAfterTrim;
        for (const auto& item : json.value("layers", Json::array())) {
            auto status = enumField(
                item, "status",
                {LayerStatus::Passes, LayerStatus::Blocks, LayerStatus::Warning, LayerStatus::Info},
                kWhat);
            if (!status) {
                return std::unexpected(status.error());
            }
            audit.layers.push_back(trim::AuditLayer{item.value("layer", std::string()),
                                                    item.value("name", std::string()), *status,
                                                    item.value("detail", std::string())});
        }
        return audit;
    });
}

std::string_view toString(trim::TrimMode mode) {
    return mode == trim::TrimMode::OnlineDiscard ? "online" : "fstrim";
}

Json toJson(const VerifyRequest& request) {
    return Json{{"mount_point", request.mountPoint},
                {"mode", std::string(toString(request.mode))},
                {"blocks", request.blocks}};
}

Expected<VerifyRequest> verifyRequestFromJson(const Json& args) {
    auto mountPoint = pathArg(args, "mount_point", {"mount_point", "mode", "blocks"});
    auto mode =
        stringArg(args, "mode", kMaxEnumBytes, std::string(toString(trim::TrimMode::Fstrim)));
    auto blocks = unsignedArg(args, "blocks", kDefaultMarkerBlocks);
    if (auto error = firstError(mountPoint, mode, blocks)) {
        return std::unexpected(*error);
    }
    VerifyRequest request{*mountPoint};
    if (*mode == toString(trim::TrimMode::OnlineDiscard)) {
        request.mode = trim::TrimMode::OnlineDiscard;
    } else if (*mode != toString(trim::TrimMode::Fstrim)) {
        return fail(ErrorCode::InvalidArgument, "argument 'mode' must be \"fstrim\" or \"online\"");
    }
    if (*blocks < kMinMarkerBlocks || *blocks > kMaxMarkerBlocks) {
        return fail(ErrorCode::InvalidArgument, fmt::format("argument 'blocks' must be {} to {}",
                                                            kMinMarkerBlocks, kMaxMarkerBlocks));
    }
    request.blocks = static_cast<std::uint32_t>(*blocks);
    return request;
}

namespace {

trim::BlockCounts blockCountsOf(const Json& json) {
    return trim::BlockCounts{json.value("markers", 0U), json.value("zeros", 0U),
                             json.value("ones", 0U), json.value("other", 0U)};
}

} // namespace

Expected<trim::VerifyResult> verifyResultFromJson(const Json& json) {
    constexpr const char* kWhat = "the TRIM verification";
    return readReply(json, kWhat, [&]() -> Expected<trim::VerifyResult> {
        using trim::VerifyOutcome;
        auto outcome = enumField(
            json, "result",
            {VerifyOutcome::Reached, VerifyOutcome::NotReached, VerifyOutcome::Inconclusive},
            kWhat);
        if (!outcome) {
            return std::unexpected(outcome.error());
        }
        auto audit = trimAuditFromJson(json.value("audit", Json::object()));
        if (!audit) {
            return std::unexpected(audit.error());
        }
        trim::VerifyResult result;
        result.outcome = *outcome;
        result.reason = json.value("reason", std::string());
        result.audit = std::move(*audit);
        result.device = json.value("device", std::string());
        result.returned = json.value("returned", std::string());
        result.before = blockCountsOf(json.value("before", Json::object()));
        result.after = blockCountsOf(json.value("after", Json::object()));
        if (auto trimmed = optionalField<std::uint64_t>(json, "trimmed")) {
            result.trimmed = Bytes(*trimmed);
        }
        result.trimError = optionalField<std::string>(json, "trim_error").value_or("");
        result.backingHoles = optionalField<std::uint32_t>(json, "backing_file_holes");
        return result;
    });
}

Json toJson(const FstrimRequest& request) {
    return Json{{"mount_point", request.mountPoint}};
}

Expected<FstrimRequest> fstrimRequestFromJson(const Json& args) {
    return onePathRequest<FstrimRequest>(args, "mount_point");
}

Json toJson(const FstrimReply& reply) {
    return Json{{"mount_point", reply.mountPoint},
                {"size", reply.size.value},
                {"trimmed", reply.trimmed.value}};
}

Expected<FstrimReply> fstrimReplyFromJson(const Json& json) {
    return readReply(json, "the fstrim result", [&]() -> Expected<FstrimReply> {
        auto mountPoint = stringField(json, "mount_point", "the fstrim result");
        if (!mountPoint) {
            return std::unexpected(mountPoint.error());
        }
        return FstrimReply{*mountPoint, Bytes(json.value("size", std::uint64_t{0})),
                           Bytes(json.value("trimmed", std::uint64_t{0}))};
    });
}

Json toJson(const TimerRequest& request) {
    return Json{{"enabled", request.enabled}};
}

Expected<TimerRequest> timerRequestFromJson(const Json& args) {
    if (auto keys = requireOnlyKeys(args, {"enabled"}); !keys) {
        return std::unexpected(keys.error());
    }
    if (!args.contains("enabled")) {
        return fail(ErrorCode::InvalidArgument, "argument 'enabled' is missing");
    }
    auto enabled = boolArg(args, "enabled", false);
    if (!enabled) {
        return std::unexpected(enabled.error());
    }
    return TimerRequest{*enabled};
}

Expected<trim::TimerFacts> timerFactsFromJson(const Json& json) {
    return readReply(json, "the fstrim.timer status", [&]() -> Expected<trim::TimerFacts> {
        trim::TimerFacts timer;
        timer.available = json.value("available", false);
        timer.unavailableReason = json.value("reason", std::string());
        timer.enabled = json.value("enabled", false);
        timer.active = json.value("active", false);
        timer.lastTriggerEpochSeconds = optionalField<std::int64_t>(json, "last_trigger");
        return timer;
    });
}

Json toJson(const FormatRequest& request) {
    return Json{{"device", request.device},
                {"fs", request.fs},
                {"verify", request.verify},
                {"discard_first", request.discardFirst}};
}

Expected<FormatRequest> formatRequestFromJson(const Json& args) {
    auto device = pathArg(args, "device", {"device", "fs", "verify", "discard_first"});
    auto fs = stringArg(args, "fs", kMaxEnumBytes);
    auto verify = boolArg(args, "verify", true);
    auto discardFirst = boolArg(args, "discard_first", false);
    if (auto error = firstError(device, fs, verify, discardFirst)) {
        return std::unexpected(*error);
    }
    if (trim::findFormatter(*fs) == nullptr) {
        return fail(ErrorCode::InvalidArgument, "unknown filesystem '" + *fs + "'");
    }
    return FormatRequest{*device, *fs, *verify, *discardFirst};
}

Expected<trim::FormatResult> formatResultFromJson(const Json& json) {
    constexpr const char* kWhat = "the format result";
    return readReply(json, kWhat, [&]() -> Expected<trim::FormatResult> {
        using trim::VerifyOutcome;
        trim::FormatResult result;
        if (json.contains("result") && !json["result"].is_null()) {
            auto outcome = enumField(
                json, "result",
                {VerifyOutcome::Reached, VerifyOutcome::NotReached, VerifyOutcome::Inconclusive},
                kWhat);
            if (!outcome) {
                return std::unexpected(outcome.error());
            }
            result.outcome = *outcome;
        }
        result.device = json.value("device", std::string());
        result.fsType = json.value("fs", std::string());
        result.formatterCommand = json.value("formatter", std::string());
        result.formatterDiscardsByDefault = json.value("formatter_discards", false);
        result.formatterNote = json.value("formatter_note", std::string());
        result.discardedFirst = json.value("discarded_first", false);
        result.oldFsType = json.value("old_fs", std::string());
        result.sampleSource = json.value("sample_source", std::string());
        result.sampled = json.value("sampled", 0U);
        result.counts =
            trim::SampleCounts{json.value("discarded", 0U), json.value("kept", 0U),
                               json.value("rewritten", 0U), json.value("in_use_by_new_fs", 0U)};
        result.freeMapSource = json.value("free_map", std::string());
        result.freeMapError = json.value("free_map_error", std::string());
        result.reason = json.value("reason", std::string());
        result.offerBlkdiscard = json.value("offer_blkdiscard", false);
        result.groundTruthHoles = optionalField<std::uint32_t>(json, "backing_file_holes");
        result.groundTruthAgreements =
            optionalField<std::uint32_t>(json, "ground_truth_agreements");
        result.groundTruthDisagrees = json.value("ground_truth_disagrees", false);
        result.groundTruthWarning = json.value("ground_truth_warning", std::string());
        return result;
    });
}

Json toJson(const EraseDeviceRequest& request) {
    return Json{{"device", request.device}};
}

Expected<EraseDeviceRequest> eraseDeviceRequestFromJson(const Json& args) {
    return onePathRequest<EraseDeviceRequest>(args, "device");
}

std::vector<MethodReport> methodReportsOf(const std::vector<erase::MethodOption>& options) {
    std::vector<MethodReport> reports;
    for (const auto& option : options) {
        reports.push_back(MethodReport{option.method, std::string(erase::describe(option.method)),
                                       option.available, option.reason,
                                       option.estimate
                                           ? std::optional<std::int64_t>(option.estimate->count())
                                           : std::nullopt});
    }
    return reports;
}

Json toJson(const EraseProbeReply& reply) {
    Json methods = Json::array();
    for (const auto& method : reply.methods) {
        methods.push_back(Json{{"method", std::string(erase::toString(method.method))},
                               {"description", method.description},
                               {"available", method.available},
                               {"reason", method.reason},
                               {"estimate_minutes", optionalJson(method.estimateMinutes)}});
    }
    Json json{{"device", reply.device},
              {"model", reply.model},
              {"serial", reply.serial},
              {"size", reply.size},
              {"identity", reply.identity},
              {"confirmation", reply.confirmation},
              {"methods", methods},
              {"auto", reply.automatic ? Json(std::string(erase::toString(*reply.automatic)))
                                       : Json(nullptr)},
              {"refused", optionalJson(reply.refused)},
              {"last_erase", reply.lastErase ? erase::toJson(*reply.lastErase) : Json(nullptr)},
              {"erase_running", reply.eraseRunning},
              {"interrupted", optionalJson(reply.interrupted)}};
    if (reply.ataSecurity) {
        json["ata_security"] = Json{{"supported", reply.ataSecurity->supported},
                                    {"frozen", reply.ataSecurity->frozen},
                                    {"locked", reply.ataSecurity->locked},
                                    {"enabled", reply.ataSecurity->enabled}};
    }
    return json;
}

Expected<EraseProbeReply> eraseProbeReplyFromJson(const Json& json) {
    constexpr const char* kWhat = "the erase probe";
    return readReply(json, kWhat, [&]() -> Expected<EraseProbeReply> {
        auto device = stringField(json, "device", kWhat);
        if (!device) {
            return std::unexpected(device.error());
        }
        EraseProbeReply reply;
        reply.device = *device;
        reply.model = json.value("model", std::string());
        reply.serial = json.value("serial", std::string());
        reply.size = json.value("size", std::uint64_t{0});
        reply.identity = json.value("identity", std::string());
        reply.confirmation = json.value("confirmation", std::string());
        for (const auto& item : json.value("methods", Json::array())) {
            auto method = methodNamed(item.value("method", std::string()), kWhat);
            if (!method) {
                return std::unexpected(method.error());
            }
            reply.methods.push_back(
                MethodReport{*method, item.value("description", std::string()),
                             item.value("available", false), item.value("reason", std::string()),
                             optionalField<std::int64_t>(item, "estimate_minutes")});
        }
        if (auto automatic = optionalField<std::string>(json, "auto")) {
            auto method = methodNamed(*automatic, kWhat);
            if (!method) {
                return std::unexpected(method.error());
            }
            reply.automatic = *method;
        }
        reply.refused = optionalField<std::string>(json, "refused");
        if (json.contains("last_erase") && !json["last_erase"].is_null()) {
            auto journal = erase::eraseJournalFromJson(json["last_erase"]);
            if (!journal) {
                return std::unexpected(journal.error());
            }
            reply.lastErase = *journal;
        }
        reply.eraseRunning = json.value("erase_running", false);
        reply.interrupted = optionalField<std::string>(json, "interrupted");
        if (json.contains("ata_security") && json["ata_security"].is_object()) {
            const Json& security = json["ata_security"];
            reply.ataSecurity = AtaSecurityReport{
                security.value("supported", false), security.value("frozen", false),
                security.value("locked", false), security.value("enabled", false)};
        }
        return reply;
    });
}

Json toJson(const UnfreezeReply& reply) {
    return Json{{"device", reply.device}, {"suspended", reply.suspended}, {"frozen", reply.frozen}};
}

Expected<UnfreezeReply> unfreezeReplyFromJson(const Json& json) {
    return readReply(json, "the unfreeze result", [&]() -> Expected<UnfreezeReply> {
        auto device = stringField(json, "device", "the unfreeze result");
        if (!device) {
            return std::unexpected(device.error());
        }
        // A result that does not say is read as still frozen: the erase methods stay refused.
        return UnfreezeReply{*device, json.value("suspended", false), json.value("frozen", true)};
    });
}

Json toJson(const EraseRequest& request) {
    return Json{
        {"device", request.device}, {"method", request.method}, {"confirm", request.confirm}};
}

Expected<EraseRequest> eraseRequestFromJson(const Json& args) {
    auto device = pathArg(args, "device", {"device", "method", "confirm"});
    auto method = stringArg(args, "method", kMaxMethodBytes);
    auto confirm = stringArg(args, "confirm", kMaxConfirmBytes);
    if (auto error = firstError(device, method, confirm)) {
        return std::unexpected(*error);
    }
    if (*method != kAutoMethod && !erase::methodFromString(*method)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("unknown erase method '{}'", *method));
    }
    return EraseRequest{*device, *method, *confirm};
}

Json certificateFileJson(const EraseReply& reply) {
    Json json = erase::toJson(reply.certificate);
    if (reply.replacedInterrupted) {
        json["replaced_interrupted"] = *reply.replacedInterrupted;
    }
    return json;
}

Json toJson(const EraseReply& reply) {
    Json json = certificateFileJson(reply);
    json["text"] = reply.text;
    return json;
}

Expected<EraseReply> eraseReplyFromJson(const Json& json) {
    constexpr const char* kWhat = "the erase certificate";
    return readReply(json, kWhat, [&]() -> Expected<EraseReply> {
        auto method = stringField(json, "method", kWhat);
        if (!method) {
            return std::unexpected(method.error());
        }
        erase::EraseCertificate c;
        c.method = *method;
        c.methodDescription = json.value("method_description", std::string());
        const Json device = json.value("device", Json::object());
        c.devicePath = device.value("path", std::string());
        c.model = device.value("model", std::string());
        c.serial = device.value("serial", std::string());
        c.firmware = device.value("firmware", std::string());
        c.bus = device.value("bus", std::string());
        c.sizeBytes = device.value("size", std::uint64_t{0});
        c.started = json.value("started", std::string());
        c.finished = json.value("finished", std::string());
        c.seconds = json.value("seconds", 0.0);
        const Json v = json.value("verification", Json::object());
        c.verification = erase::Verification{v.value("samples", 0U),
                                             v.value("zeros", 0U),
                                             v.value("ones", 0U),
                                             v.value("other", 0U),
                                             v.value("unchanged_data", 0U),
                                             v.value("passed", false),
                                             v.value("summary", std::string())};
        return EraseReply{std::move(c), json.value("text", std::string()),
                          optionalField<std::string>(json, "replaced_interrupted")};
    });
}

} // namespace ssdk::maintenance
