#include "cli/health_commands.h"

#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <memory>
#include <unistd.h>

#include "cli/health_text.h"
#include "cli/metrics_http.h"
#include "core/base/atomic_file.h"
#include "core/base/log.h"
#include "core/firmware/known_issues.h"
#include "core/lab/lab.h"
#include "core/rpc/client.h"
#include "core/smart/health_service.h"
#include "core/smart/prometheus.h"
#include "core/smart/report_loader.h"
#include "core/smart/selftest.h"
#include "core/smart/smart_client.h"

namespace ssdk::cli {

namespace {

// Everything a health command needs: the platform's process runner, the run's helper session
// (asked only when not root) and the health service over them.
class HealthContext {
public:
    explicit HealthContext(const CliContext& context)
        : m_service(
              context.processes(),
              [&helper = context.helper()](const std::string& verb, const Json& args) {
                  return helper.call(verb, args);
              },
              ::geteuid() == 0) {
        m_service.setHistory(smart::HealthHistory(lab::userStateDirectory()));
        m_service.setFirmwareAdvisor(firmware::catalogAdvisor());
    }

    smart::HealthService& service() { return m_service; }

private:
    smart::HealthService m_service;
};

struct HealthOptions {
    std::string device;
    std::string replay;
    std::string save;
    bool wake = false;
};

Expected<void> saveRaw(const std::string& file, const smart::RawReport& raw) {
    std::ofstream stream(file, std::ios::binary | std::ios::trunc);
    stream.write(reinterpret_cast<const char*>(raw.bytes.data()),
                 static_cast<std::streamsize>(raw.bytes.size()));
    if (!stream) {
        return fail(ErrorCode::Io, "could not write the report to " + file);
    }
    return {};
}

void printHealth(const CliContext& context, const smart::DriveHealth& health) {
    if (context.json) {
        Json json = smart::toJson(health);
        json["version"] = 1;
        printJson(json);
    } else {
        std::cout << formatDriveHealth(health);
    }
}

Expected<smart::DriveHealth> readHealth(const CliContext& context, HealthContext& health,
                                        const HealthOptions& options,
                                        std::optional<smart::RawReport>* rawOut) {
    if (!options.replay.empty()) {
        auto report = smart::loadSavedReport(options.replay);
        if (!report) {
            return std::unexpected(report.error());
        }
        return health.service().evaluate(options.replay, std::move(*report));
    }
    auto device = context.makeDiscovery().find(options.device);
    if (!device) {
        return std::unexpected(device.error());
    }
    auto raw = health.service().capture(*device, {.wakeSleepingDisk = options.wake});
    if (!raw) {
        if (raw.error().code() == ErrorCode::Unsupported) {
            return smart::makeNoSmartHealth(device->path, raw.error().message());
        }
        return std::unexpected(raw.error());
    }
    if (rawOut != nullptr) {
        *rawOut = *raw;
    }
    return health.service().evaluate(device->path, *raw);
}

int runHealth(const CliContext& context, const HealthOptions& options) {
    if (options.device.empty() == options.replay.empty()) {
        return reportError(
            context, Error(ErrorCode::InvalidArgument, "give either a device or --replay FILE"));
    }
    HealthContext health(context);
    std::optional<smart::RawReport> raw;
    auto result = readHealth(context, health, options, &raw);
    if (!result) {
        return reportError(context, result.error());
    }
    if (!options.save.empty()) {
        if (!raw) {
            return reportError(context, Error(ErrorCode::InvalidArgument,
                                              "--save needs a device that has SMART data"));
        }
        if (auto saved = saveRaw(options.save, *raw); !saved) {
            return reportError(context, saved.error());
        }
    }
    printHealth(context, *result);
    return kExitOk;
}

// Health of every whole disk, for the exposition: a device that fails to read is shown
// with verdict unknown and the reason in the log.
std::string renderMetrics(const CliContext& context, HealthContext& health) {
    std::vector<smart::DriveHealth> drives;
    auto devices = context.makeDiscovery().discover();
    if (!devices) {
        log::get("smart")->error("{}", devices.error().describe());
        return {};
    }
    for (const auto& device : *devices) {
        auto drive = health.service().read(device);
        if (drive) {
            drives.push_back(std::move(*drive));
        } else {
            log::get("smart")->warn("{}: {}", device.path, drive.error().describe());
            drives.push_back(smart::makeNoSmartHealth(device.path, drive.error().describe()));
        }
    }
    return smart::formatPrometheus(drives);
}

int runMetrics(const CliContext& context, const std::string& listen, const std::string& output) {
    HealthContext health(context);
    if (!listen.empty()) {
        auto address = parseListenAddress(listen);
        if (!address) {
            return reportError(context, address.error());
        }
        auto served = serveMetrics(
            *address, [&] { return renderMetrics(context, health); },
            [&] {
                std::cerr << fmt::format("Serving metrics on http://{}:{}/metrics\n", address->host,
                                         address->port);
            });
        return served ? kExitOk : reportError(context, served.error());
    }
    const std::string text = renderMetrics(context, health);
    if (output.empty()) {
        std::cout << text;
        return kExitOk;
    }
    // Write-then-rename, as node_exporter's textfile collector asks, so it never reads half.
    if (auto written = writeFileAtomically(output, text); !written) {
        return reportError(context, written.error());
    }
    return kExitOk;
}

int runSelfTest(const CliContext& context, const std::string& deviceName,
                const std::string& action) {
    auto device = context.makeDiscovery().find(deviceName);
    if (!device) {
        return reportError(context, device.error());
    }
    HealthContext health(context);
    if (action == "status") {
        auto result = health.service().read(*device);
        if (!result) {
            return reportError(context, result.error());
        }
        if (context.json) {
            Json json = smart::toJson(*result);
            printJson(Json{{"version", 1},
                           {"device", result->device},
                           {"health", json["health"]},
                           {"self_test", json["self_test"]}});
        } else {
            if (!result->report) {
                std::cout << result->assessment.reasons.front().message << "\n";
            } else {
                std::cout << formatSelfTest(*result);
            }
        }
        return kExitOk;
    }
    auto parsed = smart::parseSelfTestAction(action);
    if (!parsed) {
        return reportError(context, parsed.error());
    }
    const bool abort = *parsed == smart::SelfTestAction::Abort;
    smart::SmartClient helper(context.helper());
    auto result = abort ? helper.abortSelfTest({device->path})
                        : helper.startSelfTest({device->path, *parsed});
    if (!result) {
        return reportError(
            context, Error(result.error()).addContext(action + " self-test on " + device->path));
    }
    if (context.json) {
        printJson(smart::toJson(*result));
        return kExitOk;
    }
    std::cout << (abort ? fmt::format("Aborted the self-test on {}.\n", device->path)
                        : fmt::format("Started a {} self-test on {}. Follow it with: "
                                      "ssdkeeperctl selftest {} status\n",
                                      action, device->path, deviceName));
    for (const auto& line : result->messages) {
        std::cout << "  smartctl: " << line << "\n";
    }
    return kExitOk;
}

} // namespace

void addHealthCommands(CLI::App& app, CliContext& context, Commands& commands) {
    auto options = std::make_shared<HealthOptions>();
    auto* health = app.add_subcommand(
        "health", "Drive health: SMART/identify, a verdict with reasons, wear, temperature");
    health->add_option("device", options->device, "Device name, /dev path or by-id link");
    health
        ->add_option("--replay", options->replay,
                     "Open a saved report instead: smartctl JSON or a libatasmart blob "
                     "(skdump --save)")
        ->check(CLI::ExistingFile);
    health->add_option("--save", options->save,
                       "Also save the raw report (smartctl JSON or blob) to FILE for --replay");
    health->add_flag("--wake", options->wake, "Read a sleeping (standby) disk too, spinning it up");
    commands.add(health, [&context, options] { return runHealth(context, *options); });

    auto listen = std::make_shared<std::string>();
    auto output = std::make_shared<std::string>();
    auto* metrics = app.add_subcommand(
        "metrics", "Prometheus text exposition of every drive's health (node_exporter "
                   "textfile collector, or an HTTP endpoint with --listen)");
    metrics->add_option("--listen", *listen, "Serve /metrics on a loopback HOST:PORT");
    metrics->add_option("--output", *output,
                        "Write to FILE atomically (for the textfile collector)");
    commands.add(metrics,
                 [&context, listen, output] { return runMetrics(context, *listen, *output); });

    auto device = std::make_shared<std::string>();
    auto action = std::make_shared<std::string>();
    auto* selftest = app.add_subcommand(
        "selftest", "Device self-test: start short or long, abort, or show progress and log");
    selftest->add_option("device", *device, "Device name, /dev path or by-id link")->required();
    selftest->add_option("action", *action, "short, long, abort or status")
        ->required()
        ->check(CLI::IsMember({"short", "long", "abort", "status"}));
    commands.add(selftest,
                 [&context, device, action] { return runSelfTest(context, *device, *action); });
}

} // namespace ssdk::cli
