#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "cli/cli_context.h"
#include "cli/commands.h"
#include "core/cachectl/engine/policy.h"

namespace ssdk::cli {

struct CacheSimulateRequest {
    std::string trace; // a path or "-" for standard input
    std::string format;
    std::optional<std::uint64_t> cacheBlocks;
    std::string policy{cachectl::engine::kDefaultPolicy};
    bool mrc = false;
    std::size_t mrcPoints = 12;
};

// Adds `cache simulate` (under an existing `cache` subcommand when another area made one).
void addCacheCommands(CLI::App& app, CliContext& context, Commands& commands);

// ssdkeeperctl cache simulate: replays a block trace against a policy (no privileges).
int runCacheSimulate(const CliContext& context, const CacheSimulateRequest& request);

} // namespace ssdk::cli
