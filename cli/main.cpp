// ssdkeeperctl: every SSD Keeper feature from the command line, for people and scripts.
// Exit codes: 0 ok, 1 the operation failed, 2 usage error (docs/cli.md).
// Each area adds its subcommands in cli/<area>_commands.cpp (see cli/commands.h).

#include <iostream>

#include "cli/cache_backend_commands.h"
#include "cli/cache_commands.h"
#include "cli/cli_context.h"
#include "cli/commands.h"
#include "cli/device_commands.h"
#include "cli/firmware_commands.h"
#include "cli/health_commands.h"
#include "cli/lab_commands.h"
#include "cli/lab_vm_commands.h"
#include "cli/maintenance_commands.h"
#include "cli/op_commands.h"
#include "cli/perf_commands.h"
#include "cli/trace_commands.h"
#include "cli/usage.h"
#include "core/base/log.h"
#include "core/platform/platform.h"

using namespace ssdk;
using namespace ssdk::cli;

int main(int argc, char** argv) {
    CLI::App app{"SSD Keeper command-line tool: drives, health, performance, caching, "
                 "spare area, TRIM, erase and firmware.",
                 "ssdkeeperctl"};
    app.set_version_flag("--version", SSDK_VERSION);
    app.require_subcommand(1);
    // Global flags may come before or after the subcommand: `ssdkeeperctl list --json`.
    // Subcommands inherit fallthrough, so this must be set before they are added.
    app.fallthrough();

    CliContext context(platform::makePlatform());
    std::string sysfsRoot;
    bool verbose = false;
    app.add_flag("--json", context.json, "Print machine-readable JSON (schema in docs/cli.md)");
    app.add_option("--sysfs-root", sysfsRoot,
                   "Read devices from a recorded tree (sys/, proc/, run/) instead of this machine")
        ->check(CLI::ExistingDirectory);
    app.add_flag("-v,--verbose", verbose, "Log what is being done to stderr");

    Commands commands;
    addDeviceCommands(app, context, commands);
    addLabCommands(app, context, commands);
    addCacheCommands(app, context, commands);
    addCacheBackendCommands(app, context, commands);
    addMaintenanceCommands(app, context, commands);
    addOpCommands(app, context, commands);
    addLabVmCommands(app, context, commands);
    addPerfCommands(app, context, commands);
    addTraceCommands(app, context, commands);
    addHealthCommands(app, context, commands);
    addFirmwareCommands(app, context, commands);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        return reportParseError(app, error, argc, argv);
    }
    log::setup(verbose ? "debug" : "warn");
    if (!sysfsRoot.empty()) {
        context.sysfsRoot = sysfsRoot;
    }
    if (const auto exitCode = commands.runParsed()) {
        return *exitCode;
    }
    std::cerr << app.help();
    return kExitUsage;
}
