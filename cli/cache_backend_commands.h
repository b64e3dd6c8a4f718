#pragma once

#include "cli/cli_context.h"
#include "cli/commands.h"
#include "core/cachectl/verbs.h"

namespace ssdk::cli {

// Adds `cache status|enable|disable|flush|resize|mode|power-safe|power-event|attach|detach`
// (under the `cache` subcommand, made
// here when no other area made it first): the RAM cache backends, through the helper.
void addCacheBackendCommands(CLI::App& app, CliContext& context, Commands& commands);

// The text `cache status` prints for a cache.probe + cache.status answer (tested alone).
std::string describeCacheStatus(const cachectl::ProbeReply& probe,
                                const cachectl::StatusReply& status);
// One line for a journal's power policy (the on-battery/suspend choice and its state).
std::string describePowerPolicy(const cachectl::PowerPolicy& power);

} // namespace ssdk::cli
