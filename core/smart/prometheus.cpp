#include "core/smart/prometheus.h"

#include <fmt/format.h>
#include <functional>
#include <optional>

namespace ssdk::smart {

namespace {

std::string number(double value) {
    return fmt::format("{}", value);
}

int verdictValue(Verdict verdict) {
    switch (verdict) {
    case Verdict::Good:
        return 0;
    case Verdict::Caution:
        return 1;
    case Verdict::Bad:
        return 2;
    case Verdict::Unknown:
        break;
    }
    return 3;
}

std::optional<UInt128> mediaErrors(const DriveHealth& drive) {
    if (!drive.report) {
        return std::nullopt;
    }
    if (drive.report->nvme && drive.report->nvme->mediaErrors) {
        return drive.report->nvme->mediaErrors;
    }
    if (drive.report->scsiUncorrectedErrors) {
        return UInt128(*drive.report->scsiUncorrectedErrors);
    }
    return std::nullopt;
}

class Writer {
public:
    // One family: HELP, TYPE, then one sample per drive that has a value.
    void family(const char* name, const char* type, const char* help,
                const std::vector<DriveHealth>& drives,
                const std::function<std::optional<std::string>(const DriveHealth&)>& value) {
        std::string samples;
        for (const auto& drive : drives) {
            if (auto sample = value(drive)) {
                samples += fmt::format("{}{{device=\"{}\"}} {}\n", name,
                                       escapeLabelValue(drive.device), *sample);
            }
        }
        if (samples.empty()) {
            return;
        }
        header(name, type, help);
        m_text += samples;
    }

    void header(const char* name, const char* type, const char* help) {
        m_text += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
    }
    void line(const std::string& text) { m_text += text + "\n"; }
    std::string take() { return std::move(m_text); }

private:
    std::string m_text;
};

} // namespace

std::string escapeLabelValue(const std::string& value) {
    std::string escaped;
    for (const char c : value) {
        switch (c) {
        case '\\':
            escaped += "\\\\";
            break;
        case '"':
            escaped += "\\\"";
            break;
        case '\n':
            escaped += "\\n";
            break;
        default:
            escaped.push_back(c);
        }
    }
    return escaped;
}

std::string formatPrometheus(const std::vector<DriveHealth>& drives) {
    Writer out;
    if (drives.empty()) {
        return {};
    }
    out.header("ssdkeeper_drive_info", "gauge",
               "Identity of a drive; always 1. Join on the device label.");
    for (const auto& drive : drives) {
        const SmartReport* report = drive.report ? &*drive.report : nullptr;
        // The report's identity, else what discovery knows (a drive without SMART).
        const auto identity = [&](std::string SmartReport::*field,
                                  const std::string& discovered) -> const std::string& {
            return report && !(report->*field).empty() ? report->*field : discovered;
        };
        out.line(fmt::format(
            "ssdkeeper_drive_info{{device=\"{}\",model=\"{}\",serial=\"{}\",firmware=\"{}\","
            "protocol=\"{}\"}} 1",
            escapeLabelValue(drive.device),
            escapeLabelValue(identity(&SmartReport::model, drive.identity.model)),
            escapeLabelValue(identity(&SmartReport::serial, drive.identity.serial)),
            escapeLabelValue(identity(&SmartReport::firmware, drive.identity.firmware)),
            report ? toString(report->protocol) : "unknown"));
    }
    out.family("ssdkeeper_health_verdict", "gauge",
               "Health verdict: 0 good, 1 caution, 2 bad, 3 unknown (no SMART).", drives,
               [](const DriveHealth& d) {
                   return std::optional(std::to_string(verdictValue(d.assessment.verdict)));
               });
    out.header("ssdkeeper_health_status", "gauge",
               "1 for the drive's current verdict, 0 for the other verdicts.");
    for (const auto& drive : drives) {
        for (const auto verdict :
             {Verdict::Good, Verdict::Caution, Verdict::Bad, Verdict::Unknown}) {
            out.line(fmt::format("ssdkeeper_health_status{{device=\"{}\",verdict=\"{}\"}} {}",
                                 escapeLabelValue(drive.device), toString(verdict),
                                 drive.assessment.verdict == verdict ? 1 : 0));
        }
    }
    out.family("ssdkeeper_temperature_celsius", "gauge", "Current drive temperature in Celsius.",
               drives, [](const DriveHealth& d) -> std::optional<std::string> {
                   if (!d.derived.temperatureC) {
                       return std::nullopt;
                   }
                   return std::to_string(*d.derived.temperatureC);
               });
    out.family("ssdkeeper_life_used_ratio", "gauge",
               "Share of the rated write endurance used (1 = 100 %; may exceed 1).", drives,
               [](const DriveHealth& d) -> std::optional<std::string> {
                   if (!d.derived.percentageUsed) {
                       return std::nullopt;
                   }
                   return number(*d.derived.percentageUsed / 100.0);
               });
    out.family("ssdkeeper_available_spare_ratio", "gauge",
               "Available spare blocks as a share of the original spare (1 = 100 %).", drives,
               [](const DriveHealth& d) -> std::optional<std::string> {
                   if (!d.derived.availableSparePercent) {
                       return std::nullopt;
                   }
                   return number(*d.derived.availableSparePercent / 100.0);
               });
    out.family("ssdkeeper_host_written_bytes_total", "counter",
               "Bytes the host has written to the drive over its life.", drives,
               [](const DriveHealth& d) -> std::optional<std::string> {
                   if (!d.derived.hostWritesBytes) {
                       return std::nullopt;
                   }
                   return d.derived.hostWritesBytes->fitsIn64()
                              ? d.derived.hostWritesBytes->toString()
                              : number(d.derived.hostWritesBytes->toDouble());
               });
    out.family("ssdkeeper_media_errors_total", "counter",
               "Unrecovered media and data-integrity errors (NVMe) or uncorrected errors (SCSI).",
               drives, [](const DriveHealth& d) -> std::optional<std::string> {
                   const auto errors = mediaErrors(d);
                   if (!errors) {
                       return std::nullopt;
                   }
                   return errors->fitsIn64() ? errors->toString() : number(errors->toDouble());
               });
    out.family("ssdkeeper_power_on_seconds_total", "counter",
               "Time the drive has been powered on, from its power-on hours.", drives,
               [](const DriveHealth& d) -> std::optional<std::string> {
                   if (!d.derived.powerOnHours) {
                       return std::nullopt;
                   }
                   return UInt128(*d.derived.powerOnHours).saturatingMultiply(3600).toString();
               });
    return out.take();
}

} // namespace ssdk::smart
