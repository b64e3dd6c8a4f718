#include "app/device_watcher.h"

#include <QMetaType>
#include <QTimer>

#include "app/device_text.h"
#include "core/base/log.h"

namespace ssdk::app {

DeviceWatcher::DeviceWatcher(device::Discovery discovery, std::chrono::milliseconds interval)
    : m_discovery(std::move(discovery))
    , m_interval(interval) {
    qRegisterMetaType<ssdk::app::DeviceList>("ssdk::app::DeviceList");
}

void DeviceWatcher::start() {
    if (m_timer == nullptr) {
        m_timer = new QTimer(this);
        m_timer->setInterval(m_interval);
        connect(m_timer, &QTimer::timeout, this, &DeviceWatcher::poll);
    }
    m_timer->start();
    rescan();
}

void DeviceWatcher::stop() {
    if (m_timer != nullptr) {
        m_timer->stop();
    }
}

void DeviceWatcher::rescan() {
    discoverNow(m_discovery.changeToken());
}

void DeviceWatcher::poll() {
    std::string token = m_discovery.changeToken();
    if (m_haveResult && token == m_lastToken) {
        emit polledUnchanged();
        return;
    }
    discoverNow(token);
}

void DeviceWatcher::discoverNow(const std::string& token) {
    auto devices = m_discovery.discover();
    if (!devices) {
        // The token is not recorded, so the next poll tries again.
        m_haveResult = false;
        const std::string message = devices.error().describe();
        log::get("app")->warn("device discovery failed: {}", message);
        emit discoveryFailed(toQString(message));
        return;
    }
    m_lastToken = token;
    m_haveResult = true;
    emit devicesDiscovered(*devices);
}

} // namespace ssdk::app
