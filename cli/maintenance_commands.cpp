#include "cli/maintenance_commands.h"

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <unistd.h>

#include "cli/text_output.h"
#include "core/base/system_process_runner.h"
#include "core/maintenance/trim/format_verify.h"
#include "core/maintenance/trim/fstrim.h"
#include "core/rpc/client.h"

namespace ssdk::cli {

namespace {

int callHelper(const CliContext& context, const std::string& verb, const Json& args,
               const std::string& what, Json& result) {
    rpc::Transport& helper = context.helper();
    auto answer = helper.call(verb, args, progressPrinter(context));
    if (!answer) {
        return reportError(context, Error(answer.error()).addContext(what));
    }
    result = std::move(*answer);
    return kExitOk;
}

// Calls a helper verb and prints its answer: as JSON with --json, else through `human`.
int runVerb(const CliContext& context, const std::string& verb, const Json& args,
            const std::string& what, const std::function<void(const Json&)>& human) {
    Json result;
    if (int rc = callHelper(context, verb, args, what, result); rc != kExitOk) {
        return rc;
    }
    if (context.json) {
        printJson(result);
    } else {
        human(result);
    }
    return kExitOk;
}

void printLayers(const Json& audit) {
    std::vector<std::vector<std::string>> rows{{"LAYER", "NAME", "STATUS", "DETAIL"}};
    for (const auto& layer : audit.value("layers", Json::array())) {
        rows.push_back({layer.value("layer", ""), layer.value("name", ""),
                        layer.value("status", ""), layer.value("detail", "")});
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
    return runVerb(context, "trim.audit", Json{{"target", target}}, "auditing TRIM for " + target,
                   [](const Json& result) {
                       printLayers(result);
                       std::cout << fmt::format("\nRead after TRIM: {}\n{}\n",
                                                result.value("read_after_trim", "?"),
                                                result.value("verdict", ""));
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

int runVerify(const CliContext& context, const std::string& target, bool online,
              std::uint32_t blocks) {
    auto resolvedMount = mountPointOf(context, target);
    if (!resolvedMount) {
        return reportError(context, resolvedMount.error());
    }
    const std::string& mountPoint = *resolvedMount;
    return runVerb(context, "trim.verify",
                   Json{{"mount_point", mountPoint},
                        {"mode", online ? "online" : "fstrim"},
                        {"blocks", blocks}},
                   "verifying TRIM on " + mountPoint, [](const Json& result) {
                       printLayers(result);
                       const Json& before = result["before"];
                       const Json& after = result["after"];
                       std::cout << fmt::format(
                           "\nMarker blocks on {}: {} before; after: {} markers, {} "
                           "zeros, {} ones, {} other\n",
                           result.value("device", "?"), before.value("markers", 0),
                           after.value("markers", 0), after.value("zeros", 0),
                           after.value("ones", 0), after.value("other", 0));
                       if (!result["backing_file_holes"].is_null()) {
                           std::cout << fmt::format(
                               "Lab drive image: {} of those blocks store no data any more\n",
                               result["backing_file_holes"].get<std::uint64_t>());
                       }
                       std::cout << fmt::format("Result: {} — {}\n", result.value("result", "?"),
                                                result.value("reason", ""));
                   });
}

int runFstrim(const CliContext& context, const std::string& target) {
    auto resolvedMount = mountPointOf(context, target);
    if (!resolvedMount) {
        return reportError(context, resolvedMount.error());
    }
    const std::string& mountPoint = *resolvedMount;
    return runVerb(context, "trim.fstrim", Json{{"mount_point", mountPoint}},
                   "trimming " + mountPoint, [&mountPoint](const Json& result) {
                       std::cout << fmt::format(
                           "{}: {} trimmed\n", result.value("mount_point", mountPoint),
                           formatIec(Bytes(result.value("trimmed", std::uint64_t{0}))));
                   });
}

int runTimer(const CliContext& context, bool enable, bool disable) {
    Json status;
    if (enable || disable) {
        if (int rc = callHelper(context, "trim.timer", Json{{"enabled", enable}},
                                "changing fstrim.timer", status);
            rc != kExitOk) {
            return rc;
        }
    } else {
        SystemProcessRunner runner;
        status = maintenance::trim::toJson(maintenance::trim::readTimer(runner, SysfsRoot()));
    }
    if (context.json) {
        printJson(status);
        return kExitOk;
    }
    if (!status.value("available", false)) {
        std::cout << "fstrim.timer: unavailable (" << status.value("reason", "") << ")\n";
        return kExitOk;
    }
    std::cout << fmt::format("fstrim.timer: {}, {}\n",
                             status.value("enabled", false) ? "enabled" : "disabled",
                             status.value("active", false) ? "active" : "inactive");
    return kExitOk;
}

struct FormatArgs {
    std::string device;
    std::string fs = "ext4";
    bool quick = false;
    bool verifyTrim = false;
    bool discardFirst = false;
    bool yes = false;
};

void printFormatResult(const FormatArgs& args, const Json& result) {
    std::cout << fmt::format("Formatted {} as {} with `{}`.\nDiscard behaviour: {}\n",
                             result.value("device", ""), result.value("fs", ""),
                             result.value("formatter", ""), result.value("formatter_note", ""));
    if (args.verifyTrim) {
        std::cout << fmt::format(
            "Sampled {} blocks that held data ({}): {} discarded, {} kept old data, {} now "
            "metadata\nResult: {} — {}\n",
            result.value("sampled", 0), result.value("sample_source", ""),
            result.value("discarded", 0), result.value("kept", 0), result.value("rewritten", 0),
            result["result"].is_null() ? "unverified" : result["result"].get<std::string>(),
            result.value("reason", ""));
        if (!result["ground_truth_agreements"].is_null()) {
            std::cout << fmt::format("Lab drive image agrees on {} of {} blocks\n",
                                     result["ground_truth_agreements"].get<int>(),
                                     result.value("sampled", 0));
        }
        if (result.value("offer_blkdiscard", false)) {
            std::cout << "The formatter did not discard. To discard the whole partition and "
                         "format again: ssdkeeperctl format "
                      << args.device << " --fs " << args.fs
                      << " --discard-first --verify-trim --yes-destroy-data\n";
        }
    }
}

int runFormat(const CliContext& context, const FormatArgs& args) {
    if (!args.yes) {
        return reportError(context, Error(ErrorCode::InvalidArgument,
                                          "formatting destroys the data on " + args.device +
                                              "; add --yes-destroy-data to go ahead"));
    }
    return runVerb(context, "format.run",
                   Json{{"device", args.device},
                        {"fs", args.fs},
                        {"verify", args.verifyTrim},
                        {"discard_first", args.discardFirst}},
                   "formatting " + args.device,
                   [&args](const Json& result) { printFormatResult(args, result); });
}

struct EraseArgs {
    std::string device;
    std::string method = "auto";
    std::string confirm;
    std::string certificate;
    bool list = false;
    bool unfreeze = false;
    bool yes = false;
};

// Suspends the machine for 5 s so a security-frozen ATA drive unfreezes; erases nothing.
int runUnfreeze(const CliContext& context, rpc::Transport& helper, const EraseArgs& args) {
    auto result =
        helper.call("erase.unfreeze", Json{{"device", args.device}}, progressPrinter(context));
    if (!result) {
        return reportError(context, Error(result.error()).addContext("unfreezing " + args.device));
    }
    if (context.json) {
        printJson(*result);
    } else if (!result->value("suspended", false)) {
        std::cout << args.device << " is not frozen: nothing to do.\n";
    } else if (result->value("frozen", true)) {
        std::cout << args.device
                  << " is still frozen after the suspend: hot-plug the drive (unplug its data "
                     "and power cable while the machine runs, plug it back) and try again.\n";
    } else {
        std::cout << args.device << " is no longer frozen: the ATA erase methods can run now.\n";
    }
    return kExitOk;
}

int runErase(const CliContext& context, const EraseArgs& args) {
    rpc::Transport& helper = context.helper();
    if (args.unfreeze) {
        return runUnfreeze(context, helper, args);
    }
    auto probe = helper.call("erase.probe", Json{{"device", args.device}});
    if (!probe) {
        return reportError(
            context, Error(probe.error()).addContext("reading erase methods of " + args.device));
    }
    // An erase the helper did not finish (killed, power lost) is said before anything else.
    if ((*probe)["interrupted"].is_string() && !context.json) {
        std::cerr << "Warning: " << (*probe)["interrupted"].get<std::string>() << ".\n";
    }
    if (args.list) {
        if (context.json) {
            printJson(*probe);
            return kExitOk;
        }
        std::cout << probe->value("identity", "") << "\n\n";
        std::vector<std::vector<std::string>> rows{{"METHOD", "AVAILABLE", "NOTE"}};
        for (const auto& m : (*probe)["methods"]) {
            rows.push_back({m.value("method", ""), m.value("available", false) ? "yes" : "no",
                            m.value("reason", "")});
        }
        std::cout << formatTable(rows);
        if (!(*probe)["refused"].is_null()) {
            std::cout << "\nRefused: " << (*probe)["refused"].get<std::string>() << '\n';
        }
        return kExitOk;
    }
    if (!args.yes) {
        return reportError(context, Error(ErrorCode::InvalidArgument,
                                          "erasing destroys every byte on " + args.device +
                                              "; add --yes-destroy-data to go ahead"));
    }
    std::string typed = args.confirm;
    const std::string word = probe->value("confirmation", "");
    if (typed.empty()) {
        if (context.json || ::isatty(STDIN_FILENO) == 0) {
            return reportError(context, Error(ErrorCode::InvalidArgument,
                                              "pass --confirm \"" + word +
                                                  "\" (the drive's model) when not interactive"));
        }
        std::cout << "About to erase " << probe->value("identity", "") << " with method "
                  << args.method << ".\nType the model (" << word << ") to confirm: " << std::flush;
        std::getline(std::cin, typed);
    }
    auto result = helper.call(
        "erase.run", Json{{"device", args.device}, {"method", args.method}, {"confirm", typed}},
        progressPrinter(context));
    if (!result) {
        return reportError(context, Error(result.error()).addContext("erasing " + args.device));
    }
    if (!args.certificate.empty()) {
        Json certificate = *result;
        const std::string text = certificate.value("text", "");
        certificate.erase("text");
        std::ofstream(args.certificate) << certificate.dump(2) << '\n';
        std::ofstream(args.certificate + ".txt") << text;
    }
    if (context.json) {
        printJson(*result);
    } else {
        std::cout << result->value("text", "");
    }
    return (*result)["verification"].value("passed", false) ? kExitOk : kExitFailed;
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
        std::uint32_t blocks = 256;
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
    verifyCmd->add_option("--blocks", verify->blocks, "Marker blocks of 4 KiB (16-16384)")
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
