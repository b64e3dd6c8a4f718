#include "helper/lab_verbs.h"

#include <pwd.h>

#include "core/lab/verbs.h"
#include "core/rpc/progress.h"
#include "helper/validation.h"

namespace ssdk::helper {

namespace {

Expected<Json> createLab(const LabContext& context, ProcessRunner& runner, const Json& args,
                         const VerbEvents& events) {
    auto request = lab::labCreateRequestFromJson(args);
    if (!request) {
        return std::unexpected(request.error());
    }
    if (context.owner) {
        request->ownerUid = context.owner->uid;
        request->ownerGid = context.owner->gid;
    }
    lab::LabManager manager(context.stateDir, SysfsRoot(), runner, context.owner);
    // LabManager checks the size against the free space before it creates anything.
    events(rpc::kEventProgress,
           rpc::toJson(rpc::Progress{.text = "creating and attaching the image"}));
    auto drive = manager.create(*request);
    if (!drive) {
        return std::unexpected(drive.error());
    }
    return lab::toJson(*drive);
}

Expected<Json> destroyLab(const LabContext& context, ProcessRunner& runner, const Json& args) {
    auto request = lab::destroyRequestFromJson(args);
    if (!request) {
        return std::unexpected(request.error());
    }
    std::string target = request->nameOrDevice;
    if (target.starts_with('/')) {
        // Mounted lab drives are let through here: LabManager refuses them naming the mounts.
        auto device = validateBlockDevice(target, {.allowMounted = true});
        if (!device) {
            return std::unexpected(device.error());
        }
        if (!device->isLab()) {
            return fail(ErrorCode::PermissionDenied,
                        device->path + " is not an SSD Keeper lab drive; refusing to touch it");
        }
        target = device->path;
    }
    lab::LabManager manager(context.stateDir, SysfsRoot(), runner, context.owner);
    if (auto destroyed = manager.destroy(target); !destroyed) {
        return std::unexpected(destroyed.error());
    }
    return lab::toJson(lab::DestroyReply{target});
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
    service.add(Verb{lab::kVerbLabCreate, "io.github.ssdkeeper.lab.create", Grade::Change,
                     [context, &runner](const Json& args, const VerbEvents& events) {
                         return createLab(context, runner, args, events);
                     }});
    service.add(Verb{lab::kVerbLabDestroy, "io.github.ssdkeeper.lab.destroy", Grade::Change,
                     [context, &runner](const Json& args, const VerbEvents&) {
                         return destroyLab(context, runner, args);
                     }});
}

} // namespace ssdk::helper
