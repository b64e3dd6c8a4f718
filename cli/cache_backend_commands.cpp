#include "cli/cache_backend_commands.h"

#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <unistd.h>

#include "core/base/bytes.h"
#include "core/rpc/client.h"

namespace ssdk::cli {

namespace {

struct CacheOptions {
    std::string device;
    std::string backend;
    std::string size;
    std::string compression = "lz4";
    std::string mode = "write-through";
    std::string cacheDevice;
    bool applyNow = false;
    bool yes = false;
};

Expected<std::uint64_t> sizeOption(const std::string& text) {
    auto size = parseSize(text);
    if (!size) {
        return std::unexpected(Error(size.error()).addContext("--size"));
    }
    return size->value;
}

std::string statsLine(const Json& stats) {
    return fmt::format("hits {} misses {} (hit ratio {:.1f} %), dirty {}, RAM used {}, "
                       "compression {:.2f}x",
                       stats.value("hits", 0ULL), stats.value("misses", 0ULL),
                       100.0 * stats.value("hit_ratio", 0.0),
                       formatIec(Bytes(stats.value("dirty_bytes", 0ULL))),
                       formatIec(Bytes(stats.value("ram_used_bytes", 0ULL))),
                       stats.value("compression_ratio", 1.0));
}

int runStatus(const CliContext& context, const CacheOptions& options) {
    rpc::HelperClient helper;
    auto probe = helper.call("cache.probe", Json::object());
    if (!probe) {
        return reportError(context, Error(probe.error()).addContext("probing cache backends"));
    }
    auto status = helper.call("cache.status", Json::object());
    if (!status) {
        return reportError(context, Error(status.error()).addContext("reading cache state"));
    }
    Json caches = Json::array();
    for (const auto& cache : (*status)["caches"]) {
        const auto& active = cache["cache"];
        if (options.device.empty() || active["plan"]["origin"] == options.device ||
            active["cached_device"] == options.device) {
            caches.push_back(cache);
        }
    }
    if (!options.device.empty() && caches.empty()) {
        return reportError(context,
                           Error(ErrorCode::NotFound, "no cache is enabled on " + options.device));
    }
    if (context.json) {
        printJson(
            Json{{"backends", (*probe)["backends"]}, {"ram", (*probe)["ram"]}, {"caches", caches}});
        return kExitOk;
    }
    std::cout << describeCacheStatus(*probe, Json{{"caches", caches}});
    return kExitOk;
}

int runEnable(const CliContext& context, const CacheOptions& options) {
    rpc::HelperClient helper;
    auto probe = helper.call("cache.probe", Json::object());
    if (!probe) {
        return reportError(context, Error(probe.error()).addContext("probing cache backends"));
    }
    std::string backend = options.backend;
    if (backend.empty()) {
        for (const auto& item : (*probe)["backends"]) {
            if (item["probe"]["available"] == true) {
                backend = item["name"];
                break;
            }
        }
        if (backend.empty()) {
            std::string reasons;
            for (const auto& item : (*probe)["backends"]) {
                reasons += fmt::format("\n  {}: {}", item["name"].get<std::string>(),
                                       item["probe"]["reason"].get<std::string>());
            }
            return reportError(
                context, Error(ErrorCode::Unsupported, "no cache backend can run here:" + reasons));
        }
    }
    std::uint64_t bytes = (*probe)["ram"].value("suggested_bytes", 0ULL);
    if (!options.size.empty()) {
        auto parsed = sizeOption(options.size);
        if (!parsed) {
            return reportError(context, parsed.error());
        }
        bytes = *parsed;
    }
    if (options.applyNow &&
        !confirmed(options.yes,
                   fmt::format("Unmount {}, put a {} {} cache in front of it and mount it "
                               "again?",
                               options.device, formatIec(Bytes(bytes)), backend))) {
        return reportError(context, Error(ErrorCode::Cancelled, "not confirmed; nothing done"));
    }
    Json args{{"device", options.device},
              {"backend", backend},
              {"size", bytes},
              {"compression", options.compression},
              {"mode", options.mode},
              {"apply_now", options.applyNow}};
    if (!options.cacheDevice.empty()) {
        args["cache_device"] = options.cacheDevice;
    }
    auto result = helper.call("cache.enable", args, progressPrinter(context));
    if (!result) {
        return reportError(
            context, Error(result.error()).addContext("enabling the cache on " + options.device));
    }
    if (context.json) {
        printJson(*result);
        return kExitOk;
    }
    const auto& record = (*result)["record"];
    std::cout << fmt::format("Cache on: {} now caches {} ({}, {}, {}).\n",
                             record["cache"]["cached_device"].get<std::string>(), options.device,
                             backend, formatIec(Bytes(bytes)), options.mode);
    if (record["mount"].is_object()) {
        std::cout << fmt::format("Mounted on {} with {}.\n",
                                 record["mount"]["mount_point"].get<std::string>(),
                                 record["mount"]["options"].get<std::string>());
    } else {
        std::cout << "Mount " << record["cache"]["cached_device"].get<std::string>()
                  << " instead of " << options.device << ".\n";
    }
    return kExitOk;
}

int runSimple(const CliContext& context, const std::string& verb, const Json& args,
              const std::string& done) {
    rpc::HelperClient helper;
    auto result = helper.call(verb, args);
    if (!result) {
        return reportError(
            context,
            Error(result.error()).addContext(verb + " " + args["device"].get<std::string>()));
    }
    if (context.json) {
        printJson(*result);
    } else {
        std::cout << done << "\n";
    }
    return kExitOk;
}

CLI::App* cacheCommand(CLI::App& app) {
    try {
        return app.get_subcommand("cache");
    } catch (const CLI::OptionNotFound&) {
        auto* cache =
            app.add_subcommand("cache", "The RAM block cache: simulate, enable, watch, flush");
        cache->require_subcommand(1);
        return cache;
    }
}

} // namespace

std::string describeCacheStatus(const Json& probe, const Json& status) {
    std::string text;
    const auto& ram = probe["ram"];
    text += fmt::format("RAM: {} total, {} available; suggested cache {}\n",
                        formatIec(Bytes(ram.value("total_bytes", 0ULL))),
                        formatIec(Bytes(ram.value("available_bytes", 0ULL))),
                        formatIec(Bytes(ram.value("suggested_bytes", 0ULL))));
    text += "Backends:\n";
    for (const auto& backend : probe["backends"]) {
        const bool available = backend["probe"].value("available", false);
        text += fmt::format("  {:<16} {}{}\n", backend.value("name", ""),
                            available ? "available" : "unavailable: ",
                            available ? "" : backend["probe"].value("reason", ""));
    }
    const auto& caches = status["caches"];
    if (caches.empty()) {
        text += "No cache is enabled.\n";
    }
    for (const auto& cache : caches) {
        const auto& active = cache["cache"];
        const auto& plan = active["plan"];
        text += fmt::format(
            "{} → {} ({}, {}, {}, {} compression){}\n", plan.value("origin", ""),
            active.value("cached_device", ""), active.value("backend", ""),
            formatIec(Bytes(plan.value("cache_bytes", 0ULL))), plan.value("mode", ""),
            plan.value("compression", ""),
            cache.value("phase", "") == "active" ? "" : " [" + cache.value("phase", "") + "]");
        if (cache["mount"].is_object()) {
            text += "  mounted on " + cache["mount"].value("mount_point", "") + "\n";
        }
        if (cache["stats"].is_object()) {
            text += "  " + statsLine(cache["stats"]) + "\n";
        } else {
            text += "  statistics unavailable: " + cache.value("stats_error", "") + "\n";
        }
    }
    return text;
}

void addCacheBackendCommands(CLI::App& app, CliContext& context, Commands& commands) {
    CLI::App* cache = cacheCommand(app);
    auto options = std::make_shared<CacheOptions>();

    auto* status = cache->add_subcommand("status", "Backends available here (or why not), RAM, "
                                                   "and every enabled cache with its statistics");
    status->add_option("DEV", options->device, "Only the cache of this device");
    commands.add(status, [&context, options] { return runStatus(context, *options); });

    auto* enable = cache->add_subcommand("enable", "Put a RAM (or SSD) cache in front of a "
                                                   "partition");
    enable->add_option("DEV", options->device, "The partition to cache, e.g. /dev/sdb1")
        ->required();
    enable->add_option(
        "--backend", options->backend,
        "engine, zram-writecache, bcache or ssd-cache (default: the first available)");
    enable->add_option("--size", options->size,
                       "Cache size, e.g. 2G (default: 25 % of RAM, at most 4 GiB)");
    enable->add_option("--compression", options->compression, "none, lz4 or zstd")
        ->capture_default_str();
    enable->add_option("--mode", options->mode, "write-through or write-back")
        ->check(CLI::IsMember({"write-through", "write-back"}))
        ->capture_default_str();
    enable->add_option("--cache-device", options->cacheDevice,
                       "ssd-cache: the SSD partition to cache with (overwritten)");
    enable->add_flag("--apply-now", options->applyNow,
                     "The partition is mounted: unmount it, stack the cache, mount it again "
                     "at the same place with the same options");
    enable->add_flag("--yes,-y", options->yes, "Do not ask for confirmation");
    commands.add(enable, [&context, options] { return runEnable(context, *options); });

    auto* disable = cache->add_subcommand("disable", "Flush and remove the cache; the partition "
                                                     "is mounted back as it was");
    disable->add_option("DEV", options->device, "The cached partition or its cache device")
        ->required();
    commands.add(disable, [&context, options] {
        return runSimple(context, "cache.disable", Json{{"device", options->device}},
                         "Cache off: " + options->device + " is as it was before.");
    });

    auto* flush = cache->add_subcommand("flush", "Write every dirty block to the drive now");
    flush->add_option("DEV", options->device, "The cached partition")->required();
    commands.add(flush, [&context, options] {
        return runSimple(context, "cache.flush", Json{{"device", options->device}},
                         "Flushed: nothing dirty is left in the cache of " + options->device + ".");
    });

    auto* resize = cache->add_subcommand("resize", "Change the cache size");
    resize->add_option("DEV", options->device, "The cached partition")->required();
    resize->add_option("SIZE", options->size, "The new size, e.g. 1G")->required();
    commands.add(resize, [&context, options] {
        auto bytes = sizeOption(options->size);
        if (!bytes) {
            return reportError(context, bytes.error());
        }
        return runSimple(
            context, "cache.resize", Json{{"device", options->device}, {"size", *bytes}},
            "Resized the cache of " + options->device + " to " + formatIec(Bytes(*bytes)) + ".");
    });

    auto* mode = cache->add_subcommand("mode", "Switch between write-through and write-back");
    mode->add_option("DEV", options->device, "The cached partition")->required();
    mode->add_option("MODE", options->mode, "write-through or write-back")
        ->required()
        ->check(CLI::IsMember({"write-through", "write-back"}));
    commands.add(mode, [&context, options] {
        return runSimple(context, "cache.mode",
                         Json{{"device", options->device}, {"mode", options->mode}},
                         "The cache of " + options->device + " is now " + options->mode + ".");
    });
}

} // namespace ssdk::cli
