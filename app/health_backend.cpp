#include "app/health_backend.h"

#include <unistd.h>

#include "core/base/atomic_file.h"
#include "core/firmware/known_issues.h"
#include "core/lab/lab.h"
#include "core/smart/report_loader.h"
#include "core/smart/smart_client.h"

namespace ssdk::app {

Expected<void> saveRawReport(const std::filesystem::path& file, const smart::RawReport& raw) {
    const std::string_view bytes(reinterpret_cast<const char*>(raw.bytes.data()), raw.bytes.size());
    auto written = writeFileAtomically(file, bytes);
    if (!written) {
        return std::unexpected(Error(written.error()).addContext("saving the report"));
    }
    return {};
}

std::chrono::system_clock::time_point reportTime(const std::filesystem::path& file) {
    std::error_code error;
    const auto written = std::filesystem::last_write_time(file, error);
    if (error) {
        return std::chrono::system_clock::now();
    }
    return std::chrono::time_point_cast<std::chrono::system_clock::duration>(
        std::chrono::file_clock::to_sys(written));
}

SystemHealthBackend::SystemHealthBackend(std::shared_ptr<rpc::Transport> session,
                                         std::shared_ptr<platform::Platform> platform)
    : m_platform(platform ? std::move(platform) : platform::makePlatform())
    , m_helper(std::move(session))
    , m_service(
          m_platform->processRunner(),
          [this](const std::string& verb, const Json& args) { return helper().call(verb, args); },
          ::geteuid() == 0) {
    m_service.setHistory(smart::HealthHistory(lab::userStateDirectory()));
    m_service.setFirmwareAdvisor(firmware::catalogAdvisor());
}

SystemHealthBackend::~SystemHealthBackend() = default;

rpc::Transport& SystemHealthBackend::helper() {
    if (!m_helper) {
        m_helper = m_platform->makeHelperSession();
    }
    return *m_helper;
}

Expected<HealthReading> SystemHealthBackend::read(const device::Device& device) {
    const std::lock_guard lock(m_mutex);
    HealthReading reading;
    reading.readAt = std::chrono::system_clock::now();
    auto raw = m_service.capture(device);
    if (!raw) {
        if (raw.error().code() != ErrorCode::Unsupported) {
            return std::unexpected(raw.error());
        }
        reading.health = smart::makeNoSmartHealth(device.path, raw.error().message());
    } else {
        auto health = m_service.evaluate(device.path, *raw);
        if (!health) {
            return std::unexpected(health.error());
        }
        reading.health = std::move(*health);
        reading.raw = std::move(*raw);
    }
    reading.health.identity = {device.model, device.serial, device.firmware};
    return reading;
}

Expected<HealthReading> SystemHealthBackend::load(const std::filesystem::path& file) {
    const std::lock_guard lock(m_mutex);
    auto report = smart::loadSavedReport(file);
    if (!report) {
        return std::unexpected(report.error());
    }
    auto health = m_service.evaluate(file.filename().string(), std::move(*report));
    if (!health) {
        return std::unexpected(health.error());
    }
    return HealthReading{std::move(*health), std::nullopt, reportTime(file)};
}

Expected<void> SystemHealthBackend::selfTest(const device::Device& device,
                                             smart::SelfTestAction action) {
    const std::lock_guard lock(m_mutex);
    smart::SmartClient client(helper());
    auto result = action == smart::SelfTestAction::Abort
                      ? client.abortSelfTest({device.path})
                      : client.startSelfTest({device.path, action});
    if (!result) {
        return std::unexpected(result.error());
    }
    return {};
}

} // namespace ssdk::app
