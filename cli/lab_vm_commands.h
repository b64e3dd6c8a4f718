#pragma once

#include <string>
#include <vector>

#include "cli/cli_context.h"
#include "cli/commands.h"

namespace ssdk::cli {

// Adds `lab vm start|run|stop|status` under the `lab` subcommand (addLabCommands must have
// added it first). They drive the QEMU lab VM through scripts/lab (docs/lab.md).
void addLabVmCommands(CLI::App& app, CliContext& context, Commands& commands);

// Replaces this process with `scripts/lab [--dir DIR] ARGS...`, so the guest command's output
// streams through and its exit code becomes ssdkeeperctl's. Returns only on failure (exit code).
// The script is $SSDK_LAB_SCRIPT, else the one in the source tree ssdkeeperctl was built from.
int execLabScript(const CliContext& context, const std::string& vmDirectory,
                  const std::vector<std::string>& args);

} // namespace ssdk::cli
