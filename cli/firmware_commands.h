#pragma once

#include "cli/cli_context.h"
#include "cli/commands.h"

namespace ssdk::cli {

// firmware DEV, firmware update DEV --image FILE --slot N --action … --yes,
// firmware update DEV --fwupd [--release VERSION | --cab FILE] --yes
// (docs/cli.md, "Firmware").
void addFirmwareCommands(CLI::App& app, CliContext& context, Commands& commands);

} // namespace ssdk::cli
