#include "core/overprovision/verbs.h"

#include "core/base/json_args.h"
#include "core/device/device_json.h"

namespace ssdk::overprovision {

namespace {

constexpr std::size_t kMaxActionBytes = 16;

// {device} and nothing else, for op.inspect and op.undo.
Expected<std::string> onlyDeviceArg(const Json& args) {
    if (auto keys = requireOnlyKeys(args, {"device"}); !keys) {
        return std::unexpected(keys.error());
    }
    return stringArg(args, "device", kMaxDevicePathBytes);
}

// A key whose value is null when absent ("usage", "journal").
template <typename T>
Expected<std::optional<T>> nullableField(const Json& json, const char* key,
                                         Expected<T> (*parse)(const Json&)) {
    if (!json.contains(key) || json[key].is_null()) {
        return std::optional<T>();
    }
    auto value = parse(json[key]);
    if (!value) {
        return std::unexpected(value.error());
    }
    return std::optional<T>(std::move(*value));
}

} // namespace

Json toJson(const InspectRequest& request) {
    return Json{{"device", request.device}};
}

Expected<InspectRequest> inspectRequestFromJson(const Json& args) {
    auto device = onlyDeviceArg(args);
    if (!device) {
        return std::unexpected(device.error());
    }
    return InspectRequest{*device};
}

InspectReply inspectReplyOf(const SpareAreaStatus& status) {
    return InspectReply{device::toJson(status.device), status.usage, status.usageError,
                        status.mountUsers, status.journal};
}

Json toJson(const InspectReply& reply) {
    return Json{{"device", reply.device},
                {"usage", reply.usage ? toJson(*reply.usage) : Json(nullptr)},
                {"usage_error", reply.usageError},
                {"mount_users", reply.mountUsers},
                {"journal", reply.journal ? toJson(*reply.journal) : Json(nullptr)}};
}

Expected<InspectReply> inspectReplyFromJson(const Json& json) {
    return readReply(json, "the spare-area inspection", [&]() -> Expected<InspectReply> {
        InspectReply reply;
        reply.device = json.value("device", Json(nullptr));
        reply.usageError = json.value("usage_error", std::string());
        for (const auto& user : json.value("mount_users", Json::array())) {
            reply.mountUsers.push_back(user.get<std::string>());
        }
        auto usage = nullableField(json, "usage", filesystemUsageFromJson);
        if (!usage) {
            return std::unexpected(usage.error());
        }
        reply.usage = std::move(*usage);
        auto journal = nullableField(json, "journal", journalFromJson);
        if (!journal) {
            return std::unexpected(journal.error());
        }
        reply.journal = std::move(*journal);
        return reply;
    });
}

Json toJson(const ApplyRequest& request) {
    Json json{{"device", request.device},
              {"spare_percent", request.sparePercent},
              {"partition", request.partition}};
    // The flag only when set, as a person would write the request.
    if (request.unmount) {
        json["unmount"] = true;
    }
    return json;
}

Expected<ApplyRequest> applyRequestFromJson(const Json& args) {
    if (auto keys = requireOnlyKeys(args, {"device", "spare_percent", "partition", "unmount"});
        !keys) {
        return std::unexpected(keys.error());
    }
    // Checked in this order so that an empty request names spare_percent first.
    auto unmount = boolArg(args, "unmount", false);
    if (!unmount) {
        return std::unexpected(unmount.error());
    }
    auto percent = unsignedArg(args, "spare_percent");
    if (!percent) {
        return std::unexpected(percent.error());
    }
    if (*percent > static_cast<std::uint64_t>(kMaximumSparePercent)) {
        return fail(ErrorCode::InvalidArgument, "argument 'spare_percent' must be 0–50");
    }
    auto partition = stringArg(args, "partition", kMaxDevicePathBytes);
    if (!partition) {
        return std::unexpected(partition.error());
    }
    if (partition->empty()) {
        return fail(ErrorCode::InvalidArgument,
                    "argument 'partition' must name the partition the user confirmed");
    }
    auto device = stringArg(args, "device", kMaxDevicePathBytes);
    if (!device) {
        return std::unexpected(device.error());
    }
    return ApplyRequest{*device, static_cast<unsigned>(*percent), *partition, *unmount};
}

Json toJson(const UndoRequest& request) {
    return Json{{"device", request.device}};
}

Expected<UndoRequest> undoRequestFromJson(const Json& args) {
    auto device = onlyDeviceArg(args);
    if (!device) {
        return std::unexpected(device.error());
    }
    return UndoRequest{*device};
}

std::string_view toString(Recovery action) {
    return action == Recovery::Finish ? "finish" : "rollback";
}

Json toJson(const RecoverRequest& request) {
    return Json{{"device", request.device}, {"action", toString(request.action)}};
}

Expected<RecoverRequest> recoverRequestFromJson(const Json& args) {
    if (auto keys = requireOnlyKeys(args, {"device", "action"}); !keys) {
        return std::unexpected(keys.error());
    }
    auto action = stringArg(args, "action", kMaxActionBytes);
    if (!action) {
        return std::unexpected(action.error());
    }
    RecoverRequest request;
    if (*action == toString(Recovery::Finish)) {
        request.action = Recovery::Finish;
    } else if (*action == toString(Recovery::RollBack)) {
        request.action = Recovery::RollBack;
    } else {
        return fail(ErrorCode::InvalidArgument,
                    "argument 'action' must be \"finish\" or \"rollback\"");
    }
    auto device = stringArg(args, "device", kMaxDevicePathBytes);
    if (!device) {
        return std::unexpected(device.error());
    }
    request.device = *device;
    return request;
}

Json toJson(const JournalReply& reply) {
    return Json{{"journal", toJson(reply.journal)}};
}

Expected<JournalReply> journalReplyFromJson(const Json& json) {
    return readReply(json, "the spare-area change", [&]() -> Expected<JournalReply> {
        if (!json.contains("journal")) {
            return fail(ErrorCode::Parse, "the spare-area change needs 'journal'");
        }
        auto journal = journalFromJson(json["journal"]);
        if (!journal) {
            return std::unexpected(journal.error());
        }
        return JournalReply{std::move(*journal)};
    });
}

} // namespace ssdk::overprovision
