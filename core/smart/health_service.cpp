#include "core/smart/health_service.h"

#include "core/base/log.h"
#include "core/smart/atasmart_source.h"
#include "core/smart/device_reader.h"
#include "core/smart/smartctl_source.h"

namespace ssdk::smart {

namespace {

std::string toHex(const std::vector<std::uint8_t>& bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string hex;
    hex.reserve(bytes.size() * 2);
    for (const auto byte : bytes) {
        hex.push_back(kDigits[byte >> 4]);
        hex.push_back(kDigits[byte & 0x0f]);
    }
    return hex;
}

Expected<std::vector<std::uint8_t>> fromHex(const std::string& hex) {
    auto nibble = [](char c) -> int {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return -1;
    };
    if (hex.size() % 2 != 0) {
        return fail(ErrorCode::Protocol, "blob data has an odd number of hex digits");
    }
    std::vector<std::uint8_t> bytes;
    bytes.reserve(hex.size() / 2);
    for (std::size_t i = 0; i < hex.size(); i += 2) {
        const int high = nibble(hex[i]);
        const int low = nibble(hex[i + 1]);
        if (high < 0 || low < 0) {
            return fail(ErrorCode::Protocol, "blob data is not lowercase hex");
        }
        bytes.push_back(static_cast<std::uint8_t>(high * 16 + low));
    }
    return bytes;
}

} // namespace

Json toJson(const RawReport& raw) {
    const bool text = raw.format == RawReport::Format::SmartctlJson;
    return Json{
        {"format", toString(raw.format)},
        {"data", text ? std::string(raw.bytes.begin(), raw.bytes.end()) : toHex(raw.bytes)}};
}

Expected<RawReport> rawReportFromJson(const Json& json) {
    if (!json.is_object() || !json.contains("format") || !json["format"].is_string() ||
        !json.contains("data") || !json["data"].is_string()) {
        return fail(ErrorCode::Protocol, "smart.read answered without format and data");
    }
    const auto& format = json["format"].get_ref<const std::string&>();
    const auto& data = json["data"].get_ref<const std::string&>();
    RawReport raw;
    if (format == "smartctl-json") {
        raw.format = RawReport::Format::SmartctlJson;
        raw.bytes.assign(data.begin(), data.end());
    } else if (format == "atasmart-blob") {
        raw.format = RawReport::Format::AtasmartBlob;
        auto bytes = fromHex(data);
        if (!bytes) {
            return std::unexpected(bytes.error());
        }
        raw.bytes = std::move(*bytes);
    } else {
        return fail(ErrorCode::Protocol, "smart.read answered with unknown format " + format);
    }
    return raw;
}

HealthService::HealthService(ProcessRunner& runner, HelperCall helper, bool direct)
    : m_runner(runner)
    , m_helper(std::move(helper))
    , m_direct(direct) {}

Expected<RawReport> HealthService::capture(const device::Device& device,
                                           const ReadOptions& options) {
    if (auto reason = noSmartReason(device)) {
        return fail(ErrorCode::Unsupported, *reason);
    }
    if (m_direct || !m_helper) {
        SmartctlSource smartctl(m_runner);
        AtasmartSource atasmart;
        return captureDevice(device, {&smartctl, &atasmart}, options);
    }
    auto answer =
        m_helper("smart.read", Json{{"device", device.path}, {"wake", options.wakeSleepingDisk}});
    if (!answer) {
        return std::unexpected(answer.error());
    }
    return rawReportFromJson(*answer);
}

std::vector<std::string> HealthService::firmwareWarnings(const std::string& model,
                                                         const std::string& firmware) {
    std::shared_ptr<const DriveDatabase> database;
    {
        const std::lock_guard lock(m_databaseMutex);
        if (!m_database) {
            auto loaded = DriveDatabase::load();
            if (loaded) {
                m_database = std::make_shared<const DriveDatabase>(std::move(*loaded));
            } else {
                log::get("smart")->warn("no firmware warnings: {}", loaded.error().describe());
                m_database = nullptr;
            }
        }
        database = *m_database;
    }
    if (!database || model.empty()) {
        return {};
    }
    return database->firmwareWarnings(model, firmware);
}

AssessmentOptions HealthService::optionsFor(const SmartReport& report) {
    AssessmentOptions options;
    options.firmwareWarnings = firmwareWarnings(report.model, report.firmware);
    if (m_advisor && !report.model.empty()) {
        options.knownFirmwareProblems = m_advisor(report.model, report.firmware);
    }
    return options;
}

Expected<DriveHealth> HealthService::evaluate(std::string deviceName, SmartReport report) {
    const AssessmentOptions options = optionsFor(report);
    return makeDriveHealth(std::move(deviceName), std::move(report), options);
}

Expected<DriveHealth> HealthService::evaluate(std::string deviceName, const RawReport& raw) {
    auto report = parseRawReport(raw);
    if (!report) {
        if (report.error().code() == ErrorCode::Unsupported) {
            return makeNoSmartHealth(std::move(deviceName), report.error().message());
        }
        return std::unexpected(report.error());
    }
    if (!m_history) {
        return evaluate(std::move(deviceName), std::move(*report));
    }
    AssessmentOptions options = optionsFor(*report);
    auto previous = m_history->load(*report);
    if (!previous) {
        log::get("smart")->warn("ignoring the earlier report: {}", previous.error().describe());
    } else if (*previous) {
        options.previous = &(*previous)->report;
        options.previousReadAt = formatReportTime((*previous)->readAt);
    }
    DriveHealth health = makeDriveHealth(std::move(deviceName), *report, options);
    if (auto recorded = m_history->record(*report, raw, std::chrono::system_clock::now());
        !recorded) {
        log::get("smart")->warn("could not keep the report: {}", recorded.error().describe());
    }
    return health;
}

Expected<DriveHealth> HealthService::read(const device::Device& device,
                                          const ReadOptions& options) {
    auto raw = capture(device, options);
    if (!raw) {
        if (raw.error().code() == ErrorCode::Unsupported) {
            return makeNoSmartHealth(device.path, raw.error().message());
        }
        return std::unexpected(raw.error());
    }
    return evaluate(device.path, *raw);
}

} // namespace ssdk::smart
