#pragma once

#include <chrono>
#include <string>
#include <vector>

#include <QObject>
#include <QString>

#include "core/device/discovery.h"

class QTimer;

namespace ssdk::app {

using DeviceList = std::vector<device::Device>;

// Watches the machine's block devices. Lives on a worker thread (moveToThread before start()):
// every interval it compares Discovery::changeToken() with the last one and runs discover()
// when it changed; rescan() discovers unconditionally. Results and errors arrive as queued
// signals, so nothing here ever runs on the GUI thread.
class DeviceWatcher : public QObject {
    Q_OBJECT
public:
    explicit DeviceWatcher(device::Discovery discovery,
                           std::chrono::milliseconds interval = std::chrono::seconds(2));

public slots:
    // Discovers once and starts polling. Call on the watcher's thread (connect to
    // QThread::started).
    void start();
    // Discovers now, even when nothing seems to have changed.
    void rescan();
    void stop();

signals:
    void devicesDiscovered(const ssdk::app::DeviceList& devices);
    // A discovery that failed, described for people; polling goes on and retries.
    void discoveryFailed(const QString& message);
    // A poll found the devices as they were (nothing discovered, nothing sent).
    void polledUnchanged();

private:
    void poll();
    void discoverNow(const std::string& token);

    device::Discovery m_discovery;
    std::chrono::milliseconds m_interval;
    QTimer* m_timer = nullptr;
    std::string m_lastToken;
    bool m_haveResult = false;
};

} // namespace ssdk::app
