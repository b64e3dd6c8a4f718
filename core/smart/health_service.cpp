#include "core/smart/health_service.h"

#include "core/base/log.h"
#include "core/smart/atasmart_source.h"
#include "core/smart/device_reader.h"
#include "core/smart/smartctl_source.h"

namespace ssdk::smart {

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
        m_helper(kVerbSmartRead, toJson(ReadRequest{device.path, options.wakeSleepingDisk}));
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
    Expected<DriveHealth> health =
        raw ? evaluate(device.path, *raw)
        : raw.error().code() == ErrorCode::Unsupported
            ? Expected<DriveHealth>(makeNoSmartHealth(device.path, raw.error().message()))
            : Expected<DriveHealth>(std::unexpected(raw.error()));
    if (health) {
        health->identity = {device.model, device.serial, device.firmware};
    }
    return health;
}

} // namespace ssdk::smart
