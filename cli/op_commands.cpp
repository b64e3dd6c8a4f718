#include "cli/op_commands.h"

#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <unistd.h>

#include "core/overprovision/planner.h"
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
    Json status; // op.inspect's answer
    std::optional<FilesystemUsage> usage;
};

Expected<Inspected> inspect(const CliContext& context, rpc::Transport& helper,
                            const std::string& path) {
    auto device = context.makeDiscovery().find(path);
    if (!device) {
        return std::unexpected(device.error());
    }
    auto status = helper.call("op.inspect", Json{{"device", device->path}});
    if (!status) {
        return std::unexpected(Error(status.error()).addContext("inspecting " + device->path));
    }
    Inspected result{*device, *status, std::nullopt};
    if (status->contains("usage") && !(*status)["usage"].is_null()) {
        auto usage = filesystemUsageFromJson((*status)["usage"]);
        if (!usage) {
            return std::unexpected(usage.error());
        }
        result.usage = *usage;
    }
    return result;
}

PlanOptions planOptions(const Inspected& inspected, const OpOptions& options) {
    PlanOptions result;
    result.unmountAndRemount = options.unmount;
    const Json users = inspected.status.value("mount_users", Json::array());
    for (const auto& user : users) {
        if (user.is_string()) {
            result.mountUsers.push_back(user.get<std::string>());
        }
    }
    return result;
}

std::string journalLine(const Json& journal) {
    if (journal.is_null()) {
        return "none";
    }
    std::string text = fmt::format("{} {} of {} ({}), {}", journal.value("purpose", "?"),
                                   journal.value("direction", "?"), journal.value("partition", "?"),
                                   journal.value("filesystem", "?"), journal.value("phase", "?"));
    if (!journal.value("last_error", "").empty()) {
        text += "; stopped: " + journal.value("last_error", "");
    }
    return text;
}

int runPlan(const CliContext& context, const OpOptions& options) {
    rpc::Transport& helper = context.helper();
    auto inspected = inspect(context, helper, options.device);
    if (!inspected) {
        return reportError(context, inspected.error());
    }
    auto planned = plan(inspected->device, inspected->usage, options.sparePercent,
                        planOptions(*inspected, options));
    if (!planned) {
        return reportError(context, planned.error());
    }
    if (context.json) {
        printJson(Json{{"plan", toJson(*planned)},
                       {"journal", inspected->status.value("journal", Json(nullptr))},
                       {"usage_error", inspected->status.value("usage_error", "")}});
        return kExitOk;
    }
    std::cout << planned->describe();
    const Json journal = inspected->status.value("journal", Json(nullptr));
    std::cout << "Last operation: " << journalLine(journal) << "\n";
    if (!journal.is_null() &&
        (journal["phase"] == "running" || journal["phase"] == "rolling-back")) {
        std::cout << "An interrupted change is pending: run `ssdkeeperctl op recover "
                  << inspected->device.path << " --finish` or `--rollback`.\n";
    }
    return kExitOk;
}

int runApply(const CliContext& context, const OpOptions& options) {
    rpc::Transport& helper = context.helper();
    auto inspected = inspect(context, helper, options.device);
    if (!inspected) {
        return reportError(context, inspected.error());
    }
    auto planned = plan(inspected->device, inspected->usage, options.sparePercent,
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
    auto result = helper.call("op.apply",
                              Json{{"device", planned->devicePath},
                                   {"spare_percent", options.sparePercent},
                                   {"partition", planned->partitionPath},
                                   {"unmount", planned->unmountAndRemount}},
                              progressPrinter(context));
    if (!result) {
        return reportError(context, Error(result.error()).addContext("applying the spare area"));
    }
    if (context.json) {
        printJson(Json{{"plan", toJson(*planned)}, {"journal", (*result)["journal"]}});
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

int runJournalVerb(const CliContext& context, const OpOptions& options, const std::string& verb,
                   Json args, const std::string& question) {
    auto device = context.makeDiscovery().find(options.device);
    if (!device) {
        return reportError(context, device.error());
    }
    args["device"] = device->path;
    if (!confirmed(options.yes, question + " on " + device->path + "?")) {
        return reportError(context, Error(ErrorCode::Cancelled, "not confirmed; nothing done"));
    }
    rpc::Transport& helper = context.helper();
    auto result = helper.call(verb, args, progressPrinter(context));
    if (!result) {
        return reportError(context, Error(result.error()).addContext(verb + " " + device->path));
    }
    if (context.json) {
        printJson(*result);
    } else {
        std::cout << "Done: " << journalLine((*result)["journal"]) << "\n";
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
            ->check(CLI::Range(0U, 50U))
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
        return runJournalVerb(context, *options, "op.undo", Json::object(), "Undo the spare area");
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
        return runJournalVerb(context, *options, "op.recover",
                              Json{{"action", options->finish ? "finish" : "rollback"}},
                              options->finish ? "Finish the interrupted change"
                                              : "Roll back the interrupted change");
    });
}

} // namespace ssdk::cli
