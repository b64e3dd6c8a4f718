#include "cli/firmware_commands.h"

#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <unistd.h>

#include "cli/text_output.h"
#include "core/firmware/firmware_client.h"

namespace ssdk::cli {

namespace {

// As root the drive is read in this process; otherwise through the helper's firmware.info.
Expected<firmware::FirmwareInfo> readInfo(const CliContext& context, const std::string& target) {
    if (::geteuid() == 0 && !context.sysfsRoot) {
        auto device = context.makeDiscovery().find(target);
        if (!device) {
            return std::unexpected(device.error());
        }
        return firmware::readFirmwareInfo(*device);
    }
    return firmware::FirmwareClient(context.helper()).info(firmware::InfoRequest{target});
}

std::string yesNo(bool value) {
    return value ? "yes" : "no";
}

// The update path with this id, if firmware.info reported it.
const firmware::PathStatus* findPath(const firmware::FirmwareInfo& info, std::string_view id) {
    for (const auto& path : info.paths) {
        if (path.id == id) {
            return &path;
        }
    }
    return nullptr;
}

void printInfo(const firmware::FirmwareInfo& info) {
    const firmware::DriveFirmwareFacts& facts = info.facts;
    std::cout << fmt::format(
        "{}  {}  serial {}\nFirmware revision: {}\n", info.device.path, facts.model, facts.serial,
        facts.revision.empty() ? "(not reported by this device)" : facts.revision);
    const firmware::NvmeFirmwareCaps* caps = facts.nvme ? &*facts.nvme : nullptr;
    if (caps != nullptr) {
        std::cout << fmt::format(
            "NVMe firmware: {} slot(s), slot 1 read-only: {}, activation without reset: {}, "
            "download/commit: {}, chunk {} KiB{}\n",
            caps->slotCount, yesNo(caps->slot1ReadOnly), yesNo(caps->activationWithoutReset),
            yesNo(caps->downloadCommitSupported), caps->chunkBytes() / 1024,
            caps->granularityStated() ? " (FWUG)" : " (FWUG not stated)");
    }
    if (facts.slotLog) {
        std::vector<std::vector<std::string>> rows{{"SLOT", "REVISION", "STATE"}};
        for (const auto& slot : firmware::slotStates(*facts.slotLog, caps)) {
            std::vector<std::string> state;
            if (slot.active) {
                state.emplace_back("active");
            }
            if (slot.nextReset) {
                state.emplace_back("active after next reset");
            }
            if (slot.readOnly) {
                state.emplace_back("read-only");
            }
            std::string joined;
            for (const auto& s : state) {
                joined += (joined.empty() ? "" : ", ") + s;
            }
            rows.push_back({std::to_string(slot.slot),
                            slot.revision.empty() ? "(empty)" : slot.revision, joined});
        }
        std::cout << formatTable(rows);
    } else if (!facts.nvmeError.empty()) {
        std::cout << "NVMe firmware slots: unavailable (" << facts.nvmeError << ")\n";
    }
    if (facts.ata) {
        std::cout << "ATA DOWNLOAD MICROCODE: "
                  << (facts.ata->supported ? "supported" : "not supported") << '\n';
        for (const auto& mode : facts.ata->modes()) {
            std::cout << "  mode " << mode << '\n';
        }
    }
    std::cout << "\nKnown firmware problems: ";
    if (info.knownIssues.empty()) {
        std::cout << "none known for this model and revision\n";
    } else {
        std::cout << '\n';
        for (const auto& issue : info.knownIssues) {
            std::cout << "  - " << issue.problem;
            if (!issue.fixedRevision.empty()) {
                std::cout << "\n    fixed in: " << issue.fixedRevision;
            }
            std::cout << "\n    source: " << issue.source << '\n';
        }
    }
    if (!info.catalogError.empty()) {
        std::cout << "  (not all sources could be read: " << info.catalogError << ")\n";
    }
    std::cout << "\nUpdate paths:\n";
    std::vector<std::vector<std::string>> rows{{"PATH", "OFFERED", "WHY"}};
    for (const auto& path : info.paths) {
        rows.push_back({path.id, yesNo(path.available), path.reason});
    }
    std::cout << formatTable(rows);
    const firmware::PathStatus* fwupd = findPath(info, "fwupd");
    if (fwupd != nullptr && !fwupd->releases.empty()) {
        std::cout << fmt::format("\nfwupd releases for {} (now {}), upgrades only:\n",
                                 fwupd->fwupdDeviceName, fwupd->fwupdVersion);
        std::vector<std::vector<std::string>> releases{{"VERSION", "REMOTE", "SUMMARY"}};
        for (const auto& release : fwupd->releases) {
            releases.push_back({release.version, release.remoteId, release.summary});
        }
        std::cout << formatTable(releases)
                  << fmt::format("Install: ssdkeeperctl firmware update {} --fwupd [--release "
                                 "VERSION] --yes\n",
                                 info.device.path);
    }
}

int runFirmwareInfo(const CliContext& context, const std::string& target) {
    auto info = readInfo(context, target);
    if (!info) {
        return reportError(context,
                           Error(info.error()).addContext("reading the firmware of " + target));
    }
    if (context.json) {
        printJson(firmware::toJson(*info));
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

void printPlan(const firmware::UpdatePlan& plan) {
    std::cout << fmt::format("Plan: {} to slot {}", firmware::toString(plan.request.action),
                             plan.request.slot);
    if (plan.request.imageSize > 0) {
        std::cout << fmt::format(", {} bytes in {} download(s) of up to {} bytes",
                                 plan.request.imageSize, plan.downloads, plan.chunkBytes);
    }
    std::cout << "\n";
    std::vector<std::vector<std::string>> rows{{"CHECK", "RESULT", "DETAIL"}};
    for (const auto& check : plan.checks) {
        rows.push_back({check.name, check.passed ? "ok" : "REFUSED", check.detail});
    }
    std::cout << formatTable(rows) << "\nAfterwards: " << plan.resetAccount << '\n';
    for (const auto& reminder : plan.reminders) {
        std::cout << "  * " << reminder << '\n';
    }
}

// With --json, a plan that was not carried out: the "plan" of firmware.update's result alone.
void printPlanJson(const firmware::UpdatePlan& plan) {
    printJson(Json{{"plan", firmware::toJson(plan)}});
}

// fwupd installs with its own privileges and asks polkit itself: this process talks to the
// daemon directly (docs/firmware.md), after finding the drive's fwupd device in firmware.info.
int runFwupdUpdate(const CliContext& context, const UpdateOptions& options) {
    auto info = readInfo(context, options.device);
    if (!info) {
        return reportError(
            context, Error(info.error()).addContext("reading the firmware of " + options.device));
    }
    const firmware::PathStatus* path = findPath(*info, "fwupd");
    if (path == nullptr || path->fwupdDeviceId.empty()) {
        return reportError(context, Error(ErrorCode::Unsupported,
                                          "fwupd cannot update " + options.device + ": " +
                                              (path == nullptr ? std::string("fwupd was not probed")
                                                               : path->reason)));
    }
    if (options.cab.empty() && !path->available) {
        return reportError(context,
                           Error(ErrorCode::Unsupported, "fwupd offers nothing for " +
                                                             options.device + ": " + path->reason));
    }
    firmware::FwupdInstallRequest request{path->fwupdDeviceId, options.release, ""};
    if (!options.cab.empty()) {
        request.cabPath = std::filesystem::absolute(options.cab).lexically_normal().string();
    }
    // fwupd offers a path only with at least one upgrade, the newest first.
    const std::string newest = path->releases.empty() ? "" : path->releases.front().version;
    const std::string what =
        !request.cabPath.empty()
            ? request.cabPath
            : (options.release.empty() ? "the newest release (" + newest + ")" : options.release);
    if (!context.json) {
        std::cout << fmt::format("fwupd will install {} on {} ({}, now {}).\n", what,
                                 options.device, path->fwupdDeviceName, path->fwupdVersion);
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
    firmware::FirmwareClient client(context.helper());
    auto plan = client.plan(planRequest);
    if (!plan) {
        return reportError(context, Error(plan.error())
                                        .addContext("checking the firmware update "
                                                    "of " +
                                                    options.device));
    }
    if (!context.json) {
        printPlan(*plan);
    }
    if (!plan->allowed()) {
        if (context.json) {
            printPlanJson(*plan);
        }
        return reportError(
            context, Error(ErrorCode::Unsupported, "the update is refused: " + plan->refusal()));
    }
    if (!options.yes) {
        if (context.json) {
            printPlanJson(*plan);
        }
        return reportError(context,
                           Error(ErrorCode::InvalidArgument,
                                 "nothing was changed; add --yes to update the firmware of " +
                                     options.device + " as planned"));
    }
    auto reply = client.update(request, progressPrinter(context));
    if (!reply) {
        return reportError(
            context, Error(reply.error()).addContext("updating the firmware of " + options.device));
    }
    if (context.json) {
        printJson(firmware::toJson(*reply));
        return kExitOk;
    }
    std::cout << fmt::format("\nDone: {}\n", reply->result.account);
    if (reply->result.resetNeeded) {
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
