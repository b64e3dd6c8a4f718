#include "cli/firmware_commands.h"

#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <unistd.h>

#include "cli/text_output.h"
#include "core/firmware/fwupd.h"
#include "core/firmware/info.h"
#include "core/firmware/verbs.h"
#include "core/rpc/client.h"

namespace ssdk::cli {

namespace {

// As root the drive is read in this process; otherwise through the helper's firmware.info.
Expected<Json> readInfo(const CliContext& context, const std::string& target) {
    if (::geteuid() == 0 && !context.sysfsRoot) {
        auto device = context.makeDiscovery().find(target);
        if (!device) {
            return std::unexpected(device.error());
        }
        return firmware::toJson(firmware::readFirmwareInfo(*device));
    }
    rpc::Transport& helper = context.helper();
    return helper.call(firmware::kVerbInfo, toJson(firmware::InfoRequest{target}));
}

std::string yesNo(bool value) {
    return value ? "yes" : "no";
}

void printInfo(const Json& info) {
    const std::string revision = info.value("revision", "");
    std::cout << fmt::format("{}  {}  serial {}\nFirmware revision: {}\n", info.value("device", ""),
                             info.value("model", ""), info.value("serial", ""),
                             revision.empty() ? "(not reported by this device)" : revision);
    if (const Json& nvme = info["nvme"]; nvme.is_object()) {
        std::cout << fmt::format(
            "NVMe firmware: {} slot(s), slot 1 read-only: {}, activation without reset: {}, "
            "download/commit: {}, chunk {} KiB{}\n",
            nvme.value("slots", 0), yesNo(nvme.value("slot1_read_only", false)),
            yesNo(nvme.value("activation_without_reset", false)),
            yesNo(nvme.value("download_commit_supported", false)),
            nvme.value("chunk_bytes", 0U) / 1024,
            nvme.value("granularity_stated", false) ? " (FWUG)" : " (FWUG not stated)");
    }
    if (const Json& log = info["slot_log"]; log.is_object()) {
        std::vector<std::vector<std::string>> rows{{"SLOT", "REVISION", "STATE"}};
        for (const auto& slot : log["slots"]) {
            std::vector<std::string> state;
            if (slot.value("active", false)) {
                state.emplace_back("active");
            }
            if (slot.value("next_reset", false)) {
                state.emplace_back("active after next reset");
            }
            if (slot.value("read_only", false)) {
                state.emplace_back("read-only");
            }
            std::string joined;
            for (const auto& s : state) {
                joined += (joined.empty() ? "" : ", ") + s;
            }
            const std::string slotRevision = slot.value("revision", "");
            rows.push_back({std::to_string(slot.value("slot", 0)),
                            slotRevision.empty() ? "(empty)" : slotRevision, joined});
        }
        std::cout << formatTable(rows);
    } else if (!info.value("nvme_error", "").empty()) {
        std::cout << "NVMe firmware slots: unavailable (" << info.value("nvme_error", "") << ")\n";
    }
    if (const Json& ata = info["ata_microcode"]; ata.is_object()) {
        std::cout << "ATA DOWNLOAD MICROCODE: "
                  << (ata.value("supported", false) ? "supported" : "not supported") << '\n';
        for (const auto& mode : ata["modes"]) {
            std::cout << "  mode " << mode.get<std::string>() << '\n';
        }
    }
    std::cout << "\nKnown firmware problems: ";
    if (info["known_issues"].empty()) {
        std::cout << "none known for this model and revision\n";
    } else {
        std::cout << '\n';
        for (const auto& issue : info["known_issues"]) {
            std::cout << "  - " << issue.value("problem", "");
            if (!issue.value("fixed_revision", "").empty()) {
                std::cout << "\n    fixed in: " << issue.value("fixed_revision", "");
            }
            std::cout << "\n    source: " << issue.value("source", "") << '\n';
        }
    }
    if (!info.value("catalog_error", "").empty()) {
        std::cout << "  (not all sources could be read: " << info.value("catalog_error", "")
                  << ")\n";
    }
    std::cout << "\nUpdate paths:\n";
    std::vector<std::vector<std::string>> rows{{"PATH", "OFFERED", "WHY"}};
    for (const auto& path : info["update_paths"]) {
        rows.push_back({path.value("id", ""), yesNo(path.value("available", false)),
                        path.value("reason", "")});
    }
    std::cout << formatTable(rows);
    for (const auto& path : info["update_paths"]) {
        if (path.value("id", "") != "fwupd" || path["releases"].empty()) {
            continue;
        }
        std::cout << fmt::format("\nfwupd releases for {} (now {}), upgrades only:\n",
                                 path.value("fwupd_device_name", ""),
                                 path.value("fwupd_version", ""));
        std::vector<std::vector<std::string>> releases{{"VERSION", "REMOTE", "SUMMARY"}};
        for (const auto& release : path["releases"]) {
            releases.push_back({release.value("version", ""), release.value("remote", ""),
                                release.value("summary", "")});
        }
        std::cout << formatTable(releases)
                  << fmt::format("Install: ssdkeeperctl firmware update {} --fwupd [--release "
                                 "VERSION] --yes\n",
                                 info.value("device", ""));
    }
}

int runFirmwareInfo(const CliContext& context, const std::string& target) {
    auto info = readInfo(context, target);
    if (!info) {
        return reportError(context,
                           Error(info.error()).addContext("reading the firmware of " + target));
    }
    if (context.json) {
        printJson(*info);
    } else {
        printInfo(*info);
    }
    return kExitOk;
}

struct UpdateOptions {
    std::string device;
    bool fwupd = false;
    std::string release; // --fwupd: a version fwupd offers as an upgrade
    std::string cab;     // --fwupd: a cabinet file instead of a release
    std::string image;
    unsigned slot = 0;
    std::string action;
    bool confirmSystemDisk = false;
    bool yes = false;
};

void printPlan(const Json& plan) {
    std::cout << fmt::format("Plan: {} to slot {}", plan.value("action", ""),
                             plan.value("slot", 0));
    if (plan.value("image_size", 0ULL) > 0) {
        std::cout << fmt::format(", {} bytes in {} download(s) of up to {} bytes",
                                 plan.value("image_size", 0ULL), plan.value("downloads", 0U),
                                 plan.value("chunk_bytes", 0U));
    }
    std::cout << "\n";
    std::vector<std::vector<std::string>> rows{{"CHECK", "RESULT", "DETAIL"}};
    for (const auto& check : plan["checks"]) {
        rows.push_back({check.value("name", ""), check.value("passed", false) ? "ok" : "REFUSED",
                        check.value("detail", "")});
    }
    std::cout << formatTable(rows) << "\nAfterwards: " << plan.value("reset_account", "") << '\n';
    for (const auto& reminder : plan["reminders"]) {
        std::cout << "  * " << reminder.get<std::string>() << '\n';
    }
}

// fwupd installs with its own privileges and asks polkit itself: this process talks to the
// daemon directly (docs/firmware.md), after finding the drive's fwupd device in firmware.info.
int runFwupdUpdate(const CliContext& context, const UpdateOptions& options) {
    auto info = readInfo(context, options.device);
    if (!info) {
        return reportError(
            context, Error(info.error()).addContext("reading the firmware of " + options.device));
    }
    Json path;
    for (const auto& p : (*info)["update_paths"]) {
        if (p.value("id", "") == "fwupd") {
            path = p;
        }
    }
    if (path.is_null() || path.value("fwupd_device_id", "").empty()) {
        return reportError(context,
                           Error(ErrorCode::Unsupported,
                                 "fwupd cannot update " + options.device + ": " +
                                     (path.is_null() ? std::string("fwupd was not probed")
                                                     : path.value("reason", std::string()))));
    }
    if (options.cab.empty() && !path.value("available", false)) {
        return reportError(
            context, Error(ErrorCode::Unsupported, "fwupd offers nothing for " + options.device +
                                                       ": " + path.value("reason", std::string())));
    }
    firmware::FwupdInstallRequest request{path.value("fwupd_device_id", ""), options.release, ""};
    if (!options.cab.empty()) {
        request.cabPath = std::filesystem::absolute(options.cab).lexically_normal().string();
    }
    const std::string what =
        !request.cabPath.empty()
            ? request.cabPath
            : (options.release.empty()
                   ? "the newest release (" + path["releases"][0].value("version", "") + ")"
                   : options.release);
    if (!context.json) {
        std::cout << fmt::format("fwupd will install {} on {} ({}, now {}).\n", what,
                                 options.device, path.value("fwupd_device_name", ""),
                                 path.value("fwupd_version", ""));
    }
    if (!options.yes) {
        return reportError(context,
                           Error(ErrorCode::InvalidArgument,
                                 "nothing was changed; add --yes to install it through fwupd"));
    }
    const auto service = firmware::systemFwupdService();
    const bool terminal = ::isatty(STDERR_FILENO) != 0;
    const firmware::FwupdProgressFn progress = [&](const firmware::FwupdProgress& p) {
        if (context.json) {
            return;
        }
        const std::string line = fmt::format("[{:3}%] fwupd: {}", p.percent, p.status);
        std::cerr << (terminal ? "\r\033[K" + line : line + "\n") << std::flush;
    };
    auto outcome = firmware::installWithFwupd(*service, request, progress, nullptr);
    if (terminal && !context.json) {
        std::cerr << '\n';
    }
    if (!outcome) {
        return reportError(context, Error(outcome.error())
                                        .addContext("updating the firmware of " + options.device +
                                                    " through fwupd"));
    }
    if (context.json) {
        printJson(firmware::toJson(*outcome));
    } else {
        std::cout << fmt::format("Done: {} now runs {} (was {}).\n", outcome->name,
                                 outcome->versionAfter.empty() ? "(not reported)"
                                                               : outcome->versionAfter,
                                 outcome->versionBefore);
    }
    return kExitOk;
}

int runUpdate(const CliContext& context, const UpdateOptions& options) {
    if (options.fwupd) {
        if (!options.image.empty() || options.slot != 0 || !options.action.empty()) {
            return reportError(context, Error(ErrorCode::InvalidArgument,
                                              "--fwupd takes --release or --cab, not --image, "
                                              "--slot or --action"));
        }
        return runFwupdUpdate(context, options);
    }
    if (!options.release.empty() || !options.cab.empty()) {
        return reportError(context,
                           Error(ErrorCode::InvalidArgument, "--release and --cab need --fwupd"));
    }
    if (options.slot == 0 || options.action.empty()) {
        return reportError(context, Error(ErrorCode::InvalidArgument,
                                          "an NVMe image update needs --slot and --action "
                                          "(or use --fwupd)"));
    }
    auto action = firmware::commitActionArg(options.action);
    if (!action) {
        return reportError(context, action.error());
    }
    firmware::UpdateVerbRequest request{options.device, options.slot, *action, "",
                                        options.confirmSystemDisk};
    if (!options.image.empty()) {
        request.image = std::filesystem::absolute(options.image).lexically_normal().string();
    }
    // The plan gets the image's size, read here with the user's own rights.
    firmware::PlanVerbRequest planRequest{options.device, options.slot, *action, std::nullopt,
                                          options.confirmSystemDisk};
    if (!request.image.empty()) {
        std::error_code ec;
        if (!std::filesystem::is_regular_file(request.image, ec)) {
            return reportError(context, Error(ErrorCode::NotFound,
                                              request.image + " is not a readable regular file"));
        }
        planRequest.imageSize = std::filesystem::file_size(request.image, ec);
        if (ec) {
            return reportError(context,
                               errnoError(ec.value(), "reading the size of " + request.image));
        }
    }
    rpc::Transport& helper = context.helper();
    auto plan = helper.call(firmware::kVerbPlan, toJson(planRequest));
    if (!plan) {
        return reportError(context, Error(plan.error())
                                        .addContext("checking the firmware update "
                                                    "of " +
                                                    options.device));
    }
    if (!context.json) {
        printPlan(*plan);
    }
    if (!plan->value("allowed", false)) {
        if (context.json) {
            printJson(Json{{"plan", *plan}});
        }
        return reportError(
            context, Error(ErrorCode::Unsupported,
                           "the update is refused: " + plan->value("refusal", std::string())));
    }
    if (!options.yes) {
        if (context.json) {
            printJson(Json{{"plan", *plan}});
        }
        return reportError(context,
                           Error(ErrorCode::InvalidArgument,
                                 "nothing was changed; add --yes to update the firmware of " +
                                     options.device + " as planned"));
    }
    auto result = helper.call(firmware::kVerbUpdate, toJson(request), progressPrinter(context));
    if (!result) {
        return reportError(
            context,
            Error(result.error()).addContext("updating the firmware of " + options.device));
    }
    if (context.json) {
        printJson(*result);
        return kExitOk;
    }
    const Json& outcome = (*result)["result"];
    std::cout << fmt::format("\nDone: {}\n", outcome.value("account", ""));
    if (outcome.value("reset_needed", false)) {
        std::cout << "A reset is needed before the drive runs the new firmware.\n";
    }
    return kExitOk;
}

} // namespace

void addFirmwareCommands(CLI::App& app, CliContext& context, Commands& commands) {
    auto target = std::make_shared<std::string>();
    auto* fw = app.add_subcommand(
        "firmware", "Firmware revision, NVMe slots, known problems and update paths of a drive");
    fw->add_option("device", *target, "The drive, e.g. /dev/nvme0n1");
    fw->require_subcommand(0, 1);

    auto update = std::make_shared<UpdateOptions>();
    auto* updateCmd = fw->add_subcommand(
        "update", "Install an NVMe firmware image you supply, or an fwupd release (--fwupd); "
                  "previews without --yes");
    updateCmd->add_option("device", update->device, "The drive")->required();
    updateCmd->add_flag("--fwupd", update->fwupd,
                        "Install through fwupd: the newest upgrade it offers for the drive");
    updateCmd->add_option("--release", update->release,
                          "With --fwupd: this version (fwupd must offer it as an upgrade)");
    updateCmd->add_option("--cab", update->cab,
                          "With --fwupd: a .cab file you supply (fwupd checks it fits)");
    updateCmd->add_option("--image", update->image, "The vendor's firmware image file");
    updateCmd->add_option("--slot", update->slot, "The firmware slot (1-7)");
    updateCmd
        ->add_option("--action", update->action,
                     "replace, replace-activate (at the next reset), activate (an image already "
                     "in the slot) or activate-now (without a reset)")
        ->check(CLI::IsMember({"replace", "replace-activate", "activate", "activate-now"}));
    updateCmd->add_flag("--confirm-system-disk", update->confirmSystemDisk,
                        "Allow updating the drive that holds the running system");
    updateCmd->add_flag("--yes", update->yes, "Go ahead after the checks pass");
    // Registered before the parent: the first parsed command runs.
    commands.add(updateCmd, [&context, update] { return runUpdate(context, *update); });
    commands.add(fw, [&context, target] {
        if (target->empty()) {
            return reportError(context, Error(ErrorCode::InvalidArgument,
                                              "give a drive: ssdkeeperctl firmware /dev/…"));
        }
        return runFirmwareInfo(context, *target);
    });
}

} // namespace ssdk::cli
