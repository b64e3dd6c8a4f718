#include "app/startup_screenshot.h"

#include <QPixmap>

#include "app/main_window.h"

namespace ssdk::app {

namespace {

// Lets layouts and first paints settle after the data arrived.
constexpr std::chrono::milliseconds kSettleTime{300};

} // namespace

StartupScreenshot::StartupScreenshot(MainWindow& window, QString file, QString driveToSelect,
                                     std::chrono::milliseconds timeLimit)
    : QObject(&window)
    , m_window(window)
    , m_file(std::move(file))
    , m_driveToSelect(std::move(driveToSelect)) {
    m_deadline.setSingleShot(true);
    m_deadline.setInterval(timeLimit);
    connect(&m_deadline, &QTimer::timeout, this, &StartupScreenshot::timedOut);
    connect(&m_window, &MainWindow::devicesShown, this, &StartupScreenshot::devicesShown);
    m_deadline.start();
    if (m_window.hasDiscoveryResult()) {
        devicesShown();
    }
}

void StartupScreenshot::devicesShown() {
    if (m_capturing) {
        return;
    }
    if (!m_driveToSelect.isEmpty() && !m_window.isSelected(m_driveToSelect)) {
        return;
    }
    m_capturing = true;
    m_deadline.stop();
    QTimer::singleShot(kSettleTime, this, &StartupScreenshot::capture);
}

void StartupScreenshot::capture() {
    const QPixmap shot = m_window.grab();
    if (!shot.save(m_file, "PNG")) {
        emit finished(1, tr("could not write the screenshot to %1").arg(m_file));
        return;
    }
    emit finished(0, {});
}

void StartupScreenshot::timedOut() {
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(
                             std::chrono::milliseconds(m_deadline.intervalAsDuration()))
                             .count();
    emit finished(
        1, m_driveToSelect.isEmpty()
               ? tr("no discovery result within %1 s").arg(seconds)
               : tr("drive %1 did not appear within %2 s").arg(m_driveToSelect).arg(seconds));
}

} // namespace ssdk::app
