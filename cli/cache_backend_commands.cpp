#include "cli/cache_backend_commands.h"

#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <optional>
#include <tuple>
#include <unistd.h>

#include "core/base/bytes.h"
#include "core/cachectl/backend.h"
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
    std::string sequentialCutoff;             // a size ("4M", "0"); empty: the backend's default
    std::optional<unsigned> writebackPercent; // absent: the backend's default
    bool applyNow = false;
    bool atNextBoot = false;
    bool powerSafe = false;
    bool yes = false;
    std::string onOff;
    std::string event = "auto";
};

Expected<std::uint64_t> sizeOption(const std::string& text) {
    auto size = parseSize(text);
    if (!size) {
        return std::unexpected(Error(size.error()).addContext("--size"));
    }
    return size->value;
}

// The cache.enable arguments for --sequential-cutoff and --writeback-percent (none when not
// given). Errors are InvalidArgument (exit 2), found before the helper is asked anything.
Expected<Json> tuningArgs(const CacheOptions& options) {
    cachectl::CachePlan tuning;
    Json args = Json::object();
    if (!options.sequentialCutoff.empty()) {
        auto cutoff = parseSize(options.sequentialCutoff);
        if (!cutoff) {
            return std::unexpected(Error(cutoff.error()).addContext("--sequential-cutoff"));
        }
        tuning.sequentialCutoff = cutoff->value;
        if (auto checked = cachectl::checkTuning(tuning); !checked) {
            return std::unexpected(Error(checked.error()).addContext("--sequential-cutoff"));
        }
        args["sequential_cutoff"] = cutoff->value;
    }
    if (options.writebackPercent) {
        tuning.writebackPercent = *options.writebackPercent;
        args["writeback_percent"] = *options.writebackPercent;
    }
    if (auto checked = cachectl::checkTuning(tuning); !checked) {
        return std::unexpected(checked.error());
    }
    return args;
}

std::string cutoffText(std::uint64_t bytes) {
    return bytes == 0 ? "0 (never bypass)" : formatIec(Bytes(bytes));
}

// "sequential cutoff 4.0 MiB, writeback percent 10" for the tuning that is set or known.
std::string tuningText(const Json& json) {
    std::string text;
    if (json.contains("sequential_cutoff") && json["sequential_cutoff"].is_number()) {
        text = "sequential cutoff " + cutoffText(json["sequential_cutoff"].get<std::uint64_t>());
    }
    if (json.contains("writeback_percent") && json["writeback_percent"].is_number()) {
        text += fmt::format("{}writeback percent {}", text.empty() ? "" : ", ",
                            json["writeback_percent"].get<unsigned>());
    }
    return text;
}

std::string statsLine(const Json& stats) {
    std::string line = fmt::format("hits {} misses {} (hit ratio {:.1f} %), dirty {}, RAM used {}, "
                                   "compression {:.2f}x",
                                   stats.value("hits", 0ULL), stats.value("misses", 0ULL),
                                   100.0 * stats.value("hit_ratio", 0.0),
                                   formatIec(Bytes(stats.value("dirty_bytes", 0ULL))),
                                   formatIec(Bytes(stats.value("ram_used_bytes", 0ULL))),
                                   stats.value("compression_ratio", 1.0));
    if (const std::string tuning = tuningText(stats); !tuning.empty()) {
        line += "\n  in effect: " + tuning;
    }
    return line;
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

// "At next boot": the fstab change is shown first, then written by the helper if confirmed.
int runEnableAtNextBoot(const CliContext& context, const CacheOptions& options,
                        const std::string& backend, std::uint64_t bytes, const Json& tuning) {
    rpc::HelperClient helper;
    Json args{{"device", options.device},
              {"backend", backend},
              {"size", bytes},
              {"compression", options.compression},
              {"mode", options.mode},
              {"power_safe", options.powerSafe},
              {"at_next_boot", true}};
    args.update(tuning);
    if (!options.cacheDevice.empty()) {
        args["cache_device"] = options.cacheDevice;
    }
    Json previewArgs = args;
    previewArgs["preview"] = true;
    auto preview = helper.call("cache.enable", previewArgs);
    if (!preview) {
        return reportError(
            context,
            Error(preview.error()).addContext("planning " + options.device + " at next boot"));
    }
    const Json fstab = (*preview)["fstab"];
    // The diff goes to stderr with --json: stdout carries the JSON document.
    (context.json ? std::cerr : std::cout) << fstab.value("diff", "");
    if (!confirmed(options.yes,
                   fmt::format("Write this change to {} and stack a {} {} cache over {} at every "
                               "boot?",
                               fstab.value("path", ""), formatIec(Bytes(bytes)), backend,
                               options.device))) {
        return reportError(context, Error(ErrorCode::Cancelled, "not confirmed; nothing done"));
    }
    args["fstab_line"] = fstab.value("after", "");
    auto result = helper.call("cache.enable", args);
    if (!result) {
        return reportError(
            context, Error(result.error())
                         .addContext("enabling the cache on " + options.device + " at next boot"));
    }
    if (context.json) {
        printJson(Json{{"fstab", fstab}, {"record", (*result)["record"]}});
        return kExitOk;
    }
    const auto& record = (*result)["record"];
    std::cout << fmt::format(
        "At next boot: {} stacks the cache over {}, and line {} of {} mounts {}.\n"
        "Nothing changed now; reboot to start it. `ssdkeeperctl cache disable {}` puts the line "
        "back.\n",
        record["boot"].value("unit", ""), options.device, fstab.value("line", 0),
        fstab.value("path", ""), record["cache"].value("cached_device", ""), options.device);
    return kExitOk;
}

int runEnable(const CliContext& context, const CacheOptions& options) {
    auto tuning = tuningArgs(options);
    if (!tuning) {
        return reportError(context, tuning.error());
    }
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
    if (options.atNextBoot) {
        return runEnableAtNextBoot(context, options, backend, bytes, *tuning);
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
              {"apply_now", options.applyNow},
              {"power_safe", options.powerSafe}};
    args.update(*tuning);
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
    const std::string tuned = tuningText(*tuning);
    std::cout << fmt::format("Cache on: {} now caches {} ({}, {}, {}{}).\n",
                             record["cache"]["cached_device"].get<std::string>(), options.device,
                             backend, formatIec(Bytes(bytes)), options.mode,
                             tuned.empty() ? "" : ", " + tuned);
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

int runPowerEvent(const CliContext& context, const CacheOptions& options) {
    rpc::HelperClient helper;
    auto result = helper.call("cache.power", Json{{"event", options.event}});
    if (!result) {
        return reportError(context,
                           Error(result.error()).addContext("power event " + options.event));
    }
    if (context.json) {
        printJson(*result);
        return kExitOk;
    }
    std::cout << fmt::format("Power event {} ({}):\n", result->value("event", ""),
                             result->value("power", ""));
    int failures = 0;
    for (const auto& cache : (*result)["caches"]) {
        const std::string error = cache.value("error", "");
        const std::string action = cache.value("action", "");
        failures += error.empty() ? 0 : 1;
        std::cout << fmt::format(
            "  {} ({}): {}\n", cache.value("origin", ""), cache.value("name", ""),
            !error.empty() ? "failed: " + error : (action.empty() ? "nothing to do" : action));
    }
    if ((*result)["caches"].empty()) {
        std::cout << "  no cache is active\n";
    }
    return failures == 0 ? kExitOk : kExitFailed;
}

} // namespace

std::string describePowerPolicy(const Json& power) {
    if (!power.is_object() || !power.value("safe_on_battery", false)) {
        return "on battery or before suspend: flush only (stays write-back)";
    }
    const std::string by = power.value("switched_by", "");
    return "on battery or before suspend: flush and switch to write-through" +
           (by.empty() ? std::string() : " (write-through now, because of " + by + ")");
}

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
        if (cache["boot"].is_object()) {
            text += fmt::format("  at boot: {}; {} mounts it\n", cache["boot"].value("unit", ""),
                                cache["boot"].value("fstab", ""));
        }
        text += "  " + describePowerPolicy(cache["power"]) + "\n";
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
    enable->add_option("--sequential-cutoff", options->sequentialCutoff,
                       "Sequential reads and writes longer than SIZE bypass the cache, e.g. 4M; "
                       "0: never bypass (bcache, engine; default: the backend's, 4M)");
    enable
        ->add_option("--writeback-percent", options->writebackPercent,
                     "Write-back keeps writing back until dirty data is below N % of the "
                     "cache (bcache; default: bcache's, 10)")
        ->check(CLI::Range(0, 100));
    enable->add_option("--cache-device", options->cacheDevice,
                       "ssd-cache: the SSD partition to cache with (overwritten)");
    enable->add_flag("--apply-now", options->applyNow,
                     "The partition is mounted: unmount it, stack the cache, mount it again "
                     "at the same place with the same options");
    auto* nextBoot = enable->add_flag(
        "--at-next-boot", options->atNextBoot,
        "Change nothing now: a boot unit stacks the cache before the filesystem is mounted, and "
        "its fstab line mounts the cache device (shown first)");
    nextBoot->excludes(enable->get_option("--apply-now"));
    enable->add_flag("--power-safe", options->powerSafe,
                     "On battery or before suspend: flush and switch to write-through (back to "
                     "write-back on mains power or resume)");
    enable->add_flag("--yes,-y", options->yes, "Do not ask for confirmation");
    commands.add(enable, [&context, options] { return runEnable(context, *options); });

    auto* powerSafe = cache->add_subcommand(
        "power-safe", "On battery or before suspend: flush and switch to write-through (on), or "
                      "only flush (off)");
    powerSafe->add_option("DEV", options->device, "The cached partition")->required();
    powerSafe->add_option("STATE", options->onOff, "on or off")
        ->required()
        ->check(CLI::IsMember({"on", "off"}));
    commands.add(powerSafe, [&context, options] {
        return runSimple(context, "cache.policy",
                         Json{{"device", options->device}, {"power_safe", options->onOff == "on"}},
                         options->onOff == "on"
                             ? "On battery or before suspend the cache of " + options->device +
                                   " flushes and switches to write-through."
                             : "On battery or before suspend the cache of " + options->device +
                                   " only flushes.");
    });

    auto* power = cache->add_subcommand(
        "power-event", "Flush write-back caches (and switch them to write-through where asked) "
                       "for a power event; run by udev, the sleep and the shutdown units");
    auto* eventGroup = power->add_option_group("event", "the event (default: --auto)");
    eventGroup->add_flag_callback(
        "--on-battery", [options] { options->event = "battery"; },
        "The machine runs on battery now");
    eventGroup->add_flag_callback(
        "--ac", [options] { options->event = "ac"; },
        "Mains power is back: caches a power event switched go back to "
        "write-back");
    eventGroup->add_flag_callback(
        "--suspend", [options] { options->event = "suspend"; }, "Before suspend or hibernation");
    eventGroup->add_flag_callback(
        "--resume", [options] { options->event = "resume"; }, "After resume");
    eventGroup->add_flag_callback(
        "--shutdown", [options] { options->event = "shutdown"; },
        "Before power-off: always flush and switch to write-through");
    eventGroup->add_flag_callback(
        "--auto", [options] { options->event = "auto"; },
        "--on-battery or --ac, from /sys/class/power_supply");
    eventGroup->require_option(0, 1);
    commands.add(power, [&context, options] { return runPowerEvent(context, *options); });

    for (const auto& [name, action, help] :
         {std::tuple{"attach", "start", "ssdkeeper-cache@.service: stack an at-next-boot cache"},
          std::tuple{"detach", "stop",
                     "ssdkeeper-cache@.service: flush and tear down an at-next-boot cache after "
                     "its filesystem was unmounted"}}) {
        auto* sub = cache->add_subcommand(name, help);
        sub->add_option("DEV", options->device,
                        "The cached partition (the boot unit names it by a stable path)")
            ->required();
        const std::string verbAction = action;
        commands.add(sub, [&context, options, verbAction] {
            return runSimple(context, "cache.boot",
                             Json{{"device", options->device}, {"action", verbAction}},
                             verbAction == "start"
                                 ? "Cache stacked over " + options->device + "."
                                 : "Cache over " + options->device + " flushed and taken down.");
        });
    }

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
