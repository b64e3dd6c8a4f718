#pragma once

#include "cli/cli_context.h"
#include "cli/commands.h"

namespace ssdk::cli {

// Adds `op plan|apply|undo|recover`: spare area (over-provisioning) by shrinking the last
// partition. Everything that reads filesystems or writes goes through the helper.
void addOpCommands(CLI::App& app, CliContext& context, Commands& commands);

} // namespace ssdk::cli
