#include "helper/op_verbs.h"

#include "core/overprovision/spare_area.h"
#include "core/overprovision/verbs.h"
#include "core/platform/platform.h"
#include "core/rpc/progress.h"
#include "helper/validation.h"

namespace ssdk::helper {

namespace {

using namespace ssdk::overprovision;

struct OpContext {
    std::filesystem::path journalDirectory;
    ProcessRunner* runner = nullptr;
    // Discovery and the disk editor of the live system.
    std::shared_ptr<const platform::Platform> platform;
};

// A device path from a request, validated. Mounted is allowed: ext4 and btrfs grow online,
// and the planner refuses a mounted shrink with a reason. The system disk may be inspected (no
// tool runs on it), never changed.
Expected<device::Device> validDevice(const std::string& path, bool forChange) {
    return validateBlockDevice(path, {.allowMounted = true, .allowSystemDisk = !forChange});
}

StepObserver progressTo(const VerbEvents& events) {
    return [events](const StepEvent& event) {
        const double done = static_cast<double>(event.index + (event.finished ? 1 : 0));
        events(rpc::kEventProgress,
               rpc::toJson(rpc::Progress{.fraction = done / static_cast<double>(event.count),
                                         .text = event.description,
                                         .step = event.name,
                                         .finished = event.finished}));
    };
}

Expected<Json> journalResult(Expected<Journal> journal) {
    if (!journal) {
        return std::unexpected(journal.error());
    }
    return toJson(JournalReply{std::move(*journal)});
}

// Runs use(SpareArea&) on the live system: discovery, the disk editor and the helper's journals.
template <typename Use>
auto withSpareArea(const OpContext& context, Use&& use)
    -> decltype(use(std::declval<SpareArea&>())) {
    auto files = StateStore::open(context.journalDirectory);
    if (!files) {
        return std::unexpected(files.error().addContext("opening the spare-area journals"));
    }
    const auto editor = context.platform->makeDiskEditor(*context.runner, SysfsRoot());
    SpareArea spare(context.platform->makeDiscovery(SysfsRoot()), *context.runner, *editor,
                    JournalStore(std::move(*files)));
    return use(spare);
}

Expected<Json> inspect(const OpContext& context, const Json& args) {
    auto request = inspectRequestFromJson(args);
    if (!request) {
        return std::unexpected(request.error());
    }
    auto device = validDevice(request->device, false);
    if (!device) {
        return std::unexpected(device.error());
    }
    auto status =
        withSpareArea(context, [&](SpareArea& spare) { return spare.inspect(device->path); });
    if (!status) {
        return std::unexpected(status.error());
    }
    return toJson(inspectReplyOf(*status));
}

Expected<Json> apply(const OpContext& context, const Json& args, const VerbEvents& events) {
    auto request = applyRequestFromJson(args);
    if (!request) {
        return std::unexpected(request.error());
    }
    auto device = validDevice(request->device, true);
    if (!device) {
        return std::unexpected(device.error());
    }
    return journalResult(withSpareArea(context, [&](SpareArea& spare) {
        return spare.apply(device->path, static_cast<double>(request->sparePercent),
                           request->partition, progressTo(events), request->unmount);
    }));
}

Expected<Json> undo(const OpContext& context, const Json& args, const VerbEvents& events) {
    auto request = undoRequestFromJson(args);
    if (!request) {
        return std::unexpected(request.error());
    }
    auto device = validDevice(request->device, true);
    if (!device) {
        return std::unexpected(device.error());
    }
    return journalResult(withSpareArea(
        context, [&](SpareArea& spare) { return spare.undo(device->path, progressTo(events)); }));
}

Expected<Json> recover(const OpContext& context, const Json& args, const VerbEvents& events) {
    auto request = recoverRequestFromJson(args);
    if (!request) {
        return std::unexpected(request.error());
    }
    auto device = validDevice(request->device, true);
    if (!device) {
        return std::unexpected(device.error());
    }
    return journalResult(withSpareArea(context, [&](SpareArea& spare) {
        return spare.recover(device->path, request->action, progressTo(events));
    }));
}

} // namespace

void addOpVerbs(HelperService& service, std::filesystem::path journalDirectory,
                ProcessRunner& runner, std::shared_ptr<const platform::Platform> platform) {
    const OpContext op{std::move(journalDirectory), &runner,
                       platform ? std::move(platform) : platform::makePlatform()};
    service.add(Verb{kVerbOpInspect, "io.github.ssdkeeper.op.inspect", Grade::Read,
                     [op](const Json& args, const VerbEvents&) { return inspect(op, args); }});
    service.add(
        Verb{kVerbOpApply, "io.github.ssdkeeper.op.apply", Grade::Change,
             [op](const Json& args, const VerbEvents& events) { return apply(op, args, events); }});
    service.add(
        Verb{kVerbOpUndo, "io.github.ssdkeeper.op.undo", Grade::Change,
             [op](const Json& args, const VerbEvents& events) { return undo(op, args, events); }});
    service.add(Verb{
        kVerbOpRecover, "io.github.ssdkeeper.op.recover", Grade::Change,
        [op](const Json& args, const VerbEvents& events) { return recover(op, args, events); }});
}

} // namespace ssdk::helper
