#pragma once

#include <string>

#include "cli/cli_context.h"
#include "cli/commands.h"

namespace ssdk::cli {

// Adds `list` and `info DEV`.
void addDeviceCommands(CLI::App& app, CliContext& context, Commands& commands);

// ssdkeeperctl list: every drive, one line each (or {"version", "devices"} with --json).
int runList(const CliContext& context);
// ssdkeeperctl info DEV: everything discovery knows about one drive.
int runInfo(const CliContext& context, const std::string& device);

} // namespace ssdk::cli
