#include "cli/lab_vm_commands.h"

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <unistd.h>

#include "cli/usage.h"
#include "core/base/error.h"

namespace ssdk::cli {

namespace {

std::filesystem::path labScriptPath() {
    if (const char* fromEnvironment = std::getenv("SSDK_LAB_SCRIPT");
        fromEnvironment != nullptr && *fromEnvironment != '\0') {
        return fromEnvironment;
    }
    return SSDK_LAB_SCRIPT;
}

} // namespace

int execLabScript(const CliContext& context, const std::string& vmDirectory,
                  const std::vector<std::string>& args) {
    if (context.json) {
        return reportError(context, Error(ErrorCode::InvalidArgument,
                                          "lab vm prints text only; --json is not supported"));
    }
    const auto script = labScriptPath();
    if (::access(script.c_str(), X_OK) != 0) {
        return reportError(
            context, Error(ErrorCode::ToolMissing,
                           "the lab VM needs scripts/lab from the SSD Keeper source tree, not "
                           "found at " +
                               script.string() + " (set SSDK_LAB_SCRIPT to its path)"));
    }
    std::vector<std::string> argv{script.string()};
    if (!vmDirectory.empty()) {
        argv.insert(argv.end(), {"--dir", vmDirectory});
    }
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> pointers;
    pointers.reserve(argv.size() + 1);
    for (auto& arg : argv) {
        pointers.push_back(arg.data());
    }
    pointers.push_back(nullptr);
    ::execv(script.c_str(), pointers.data());
    return reportError(context, errnoError(errno, "starting " + script.string()));
}

void addLabVmCommands(CLI::App& app, CliContext& context, Commands& commands) {
    auto* lab = app.get_subcommand("lab");
    auto* vm = lab->add_subcommand(
        "vm", "QEMU lab VM: Debian's kernel over this machine's userland, with emulated NVMe, "
              "SATA and HDD drives that may be erased freely (docs/lab.md)");
    vm->require_subcommand(1);
    auto directory = std::make_shared<std::string>();
    vm->add_option("--dir", *directory,
                   "VM directory (default $SSDK_LAB_VM_DIR, else $XDG_RUNTIME_DIR or /tmp + "
                   "/ssdkeeper-lab-vm-UID)");

    struct StartOptions {
        std::string accel = "auto";
        unsigned memoryMib = 1536;
        unsigned lifetimeSeconds = 3600;
    };
    auto start = std::make_shared<StartOptions>();
    auto* vmStart = vm->add_subcommand("start", "Boot the VM and wait until it takes commands");
    vmStart->add_option("--accel", start->accel, "auto (KVM when it works), kvm or tcg")
        ->check(CLI::IsMember({"auto", "kvm", "tcg"}))
        ->capture_default_str();
    vmStart->add_option("--memory", start->memoryMib, "Guest RAM in MiB")
        ->check(numberRange(256, 65536))
        ->capture_default_str();
    vmStart
        ->add_option("--lifetime", start->lifetimeSeconds,
                     "Seconds after which the VM is killed and removed, whatever happens")
        ->check(numberRange(10, 7 * 24 * 3600))
        ->capture_default_str();
    commands.add(vmStart, [&context, directory, start] {
        return execLabScript(context, *directory,
                             {"start", "--accel", start->accel, "--memory",
                              std::to_string(start->memoryMib), "--lifetime",
                              std::to_string(start->lifetimeSeconds)});
    });

    struct RunOptions {
        std::vector<std::string> command;
        unsigned timeoutSeconds = 600;
    };
    auto run = std::make_shared<RunOptions>();
    auto* vmRun = vm->add_subcommand(
        "run", "Run a shell command line in the VM as root; prints its output and exits with its "
               "exit code (124: timed out)");
    vmRun->add_option("--timeout", run->timeoutSeconds, "Seconds to wait for the command")
        ->check(numberRange(1, 7 * 24 * 3600))
        ->capture_default_str();
    vmRun
        ->add_option("command", run->command,
                     "The command line; put it in quotes or after -- when it has options")
        ->required();
    commands.add(vmRun, [&context, directory, run] {
        std::string commandLine;
        for (const auto& word : run->command) {
            commandLine += (commandLine.empty() ? "" : " ") + word;
        }
        return execLabScript(
            context, *directory,
            {"run", "--timeout", std::to_string(run->timeoutSeconds), "--", commandLine});
    });

    auto* vmStop = vm->add_subcommand("stop", "Power the VM off and delete its drive images");
    commands.add(vmStop,
                 [&context, directory] { return execLabScript(context, *directory, {"stop"}); });

    auto* vmStatus =
        vm->add_subcommand("status", "Say whether the VM runs (exit 0) or not (exit 3)");
    commands.add(vmStatus,
                 [&context, directory] { return execLabScript(context, *directory, {"status"}); });
}

} // namespace ssdk::cli
