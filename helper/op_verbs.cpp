#include "helper/op_verbs.h"

#include "core/overprovision/spare_area.h"
#include "helper/validation.h"

namespace ssdk::helper {

namespace {

using namespace ssdk::overprovision;

struct OpContext {
    std::filesystem::path journalDirectory;
    ProcessRunner* runner = nullptr;
};

Expected<device::Device> deviceArg(const Json& args, bool forChange) {
    auto path = stringArg(args, "device", kMaxPathLength);
    if (!path) {
        return std::unexpected(path.error());
    }
    // Mounted is allowed: ext4 and btrfs grow online, and the planner refuses a mounted shrink
    // with a reason. The system disk may be inspected (no tool runs on it), never changed.
    return validateBlockDevice(*path, {.allowMounted = true, .allowSystemDisk = !forChange});
}

StepObserver progressTo(const VerbEvents& events) {
    return [events](const StepEvent& event) {
        const double done = static_cast<double>(event.index + (event.finished ? 1 : 0));
        events("progress", Json{{"fraction", done / static_cast<double>(event.count)},
                                {"step", event.name},
                                {"text", event.description},
                                {"finished", event.finished}});
    };
}

Expected<Json> journalResult(Expected<Journal> journal) {
    if (!journal) {
        return std::unexpected(journal.error());
    }
    return Json{{"journal", toJson(*journal)}};
}

// Runs use(SpareArea&) on the live system: discovery, the disk editor and the helper's journals.
template <typename Use>
auto withSpareArea(const OpContext& context, Use&& use)
    -> decltype(use(std::declval<SpareArea&>())) {
    auto files = StateStore::open(context.journalDirectory);
    if (!files) {
        return std::unexpected(files.error().addContext("opening the spare-area journals"));
    }
    LinuxDiskEditor editor(*context.runner);
    const SysfsRoot root;
    SpareArea spare(device::Discovery(root, device::makeSystemFsProber(root)), *context.runner,
                    editor, JournalStore(std::move(*files)));
    return use(spare);
}

Expected<Json> inspect(const OpContext& context, const Json& args) {
    if (auto keys = requireOnlyKeys(args, {"device"}); !keys) {
        return std::unexpected(keys.error());
    }
    auto device = deviceArg(args, false);
    if (!device) {
        return std::unexpected(device.error());
    }
    auto status =
        withSpareArea(context, [&](SpareArea& spare) { return spare.inspect(device->path); });
    if (!status) {
        return std::unexpected(status.error());
    }
    return toJson(*status);
}

Expected<Json> apply(const OpContext& context, const Json& args, const VerbEvents& events) {
    if (auto keys = requireOnlyKeys(args, {"device", "spare_percent", "partition", "unmount"});
        !keys) {
        return std::unexpected(keys.error());
    }
    if (args.contains("unmount") && !args["unmount"].is_boolean()) {
        return fail(ErrorCode::InvalidArgument, "argument 'unmount' must be true or false");
    }
    const bool unmount = args.value("unmount", false);
    auto percent = unsignedArg(args, "spare_percent");
    if (!percent) {
        return std::unexpected(percent.error());
    }
    if (*percent > static_cast<std::uint64_t>(kMaximumSparePercent)) {
        return fail(ErrorCode::InvalidArgument, "argument 'spare_percent' must be 0–50");
    }
    auto partition = stringArg(args, "partition", kMaxPathLength);
    if (!partition) {
        return std::unexpected(partition.error());
    }
    if (partition->empty()) {
        return fail(ErrorCode::InvalidArgument,
                    "argument 'partition' must name the partition the user confirmed");
    }
    auto device = deviceArg(args, true);
    if (!device) {
        return std::unexpected(device.error());
    }
    return journalResult(withSpareArea(context, [&](SpareArea& spare) {
        return spare.apply(device->path, static_cast<double>(*percent), *partition,
                           progressTo(events), unmount);
    }));
}

Expected<Json> undo(const OpContext& context, const Json& args, const VerbEvents& events) {
    if (auto keys = requireOnlyKeys(args, {"device"}); !keys) {
        return std::unexpected(keys.error());
    }
    auto device = deviceArg(args, true);
    if (!device) {
        return std::unexpected(device.error());
    }
    return journalResult(withSpareArea(
        context, [&](SpareArea& spare) { return spare.undo(device->path, progressTo(events)); }));
}

Expected<Json> recover(const OpContext& context, const Json& args, const VerbEvents& events) {
    if (auto keys = requireOnlyKeys(args, {"device", "action"}); !keys) {
        return std::unexpected(keys.error());
    }
    auto action = stringArg(args, "action", 16);
    if (!action) {
        return std::unexpected(action.error());
    }
    if (*action != "finish" && *action != "rollback") {
        return fail(ErrorCode::InvalidArgument,
                    "argument 'action' must be \"finish\" or \"rollback\"");
    }
    auto device = deviceArg(args, true);
    if (!device) {
        return std::unexpected(device.error());
    }
    const Recovery recovery = *action == "finish" ? Recovery::Finish : Recovery::RollBack;
    return journalResult(withSpareArea(context, [&](SpareArea& spare) {
        return spare.recover(device->path, recovery, progressTo(events));
    }));
}

} // namespace

void addOpVerbs(HelperService& service, std::filesystem::path journalDirectory,
                ProcessRunner& runner) {
    const OpContext op{std::move(journalDirectory), &runner};
    service.add(Verb{"op.inspect", "io.github.ssdkeeper.op.inspect", Grade::Read,
                     [op](const Json& args, const VerbEvents&) { return inspect(op, args); }});
    service.add(
        Verb{"op.apply", "io.github.ssdkeeper.op.apply", Grade::Change,
             [op](const Json& args, const VerbEvents& events) { return apply(op, args, events); }});
    service.add(
        Verb{"op.undo", "io.github.ssdkeeper.op.undo", Grade::Change,
             [op](const Json& args, const VerbEvents& events) { return undo(op, args, events); }});
    service.add(Verb{
        "op.recover", "io.github.ssdkeeper.op.recover", Grade::Change,
        [op](const Json& args, const VerbEvents& events) { return recover(op, args, events); }});
}

} // namespace ssdk::helper
