#include "cli/health_text.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

#include "cli/text_output.h"
#include "core/base/bytes.h"

namespace ssdk::cli {

namespace {

std::string upper(std::string_view text) {
    std::string result(text);
    std::transform(result.begin(), result.end(), result.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return result;
}

template <typename T> std::string orUnknown(const std::optional<T>& value) {
    return value ? fmt::format("{}", *value) : std::string("unknown");
}

std::string counter(const std::optional<smart::UInt128>& value) {
    return value ? value->toString() : std::string("unknown");
}

} // namespace

// "5 hours", "17 days", "2.1 years": the GUI's figures (smart::friendlyDuration).
std::string durationText(double hours) {
    const auto duration = smart::friendlyDuration(hours);
    switch (duration.unit) {
    case smart::FriendlyDuration::Unit::Hours:
        return fmt::format("{:.0f} {}", duration.value, duration.value == 1 ? "hour" : "hours");
    case smart::FriendlyDuration::Unit::Days:
        return fmt::format("{:.0f} {}", duration.value, duration.value == 1 ? "day" : "days");
    case smart::FriendlyDuration::Unit::Years:
        break;
    }
    return fmt::format("{:.1f} years", duration.value);
}

std::string formatSelfTest(const smart::DriveHealth& health) {
    if (!health.report || !health.report->selfTest) {
        return "Self-test: no self-test information\n";
    }
    const auto& state = *health.report->selfTest;
    std::string out;
    if (state.running) {
        out += fmt::format("Self-test: running, {} % remaining\n",
                           state.percentRemaining ? std::to_string(*state.percentRemaining) : "?");
    } else {
        out += fmt::format("Self-test: not running ({})\n",
                           state.statusText.empty() ? "no status" : state.statusText);
    }
    if (state.shortMinutes || state.extendedMinutes) {
        out += fmt::format("Recommended polling: short {} min, extended {} min\n",
                           orUnknown(state.shortMinutes), orUnknown(state.extendedMinutes));
    }
    if (!state.log.empty()) {
        std::vector<std::vector<std::string>> rows{{"#", "TYPE", "RESULT", "POWER-ON HOURS"}};
        int number = 1;
        for (const auto& entry : state.log) {
            rows.push_back({std::to_string(number++), entry.type,
                            (entry.passed ? "" : "FAILED: ") + entry.status,
                            orUnknown(entry.lifetimeHours)});
        }
        out += "Self-test log (newest first):\n" + formatTable(rows);
    }
    return out;
}

std::string formatDriveHealth(const smart::DriveHealth& health) {
    std::string out;
    const smart::SmartReport* report = health.report ? &*health.report : nullptr;
    if (report != nullptr) {
        out += fmt::format("{}  {}\n", health.device,
                           report->model.empty() ? "(no model)" : report->model);
        out += fmt::format(
            "  serial {}, firmware {}, {}{}{}\n",
            report->serial.empty() ? "unknown" : report->serial,
            report->firmware.empty() ? "unknown" : report->firmware,
            smart::toString(report->protocol),
            report->capacityBytes ? ", " + formatIec(Bytes(*report->capacityBytes)) : std::string(),
            report->isSsd ? (*report->isSsd ? ", SSD" : ", rotating disk") : std::string());
    } else {
        out += health.device + "\n";
    }
    out += fmt::format("Health: {}\n", upper(smart::toString(health.assessment.verdict)));
    for (const auto& reason : health.assessment.reasons) {
        out += fmt::format("  - [{}] {}: {}\n", smart::toString(reason.severity), reason.code,
                           reason.message);
    }
    if (report == nullptr) {
        return out;
    }
    const auto& derived = health.derived;
    out += "\n";
    if (report->smartOverallPassed) {
        out += fmt::format("SMART overall self-assessment: {}\n",
                           *report->smartOverallPassed ? "PASSED" : "FAILED");
    }
    if (derived.temperatureC) {
        out += fmt::format("Temperature:      {} °C", *derived.temperatureC);
        if (derived.temperatureMinC && derived.temperatureMaxC) {
            out += fmt::format(" (lifetime {}–{} °C)", *derived.temperatureMinC,
                               *derived.temperatureMaxC);
        }
        out += "\n";
    }
    if (derived.powerOnHours) {
        out += fmt::format("Power-on time:    {} h ({})", *derived.powerOnHours,
                           durationText(static_cast<double>(*derived.powerOnHours)));
        if (derived.powerCycles) {
            out += fmt::format(", {} power cycles", *derived.powerCycles);
        }
        out += "\n";
    }
    if (derived.hostWritesBytes) {
        out +=
            fmt::format("Host writes:      {}\n", smart::formatByteCount(*derived.hostWritesBytes));
    }
    if (derived.percentageUsed) {
        out +=
            fmt::format("Life used:        {} % ({})", *derived.percentageUsed, derived.wearSource);
        if (derived.remainingLifeDays) {
            out += fmt::format(", about {} left at the wear rate so far",
                               durationText(*derived.remainingLifeDays * 24));
        }
        out += "\n";
    }
    if (derived.availableSparePercent) {
        out += fmt::format("Available spare:  {} %\n", *derived.availableSparePercent);
    }
    if (!report->attributes.empty()) {
        std::vector<std::vector<std::string>> rows{
            {"ID", "NAME", "VALUE", "WORST", "THRESH", "RAW", "TYPE", "STATE"}};
        for (const auto& attribute : report->attributes) {
            rows.push_back({std::to_string(attribute.id), attribute.name,
                            orUnknown(attribute.value), orUnknown(attribute.worst),
                            orUnknown(attribute.thresh), attribute.rawText,
                            attribute.prefailure ? "pre-fail" : "old-age",
                            attribute.failingNow     ? "FAILING NOW"
                            : attribute.failedInPast ? "failed in past"
                                                     : "ok"});
        }
        out += "\nATA SMART attributes:\n" + formatTable(rows);
    }
    if (report->nvme) {
        const auto& nvme = *report->nvme;
        out += "\nNVMe SMART / health log:\n";
        std::vector<std::vector<std::string>> rows{
            {"Critical warning", fmt::format("0x{:02x}", nvme.criticalWarning)},
            {"Temperature",
             nvme.temperatureC ? fmt::format("{} °C", *nvme.temperatureC) : std::string("unknown")},
            {"Available spare", orUnknown(nvme.availableSpare) + " % (threshold " +
                                    orUnknown(nvme.availableSpareThreshold) + " %)"},
            {"Percentage used", orUnknown(nvme.percentageUsed) + " %"},
            {"Data units read", counter(nvme.dataUnitsRead)},
            {"Data units written", counter(nvme.dataUnitsWritten)},
            {"Host read commands", counter(nvme.hostReads)},
            {"Host write commands", counter(nvme.hostWrites)},
            {"Controller busy time", counter(nvme.controllerBusyTime) + " min"},
            {"Power cycles", counter(nvme.powerCycles)},
            {"Power-on hours", counter(nvme.powerOnHours)},
            {"Unsafe shutdowns", counter(nvme.unsafeShutdowns)},
            {"Media and data integrity errors", counter(nvme.mediaErrors)},
            {"Error log entries", counter(nvme.numErrLogEntries)},
            {"Warning temperature time", orUnknown(nvme.warningTempTime) + " min"},
            {"Critical temperature time", orUnknown(nvme.criticalCompTime) + " min"},
        };
        for (const auto& row : rows) {
            out += fmt::format("  {:<32} {}\n", row[0], row[1]);
        }
    }
    if (report->selfTest) {
        out += "\n" + formatSelfTest(health);
    }
    if (!report->warnings.empty()) {
        out += "\nWarnings:\n";
        for (const auto& warning : report->warnings) {
            out += "  - " + warning + "\n";
        }
    }
    return out;
}

} // namespace ssdk::cli
