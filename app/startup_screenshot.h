#pragma once

#include <chrono>

#include <QObject>
#include <QString>
#include <QTimer>

namespace ssdk::app {

class MainWindow;

// --screenshot: once the first discovery result is shown (and, with a drive to select, that
// drive is selected), grabs the window into a PNG and reports finished(0). Reports
// finished(1) with a message when that does not happen within the time limit or the file
// cannot be written.
class StartupScreenshot : public QObject {
    Q_OBJECT
public:
    StartupScreenshot(MainWindow& window, QString file, QString driveToSelect,
                      std::chrono::milliseconds timeLimit = std::chrono::seconds(10));

signals:
    void finished(int exitCode, const QString& message);

private:
    void devicesShown();
    void capture();
    void timedOut();

    MainWindow& m_window;
    QString m_file;
    QString m_driveToSelect;
    QTimer m_deadline;
    bool m_capturing = false;
};

} // namespace ssdk::app
