#include "cli/maintenance_commands.h"

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <memory>
#include <unistd.h>

#include "cli/text_output.h"
#include "core/maintenance/format_target.h"
#include "core/maintenance/maintenance_client.h"
#include "core/maintenance/trim/fstrim.h"

namespace ssdk::cli {

namespace {

namespace trim = maintenance::trim;

// A MaintenanceClient call's result printed: as its JSON with --json, else through `human`.
template <typename Reply, typename Human>
int printReply(const CliContext& context, Expected<Reply> reply, const std::string& what,
               Human human) {
    if (!reply) {
        return reportError(context, Error(reply.error()).addContext(what));
    }
    if (context.json) {
        printJson(toJson(*reply));
    } else {
        human(*reply);
    }
    return kExitOk;
}

void printLayers(const trim::TrimAudit& audit) {
    std::vector<std::vector<std::string>> rows{{"LAYER", "NAME", "STATUS", "DETAIL"}};
    for (const auto& layer : audit.layers) {
        rows.push_back(
            {layer.layer, layer.name, std::string(trim::toString(layer.status)), layer.detail});
    }
    std::cout << formatTable(rows);
}

int runAudit(const CliContext& context, const std::string& given) {
    // The helper takes a mount point only as mountinfo spells it: resolved here, as the user
    // ("." or "/mnt/data/" become "/mnt/data").
    std::string target = given;
    if (!given.starts_with("/dev/")) {
        std::error_code error;
        const auto resolved = std::filesystem::canonical(given, error);
        if (!error) {
            target = resolved.string();
        }
    }
    maintenance::MaintenanceClient client(context.helper());
    return printReply(context, client.audit({target}), "auditing TRIM for " + target,
                      [](const trim::TrimAudit& audit) {
                          printLayers(audit);
                          std::cout
                              << fmt::format("\nRead after TRIM: {}\n{}\n",
                                             trim::toString(audit.readAfterTrim), audit.verdict);
                      });
}

// verify and fstrim act on a filesystem: a /dev path stands for where it is mounted.
Expected<std::string> mountPointOf(const CliContext& context, const std::string& target) {
    if (!target.starts_with("/dev/")) {
        return target;
    }
    auto device = context.makeDiscovery().find(target);
    if (!device) {
        return std::unexpected(device.error());
    }
    char resolved[PATH_MAX];
    const std::string real = ::realpath(target.c_str(), resolved) ? resolved : target;
    if (real == device->path && !device->mounts.empty()) {
        return device->mounts.front().mountPoint;
    }
    for (const auto& partition : device->partitions) {
        if (partition.path == real && !partition.mounts.empty()) {
            return partition.mounts.front().mountPoint;
        }
    }
    return fail(ErrorCode::InvalidArgument,
                target + " has no mounted filesystem; give a mounted partition or its mount point");
}

void printVerify(const trim::VerifyResult& result) {
    printLayers(result.audit);
    std::cout << fmt::format("\nMarker blocks on {}: {} before; after: {} markers, {} "
                             "zeros, {} ones, {} other\n",
                             result.device, result.before.markers, result.after.markers,
                             result.after.zeros, result.after.ones, result.after.other);
    if (result.backingHoles) {
        std::cout << fmt::format("Lab drive image: {} of those blocks store no data any more\n",
                                 *result.backingHoles);
    }
    std::cout << fmt::format("Result: {} — {}\n", trim::toString(result.outcome), result.reason);
}

int runVerify(const CliContext& context, const std::string& target, bool online,
              std::uint32_t blocks) {
    auto resolvedMount = mountPointOf(context, target);
    if (!resolvedMount) {
        return reportError(context, resolvedMount.error());
    }
    const std::string& mountPoint = *resolvedMount;
    maintenance::MaintenanceClient client(context.helper());
    const maintenance::VerifyRequest request{
        mountPoint, online ? trim::TrimMode::OnlineDiscard : trim::TrimMode::Fstrim, blocks};
    return printReply(context, client.verify(request, progressPrinter(context)),
                      "verifying TRIM on " + mountPoint, printVerify);
}

int runFstrim(const CliContext& context, const std::string& target) {
    auto resolvedMount = mountPointOf(context, target);
    if (!resolvedMount) {
        return reportError(context, resolvedMount.error());
    }
    const std::string& mountPoint = *resolvedMount;
    maintenance::MaintenanceClient client(context.helper());
    return printReply(context, client.fstrim({mountPoint}, progressPrinter(context)),
                      "trimming " + mountPoint, [](const maintenance::FstrimReply& reply) {
                          std::cout << fmt::format("{}: {} trimmed\n", reply.mountPoint,
                                                   formatIec(reply.trimmed));
                      });
}

void printTimer(const trim::TimerFacts& timer) {
    if (!timer.available) {
        std::cout << "fstrim.timer: unavailable (" << timer.unavailableReason << ")\n";
        return;
    }
    std::cout << fmt::format("fstrim.timer: {}, {}\n", timer.enabled ? "enabled" : "disabled",
                             timer.active ? "active" : "inactive");
}

int runTimer(const CliContext& context, bool enable, bool disable) {
    if (enable || disable) {
        maintenance::MaintenanceClient client(context.helper());
        return printReply(context, client.setTimer({enable}), "changing fstrim.timer", printTimer);
    }
    return printReply(context,
                      Expected<trim::TimerFacts>(trim::readTimer(context.processes(), SysfsRoot())),
                      "reading fstrim.timer", printTimer);
}

struct FormatArgs {
    std::string device;
    std::string fs = "ext4";
    bool quick = false;
    bool verifyTrim = false;
    bool discardFirst = false;
    bool yes = false;
};

void printFormatResult(const FormatArgs& args, const trim::FormatResult& result) {
    std::cout << fmt::format("Formatted {} as {} with `{}`.\nDiscard behaviour: {}\n",
                             result.device, result.fsType, result.formatterCommand,
                             result.formatterNote);
    if (args.verifyTrim) {
        std::cout << fmt::format("Sampled {} blocks that held data ({}).\n", result.sampled,
                                 result.sampleSource);
        if (result.freeMapError.empty()) {
            std::cout << fmt::format(
                "Judged {} of them, the ones the new {} leaves free (read from {}): {} "
                "discarded, {} kept old data, {} hold other data; {} now used by the new {}, not "
                "judged\n",
                result.counts.judged(), result.fsType, result.freeMapSource,
                result.counts.discarded, result.counts.kept, result.counts.rewritten,
                result.counts.inUseByNewFs, result.fsType);
        }
        std::cout << fmt::format("Result: {} — {}\n",
                                 result.outcome ? std::string(trim::toString(*result.outcome))
                                                : "no verdict",
                                 result.reason);
        if (result.groundTruthAgreements) {
            std::cout << fmt::format("Lab drive image agrees on {} of {} judged blocks\n",
                                     *result.groundTruthAgreements, result.counts.judged());
        }
        if (result.groundTruthDisagrees) {
            std::cout << "!!! " << result.groundTruthWarning << " !!!\n";
        }
        if (result.offerBlkdiscard) {
            std::cout << "The formatter did not discard. To discard the whole partition and "
                         "format again: ssdkeeperctl format "
                      << args.device << " --fs " << args.fs
                      << " --discard-first --verify-trim --yes-destroy-data\n";
        }
    }
}

// What the helper would refuse, said before the confirmation is asked for.
Expected<void> checkFormatTarget(const CliContext& context, const std::string& path) {
    auto disk = context.makeDiscovery().find(path);
    if (!disk) {
        return std::unexpected(disk.error());
    }
    std::error_code ec;
    const auto real = std::filesystem::canonical(path, ec);
    return maintenance::checkFormatTarget(*disk, ec ? path : real.string());
}

int runFormat(const CliContext& context, const FormatArgs& args) {
    if (auto allowed = checkFormatTarget(context, args.device); !allowed) {
        return reportError(context, allowed.error());
    }
    if (!args.yes) {
        return reportError(context, Error(ErrorCode::InvalidArgument,
                                          "formatting destroys the data on " + args.device +
                                              "; add --yes-destroy-data to go ahead"));
    }
    maintenance::MaintenanceClient client(context.helper());
    const maintenance::FormatRequest request{args.device, args.fs, args.verifyTrim,
                                             args.discardFirst};
    return printReply(
        context, client.format(request, progressPrinter(context)), "formatting " + args.device,
        [&args](const trim::FormatResult& result) { printFormatResult(args, result); });
}

struct EraseArgs {
    std::string device;
    std::string method = maintenance::kAutoMethod;
    std::string confirm;
    std::string certificate;
    bool list = false;
    bool unfreeze = false;
    bool yes = false;
};

// Suspends the machine for 5 s so a security-frozen ATA drive unfreezes; erases nothing.
int runUnfreeze(const CliContext& context, maintenance::MaintenanceClient& client,
                const EraseArgs& args) {
    return printReply(context, client.unfreeze({args.device}, progressPrinter(context)),
                      "unfreezing " + args.device,
                      [&args](const maintenance::UnfreezeReply& reply) {
                          if (!reply.suspended) {
                              std::cout << args.device << " is not frozen: nothing to do.\n";
                          } else if (reply.frozen) {
                              std::cout << args.device
                                        << " is still frozen after the suspend: hot-plug the "
                                           "drive (unplug its data and power cable while the "
                                           "machine runs, plug it back) and try again.\n";
                          } else {
                              std::cout << args.device
                                        << " is no longer frozen: the ATA erase methods can run "
                                           "now.\n";
                          }
                      });
}

void printMethods(const maintenance::EraseProbeReply& probe) {
    std::cout << probe.identity << "\n\n";
    std::vector<std::vector<std::string>> rows{{"METHOD", "AVAILABLE", "NOTE"}};
    for (const auto& method : probe.methods) {
        rows.push_back({std::string(maintenance::erase::toString(method.method)),
                        method.available ? "yes" : "no", method.reason});
    }
    std::cout << formatTable(rows);
    if (probe.refused) {
        std::cout << "\nRefused: " << *probe.refused << '\n';
    }
}

// Why method (a method's name or kAutoMethod) cannot erase the probed drive: an unknown name
// (a usage error) or a method the drive lacks; nothing when it can.
std::optional<Error> methodProblem(const maintenance::EraseProbeReply& probe,
                                   const std::string& method) {
    const std::string prefix = "cannot erase " + probe.device + ": ";
    if (method == maintenance::kAutoMethod) {
        if (!probe.automatic) {
            return Error(ErrorCode::Unsupported,
                         prefix + "no erase method is available for this drive (see --list)");
        }
        return std::nullopt;
    }
    std::string names;
    for (const auto& report : probe.methods) {
        const std::string name(maintenance::erase::toString(report.method));
        if (name == method) {
            if (report.available) {
                return std::nullopt;
            }
            return Error(ErrorCode::Unsupported,
                         prefix + "method " + method + " is not available: " + report.reason);
        }
        names += (names.empty() ? "" : ", ") + name;
    }
    return Error(ErrorCode::InvalidArgument,
                 "unknown erase method '" + method + "'; choose auto, " + names);
}

int runErase(const CliContext& context, EraseArgs args) {
    // A drive may be named as anywhere else (sdb, a lab drive's name); the helper takes its node.
    auto drive = context.makeDiscovery().find(args.device);
    if (!drive) {
        return reportError(context, drive.error());
    }
    std::error_code ec;
    const std::string given = args.device.starts_with('/')
                                  ? std::filesystem::canonical(args.device, ec).string()
                                  : args.device;
    if (given != drive->path && given != drive->name && drive->labName != given) {
        return reportError(context, Error(ErrorCode::InvalidArgument,
                                          fmt::format("{} is a partition; an erase takes the "
                                                      "whole drive ({})",
                                                      args.device, drive->path)));
    }
    args.device = drive->path;
    maintenance::MaintenanceClient client(context.helper());
    if (args.unfreeze) {
        return runUnfreeze(context, client, args);
    }
    auto probe = client.probeErase({args.device});
    if (!probe) {
        return reportError(
            context, Error(probe.error()).addContext("reading erase methods of " + args.device));
    }
    // An erase the helper did not finish (killed, power lost) is said before anything else.
    if (probe->interrupted && !context.json) {
        std::cerr << "Warning: " << *probe->interrupted << ".\n";
    }
    if (args.list) {
        return printReply(context, std::move(probe), "", printMethods);
    }
    // Checked first, asked last: a refused drive or an unavailable method is said before any
    // confirmation is asked for.
    if (probe->refused) {
        return reportError(context, Error(ErrorCode::PermissionDenied, *probe->refused));
    }
    if (auto problem = methodProblem(*probe, args.method)) {
        return reportError(context, *problem);
    }
    if (!args.yes) {
        return reportError(context, Error(ErrorCode::InvalidArgument,
                                          "erasing destroys every byte on " + args.device +
                                              "; add --yes-destroy-data to go ahead"));
    }
    std::string typed = args.confirm;
    const std::string& word = probe->confirmation;
    if (typed.empty()) {
        if (context.json || ::isatty(STDIN_FILENO) == 0) {
            return reportError(context, Error(ErrorCode::InvalidArgument,
                                              "pass --confirm \"" + word +
                                                  "\" (the drive's model) when not interactive"));
        }
        std::cout << "About to erase " << probe->identity << " with method " << args.method
                  << ".\nType the model (" << word << ") to confirm: " << std::flush;
        std::getline(std::cin, typed);
    }
    auto result = client.erase({args.device, args.method, typed}, progressPrinter(context));
    if (!result) {
        return reportError(context, Error(result.error()).addContext("erasing " + args.device));
    }
    if (!args.certificate.empty()) {
        std::ofstream(args.certificate)
            << maintenance::certificateFileJson(*result).dump(2) << '\n';
        std::ofstream(args.certificate + ".txt") << result->text;
    }
    if (context.json) {
        printJson(toJson(*result));
    } else {
        std::cout << result->text;
    }
    return result->certificate.verification.passed ? kExitOk : kExitFailed;
}

} // namespace

void addMaintenanceCommands(CLI::App& app, CliContext& context, Commands& commands) {
    auto* trim = app.add_subcommand("trim", "TRIM: audit the stack, verify end to end, fstrim, "
                                            "scheduled TRIM");
    trim->require_subcommand(1);

    auto auditTarget = std::make_shared<std::string>();
    auto* audit = trim->add_subcommand("audit", "Say, layer by layer, whether a discard can "
                                                "reach the flash");
    audit->add_option("target", *auditTarget, "A mount point or a /dev node")->required();
    commands.add(audit, [&context, auditTarget] { return runAudit(context, *auditTarget); });

    struct VerifyArgs {
        std::string mountPoint;
        bool online = false;
        std::uint32_t blocks = maintenance::kDefaultMarkerBlocks;
    };
    auto verify = std::make_shared<VerifyArgs>();
    auto* verifyCmd = trim->add_subcommand(
        "verify", "Write marker blocks, delete them, trim, and read the device: did TRIM "
                  "reach it?");
    verifyCmd
        ->add_option("target", verify->mountPoint, "A mount point, or a mounted partition (/dev/…)")
        ->required();
    verifyCmd->add_flag("--online", verify->online,
                        "Wait for online discard (discard mount option) instead of FITRIM");
    verifyCmd
        ->add_option("--blocks", verify->blocks,
                     fmt::format("Marker blocks of 4 KiB ({}-{})", maintenance::kMinMarkerBlocks,
                                 maintenance::kMaxMarkerBlocks))
        ->capture_default_str();
    commands.add(verifyCmd, [&context, verify] {
        return runVerify(context, verify->mountPoint, verify->online, verify->blocks);
    });

    auto fstrimTarget = std::make_shared<std::string>();
    auto* fstrim = trim->add_subcommand("fstrim", "Trim the free space of a mounted filesystem");
    fstrim->add_option("target", *fstrimTarget, "A mount point, or a mounted partition (/dev/…)")
        ->required();
    commands.add(fstrim, [&context, fstrimTarget] { return runFstrim(context, *fstrimTarget); });

    struct TimerArgs {
        bool enable = false;
        bool disable = false;
    };
    auto timerArgs = std::make_shared<TimerArgs>();
    auto* timer = trim->add_subcommand("timer", "Show or switch systemd's weekly fstrim.timer");
    auto* enable = timer->add_flag("--enable", timerArgs->enable, "Enable and start it");
    timer->add_flag("--disable", timerArgs->disable, "Disable and stop it")->excludes(enable);
    commands.add(timer, [&context, timerArgs] {
        return runTimer(context, timerArgs->enable, timerArgs->disable);
    });

    auto format = std::make_shared<FormatArgs>();
    auto* formatCmd = app.add_subcommand(
        "format", "Quick-format a partition, optionally verifying that TRIM reached the drive");
    formatCmd->add_option("device", format->device, "The partition, e.g. /dev/sdb1")->required();
    formatCmd->add_option("--fs", format->fs, "ext4, xfs, btrfs, ntfs, exfat or vfat")
        ->check(CLI::IsMember({"ext4", "xfs", "btrfs", "ntfs", "exfat", "vfat"}))
        ->capture_default_str();
    formatCmd->add_flag("--quick", format->quick,
                        "A quick format (the only kind: metadata only, plus the formatter's own "
                        "discard)");
    formatCmd->add_flag("--verify-trim", format->verifyTrim,
                        "Sample blocks holding data first and check they were discarded");
    formatCmd->add_flag("--discard-first", format->discardFirst,
                        "Discard the whole partition (BLKDISCARD) before formatting");
    formatCmd->add_flag("--yes-destroy-data", format->yes, "Confirm that the data goes");
    commands.add(formatCmd, [&context, format] { return runFormat(context, *format); });

    auto erase = std::make_shared<EraseArgs>();
    auto* eraseCmd = app.add_subcommand(
        "erase", "Securely erase a whole drive with the strongest method it supports");
    eraseCmd->add_option("device", erase->device, "The whole drive, e.g. /dev/nvme1n1")->required();
    eraseCmd
        ->add_option("--method", erase->method,
                     "auto, nvme-sanitize-crypto, nvme-sanitize-block, nvme-format-crypto, "
                     "nvme-format, ata-sanitize-crypto, ata-sanitize-block, "
                     "ata-security-erase-enhanced, ata-security-erase, secdiscard, discard, "
                     "zeroout")
        ->capture_default_str();
    eraseCmd->add_flag("--list", erase->list,
                       "Only list the methods and why each is or is not "
                       "available");
    eraseCmd->add_flag("--unfreeze", erase->unfreeze,
                       "Only unfreeze a security-frozen ATA drive: suspend the machine for 5 s "
                       "(rtcwake) so the drive loses power; erases nothing");
    eraseCmd->add_option("--confirm", erase->confirm,
                         "The drive's model, as the confirmation (asked for when omitted)");
    eraseCmd->add_option("--certificate", erase->certificate,
                         "Write the certificate as JSON to FILE and as text to FILE.txt");
    eraseCmd->add_flag("--yes-destroy-data", erase->yes, "Confirm that every byte goes");
    commands.add(eraseCmd, [&context, erase] { return runErase(context, *erase); });
}

} // namespace ssdk::cli
