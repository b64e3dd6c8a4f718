#pragma once

#include "cli/cli_context.h"
#include "cli/commands.h"

namespace ssdk::cli {

// ssdkeeperctl trace record DEV [--seconds N] --output FILE (docs/cli.md, "trace record"):
// records a block trace through the helper's trace.record verb for `cache simulate`.
void addTraceCommands(CLI::App& app, CliContext& context, Commands& commands);

} // namespace ssdk::cli
