#include "cli/cache_backend_commands.h"

#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <optional>
#include <tuple>
#include <unistd.h>

#include "cli/usage.h"
#include "core/base/bytes.h"
#include "core/cachectl/backend.h"
#include "core/cachectl/cache_client.h"
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

// --sequential-cutoff and --writeback-percent into the cache.enable request (nothing when
// not given). Errors are InvalidArgument (exit 2), found before the helper is asked anything.
Expected<void> addTuning(const CacheOptions& options, cachectl::EnableRequest& request) {
    cachectl::CachePlan tuning;
    if (!options.sequentialCutoff.empty()) {
        auto cutoff = parseSize(options.sequentialCutoff);
        if (!cutoff) {
            return std::unexpected(Error(cutoff.error()).addContext("--sequential-cutoff"));
        }
        tuning.sequentialCutoff = cutoff->value;
        if (auto checked = cachectl::checkTuning(tuning); !checked) {
            return std::unexpected(Error(checked.error()).addContext("--sequential-cutoff"));
        }
    }
    tuning.writebackPercent = options.writebackPercent;
    if (auto checked = cachectl::checkTuning(tuning); !checked) {
        return std::unexpected(checked.error());
    }
    request.sequentialCutoff = tuning.sequentialCutoff;
    request.writebackPercent = tuning.writebackPercent;
    return {};
}

std::string cutoffText(std::uint64_t bytes) {
    return bytes == 0 ? "0 (never bypass)" : formatIec(Bytes(bytes));
}

// "sequential cutoff 4.0 MiB, writeback percent 10" for the tuning that is set or known.
std::string tuningText(const std::optional<std::uint64_t>& cutoff,
                       const std::optional<unsigned>& percent) {
    std::string text;
    if (cutoff) {
        text = "sequential cutoff " + cutoffText(*cutoff);
    }
    if (percent) {
        text += fmt::format("{}writeback percent {}", text.empty() ? "" : ", ", *percent);
    }
    return text;
}

std::string statsLine(const cachectl::CacheStats& stats) {
    std::string line = fmt::format("hits {} misses {} (hit ratio {:.1f} %), dirty {}, RAM used {}, "
                                   "compression {:.2f}x",
                                   stats.hits, stats.misses, 100.0 * stats.hitRatio(),
                                   formatIec(Bytes(stats.dirtyBytes)),
                                   formatIec(Bytes(stats.ramUsedBytes)), stats.compressionRatio());
    if (const std::string tuning = tuningText(stats.sequentialCutoff, stats.writebackPercent);
        !tuning.empty()) {
        line += "\n  in effect: " + tuning;
    }
    return line;
}

int runStatus(const CliContext& context, const CacheOptions& options) {
    rpc::Transport& helper = context.helper();
    cachectl::CacheClient client(helper);
    auto probe = client.probe();
    if (!probe) {
        return reportError(context, Error(probe.error()).addContext("probing cache backends"));
    }
    auto status = client.status();
    if (!status) {
        return reportError(context, Error(status.error()).addContext("reading cache state"));
    }
    cachectl::StatusReply shown;
    for (const auto& cache : status->caches) {
        const auto& active = cache.record.active;
        if (options.device.empty() || active.plan.origin == options.device ||
            active.cachedDevice == options.device) {
            shown.caches.push_back(cache);
        }
    }
    if (!options.device.empty() && shown.caches.empty()) {
        return reportError(context,
                           Error(ErrorCode::NotFound, "no cache is enabled on " + options.device));
    }
    if (context.json) {
        // The probe's document with the caches added.
        Json document = cachectl::toJson(*probe);
        document.update(cachectl::toJson(shown));
        printJson(document);
        return kExitOk;
    }
    std::cout << describeCacheStatus(*probe, shown);
    return kExitOk;
}

// The cache.enable request of the options (without tuning), for backend and size; a
// compression it does not know is a usage error.
Expected<cachectl::EnableRequest> enableRequest(const CacheOptions& options,
                                                const std::string& backend, std::uint64_t bytes) {
    auto compression = cachectl::parseCompression(options.compression);
    if (!compression) {
        return std::unexpected(Error(compression.error()).addContext("--compression"));
    }
    cachectl::EnableRequest request;
    request.device = options.device;
    request.backend = backend;
    request.size = bytes;
    request.compression = *compression;
    // CLI11 checked the mode.
    request.mode =
        cachectl::parseCacheMode(options.mode).value_or(cachectl::CacheMode::WriteThrough);
    request.powerSafe = options.powerSafe;
    if (!options.cacheDevice.empty()) {
        request.cacheDevice = options.cacheDevice;
    }
    return request;
}

// "At next boot": the fstab change is shown first, then written by the helper if confirmed.
int runEnableAtNextBoot(const CliContext& context, const CacheOptions& options,
                        cachectl::EnableRequest request) {
    rpc::Transport& helper = context.helper();
    cachectl::CacheClient client(helper);
    request.atNextBoot = true;
    cachectl::EnableRequest previewRequest = request;
    previewRequest.preview = true;
    auto preview = client.enable(previewRequest);
    if (!preview) {
        return reportError(
            context,
            Error(preview.error()).addContext("planning " + options.device + " at next boot"));
    }
    const cachectl::FstabPreview fstab = preview->fstab.value_or(cachectl::FstabPreview{});
    // The diff goes to stderr with --json: stdout carries the JSON document.
    (context.json ? std::cerr : std::cout) << fstab.diff;
    if (!confirmed(options.yes,
                   fmt::format("Write this change to {} and stack a {} {} cache over {} at every "
                               "boot?",
                               fstab.path, formatIec(Bytes(request.size)), request.backend,
                               options.device))) {
        return reportError(context, Error(ErrorCode::Cancelled, "not confirmed; nothing done"));
    }
    request.fstabLine = fstab.after;
    auto result = client.enable(request);
    if (!result) {
        return reportError(
            context, Error(result.error())
                         .addContext("enabling the cache on " + options.device + " at next boot"));
    }
    if (context.json) {
        // The preview's document with the record added.
        Json document = cachectl::toJson(*preview);
        document.update(cachectl::toJson(*result));
        printJson(document);
        return kExitOk;
    }
    const auto record = result->record.value_or(cachectl::CacheRecord{});
    std::cout << fmt::format(
        "At next boot: {} stacks the cache over {}, and line {} of {} mounts {}.\n"
        "Nothing changed now; reboot to start it. `ssdkeeperctl cache disable {}` puts the line "
        "back.\n",
        record.boot ? record.boot->unit : std::string(), options.device, fstab.line, fstab.path,
        record.active.cachedDevice, options.device);
    return kExitOk;
}

int runEnable(const CliContext& context, const CacheOptions& options) {
    cachectl::EnableRequest request;
    if (auto tuned = addTuning(options, request); !tuned) {
        return reportError(context, tuned.error());
    }
    rpc::Transport& helper = context.helper();
    cachectl::CacheClient client(helper);
    auto probe = client.probe();
    if (!probe) {
        return reportError(context, Error(probe.error()).addContext("probing cache backends"));
    }
    std::string backend = options.backend;
    if (backend.empty()) {
        for (const auto& item : probe->backends) {
            if (item.probe.available) {
                backend = item.name;
                break;
            }
        }
        if (backend.empty()) {
            std::string reasons;
            for (const auto& item : probe->backends) {
                reasons += fmt::format("\n  {}: {}", item.name, item.probe.reasonText());
            }
            return reportError(
                context, Error(ErrorCode::Unsupported, "no cache backend can run here:" + reasons));
        }
    }
    std::uint64_t bytes = probe->ram.suggestedBytes;
    if (!options.size.empty()) {
        auto parsed = sizeOption(options.size);
        if (!parsed) {
            return reportError(context, parsed.error());
        }
        bytes = *parsed;
    }
    const auto cutoff = request.sequentialCutoff;
    const auto percent = request.writebackPercent;
    auto made = enableRequest(options, backend, bytes);
    if (!made) {
        return reportError(context, made.error());
    }
    request = *made;
    request.sequentialCutoff = cutoff;
    request.writebackPercent = percent;
    if (options.atNextBoot) {
        return runEnableAtNextBoot(context, options, request);
    }
    if (options.applyNow &&
        !confirmed(options.yes,
                   fmt::format("Unmount {}, put a {} {} cache in front of it and mount it "
                               "again?",
                               options.device, formatIec(Bytes(bytes)), backend))) {
        return reportError(context, Error(ErrorCode::Cancelled, "not confirmed; nothing done"));
    }
    request.applyNow = options.applyNow;
    auto result = client.enable(request, progressPrinter(context));
    if (!result) {
        return reportError(
            context, Error(result.error()).addContext("enabling the cache on " + options.device));
    }
    if (context.json) {
        printJson(cachectl::toJson(*result));
        return kExitOk;
    }
    const auto record = result->record.value_or(cachectl::CacheRecord{});
    const std::string tuned = tuningText(cutoff, percent);
    std::cout << fmt::format(
        "Cache on: {} now caches {} ({}, {}, {}{}).\n", record.active.cachedDevice, options.device,
        backend, formatIec(Bytes(bytes)), options.mode, tuned.empty() ? "" : ", " + tuned);
    if (record.mount) {
        std::cout << fmt::format("Mounted on {} with {}.\n", record.mount->mountPoint,
                                 record.mount->options);
    } else {
        std::cout << "Mount " << record.active.cachedDevice << " instead of " << options.device
                  << ".\n";
    }
    return kExitOk;
}

// One CacheClient call (call(client) → Expected<Reply>) for a device: its JSON with --json,
// else `done`.
template <typename Call>
int runSimple(const CliContext& context, const char* verb, const std::string& device, Call call,
              const std::string& done) {
    rpc::Transport& helper = context.helper();
    cachectl::CacheClient client(helper);
    auto result = call(client);
    if (!result) {
        return reportError(context,
                           Error(result.error()).addContext(std::string(verb) + " " + device));
    }
    if (context.json) {
        printJson(cachectl::toJson(*result));
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
    cachectl::PowerRequest request;
    if (options.event != "auto") {
        auto event = cachectl::parsePowerEvent(options.event);
        if (!event) {
            return reportError(context, event.error());
        }
        request.event = *event;
    }
    rpc::Transport& helper = context.helper();
    auto result = cachectl::CacheClient(helper).power(request);
    if (!result) {
        return reportError(context,
                           Error(result.error()).addContext("power event " + options.event));
    }
    if (context.json) {
        printJson(cachectl::toJson(*result));
        return kExitOk;
    }
    std::cout << fmt::format("Power event {} ({}):\n", cachectl::toString(result->event),
                             result->power);
    int failures = 0;
    for (const auto& cache : result->caches) {
        failures += cache.error.empty() ? 0 : 1;
        std::cout << fmt::format("  {} ({}): {}\n", cache.origin, cache.name,
                                 !cache.error.empty()
                                     ? "failed: " + cache.error
                                     : (cache.action.empty() ? "nothing to do" : cache.action));
    }
    if (result->caches.empty()) {
        std::cout << "  no cache is active\n";
    }
    return failures == 0 ? kExitOk : kExitFailed;
}

} // namespace

std::string describePowerPolicy(const cachectl::PowerPolicy& power) {
    if (!power.safeOnBattery) {
        return "on battery or before suspend: flush only (stays write-back)";
    }
    return "on battery or before suspend: flush and switch to write-through" +
           (power.switchedBy.empty() ? std::string()
                                     : " (write-through now, because of " + power.switchedBy + ")");
}

std::string describeCacheStatus(const cachectl::ProbeReply& probe,
                                const cachectl::StatusReply& status) {
    std::string text;
    text += fmt::format(
        "RAM: {} total, {} available; suggested cache {}\n", formatIec(Bytes(probe.ram.totalBytes)),
        formatIec(Bytes(probe.ram.availableBytes)), formatIec(Bytes(probe.ram.suggestedBytes)));
    text += "Backends:\n";
    for (const auto& backend : probe.backends) {
        const bool available = backend.probe.available;
        text += fmt::format(
            "  {:<16} {}{}\n", backend.name,
            available ? "available" : "unavailable: ", available ? "" : backend.probe.reasonText());
    }
    if (status.caches.empty()) {
        text += "No cache is enabled.\n";
    }
    for (const auto& cache : status.caches) {
        const auto& record = cache.record;
        const auto& plan = record.active.plan;
        text += fmt::format("{} → {} ({}, {}, {}, {} compression){}\n", plan.origin,
                            record.active.cachedDevice, record.active.backend,
                            formatIec(Bytes(plan.cacheBytes)), cachectl::toString(plan.mode),
                            cachectl::toString(plan.compression),
                            record.phase == cachectl::CachePhase::Active
                                ? std::string()
                                : " [" + std::string(cachectl::toString(record.phase)) + "]");
        if (record.mount) {
            text += "  mounted on " + record.mount->mountPoint + "\n";
        }
        if (record.boot) {
            text +=
                fmt::format("  at boot: {}; {} mounts it\n", record.boot->unit, record.boot->fstab);
        }
        text += "  " + describePowerPolicy(record.power) + "\n";
        if (cache.stats) {
            text += "  " + statsLine(*cache.stats) + "\n";
        } else {
            text += "  statistics unavailable: " + cache.statsError + "\n";
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
        ->check(numberRange(0, 100));
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
        const cachectl::PolicyRequest request{options->device, options->onOff == "on"};
        return runSimple(
            context, cachectl::kVerbPolicy, options->device,
            [&request](cachectl::CacheClient& client) { return client.setPolicy(request); },
            request.powerSafe ? "On battery or before suspend the cache of " + options->device +
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
         {std::tuple{"attach", cachectl::BootAction::Start,
                     "ssdkeeper-cache@.service: stack an at-next-boot cache"},
          std::tuple{"detach", cachectl::BootAction::Stop,
                     "ssdkeeper-cache@.service: flush and tear down an at-next-boot cache after "
                     "its filesystem was unmounted"}}) {
        auto* sub = cache->add_subcommand(name, help);
        sub->add_option("DEV", options->device,
                        "The cached partition (the boot unit names it by a stable path)")
            ->required();
        const cachectl::BootAction bootAction = action;
        commands.add(sub, [&context, options, bootAction] {
            const cachectl::BootRequest request{options->device, bootAction};
            return runSimple(
                context, cachectl::kVerbBoot, options->device,
                [&request](cachectl::CacheClient& client) { return client.boot(request); },
                bootAction == cachectl::BootAction::Start
                    ? "Cache stacked over " + options->device + "."
                    : "Cache over " + options->device + " flushed and taken down.");
        });
    }

    auto* disable = cache->add_subcommand("disable", "Flush and remove the cache; the partition "
                                                     "is mounted back as it was");
    disable->add_option("DEV", options->device, "The cached partition or its cache device")
        ->required();
    commands.add(disable, [&context, options] {
        const cachectl::DisableRequest request{options->device};
        return runSimple(
            context, cachectl::kVerbDisable, options->device,
            [&request](cachectl::CacheClient& client) { return client.disable(request); },
            "Cache off: " + options->device + " is as it was before.");
    });

    auto* flush = cache->add_subcommand("flush", "Write every dirty block to the drive now");
    flush->add_option("DEV", options->device, "The cached partition")->required();
    commands.add(flush, [&context, options] {
        const cachectl::FlushRequest request{options->device};
        return runSimple(
            context, cachectl::kVerbFlush, options->device,
            [&request](cachectl::CacheClient& client) { return client.flush(request); },
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
        const cachectl::ResizeRequest request{options->device, *bytes};
        return runSimple(
            context, cachectl::kVerbResize, options->device,
            [&request](cachectl::CacheClient& client) { return client.resize(request); },
            "Resized the cache of " + options->device + " to " + formatIec(Bytes(*bytes)) + ".");
    });

    auto* mode = cache->add_subcommand("mode", "Switch between write-through and write-back");
    mode->add_option("DEV", options->device, "The cached partition")->required();
    mode->add_option("MODE", options->mode, "write-through or write-back")
        ->required()
        ->check(CLI::IsMember({"write-through", "write-back"}));
    commands.add(mode, [&context, options] {
        const cachectl::ModeRequest request{
            options->device,
            cachectl::parseCacheMode(options->mode).value_or(cachectl::CacheMode::WriteThrough)};
        return runSimple(
            context, cachectl::kVerbMode, options->device,
            [&request](cachectl::CacheClient& client) { return client.setMode(request); },
            "The cache of " + options->device + " is now " + options->mode + ".");
    });
}

} // namespace ssdk::cli
