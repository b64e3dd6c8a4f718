#pragma once

#include <atomic>
#include <memory>

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QThread>
#include <QTimer>

#include "app/pages/device_page.h"
#include "core/perf/bench_plan.h"
#include "core/perf/bench_result.h"
#include "core/perf/verbs.h"
#include "core/platform/platform.h"
#include "core/rpc/transport.h"

class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTableWidget;

namespace ssdk::perf {
class FioRunner;
}

namespace ssdk::app {

class AnalysisChart;
class HelperCaller;
class ThroughputChart;

// Samples one block device on its own thread (perf::Sampler over a kept-open stat file)
// and emits each rate; the GUI thread never reads sysfs.
class LiveSamplerWorker : public QObject {
    Q_OBJECT
public:
    // platform: where the I/O counters are read (Platform::makeStatSource).
    explicit LiveSamplerWorker(const platform::Platform& platform, QString sysfsRoot = {});
    ~LiveSamplerWorker() override;

public slots:
    // Starts sampling `device` (kernel name) every intervalMs; an empty name stops.
    void watch(const QString& device, int intervalMs);

signals:
    // Bytes/s, I/O per second, ms, requests in flight; timeS counts from watch().
    void sampled(const QString& device, double timeS, double readBytesPerS, double writeBytesPerS,
                 double readIops, double writeIops, double latencyMs, double queueDepth);
    void absent(const QString& device);

private:
    void tick();

    struct State;
    std::unique_ptr<State> m_state;
    QTimer* m_timer = nullptr;
    QString m_device;
    QElapsedTimer m_clock;
};

// Why a raw-device (destructive) benchmark is not offered for this drive; empty when it is:
// an unmounted, unheld, writable drive that does not hold the system.
QString rawBenchRefusal(const device::Device& device);

// Performance: the live throughput graph of the selected drive, and CrystalDiskMark-style
// benchmarks through fio on a test file, or on the whole unmounted drive through
// ssdkeeper-helper (perf.bench) after a typed confirmation (results saved as JSON and
// re-openable).
class PerformancePage : public DevicePage {
    Q_OBJECT
public:
    // helper: the helper session (AppServices::helper); nullptr = a helper process of its own.
    // sysfsRoot: the tree the live graph samples (AppServices::root); empty = this machine.
    // platform: AppServices::platform (counters, fio's process runner); nullptr =
    // makePlatform().
    explicit PerformancePage(std::shared_ptr<rpc::Transport> helper = nullptr,
                             QString sysfsRoot = {},
                             std::shared_ptr<platform::Platform> platform = nullptr,
                             QWidget* parent = nullptr);
    ~PerformancePage() override;

    void setDevice(const device::Device* device) override;

    ThroughputChart* chart() const { return m_chart; }
    bool paused() const { return m_paused; }
    void setPaused(bool paused);
    // Shows a saved or finished CDM result in the result grid.
    void showResult(const perf::BenchResult& result);
    QString resultText(int row, int column) const; // the grid's value labels, for tests
    QString liveText() const;
    // Opens a saved result: CDM into the grid, consistency runs overlaid and SLC probes in
    // the analysis chart. Returns the error text, empty on success.
    QString openResultFile(const QString& file);
    AnalysisChart* analysisChart() const { return m_analysis; }
    void showAnalysisTab();
    // The last finished or opened result, if any.
    const std::optional<perf::BenchResult>& result() const { return m_result; }

    // Exports; each returns the error text, empty on success.
    QString exportResultCsv(const QString& file) const; // the result as CSV (perf::resultCsv)
    QString exportBenchPng(const QString& file) const;  // the benchmark tab shown now
    QString exportLivePng(const QString& file) const;   // the live throughput graph
    // Compares the current result (A) with a saved one (B): per-test deltas in the Compare
    // tab; consistency runs are also overlaid in the analysis chart.
    QString compareWithFile(const QString& file);
    QTableWidget* compareTable() const { return m_compare; }

    // The target choice: 0 a test file in a folder, 1 the whole device (destroys data).
    enum TargetKind { TestFile = 0, WholeDevice = 1 };
    bool wholeDeviceAvailable() const;
    // Starts the benchmark as the Run button does (a whole-device run opens the confirmation
    // dialog, object name "performance.confirmDialog").
    void runBenchmark() { startBenchmark(); }
    // The CDM preset as the controls set it: size, seconds per test, loops and the pick
    // (best or average of the loops), planned by perf::planBench for a test-file run.
    perf::BenchOptions cdmOptions() const;
    // The helper's perf.bench arguments for a whole-device run of the selected drive (the
    // size capped at the drive's); an empty object when no drive is selected.
    Json deviceBenchRequest(const QString& confirmation) const;

signals:
    void benchmarkFinished(bool ok, const QString& message);

private:
    QWidget* buildLiveCard();
    QWidget* buildBenchCard();
    void onSampled(const QString& device, double timeS, double readBytesPerS, double writeBytesPerS,
                   double readIops, double writeIops, double latencyMs, double queueDepth);
    void startBenchmark();
    void confirmDeviceBenchmark();
    void startDeviceBenchmark(const QString& confirmation);
    // deviceBenchRequest's request, typed; needs a selected drive.
    perf::BenchRequest deviceBench(const QString& confirmation) const;
    void cancelBenchmark();
    void benchmarkDone();
    void deviceBenchmarkDone(bool ok, const QString& error, const Json& result);
    void updateTargetChoice();
    void setRunning(bool running);
    void openResult();
    void saveResult();
    void exportWithDialog(bool png);
    void compareWithDialog();
    void setExportsEnabled(bool enabled);

    QThread m_samplerThread;
    LiveSamplerWorker* m_worker = nullptr;
    ThroughputChart* m_chart = nullptr;
    AnalysisChart* m_analysis = nullptr;
    QTabWidget* m_benchTabs = nullptr;
    QTimer m_refresh;
    QString m_device;
    bool m_paused = false;
    QPushButton* m_pause = nullptr;
    QComboBox* m_window = nullptr;
    QLabel* m_liveNumbers = nullptr;
    QLabel* m_title = nullptr;

    QComboBox* m_targetKind = nullptr;
    QLabel* m_targetNote = nullptr;
    QPushButton* m_browse = nullptr;
    QComboBox* m_seconds = nullptr;
    HelperCaller* m_helper = nullptr;
    std::optional<device::Device> m_selected;
    QLineEdit* m_target = nullptr;
    QComboBox* m_size = nullptr;
    QComboBox* m_loops = nullptr;
    QComboBox* m_pick = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_save = nullptr;
    QPushButton* m_exportCsv = nullptr;
    QPushButton* m_exportPng = nullptr;
    QPushButton* m_compareButton = nullptr;
    QTableWidget* m_compare = nullptr;
    QLabel* m_compareTitle = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_benchStatus = nullptr;
    QGridLayout* m_grid = nullptr;
    QLabel* m_cells[4][2] = {};
    QTimer m_progressTimer;
    QElapsedTimer m_benchClock;
    int m_expectedSeconds = 0;
    std::shared_ptr<platform::Platform> m_platform;
    std::shared_ptr<perf::FioRunner> m_runner;
    QFutureWatcher<Expected<perf::BenchResult>> m_benchWatcher;
    std::optional<perf::BenchResult> m_result;
    QString m_resultLabel;
};

} // namespace ssdk::app
