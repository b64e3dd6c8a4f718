#pragma once

#include <chrono>

#include <QObject>
#include <QString>
#include <QTimer>

namespace ssdk::app {

class MainWindow;

// --screenshot: once the first discovery result is shown (and, with a drive to select, that
// drive is selected) and the page shown has finished reading what it shows (isLoading),
// grabs the window into a PNG and reports finished(0). Reports finished(1) with a message when
// that does not happen within the time limit (a page still loading is captured as it is) or
// the file cannot be written.
class StartupScreenshot : public QObject {
    Q_OBJECT
public:
    StartupScreenshot(MainWindow& window, QString file, QString driveToSelect,
                      std::chrono::milliseconds timeLimit = std::chrono::seconds(30));

signals:
    void finished(int exitCode, const QString& message);

private:
    void devicesShown();
    // Waits (polling) until the page has not been loading for two looks in a row: pages chain
    // their reads (drive, then usage, then journal).
    void waitForPage();
    void capture();
    void timedOut();

    MainWindow& m_window;
    QString m_file;
    QString m_driveToSelect;
    QTimer m_deadline;
    QTimer m_pagePoll;
    int m_idleLooks = 0;
    bool m_waitingForPage = false;
    bool m_capturing = false;
};

} // namespace ssdk::app
