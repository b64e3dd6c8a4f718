#include "core/firmware/verbs.h"

#include <fmt/format.h>

#include "core/base/json_args.h"
#include "core/firmware/nvme_firmware.h"

namespace ssdk::firmware {

namespace {

constexpr std::size_t kMaxActionBytes = 32;

// device, slot, action and confirm_system_disk, common to plan and update; imageKey is the
// one more key each allows.
struct CommonArgs {
    std::string device;
    unsigned slot = kMinSlot;
    CommitAction action = CommitAction::ReplaceActivate;
    bool confirmSystemDisk = false;
};

Expected<CommonArgs> commonArgs(const Json& args, std::string_view imageKey) {
    if (auto keys =
            requireOnlyKeys(args, {"device", imageKey, "slot", "action", "confirm_system_disk"});
        !keys) {
        return std::unexpected(keys.error());
    }
    auto device = stringArg(args, "device", kMaxPathBytes);
    if (!device) {
        return std::unexpected(device.error());
    }
    auto slot = unsignedArg(args, "slot");
    if (!slot) {
        return std::unexpected(slot.error());
    }
    if (*slot < kMinSlot || *slot > kMaxSlot) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("argument 'slot' must be {}-{}", kMinSlot, kMaxSlot));
    }
    auto actionText = stringArg(args, "action", kMaxActionBytes);
    if (!actionText) {
        return std::unexpected(actionText.error());
    }
    auto action = commitActionArg(*actionText);
    if (!action) {
        return std::unexpected(action.error());
    }
    auto confirm = boolArg(args, "confirm_system_disk", false);
    if (!confirm) {
        return std::unexpected(confirm.error());
    }
    return CommonArgs{*device, static_cast<unsigned>(*slot), *action, *confirm};
}

// An image (or its size) exactly when the action replaces the image.
Expected<void> checkImageFor(CommitAction action, bool hasImage) {
    if (replacesImage(action) && !hasImage) {
        return fail(ErrorCode::InvalidArgument,
                    "action " + std::string(toString(action)) + " needs an image");
    }
    if (!replacesImage(action) && hasImage) {
        return fail(ErrorCode::InvalidArgument,
                    "action activate uses the image already in the slot; give no image");
    }
    return {};
}

Json commonJson(const std::string& device, unsigned slot, CommitAction action, bool confirm) {
    return Json{{"device", device},
                {"slot", slot},
                {"action", std::string(toString(action))},
                {"confirm_system_disk", confirm}};
}

} // namespace

Json progressEvent(double fraction, const std::string& text) {
    return Json{{"fraction", fraction}, {"text", text}};
}

Json toJson(const InfoRequest& request) {
    return Json{{"device", request.device}};
}

Expected<InfoRequest> infoRequestFromJson(const Json& args) {
    if (auto keys = requireOnlyKeys(args, {"device"}); !keys) {
        return std::unexpected(keys.error());
    }
    auto device = stringArg(args, "device", kMaxPathBytes);
    if (!device) {
        return std::unexpected(device.error());
    }
    return InfoRequest{*device};
}

Expected<CommitAction> commitActionArg(std::string_view text) {
    auto action = commitActionFromString(text);
    if (!action) {
        return fail(ErrorCode::InvalidArgument, "argument 'action' must be replace, "
                                                "replace-activate, activate or activate-now");
    }
    return *action;
}

Json toJson(const PlanVerbRequest& request) {
    Json json = commonJson(request.device, request.slot, request.action, request.confirmSystemDisk);
    if (request.imageSize) {
        json["image_size"] = *request.imageSize;
    }
    return json;
}

Expected<PlanVerbRequest> planVerbRequestFromJson(const Json& args) {
    auto common = commonArgs(args, "image_size");
    if (!common) {
        return std::unexpected(common.error());
    }
    PlanVerbRequest request{common->device, common->slot, common->action, std::nullopt,
                            common->confirmSystemDisk};
    if (args.contains("image_size")) {
        auto size = unsignedArg(args, "image_size");
        if (!size) {
            return std::unexpected(size.error());
        }
        request.imageSize = *size;
    }
    if (auto checked = checkImageFor(request.action, request.imageSize.has_value()); !checked) {
        return std::unexpected(checked.error());
    }
    return request;
}

Json toJson(const UpdateVerbRequest& request) {
    Json json = commonJson(request.device, request.slot, request.action, request.confirmSystemDisk);
    if (!request.image.empty()) {
        json["image"] = request.image;
    }
    return json;
}

Expected<UpdateVerbRequest> updateVerbRequestFromJson(const Json& args) {
    auto common = commonArgs(args, "image");
    if (!common) {
        return std::unexpected(common.error());
    }
    auto image = stringArg(args, "image", kMaxPathBytes, "");
    if (!image) {
        return std::unexpected(image.error());
    }
    if (auto checked = checkImageFor(common->action, !image->empty()); !checked) {
        return std::unexpected(checked.error());
    }
    if (!image->empty() && !image->starts_with('/')) {
        return fail(ErrorCode::InvalidArgument, "argument 'image' must be an absolute path");
    }
    return UpdateVerbRequest{common->device, common->slot, common->action, *image,
                             common->confirmSystemDisk};
}

PlanVerbRequest planOf(const UpdateVerbRequest& request, std::uint64_t imageSize) {
    return PlanVerbRequest{request.device, request.slot, request.action,
                           replacesImage(request.action) ? std::optional<std::uint64_t>(imageSize)
                                                         : std::nullopt,
                           request.confirmSystemDisk};
}

} // namespace ssdk::firmware
