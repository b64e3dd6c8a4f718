#include "cli/cache_commands.h"

#include <fmt/format.h>
#include <iostream>
#include <memory>

#include "cli/text_output.h"
#include "cli/usage.h"
#include "core/base/bytes.h"
#include "core/cachectl/engine/policy.h"
#include "core/cachectl/engine/simulator.h"
#include "core/cachectl/engine/trace.h"

namespace ssdk::cli {

namespace {

constexpr std::uint64_t kBlockBytes = 4096;

std::string percent(double fraction) {
    return fmt::format("{:.2f}%", fraction * 100.0);
}

int runSingle(const CliContext& context, const CacheSimulateRequest& request,
              const cachectl::engine::ReplayTrace& trace) {
    auto result = cachectl::engine::simulate(trace, request.policy, *request.cacheBlocks);
    if (!result) {
        return reportError(context, result.error());
    }
    if (context.json) {
        printJson(Json{{"requests", result->requests},
                       {"unique_blocks", result->uniqueBlocks},
                       {"hits", result->hits},
                       {"hit_ratio", result->hitRatio()},
                       {"policy", result->policy},
                       {"cache_blocks", result->cacheBlocks}});
        return kExitOk;
    }
    std::cout << fmt::format("Policy {} with {} blocks ({} of RAM for data):\n", result->policy,
                             result->cacheBlocks,
                             formatIec(Bytes(result->cacheBlocks * kBlockBytes)))
              << fmt::format("  requests {}, unique blocks {}, hits {}, hit ratio {}\n",
                             result->requests, result->uniqueBlocks, result->hits,
                             percent(result->hitRatio()));
    return kExitOk;
}

// Miss ratios of the chosen policy and of LRU over cache sizes up to the trace's unique blocks
// (or up to --cache-blocks).
int runCurve(const CliContext& context, const CacheSimulateRequest& request,
             const cachectl::engine::ReplayTrace& trace) {
    const std::uint64_t unique = trace.uniqueBlocks();
    const std::uint64_t largest = request.cacheBlocks.value_or(unique);
    std::vector<std::string> policies{request.policy};
    if (request.policy != "lru") {
        policies.emplace_back("lru");
    }
    Json curve = Json::array();
    std::vector<std::vector<std::string>> rows{{"CACHE BLOCKS", "RAM (DATA)"}};
    for (const auto& policy : policies) {
        rows.front().push_back("MISS " + policy);
    }
    for (const std::uint64_t size : cachectl::engine::mrcSizes(largest, request.mrcPoints)) {
        Json missRatios = Json::object();
        std::vector<std::string> row{std::to_string(size), formatIec(Bytes(size * kBlockBytes))};
        for (const auto& policy : policies) {
            auto result = cachectl::engine::simulate(trace, policy, size);
            if (!result) {
                return reportError(context, result.error());
            }
            missRatios[policy] = 1.0 - result->hitRatio();
            row.push_back(percent(1.0 - result->hitRatio()));
        }
        curve.push_back(Json{{"cache_blocks", size},
                             {"cache_bytes", size * kBlockBytes},
                             {"miss_ratio", std::move(missRatios)}});
        rows.push_back(std::move(row));
    }
    if (context.json) {
        printJson(Json{{"requests", trace.refs().size()},
                       {"unique_blocks", unique},
                       {"policies", policies},
                       {"mrc", std::move(curve)}});
        return kExitOk;
    }
    std::cout << fmt::format("Miss-ratio curve: {} requests, {} unique blocks ({})\n",
                             trace.refs().size(), unique, formatIec(Bytes(unique * kBlockBytes)))
              << formatTable(rows);
    return kExitOk;
}

} // namespace

int runCacheSimulate(const CliContext& context, const CacheSimulateRequest& request) {
    auto format = cachectl::engine::parseTraceFormat(request.format);
    if (!format) {
        return reportError(context, format.error());
    }
    if (auto policy = cachectl::engine::makePolicy(request.policy, 1); !policy) {
        return reportError(context, policy.error());
    }
    if (!request.mrc && !request.cacheBlocks) {
        return reportError(context, Error(ErrorCode::InvalidArgument,
                                          "--cache-blocks is required (or --mrc for a curve)"));
    }
    if (request.cacheBlocks && *request.cacheBlocks == 0) {
        return reportError(context,
                           Error(ErrorCode::InvalidArgument, "--cache-blocks must be at least 1"));
    }
    auto refs = cachectl::engine::readTrace(request.trace, *format);
    if (!refs) {
        return reportError(context, refs.error());
    }
    if (refs->empty()) {
        return reportError(
            context, Error(ErrorCode::Parse, fmt::format("{} holds no requests in the {} format; "
                                                         "there is nothing to simulate",
                                                         request.trace, request.format)));
    }
    const cachectl::engine::ReplayTrace trace(std::move(*refs));
    return request.mrc ? runCurve(context, request, trace) : runSingle(context, request, trace);
}

void addCacheCommands(CLI::App& app, CliContext& context, Commands& commands) {
    CLI::App* cache = nullptr;
    try {
        cache = app.get_subcommand("cache");
    } catch (const CLI::OptionNotFound&) {
        cache = app.add_subcommand("cache", "The RAM block cache: simulate, enable, watch, flush");
        cache->require_subcommand(1);
    }
    auto request = std::make_shared<CacheSimulateRequest>();
    auto* simulate = cache->add_subcommand(
        "simulate", "Replay a recorded block trace against a cache policy and print its hit "
                    "ratio, or with --mrc the miss ratio over cache sizes");
    simulate->add_option("--trace", request->trace, "Trace file (gzip/zstd accepted), - for stdin")
        ->required();
    simulate
        ->add_option("--format", request->format,
                     "lis, lirs, cloudphysics-csv, u32be, blocks or blktrace (see docs/cli.md)")
        ->required();
    simulate->add_option("--cache-blocks", request->cacheBlocks,
                         "Cache size in 4 KiB blocks (with --mrc: the largest size)");
    simulate->add_option("--policy", request->policy,
                         "clockpro-steered (default), adaptive, lru, s3fifo, lirs or clockpro");
    simulate->add_flag("--mrc", request->mrc,
                       "Print a miss-ratio curve of the policy and LRU over cache sizes");
    simulate->add_option("--mrc-points", request->mrcPoints, "Sizes on the curve (default 12)")
        ->check(numberRange(1, 200));
    commands.add(simulate, [&context, request] { return runCacheSimulate(context, *request); });
}

} // namespace ssdk::cli
