#pragma once

#include "cli/cli_context.h"
#include "cli/commands.h"

namespace ssdk::cli {

// ssdkeeperctl monitor DEV [--interval MS] [--count N]; ssdkeeperctl bench DEV|PATH --preset …
void addPerfCommands(CLI::App& app, CliContext& context, Commands& commands);

} // namespace ssdk::cli
