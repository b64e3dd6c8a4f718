#pragma once

#include <memory>
#include <optional>

#include <QDateTime>
#include <QFutureWatcher>
#include <QString>
#include <QTimer>

#include "app/health_backend.h"
#include "app/pages/device_page.h"
#include "core/smart/health_json.h"
#include "core/smart/selftest.h"

class QFrame;
class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTabWidget;
class QTableView;
class QTableWidget;

namespace ssdk::app {

// Drive health: a verdict badge with the reasons in words, cards for temperature, life
// remaining, host writes and power-on time, the ATA attribute table (sortable, failing rows
// marked), the NVMe health log, self-tests with progress, and "Open report…" for saved
// smartctl JSON / libatasmart blobs, "Save report…" of the drive's last reading in the same
// format. An opened report is shown under a banner naming the file (never as the selected
// drive) until Close goes back to the drive. All reading and saving happens on a pool thread.
// Object names for tests: "health.verdict", "health.reasons", "health.temperature",
// "health.life", "health.writes", "health.powerOn", "health.powerOnNote",
// "health.lifeNote", "health.readTime", "health.reportBanner", "health.reportBannerText",
// "health.attributes", "health.nvme", "health.selfTestLog", "health.status", buttons
// "health.refresh", "health.openReport", "health.saveReport", "health.closeReport",
// "health.shortTest", "health.longTest", "health.abortTest".
class HealthPage : public DevicePage {
    Q_OBJECT
public:
    explicit HealthPage(std::shared_ptr<HealthBackend> backend, QWidget* parent = nullptr);
    ~HealthPage() override;

    void setDevice(const device::Device* device) override;
    bool isLoading() const override { return m_watcher.isRunning(); }

    // Re-reads the selected drive.
    void refresh();
    // Loads a saved report off the GUI thread (what "Open report…" does after its dialog).
    void openReport(const QString& file);
    // Leaves an opened report for the selected drive's own reading.
    void closeReport();
    // Saves the raw report of the drive's last reading off the GUI thread (what "Save
    // report…" does after its dialog); reportSaved tells how it went.
    void saveReport(const QString& file);
    bool canSaveReport() const;
    // True while an opened report is shown instead of the selected drive.
    bool showingReport() const { return m_showingReplay; }
    void startSelfTest(smart::SelfTestAction action);

    // What is shown now (for tests): nullopt before the first result.
    const std::optional<smart::DriveHealth>& shown() const { return m_shown; }

signals:
    // Emitted after each result is shown (or its error).
    void healthShown();
    // After saveReport: error is empty when the file was written.
    void reportSaved(const QString& file, const QString& error);

private:
    struct Outcome {
        quint64 generation = 0;
        bool ok = false;
        QString error;
        std::optional<smart::DriveHealth> health;
        std::optional<smart::RawReport> raw;
        QDateTime readAt;
        QString reportFile; // set when this is an opened report
        bool selfTestRequest = false;
    };

    QWidget* buildBanner();
    QWidget* buildHeader();
    QWidget* buildCards();
    QWidget* buildDetails();
    // What a finished read or load shows: the health, or the error in words.
    static Outcome outcomeOf(Expected<HealthReading> reading, bool selfTestRequest = false);
    void run(std::function<Outcome()> work, const QString& busyText);
    void finished();
    void display(const smart::DriveHealth& health);
    void showAttributes(const smart::SmartReport* report);
    void showNvme(const smart::SmartReport* report);
    void showSelfTest(const smart::SmartReport* report);
    void updateButtons();
    void chooseReport();
    void chooseSaveFile();
    void showReportBanner(const Outcome& outcome);

    std::shared_ptr<HealthBackend> m_backend;
    std::optional<device::Device> m_device;
    std::optional<smart::DriveHealth> m_shown;
    // The raw report of the drive's last reading: what "Save report…" writes.
    std::optional<smart::RawReport> m_raw;
    QFutureWatcher<Outcome> m_watcher;
    QFutureWatcher<QString> m_saveWatcher;
    QString m_savingTo;
    quint64 m_generation = 0;
    bool m_busy = false;
    bool m_showingReplay = false;
    QTimer m_selfTestPoll;

    QLabel* m_title = nullptr;
    QLabel* m_subtitle = nullptr;
    QLabel* m_verdict = nullptr;
    QLabel* m_reasons = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_readTime = nullptr;
    QFrame* m_reportBanner = nullptr;
    QLabel* m_reportBannerText = nullptr;
    QLabel* m_temperature = nullptr;
    QLabel* m_temperatureNote = nullptr;
    QLabel* m_life = nullptr;
    QLabel* m_lifeNote = nullptr;
    QLabel* m_writes = nullptr;
    QLabel* m_writesNote = nullptr;
    QLabel* m_powerOn = nullptr;
    QLabel* m_powerOnNote = nullptr;
    QPushButton* m_refresh = nullptr;
    QPushButton* m_openReport = nullptr;
    QPushButton* m_saveReport = nullptr;
    QPushButton* m_shortTest = nullptr;
    QPushButton* m_longTest = nullptr;
    QPushButton* m_abortTest = nullptr;
    QProgressBar* m_selfTestProgress = nullptr;
    QLabel* m_selfTestText = nullptr;
    QTabWidget* m_details = nullptr;
    QStandardItemModel* m_attributeModel = nullptr;
    QSortFilterProxyModel* m_attributeProxy = nullptr;
    QTableView* m_attributes = nullptr;
    QTableWidget* m_nvme = nullptr;
    QTableWidget* m_selfTestLog = nullptr;
};

} // namespace ssdk::app
