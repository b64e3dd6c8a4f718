#include "helper/lab_verbs.h"

#include <pwd.h>

#include "helper/validation.h"

namespace ssdk::helper {

namespace {

constexpr std::size_t kMaxNameLength = 32;
constexpr std::size_t kMaxLayoutLength = 16;

Expected<lab::LabCreateRequest> parseCreateArgs(const Json& args) {
    if (auto keys = requireOnlyKeys(args, {"name", "size", "sector_size", "layout"}); !keys) {
        return std::unexpected(keys.error());
    }
    auto name = stringArg(args, "name", kMaxNameLength);
    if (!name) {
        return std::unexpected(name.error());
    }
    if (auto valid = lab::validateLabName(*name); !valid) {
        return std::unexpected(valid.error());
    }
    auto size = unsignedArg(args, "size");
    if (!size) {
        return std::unexpected(size.error());
    }
    auto sectorSize = unsignedArg(args, "sector_size", 512);
    if (!sectorSize) {
        return std::unexpected(sectorSize.error());
    }
    if (*sectorSize != 512 && *sectorSize != 4096) {
        return fail(ErrorCode::InvalidArgument, "argument 'sector_size' must be 512 or 4096");
    }
    auto layout = stringArg(args, "layout", kMaxLayoutLength, "empty");
    if (!layout) {
        return std::unexpected(layout.error());
    }
    if (*layout != "empty" && *layout != "gpt-ext4") {
        return fail(ErrorCode::InvalidArgument,
                    "argument 'layout' must be \"empty\" or \"gpt-ext4\"");
    }
    lab::LabCreateRequest request;
    request.name = *name;
    request.size = Bytes(*size);
    request.logicalSectorSize = static_cast<std::uint32_t>(*sectorSize);
    request.layout = *layout;
    return request;
}

Expected<Json> createLab(const LabContext& context, ProcessRunner& runner, const Json& args,
                         const VerbEvents& events) {
    auto request = parseCreateArgs(args);
    if (!request) {
        return std::unexpected(request.error());
    }
    if (context.owner) {
        request->ownerUid = context.owner->uid;
        request->ownerGid = context.owner->gid;
    }
    lab::LabManager manager(context.stateDir, SysfsRoot(), runner, context.owner);
    // LabManager checks the size against the free space before it creates anything.
    events("progress", Json{{"text", "creating and attaching the image"}});
    auto drive = manager.create(*request);
    if (!drive) {
        return std::unexpected(drive.error());
    }
    return toJson(*drive);
}

Expected<Json> destroyLab(const LabContext& context, ProcessRunner& runner, const Json& args) {
    if (auto keys = requireOnlyKeys(args, {"name_or_device"}); !keys) {
        return std::unexpected(keys.error());
    }
    auto target = stringArg(args, "name_or_device", kMaxPathLength);
    if (!target) {
        return std::unexpected(target.error());
    }
    if (target->starts_with('/')) {
        // Mounted lab drives are let through here: LabManager refuses them naming the mounts.
        auto device = validateBlockDevice(*target, {.allowMounted = true});
        if (!device) {
            return std::unexpected(device.error());
        }
        if (!device->isLab()) {
            return fail(ErrorCode::PermissionDenied,
                        device->path + " is not an SSD Keeper lab drive; refusing to touch it");
        }
        *target = device->path;
    } else if (auto valid = lab::validateLabName(*target); !valid) {
        return std::unexpected(valid.error());
    }
    lab::LabManager manager(context.stateDir, SysfsRoot(), runner, context.owner);
    if (auto destroyed = manager.destroy(*target); !destroyed) {
        return std::unexpected(destroyed.error());
    }
    return Json{{"destroyed", *target}};
}

} // namespace

Expected<LabContext> labContextFor(const Caller& caller) {
    if (!caller.viaPkexec) {
        return LabContext{lab::userStateDirectory(), std::nullopt};
    }
    const passwd* user = ::getpwuid(caller.uid);
    if (user == nullptr || user->pw_dir == nullptr || user->pw_dir[0] != '/') {
        return fail(ErrorCode::NotFound, "no home directory for uid " + std::to_string(caller.uid));
    }
    return LabContext{std::filesystem::path(user->pw_dir) / ".local" / "state",
                      lab::LabOwner{user->pw_uid, user->pw_gid}};
}

void addLabVerbs(HelperService& service, LabContext context, ProcessRunner& runner) {
    service.add(Verb{"lab.create", "io.github.ssdkeeper.lab.create", Grade::Change,
                     [context, &runner](const Json& args, const VerbEvents& events) {
                         return createLab(context, runner, args, events);
                     }});
    service.add(Verb{"lab.destroy", "io.github.ssdkeeper.lab.destroy", Grade::Change,
                     [context, &runner](const Json& args, const VerbEvents&) {
                         return destroyLab(context, runner, args);
                     }});
}

} // namespace ssdk::helper
