#include "cli/op_commands.h"

#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <unistd.h>

#include "cli/usage.h"
#include "core/overprovision/planner.h"
#include "core/overprovision/spare_area_client.h"
#include "core/rpc/client.h"

namespace ssdk::cli {

namespace {

using namespace ssdk::overprovision;

struct OpOptions {
    std::string device;
    unsigned sparePercent = 20;
    bool yes = false;
    bool finish = false;
    bool rollback = false;
    bool unmount = false;
};

struct Inspected {
    device::Device device;
    InspectReply status;
};

Expected<Inspected> inspect(const CliContext& context, SpareAreaClient& helper,
                            const std::string& path) {
    auto device = context.makeDiscovery().find(path);
    if (!device) {
        return std::unexpected(device.error());
    }
    auto status = helper.inspect(InspectRequest{device->path});
    if (!status) {
        return std::unexpected(Error(status.error()).addContext("inspecting " + device->path));
    }
    return Inspected{*device, std::move(*status)};
}

PlanOptions planOptions(const Inspected& inspected, const OpOptions& options) {
    return PlanOptions{.unmountAndRemount = options.unmount,
                       .mountUsers = inspected.status.mountUsers};
}

Json journalJson(const std::optional<Journal>& journal) {
    return journal ? toJson(*journal) : Json(nullptr);
}

std::string journalLine(const std::optional<Journal>& journal) {
    if (!journal) {
        return "none";
    }
    std::string text =
        fmt::format("{} {} of {} ({}), {}", journal->purpose, toString(journal->direction),
                    journal->partitionPath, journal->filesystemType, toString(journal->phase));
    if (!journal->lastError.empty()) {
        text += "; stopped: " + journal->lastError;
    }
    return text;
}

int runPlan(const CliContext& context, const OpOptions& options) {
    SpareAreaClient helper(context.helper());
    auto inspected = inspect(context, helper, options.device);
    if (!inspected) {
        return reportError(context, inspected.error());
    }
    auto planned = plan(inspected->device, inspected->status.usage, options.sparePercent,
                        planOptions(*inspected, options));
    if (!planned) {
        return reportError(context, planned.error());
    }
    if (context.json) {
        printJson(Json{{"plan", toJson(*planned)},
                       {"journal", journalJson(inspected->status.journal)},
                       {"usage_error", inspected->status.usageError}});
        return kExitOk;
    }
    std::cout << planned->describe();
    const auto& journal = inspected->status.journal;
    std::cout << "Last operation: " << journalLine(journal) << "\n";
    if (journal && journal->pending()) {
        std::cout << "An interrupted change is pending: run `ssdkeeperctl op recover "
                  << inspected->device.path << " --finish` or `--rollback`.\n";
    }
    return kExitOk;
}

int runApply(const CliContext& context, const OpOptions& options) {
    SpareAreaClient helper(context.helper());
    auto inspected = inspect(context, helper, options.device);
    if (!inspected) {
        return reportError(context, inspected.error());
    }
    auto planned = plan(inspected->device, inspected->status.usage, options.sparePercent,
                        planOptions(*inspected, options));
    if (!planned) {
        return reportError(context, planned.error());
    }
    if (!planned->possible) {
        std::string reasons;
        for (const auto& reason : planned->refusals) {
            reasons += (reasons.empty() ? "" : "; ") + reason;
        }
        return reportError(context,
                           Error(ErrorCode::Unsupported, reasons)
                               .addContext("setting " + std::to_string(options.sparePercent) +
                                           " % spare area on " + planned->devicePath));
    }
    if (!context.json) {
        std::cout << planned->describe();
    }
    if (!confirmed(options.yes,
                   fmt::format("{} {} ({}) to {}?",
                               planned->direction == Direction::Shrink ? "Shrink" : "Grow",
                               planned->partitionPath, planned->filesystemType,
                               formatIec(planned->newPartitionSize)))) {
        return reportError(context, Error(ErrorCode::Cancelled, "not confirmed; nothing done"));
    }
    auto result = helper.apply(ApplyRequest{planned->devicePath, options.sparePercent,
                                            planned->partitionPath, planned->unmountAndRemount},
                               progressPrinter(context));
    if (!result) {
        return reportError(context, Error(result.error()).addContext("applying the spare area"));
    }
    if (context.json) {
        printJson(Json{{"plan", toJson(*planned)}, {"journal", toJson(result->journal)}});
    } else {
        std::cout << fmt::format("Done: {} is now {}; {} unallocated at the end ({:.1f} %). "
                                 "Undo with `ssdkeeperctl op undo {}`.\n",
                                 planned->partitionPath, formatIec(planned->newPartitionSize),
                                 formatIec(planned->newSpare),
                                 100.0 * static_cast<double>(planned->newSpare.value) /
                                     static_cast<double>(planned->diskSize.value),
                                 planned->devicePath);
    }
    return kExitOk;
}

// What op undo or op recover does: the action ("undo"), doing ("undoing the spare area change"),
// the question asked, whether the drive's journal offers it, and what is said when it does not.
struct JournalVerb {
    std::string action; // "undo"
    std::string doing;
    std::string question;
    bool (Journal::*offered)() const;
    std::string nothing;
};

// Runs op.undo or op.recover (call: the client's method with its request for the path). The
// journal is read first, so a drive with nothing to undo is said before anything is asked.
template <typename Call>
int runJournalVerb(const CliContext& context, const OpOptions& options, const JournalVerb& verb,
                   Call call) {
    SpareAreaClient helper(context.helper());
    auto inspected = inspect(context, helper, options.device);
    if (!inspected) {
        return reportError(context, inspected.error());
    }
    const std::string& path = inspected->device.path;
    const auto& journal = inspected->status.journal;
    if (!journal || !((*journal).*verb.offered)()) {
        return reportError(
            context, Error(ErrorCode::NotFound, fmt::format("nothing to {} on {}: {}", verb.action,
                                                            path, verb.nothing)));
    }
    if (!confirmed(options.yes, verb.question + " on " + path + "?")) {
        return reportError(context, Error(ErrorCode::Cancelled, "not confirmed; nothing done"));
    }
    auto result = call(helper, path, progressPrinter(context));
    if (!result) {
        return reportError(context, Error(result.error()).addContext(verb.doing + " on " + path));
    }
    if (context.json) {
        printJson(toJson(*result));
    } else {
        std::cout << "Done: " << journalLine(result->journal) << "\n";
    }
    return kExitOk;
}

} // namespace

void addOpCommands(CLI::App& app, CliContext& context, Commands& commands) {
    auto* op = app.add_subcommand("op", "Spare area (over-provisioning): shrink the last "
                                        "partition, TRIM the freed range, undo");
    op->require_subcommand(1);
    auto options = std::make_shared<OpOptions>();

    auto addSpare = [options](CLI::App* command) {
        command->add_option("DEV", options->device, "The drive, e.g. /dev/nvme0n1")->required();
        command->add_option("--spare", options->sparePercent, "Spare area in % of the drive")
            ->check(numberRange(0, 50))
            ->capture_default_str();
        command->add_flag("--unmount", options->unmount,
                          "Unmount a mounted ext2/3/4 for the shrink and mount it again where "
                          "and as it was (refused while anything holds it open)");
    };

    auto* plan = op->add_subcommand("plan", "Show factory and user spare area and what a "
                                            "percentage would change (nothing is written)");
    addSpare(plan);
    commands.add(plan, [&context, options] { return runPlan(context, *options); });

    auto* apply = op->add_subcommand("apply", "Shrink the last partition and its filesystem to "
                                              "leave --spare % unallocated, and TRIM it");
    addSpare(apply);
    apply->add_flag("--yes,-y", options->yes, "Do not ask for confirmation");
    commands.add(apply, [&context, options] { return runApply(context, *options); });

    auto* undo = op->add_subcommand("undo", "Grow the partition and filesystem back to what "
                                            "they were before the last apply");
    undo->add_option("DEV", options->device, "The drive")->required();
    undo->add_flag("--yes,-y", options->yes, "Do not ask for confirmation");
    commands.add(undo, [&context, options] {
        const JournalVerb verb{"undo", "undoing the spare area change", "Undo the spare area",
                               &Journal::undoable,
                               "no completed spare-area change is recorded (op apply makes one)"};
        return runJournalVerb(context, *options, verb,
                              [](SpareAreaClient& helper, const std::string& path,
                                 const rpc::Transport::EventHandler& onEvent) {
                                  return helper.undo(UndoRequest{path}, onEvent);
                              });
    });

    auto* recover = op->add_subcommand("recover", "Finish or roll back a change that was "
                                                  "interrupted (crash, power loss)");
    recover->add_option("DEV", options->device, "The drive")->required();
    auto* finish = recover->add_flag("--finish", options->finish, "Complete the change");
    auto* rollback =
        recover->add_flag("--rollback", options->rollback, "Return to the sizes before it");
    finish->excludes(rollback);
    recover->add_flag("--yes,-y", options->yes, "Do not ask for confirmation");
    commands.add(recover, [&context, options] {
        if (!options->finish && !options->rollback) {
            return reportError(context, Error(ErrorCode::InvalidArgument,
                                              "op recover needs --finish or --rollback"));
        }
        const Recovery action = options->finish ? Recovery::Finish : Recovery::RollBack;
        const JournalVerb verb{"recover",
                               options->finish ? "finishing the interrupted change"
                                               : "rolling back the interrupted change",
                               options->finish ? "Finish the interrupted change"
                                               : "Roll back the interrupted change",
                               &Journal::pending, "no spare-area change was interrupted"};
        return runJournalVerb(context, *options, verb,
                              [action](SpareAreaClient& helper, const std::string& path,
                                       const rpc::Transport::EventHandler& onEvent) {
                                  return helper.recover(RecoverRequest{path, action}, onEvent);
                              });
    });
}

} // namespace ssdk::cli
