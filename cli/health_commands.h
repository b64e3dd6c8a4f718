#pragma once

#include <CLI/CLI.hpp>

#include "cli/cli_context.h"
#include "cli/commands.h"

namespace ssdk::cli {

// ssdkeeperctl health DEV|--replay FILE [--save FILE] [--wake]
// ssdkeeperctl metrics [--listen 127.0.0.1:PORT] [--output FILE]
// ssdkeeperctl selftest DEV short|long|abort|status
void addHealthCommands(CLI::App& app, CliContext& context, Commands& commands);

} // namespace ssdk::cli
