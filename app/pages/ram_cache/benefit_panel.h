#pragma once

#include <deque>
#include <expected>
#include <filesystem>
#include <memory>
#include <optional>

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QGroupBox>
#include <QString>
#include <QTimer>

#include "core/base/error.h"
#include "core/cachectl/verbs.h"
#include "core/perf/cache_benefit.h"

class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace ssdk::perf {
class FioRunner;
}

namespace ssdk::app::ramcache {

class CacheController;

// "What it buys": a short fio run (core/perf/cache_benefit.h) on a test file in the
// partition's mounted filesystem without the cache, then with it (the form's settings), side
// by side; the cache is put back as it was afterwards, also when cancelled or failed. The
// result is saved per drive and partition under <user state>/ssdkeeper/ram-cache/ and shown
// again with the settings it was measured with.
class BenefitPanel final : public QGroupBox {
    Q_OBJECT
public:
    // The test file and the seconds of each of the four tests.
    static constexpr std::uint64_t kTestFileBytes = 64ULL << 20;
    static constexpr unsigned kSecondsEach = 2;

    // What is compared.
    struct Target {
        QString partition;  // "/dev/sdb1"; empty: nothing selected
        QString driveKey;   // names the saved file: the drive's serial, or its kernel name
        QString mountPoint; // where its filesystem is mounted ("" when it is not)
        // The cache on it now, as it is enabled again afterwards (nullopt: none).
        std::optional<cachectl::EnableRequest> current;
        bool scheduled = false; // its cache is set up for the next boot only
    };

    // controller: the page's, through which the cache is turned off and on.
    explicit BenefitPanel(CacheController* controller, QWidget* parent = nullptr);
    ~BenefitPanel() override;

    // Shows the comparison saved for the target (ignored while one runs).
    void setTarget(Target target);
    // The settings the form would enable the cache with (or why it cannot): the button, and
    // whether the comparison shown was measured with other settings.
    void setSettings(const std::expected<cachectl::EnableRequest, QString>& request);
    // Turns the cache off, measures, turns it on with `withCache`, measures, puts it back.
    void start(cachectl::EnableRequest withCache);
    void cancel();
    bool isRunning() const { return m_running; }
    // The saved comparison of the target, shown (nullopt: none).
    const std::optional<perf::CacheBenefit>& shown() const { return m_shown; }
    // Where the comparison of a drive's partition is saved.
    static std::filesystem::path savedPath(const QString& driveKey, const QString& partition);

signals:
    void compareClicked();
    void runningChanged(bool running);
    void finished(); // a comparison ended: saved, cancelled or failed

private:
    enum class Step { CacheOff, MeasureWithout, CacheOn, MeasureWith, Restore };

    void next();
    void measure(bool withCache);
    void onMeasured();
    void cacheStepDone(const QString& error);
    // Ends the run: the cache is put back first when it was changed.
    void stop(const QString& why);
    void finish();
    void setRunning(bool running);
    void showBenefit();
    // The target's saved comparison into m_shown (or why it cannot be read, in the status).
    void loadSaved();
    void updateProgress();
    QString refusal() const;

    CacheController* m_controller;
    Target m_target;
    std::optional<cachectl::EnableRequest> m_settings;
    std::optional<perf::CacheBenefit> m_shown;

    // The run.
    bool m_running = false;
    std::deque<Step> m_steps;
    cachectl::EnableRequest m_withCache;
    perf::CacheBenefit m_result;
    bool m_ourCacheOn = false;  // the cache with the form's settings is on
    bool m_originalOff = false; // the user's cache was turned off
    QString m_failure;          // why the run stopped early
    std::shared_ptr<perf::FioRunner> m_runner;
    QFutureWatcher<Expected<perf::BenefitFigures>> m_watcher;
    bool m_measuringWith = false;
    QElapsedTimer m_clock;
    QTimer m_progressTimer;

    QPushButton* m_compare;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QLabel* m_status;
    QTableWidget* m_table;
    QLabel* m_measuredWith;
};

} // namespace ssdk::app::ramcache
