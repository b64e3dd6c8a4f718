#include "app/startup_screenshot.h"

#include <QPixmap>

#include "app/main_window.h"

namespace ssdk::app {

namespace {

// Lets layouts and first paints settle after the data arrived.
constexpr std::chrono::milliseconds kSettleTime{300};
// How often the page is asked whether it still loads.
constexpr std::chrono::milliseconds kPagePoll{100};

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
    m_pagePoll.setInterval(kPagePoll);
    connect(&m_pagePoll, &QTimer::timeout, this, &StartupScreenshot::waitForPage);
    m_deadline.start();
    if (m_window.hasDiscoveryResult()) {
        devicesShown();
    }
}

void StartupScreenshot::devicesShown() {
    if (m_capturing || m_waitingForPage) {
        return;
    }
    if (!m_driveToSelect.isEmpty() && !m_window.isSelected(m_driveToSelect)) {
        return;
    }
    m_waitingForPage = true;
    m_pagePoll.start();
}

void StartupScreenshot::waitForPage() {
    m_idleLooks = m_window.currentPageLoading() ? 0 : m_idleLooks + 1;
    if (m_idleLooks < 2) {
        return;
    }
    m_pagePoll.stop();
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
    if (m_waitingForPage) {
        // What the page shows while it loads is still worth having, but the run says so.
        m_pagePoll.stop();
        const QPixmap shot = m_window.grab();
        shot.save(m_file, "PNG");
        emit finished(1, tr("the %1 page was still loading after %2 s; %3 shows it loading")
                             .arg(m_window.currentPageTitle())
                             .arg(std::chrono::duration_cast<std::chrono::seconds>(
                                      m_deadline.intervalAsDuration())
                                      .count())
                             .arg(m_file));
        return;
    }
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(
                             std::chrono::milliseconds(m_deadline.intervalAsDuration()))
                             .count();
    emit finished(
        1, m_driveToSelect.isEmpty()
               ? tr("no discovery result within %1 s").arg(seconds)
               : tr("drive %1 did not appear within %2 s").arg(m_driveToSelect).arg(seconds));
}

} // namespace ssdk::app
