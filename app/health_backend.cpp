#include "app/health_backend.h"

#include <unistd.h>

#include "core/firmware/known_issues.h"
#include "core/lab/lab.h"
#include "core/smart/report_loader.h"
#include "core/smart/smart_client.h"

namespace ssdk::app {

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

Expected<smart::DriveHealth> SystemHealthBackend::read(const device::Device& device) {
    const std::lock_guard lock(m_mutex);
    return m_service.read(device);
}

Expected<smart::DriveHealth> SystemHealthBackend::load(const std::filesystem::path& file) {
    const std::lock_guard lock(m_mutex);
    auto report = smart::loadSavedReport(file);
    if (!report) {
        return std::unexpected(report.error());
    }
    return m_service.evaluate(file.filename().string(), std::move(*report));
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
