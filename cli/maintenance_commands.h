#pragma once

#include "cli/cli_context.h"
#include "cli/commands.h"

namespace ssdk::cli {

// trim audit|verify|fstrim|timer, format, erase (docs/cli.md, "Maintenance").
void addMaintenanceCommands(CLI::App& app, CliContext& context, Commands& commands);

} // namespace ssdk::cli
