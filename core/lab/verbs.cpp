#include "core/lab/verbs.h"

#include "core/base/json_args.h"

namespace ssdk::lab {

namespace {

constexpr std::size_t kMaxLayoutBytes = 16;
constexpr std::uint64_t kDefaultSectorSize = 512;
constexpr const char* kLayoutEmpty = "empty";

} // namespace

Json toJson(const LabCreateRequest& request) {
    return Json{{"name", request.name},
                {"size", request.size.value},
                {"sector_size", request.logicalSectorSize},
                {"layout", request.layout}};
}

Expected<LabCreateRequest> labCreateRequestFromJson(const Json& args) {
    if (auto keys = requireOnlyKeys(args, {"name", "size", "sector_size", "layout"}); !keys) {
        return std::unexpected(keys.error());
    }
    auto name = stringArg(args, "name", kMaxLabNameBytes);
    if (!name) {
        return std::unexpected(name.error());
    }
    if (auto valid = validateLabName(*name); !valid) {
        return std::unexpected(valid.error());
    }
    auto size = unsignedArg(args, "size");
    if (!size) {
        return std::unexpected(size.error());
    }
    auto sectorSize = unsignedArg(args, "sector_size", kDefaultSectorSize);
    if (!sectorSize) {
        return std::unexpected(sectorSize.error());
    }
    if (*sectorSize != 512 && *sectorSize != 4096) {
        return fail(ErrorCode::InvalidArgument, "argument 'sector_size' must be 512 or 4096");
    }
    auto layout = stringArg(args, "layout", kMaxLayoutBytes, kLayoutEmpty);
    if (!layout) {
        return std::unexpected(layout.error());
    }
    if (*layout != kLayoutEmpty && *layout != "gpt-ext4") {
        return fail(ErrorCode::InvalidArgument,
                    "argument 'layout' must be \"empty\" or \"gpt-ext4\"");
    }
    LabCreateRequest request;
    request.name = *name;
    request.size = Bytes(*size);
    request.logicalSectorSize = static_cast<std::uint32_t>(*sectorSize);
    request.layout = *layout;
    return request;
}

Json toJson(const LabDrive& drive) {
    return Json{{"name", drive.name},
                {"image", drive.image.string()},
                {"device", drive.devicePath},
                {"size", drive.size.value},
                {"allocated", drive.allocated.value}};
}

Expected<LabDrive> labDriveFromJson(const Json& json) {
    return readReply(json, "the lab drive", [&]() -> Expected<LabDrive> {
        if (!json.contains("name") || !json["name"].is_string()) {
            return fail(ErrorCode::Parse, "the lab drive needs 'name', a string");
        }
        LabDrive drive;
        drive.name = json["name"].get<std::string>();
        drive.image = json.value("image", std::string());
        drive.devicePath = json.value("device", std::string());
        drive.size = Bytes(json.value("size", std::uint64_t{0}));
        drive.allocated = Bytes(json.value("allocated", std::uint64_t{0}));
        return drive;
    });
}

Json toJson(const DestroyRequest& request) {
    return Json{{"name_or_device", request.nameOrDevice}};
}

Expected<DestroyRequest> destroyRequestFromJson(const Json& args) {
    if (auto keys = requireOnlyKeys(args, {"name_or_device"}); !keys) {
        return std::unexpected(keys.error());
    }
    auto target = stringArg(args, "name_or_device", kMaxDevicePathBytes);
    if (!target) {
        return std::unexpected(target.error());
    }
    if (!target->starts_with('/')) {
        if (auto valid = validateLabName(*target); !valid) {
            return std::unexpected(valid.error());
        }
    }
    return DestroyRequest{*target};
}

Json toJson(const DestroyReply& reply) {
    return Json{{"destroyed", reply.destroyed}};
}

Expected<DestroyReply> destroyReplyFromJson(const Json& json) {
    return readReply(json, "the lab drive destruction", [&]() -> Expected<DestroyReply> {
        if (!json.contains("destroyed") || !json["destroyed"].is_string()) {
            return fail(ErrorCode::Parse, "the lab drive destruction needs 'destroyed', a string");
        }
        return DestroyReply{json["destroyed"].get<std::string>()};
    });
}

} // namespace ssdk::lab
