#pragma once

#include "cli/cli_context.h"
#include "cli/commands.h"

namespace ssdk::cli {

// Adds `cache status|enable|disable|flush|resize|mode` (under the `cache` subcommand, made
// here when no other area made it first): the RAM cache backends, through the helper.
void addCacheBackendCommands(CLI::App& app, CliContext& context, Commands& commands);

// The text `cache status` prints for a cache.probe + cache.status answer (tested alone).
std::string describeCacheStatus(const Json& probe, const Json& status);

} // namespace ssdk::cli
