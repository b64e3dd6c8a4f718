#include "app/pages/performance_page.h"

#include <fstream>
#include <sstream>

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

#include "app/device_text.h"
#include "app/helper_caller.h"
#include "app/theme.h"
#include "app/widgets/analysis_chart.h"
#include "app/widgets/empty_table.h"
#include "app/widgets/throughput_chart.h"
#include "core/base/system_process_runner.h"
#include "core/device/discovery.h"
#include "core/maintenance/erase/guards.h"
#include "core/perf/bench_plan.h"
#include "core/perf/fio_runner.h"
#include "core/perf/perf_client.h"
#include "core/perf/report.h"
#include "core/perf/sampler.h"
#include "core/platform/platform.h"

namespace ssdk::app {

namespace {
constexpr int kSampleIntervalMs = 100; // 10 Hz
constexpr int kRefreshMs = 250;
const char* const kCdmTests[4] = {"SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"};

QFrame* card(const QString& title, QWidget* body) {
    auto* frame = new QFrame;
    frame->setFrameShape(QFrame::StyledPanel);
    auto* layout = new QVBoxLayout(frame);
    auto* heading = new QLabel(QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()));
    layout->addWidget(heading);
    layout->addWidget(body);
    return frame;
}
} // namespace

struct LiveSamplerWorker::State {
    State(const platform::Platform& platform, SysfsRoot root)
        : source(platform.makeStatSource(std::move(root))) {}
    std::unique_ptr<perf::StatSource> source;
    std::unique_ptr<perf::Sampler> sampler;
};

LiveSamplerWorker::LiveSamplerWorker(const platform::Platform& platform, QString sysfsRoot)
    : m_state(std::make_unique<State>(
          platform, sysfsRoot.isEmpty() ? SysfsRoot() : SysfsRoot(sysfsRoot.toStdString()))) {}

LiveSamplerWorker::~LiveSamplerWorker() = default;

void LiveSamplerWorker::watch(const QString& device, int intervalMs) {
    if (m_timer == nullptr) {
        m_timer = new QTimer(this);
        m_timer->setTimerType(Qt::PreciseTimer);
        connect(m_timer, &QTimer::timeout, this, &LiveSamplerWorker::tick);
    }
    m_timer->stop();
    m_device = device;
    m_state->sampler.reset();
    if (device.isEmpty()) {
        return;
    }
    m_state->sampler =
        std::make_unique<perf::Sampler>(*m_state->source, std::vector{device.toStdString()});
    m_clock.start();
    tick();
    m_timer->start(intervalMs);
}

void LiveSamplerWorker::tick() {
    if (!m_state->sampler) {
        return;
    }
    const auto samples = m_state->sampler->sample(perf::Sampler::Clock::now());
    const auto& s = samples.front();
    if (!s.present) {
        emit absent(m_device);
        return;
    }
    if (s.hasRates) {
        const auto& r = s.rates;
        emit sampled(m_device, static_cast<double>(m_clock.elapsed()) / 1000.0, r.readBytesPerS,
                     r.writeBytesPerS, r.readIops, r.writeIops, r.avgLatencyMs, r.queueDepth);
    }
}

PerformancePage::PerformancePage(std::shared_ptr<rpc::Transport> helper, QString sysfsRoot,
                                 std::shared_ptr<platform::Platform> platform, QWidget* parent)
    : DevicePage(parent)
    , m_platform(platform ? std::move(platform) : platform::makePlatform()) {
    // The two cards scroll together when the window is short (1024×700 and less).
    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    layout->addWidget(buildLiveCard(), 1);
    layout->addWidget(buildBenchCard(), 1);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(content);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);

    m_worker = new LiveSamplerWorker(*m_platform, sysfsRoot);
    m_worker->moveToThread(&m_samplerThread);
    connect(&m_samplerThread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &LiveSamplerWorker::sampled, this, &PerformancePage::onSampled);
    connect(m_worker, &LiveSamplerWorker::absent, this, [this](const QString& device) {
        if (device == m_device) {
            m_liveNumbers->setText(tr("%1 is not present").arg(device));
        }
    });
    m_samplerThread.start();
    m_refresh.setInterval(kRefreshMs);
    connect(&m_refresh, &QTimer::timeout, this, [this] { m_chart->refresh(); });
    m_refresh.start();
    m_progressTimer.setInterval(500);
    connect(&m_progressTimer, &QTimer::timeout, this, [this] {
        if (m_expectedSeconds > 0) {
            m_progress->setValue(
                std::min(99, static_cast<int>(m_benchClock.elapsed() / 10 / m_expectedSeconds)));
        }
    });
    connect(&m_benchWatcher, &QFutureWatcher<Expected<perf::BenchResult>>::finished, this,
            &PerformancePage::benchmarkDone);
    m_helper = new HelperCaller(std::move(helper), this);
    connect(m_helper, &HelperCaller::progress, this,
            [this](const QString&, double fraction, const QString& text) {
                showFraction(m_progress, fraction);
                m_benchStatus->setText(text);
            });
    connect(m_helper, &HelperCaller::finished, this,
            [this](const QString&, const HelperCaller::Outcome& outcome) {
                deviceBenchmarkDone(outcome.ok, outcome.error, outcome.result);
            });
    updateTargetChoice();
}

PerformancePage::~PerformancePage() {
    if (m_helper->isBusy()) {
        m_helper->cancel(); // fio stops; the helper's answer is dropped with the caller
    }
    if (m_runner) {
        m_runner->cancel();
        m_benchWatcher.waitForFinished();
    }
    m_samplerThread.quit();
    m_samplerThread.wait();
}

QWidget* PerformancePage::buildLiveCard() {
    auto* body = new QWidget;
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* controls = new QHBoxLayout;
    m_title = new QLabel(tr("No drive selected"));
    m_title->setWordWrap(true); // a long model name must not widen the page
    m_window = new QComboBox;
    m_window->setObjectName(QStringLiteral("performance.window"));
    m_window->addItem(tr("Last 60 s"), 60);
    m_window->addItem(tr("Last 10 min"), 600);
    connect(m_window, &QComboBox::currentIndexChanged, this,
            [this](int index) { m_chart->setWindowSeconds(m_window->itemData(index).toInt()); });
    m_pause = new QPushButton(tr("Pause"));
    m_pause->setObjectName(QStringLiteral("performance.pause"));
    m_pause->setCheckable(true);
    connect(m_pause, &QPushButton::toggled, this, &PerformancePage::setPaused);
    auto* livePng = new QPushButton(tr("Save PNG…"));
    livePng->setObjectName(QStringLiteral("performance.livePng"));
    connect(livePng, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getSaveFileName(
            this, tr("Save the live graph"), QStringLiteral("throughput.png"), tr("PNG (*.png)"));
        if (!file.isEmpty()) {
            m_liveNumbers->setText(exportLivePng(file));
        }
    });
    controls->addWidget(m_title, 1);
    controls->addWidget(m_window);
    controls->addWidget(m_pause);
    controls->addWidget(livePng);
    layout->addLayout(controls);
    m_chart = new ThroughputChart;
    layout->addWidget(m_chart, 1);
    m_liveNumbers = new QLabel;
    m_liveNumbers->setObjectName(QStringLiteral("performance.live"));
    layout->addWidget(m_liveNumbers);
    return card(tr("Live throughput"), body);
}

QWidget* PerformancePage::buildBenchCard() {
    // The controls, then the results grid under them: side by side they need more than a
    // 1024-wide window leaves the page.
    auto* body = new QWidget;
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(0, 0, 0, 0);

    auto* left = new QVBoxLayout;
    auto* kindRow = new QHBoxLayout;
    m_targetKind = new QComboBox;
    m_targetKind->setObjectName(QStringLiteral("performance.targetKind"));
    m_targetKind->addItem(tr("Test file in a folder"));
    m_targetKind->addItem(tr("Whole device (destroys data)"));
    connect(m_targetKind, &QComboBox::currentIndexChanged, this,
            &PerformancePage::updateTargetChoice);
    kindRow->addWidget(new QLabel(tr("Run on")));
    kindRow->addWidget(m_targetKind, 1);
    left->addLayout(kindRow);
    m_targetNote = new QLabel;
    m_targetNote->setObjectName(QStringLiteral("performance.targetNote"));
    m_targetNote->setWordWrap(true);
    left->addWidget(m_targetNote);
    auto* targetRow = new QHBoxLayout;
    m_target = new QLineEdit;
    m_target->setObjectName(QStringLiteral("performance.target"));
    m_target->setAccessibleName(tr("Test folder"));
    m_target->setPlaceholderText(tr("Folder on the drive for the test file"));
    m_browse = new QPushButton(tr("Browse…"));
    auto* browse = m_browse;
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Test file folder"));
        if (!dir.isEmpty()) {
            m_target->setText(dir);
        }
    });
    targetRow->addWidget(m_target, 1);
    targetRow->addWidget(browse);
    left->addLayout(targetRow);
    auto* options = new QHBoxLayout;
    m_size = new QComboBox;
    for (const auto& [label, bytes] : {std::pair{"16 MiB", 16ULL << 20},
                                       {"64 MiB", 64ULL << 20},
                                       {"256 MiB", 256ULL << 20},
                                       {"1 GiB", 1ULL << 30},
                                       {"4 GiB", 4ULL << 30}}) {
        m_size->addItem(QString::fromLatin1(label), QVariant::fromValue<qulonglong>(bytes));
    }
    m_size->setObjectName(QStringLiteral("performance.size"));
    m_size->setProperty("remember", true);
    m_size->setCurrentIndex(3);
    m_loops = new QComboBox;
    m_loops->setObjectName(QStringLiteral("performance.loops"));
    m_loops->setProperty("remember", true);
    for (int i = 1; i <= 5; ++i) {
        m_loops->addItem(i == 1 ? tr("1 loop") : tr("%1 loops").arg(i), i);
    }
    // CrystalDiskMark's choice: the best of the loops (its default) or their average.
    m_pick = new QComboBox;
    m_pick->setObjectName(QStringLiteral("performance.pick"));
    m_pick->setProperty("remember", true);
    m_pick->addItem(tr("Best"), static_cast<int>(perf::CdmPick::Best));
    m_pick->addItem(tr("Average"), static_cast<int>(perf::CdmPick::Average));
    m_pick->setToolTip(tr("Show the best of the loops, or their average, like CrystalDiskMark"));
    m_seconds = new QComboBox;
    m_seconds->setObjectName(QStringLiteral("performance.seconds"));
    m_seconds->setProperty("remember", true);
    for (int seconds : {1, 3, 5, 10}) {
        m_seconds->addItem(tr("%1 s per test").arg(seconds), seconds);
    }
    m_seconds->setCurrentIndex(2);
    options->addWidget(new QLabel(tr("Size")));
    options->addWidget(m_size);
    options->addWidget(m_loops);
    options->addWidget(m_pick);
    options->addWidget(m_seconds);
    options->addStretch(1);
    left->addLayout(options);
    auto* buttons = new QHBoxLayout;
    m_run = new QPushButton(tr("Run CrystalDiskMark preset"));
    m_run->setObjectName(QStringLiteral("performance.run"));
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setObjectName(QStringLiteral("performance.cancel"));
    m_cancel->setEnabled(false);
    auto* open = new QPushButton(tr("Open result…"));
    m_save = new QPushButton(tr("Save result…"));
    m_save->setEnabled(false);
    connect(m_run, &QPushButton::clicked, this, &PerformancePage::startBenchmark);
    connect(m_cancel, &QPushButton::clicked, this, &PerformancePage::cancelBenchmark);
    connect(open, &QPushButton::clicked, this, &PerformancePage::openResult);
    connect(m_save, &QPushButton::clicked, this, &PerformancePage::saveResult);
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    left->addLayout(buttons);
    auto* files = new QHBoxLayout;
    m_exportCsv = new QPushButton(tr("Export CSV…"));
    m_exportCsv->setObjectName(QStringLiteral("performance.exportCsv"));
    m_exportPng = new QPushButton(tr("Export PNG…"));
    m_exportPng->setObjectName(QStringLiteral("performance.exportPng"));
    m_compareButton = new QPushButton(tr("Compare with…"));
    m_compareButton->setObjectName(QStringLiteral("performance.compareWith"));
    connect(m_exportCsv, &QPushButton::clicked, this, [this] { exportWithDialog(false); });
    connect(m_exportPng, &QPushButton::clicked, this, [this] { exportWithDialog(true); });
    connect(m_compareButton, &QPushButton::clicked, this, &PerformancePage::compareWithDialog);
    files->addWidget(open);
    files->addWidget(m_save);
    files->addWidget(m_exportCsv);
    files->addWidget(m_exportPng);
    files->addWidget(m_compareButton);
    left->addLayout(files);
    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("performance.progress"));
    m_progress->setRange(0, 100);
    m_progress->setValue(0);
    hideWhileIdle(m_progress); // shown while a benchmark runs (setRunning)
    left->addWidget(m_progress);
    m_benchStatus = new QLabel(tr("fio runs each test on a test file that is removed afterwards."));
    m_benchStatus->setObjectName(QStringLiteral("performance.benchStatus"));
    m_benchStatus->setWordWrap(true);
    left->addWidget(m_benchStatus);
    layout->addLayout(left);

    m_grid = new QGridLayout;
    m_grid->addWidget(new QLabel(tr("<b>Read (MB/s)</b>")), 0, 1, Qt::AlignCenter);
    m_grid->addWidget(new QLabel(tr("<b>Write (MB/s)</b>")), 0, 2, Qt::AlignCenter);
    for (int row = 0; row < 4; ++row) {
        auto* name = new QLabel(QString::fromLatin1(kCdmTests[row]));
        name->setStyleSheet(
            QStringLiteral("background:%1;color:%2;font-weight:bold;padding:6px;border-radius:3px")
                .arg(theme::kAccent.name(), theme::kOnAccent.name()));
        m_grid->addWidget(name, row + 1, 0);
        for (int column = 0; column < 2; ++column) {
            auto* value = new QLabel(QStringLiteral("—"));
            value->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
            value->setMinimumWidth(110);
            value->setStyleSheet(QStringLiteral("font-size:18px;font-weight:bold;padding:4px;"
                                                "border:1px solid %1;background:%2")
                                     .arg(theme::kBorder.name(), theme::kAlternate.name()));
            m_cells[row][column] = value;
            m_grid->addWidget(value, row + 1, column + 1);
        }
    }
    auto* results = new QHBoxLayout;
    results->addLayout(m_grid);
    results->addStretch(1);
    layout->addLayout(results);
    layout->addStretch(1);
    m_analysis = new AnalysisChart;
    m_benchTabs = new QTabWidget;
    m_benchTabs->addTab(body, tr("CrystalDiskMark"));
    m_benchTabs->addTab(m_analysis, tr("Consistency / SLC cache"));
    auto* compareBody = new QWidget;
    auto* compareLayout = new QVBoxLayout(compareBody);
    compareLayout->setContentsMargins(0, 0, 0, 0);
    m_compareTitle = new QLabel(tr("Open a result, then compare it with another one."));
    m_compareTitle->setWordWrap(true);
    m_compare = new QTableWidget(0, 5);
    m_compare->setObjectName(QStringLiteral("performance.compare"));
    m_compare->setHorizontalHeaderLabels(
        {tr("Test"), tr("Metric"), tr("A"), tr("B"), tr("Change")});
    m_compare->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_compare->verticalHeader()->hide();
    m_compare->setEditTriggers(QAbstractItemView::NoEditTriggers);
    compareLayout->addWidget(m_compareTitle);
    compareLayout->addWidget(withEmptyText(m_compare, tr("No comparison yet.")), 1);
    m_benchTabs->addTab(compareBody, tr("Compare"));
    setExportsEnabled(false);
    return card(tr("Benchmark (fio)"), m_benchTabs);
}

void PerformancePage::setDevice(const device::Device* device) {
    const QString name = device ? QString::fromStdString(device->name) : QString();
    m_selected = device ? std::optional(*device) : std::nullopt;
    updateTargetChoice();
    if (device) {
        m_title->setText(tr("%1 — %2").arg(QString::fromStdString(device->path),
                                           device->model.empty()
                                               ? tr("sampled 10 times a second")
                                               : QString::fromStdString(device->model)));
        if (m_target->text().isEmpty()) {
            for (const auto& partition : device->partitions) {
                if (!partition.mounts.empty()) {
                    m_target->setText(QString::fromStdString(partition.mounts.front().mountPoint));
                    break;
                }
            }
        }
    } else {
        m_title->setText(tr("No drive selected"));
    }
    if (name == m_device) {
        return;
    }
    m_device = name;
    m_chart->clear();
    QMetaObject::invokeMethod(m_worker, "watch", Qt::QueuedConnection, Q_ARG(QString, name),
                              Q_ARG(int, kSampleIntervalMs));
}

void PerformancePage::setPaused(bool paused) {
    m_paused = paused;
    m_pause->setChecked(paused);
    m_pause->setText(paused ? tr("Resume") : tr("Pause"));
    if (paused) {
        m_refresh.stop();
    } else {
        m_refresh.start();
    }
}

void PerformancePage::onSampled(const QString& device, double timeS, double readBytesPerS,
                                double writeBytesPerS, double readIops, double writeIops,
                                double latencyMs, double queueDepth) {
    if (device != m_device) {
        return;
    }
    // Paused: the graph is frozen for reading; samples keep coming into the buffer.
    m_chart->addPoint(timeS, readBytesPerS, writeBytesPerS, readIops + writeIops);
    if (!m_paused) {
        m_liveNumbers->setText(tr("Read %1 MB/s · Write %2 MB/s · %3 IOPS · latency %4 ms · "
                                  "queue depth %5")
                                   .arg(readBytesPerS / 1e6, 0, 'f', 1)
                                   .arg(writeBytesPerS / 1e6, 0, 'f', 1)
                                   .arg(readIops + writeIops, 0, 'f', 0)
                                   .arg(latencyMs, 0, 'f', 2)
                                   .arg(queueDepth, 0, 'f', 2));
    }
}

QString PerformancePage::liveText() const {
    return m_liveNumbers->text();
}

void PerformancePage::startBenchmark() {
    if (m_runner || m_helper->isBusy()) {
        return;
    }
    if (m_targetKind->currentIndex() == WholeDevice) {
        confirmDeviceBenchmark();
        return;
    }
    const std::string target = m_target->text().toStdString();
    const perf::BenchOptions options = cdmOptions();
    auto plan = perf::planBench(options, false);
    if (!plan) {
        m_benchStatus->setText(QString::fromStdString(plan.error().describe()));
        return;
    }
    m_expectedSeconds = static_cast<int>(plan->expectedSeconds);
    // The platform (and its process runner) lives as long as the FioRunner that refers to it.
    std::shared_ptr<platform::Platform> system = m_platform;
    m_runner = std::shared_ptr<perf::FioRunner>(new perf::FioRunner(system->processRunner()),
                                                [system](perf::FioRunner* r) { delete r; });
    auto runner = m_runner;
    setRunning(true);
    m_progress->setRange(0, 100);
    m_progress->setValue(0);
    m_benchStatus->setText(tr("Running fio on %1…").arg(m_target->text()));
    m_benchClock.start();
    m_progressTimer.start();
    m_benchWatcher.setFuture(QtConcurrent::run([runner, system, target, size = options.size,
                                                plan = *plan]() -> Expected<perf::BenchResult> {
        if (findExecutable("fio").empty()) {
            return fail(ErrorCode::ToolMissing,
                        "fio is not installed; install the 'fio' package to run benchmarks");
        }
        const device::Discovery discovery = system->makeDiscovery(SysfsRoot());
        auto prepared = perf::prepareTarget(target, size, false, discovery);
        if (!prepared) {
            return std::unexpected(prepared.error());
        }
        auto run =
            runner->run(*prepared, perf::FioRunSpec{.jobs = plan.jobs}, std::chrono::hours(4));
        if (!run) {
            return std::unexpected(run.error());
        }
        return perf::makeBenchResult("cdm", *prepared, discovery, plan.parameters, std::move(*run));
    }));
}

perf::BenchOptions PerformancePage::cdmOptions() const {
    return perf::BenchOptions{
        .preset = "cdm",
        .size = Bytes(m_size->currentData().toULongLong()),
        .durationS = m_seconds->currentData().toUInt(),
        .loops = m_loops->currentData().toUInt(),
        .pick = static_cast<perf::CdmPick>(m_pick->currentData().toInt()),
    };
}

Json PerformancePage::deviceBenchRequest(const QString& confirmation) const {
    if (!m_selected) {
        return Json::object();
    }
    return perf::toJson(deviceBench(confirmation));
}

perf::BenchRequest PerformancePage::deviceBench(const QString& confirmation) const {
    perf::BenchOptions options = cdmOptions();
    options.size = std::min(options.size, m_selected->size);
    return perf::BenchRequest{m_selected->path, confirmation.toStdString(), options};
}

void PerformancePage::cancelBenchmark() {
    if (m_helper->isBusy()) {
        m_helper->cancel();
        m_benchStatus->setText(tr("Cancelling: stopping fio…"));
    }
    if (m_runner) {
        m_runner->cancel();
        m_benchStatus->setText(tr("Cancelling: stopping fio and removing the test file…"));
    }
}

void PerformancePage::benchmarkDone() {
    m_progressTimer.stop();
    m_runner.reset();
    setRunning(false);
    auto result = m_benchWatcher.result();
    if (!result) {
        m_progress->setValue(0);
        const QString message = QString::fromStdString(result.error().describe());
        m_benchStatus->setText(message);
        emit benchmarkFinished(false, message);
        return;
    }
    m_progress->setValue(100);
    showResult(*result);
    emit benchmarkFinished(true, m_benchStatus->text());
}

QString rawBenchRefusal(const device::Device& device) {
    const QString path = QString::fromStdString(device.path);
    if (device.holdsRootFilesystem()) {
        return QObject::tr("%1 holds the running system; it is benchmarked only with a test file.")
            .arg(path);
    }
    if (device.inUse()) {
        QStringList uses;
        if (!device.mounts.empty()) {
            uses << mountPointsText(device.mounts);
        }
        for (const auto& partition : device.partitions) {
            if (!partition.mounts.empty()) {
                uses << mountPointsText(partition.mounts);
            }
            if (!partition.holders.empty()) {
                uses << holdersText(partition.holders);
            }
        }
        if (!device.holders.empty()) {
            uses << holdersText(device.holders);
        }
        return QObject::tr("%1 is in use (%2); unmount it to benchmark the whole device.")
            .arg(path, uses.join(QStringLiteral(", ")));
    }
    if (device.readOnly) {
        return QObject::tr("%1 is read-only.").arg(path);
    }
    return {};
}

bool PerformancePage::wholeDeviceAvailable() const {
    return m_selected && rawBenchRefusal(*m_selected).isEmpty();
}

void PerformancePage::updateTargetChoice() {
    const bool available = wholeDeviceAvailable();
    auto* model = qobject_cast<QStandardItemModel*>(m_targetKind->model());
    if (QStandardItem* item = model ? model->item(WholeDevice) : nullptr) {
        item->setEnabled(available);
        item->setToolTip(m_selected ? rawBenchRefusal(*m_selected) : tr("No drive selected"));
    }
    if (!available && m_targetKind->currentIndex() == WholeDevice) {
        m_targetKind->setCurrentIndex(TestFile);
        return; // called again through currentIndexChanged
    }
    const bool whole = m_targetKind->currentIndex() == WholeDevice;
    m_target->setEnabled(!whole);
    m_browse->setEnabled(!whole);
    if (whole) {
        m_targetNote->setText(
            tr("fio writes over all of %1 through ssdkeeper-helper (administrator password); "
               "everything on it is lost.")
                .arg(QString::fromStdString(m_selected->path)));
    } else if (!m_selected) {
        m_targetNote->setText(tr("Whole device: select a drive first."));
    } else {
        const QString refusal = rawBenchRefusal(*m_selected);
        m_targetNote->setText(refusal.isEmpty()
                                  ? tr("Whole device: also possible for %1 (destroys its data).")
                                        .arg(QString::fromStdString(m_selected->path))
                                  : tr("Whole device not offered: %1").arg(refusal));
    }
}

void PerformancePage::setRunning(bool running) {
    m_run->setEnabled(!running);
    m_cancel->setEnabled(running);
    m_targetKind->setEnabled(!running);
    m_progress->setVisible(running);
}

void PerformancePage::confirmDeviceBenchmark() {
    if (!wholeDeviceAvailable()) {
        updateTargetChoice();
        return;
    }
    const auto& device = *m_selected;
    const QString word = QString::fromStdString(maintenance::erase::confirmationWord(device));
    auto* dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("performance.confirmDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Benchmark the whole device?"));
    auto* layout = new QVBoxLayout(dialog);
    auto* text = new QLabel(
        tr("<p>fio will write over <b>%1</b> — %2, %3.</p><p><b>All data on this drive will "
           "be lost</b>: partitions, filesystems and files.</p><p>Type <b>%4</b> to confirm:</p>")
            .arg(QString::fromStdString(device.path).toHtmlEscaped(),
                 deviceTitle(device).toHtmlEscaped(), capacityText(device.size).toHtmlEscaped(),
                 word.toHtmlEscaped()));
    text->setObjectName(QStringLiteral("performance.confirmText"));
    text->setWordWrap(true);
    text->setTextFormat(Qt::RichText);
    layout->addWidget(text);
    auto* input = new QLineEdit;
    input->setObjectName(QStringLiteral("performance.confirmInput"));
    layout->addWidget(input);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    QPushButton* ok = buttons->button(QDialogButtonBox::Ok);
    ok->setText(tr("Destroy data and benchmark"));
    ok->setObjectName(QStringLiteral("performance.confirmOk"));
    ok->setEnabled(false);
    layout->addWidget(buttons);
    connect(input, &QLineEdit::textChanged, ok,
            [ok, word](const QString& typed) { ok->setEnabled(typed == word); });
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, dialog, [this, dialog, input] {
        const QString typed = input->text();
        dialog->accept();
        startDeviceBenchmark(typed);
    });
    dialog->open();
}

void PerformancePage::startDeviceBenchmark(const QString& confirmation) {
    if (!m_selected || m_helper->isBusy()) {
        return;
    }
    const perf::BenchRequest request = deviceBench(confirmation);
    const bool started =
        m_helper->run(QString::fromLatin1(perf::kVerbPerfBench),
                      [request](rpc::Transport& transport,
                                const rpc::Transport::EventHandler& onEvent) -> Expected<Json> {
                          auto result = perf::PerfClient(transport).bench(request, onEvent);
                          if (!result) {
                              return std::unexpected(result.error());
                          }
                          return perf::resultDocument(*result);
                      });
    if (!started) {
        return;
    }
    setRunning(true);
    m_progress->setRange(0, 100);
    m_progress->setValue(0);
    m_benchStatus->setText(tr("Running fio on %1 through ssdkeeper-helper…")
                               .arg(QString::fromStdString(m_selected->path)));
}

void PerformancePage::deviceBenchmarkDone(bool ok, const QString& error, const Json& result) {
    setRunning(false);
    m_progress->setRange(0, 100);
    auto parsed = ok ? perf::benchResultFromJson(result)
                     : Expected<perf::BenchResult>(std::unexpected(Error(ErrorCode::Io, "")));
    if (!ok || !parsed) {
        m_progress->setValue(0);
        const QString message = !ok ? error : QString::fromStdString(parsed.error().describe());
        m_benchStatus->setText(message);
        emit benchmarkFinished(false, message);
        return;
    }
    m_progress->setValue(100);
    m_resultLabel.clear();
    showResult(*parsed);
    m_benchTabs->setCurrentIndex(0);
    emit benchmarkFinished(true, m_benchStatus->text());
}

void PerformancePage::showResult(const perf::BenchResult& result) {
    m_result = result;
    setExportsEnabled(true);
    const perf::CdmPick pick = perf::cdmPickOf(result);
    const auto rows = perf::summarizeCdm(result.run.output, pick);
    for (int row = 0; row < 4; ++row) {
        for (int column = 0; column < 2; ++column) {
            m_cells[row][column]->setText(QStringLiteral("—"));
        }
        for (const auto& r : rows) {
            if (r.test == kCdmTests[row]) {
                m_cells[row][0]->setText(QString::number(r.readBytesPerS / 1e6, 'f', 2));
                m_cells[row][1]->setText(QString::number(r.writeBytesPerS / 1e6, 'f', 2));
            }
        }
    }
    const int loopCount = perf::cdmLoopsOf(result);
    const bool average = pick == perf::CdmPick::Average;
    const QString picked =
        loopCount == 1 ? (average ? tr("average of 1 loop") : tr("best of 1 loop"))
        : loopCount > 1
            ? (average ? tr("average of %1 loops") : tr("best of %1 loops")).arg(loopCount)
        : average ? tr("average of the loops")
                  : tr("best of the loops");
    m_benchStatus->setText(tr("%1 on %2, %3 (%4; numbers are fio's)")
                               .arg(QString::fromStdString(result.preset).toUpper(),
                                    QString::fromStdString(result.target),
                                    QString::fromStdString(result.run.output.version), picked));
}

QString PerformancePage::resultText(int row, int column) const {
    return m_cells[row][column]->text();
}

void PerformancePage::openResult() {
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Open benchmark results (several consistency runs are overlaid)"), {},
        tr("JSON (*.json)"));
    for (const QString& file : files) {
        const QString error = openResultFile(file);
        if (!error.isEmpty()) {
            m_benchStatus->setText(error);
            return;
        }
    }
}

QString PerformancePage::openResultFile(const QString& file) {
    std::ifstream in(file.toStdString());
    std::stringstream content;
    content << in.rdbuf();
    auto json = parseJson(content.str(), file.toStdString());
    auto result = json ? perf::benchResultFromJson(*json)
                       : Expected<perf::BenchResult>(std::unexpected(json.error()));
    if (!result) {
        return QString::fromStdString(result.error().describe());
    }
    m_resultLabel = QFileInfo(file).completeBaseName();
    if (result->preset == "cdm") {
        showResult(*result);
        // The controls beside the numbers show how they were measured, and the status says
        // they come from a file, not from a run with the controls as they were.
        if (const int loops = perf::cdmLoopsOf(*result); loops >= 1 && loops <= m_loops->count()) {
            m_loops->setCurrentIndex(m_loops->findData(loops));
        }
        m_pick->setCurrentIndex(m_pick->findData(static_cast<int>(perf::cdmPickOf(*result))));
        m_benchStatus->setText(tr("Opened %1 (not run now): %2")
                                   .arg(QFileInfo(file).fileName(), m_benchStatus->text()));
        m_benchTabs->setCurrentIndex(0);
    } else {
        m_result = *result;
        setExportsEnabled(true);
        m_analysis->addResult(*result, m_resultLabel);
        showAnalysisTab();
    }
    return {};
}

void PerformancePage::setExportsEnabled(bool enabled) {
    m_save->setEnabled(enabled);
    m_exportCsv->setEnabled(enabled);
    m_exportPng->setEnabled(enabled); // the chart of a result: none without one
    m_compareButton->setEnabled(enabled);
}

QString PerformancePage::exportResultCsv(const QString& file) const {
    if (!m_result) {
        return tr("There is no result to export yet.");
    }
    std::ofstream out(file.toStdString());
    out << perf::resultCsv(*m_result);
    out.close();
    return out ? QString() : tr("Could not write %1").arg(file);
}

QString PerformancePage::exportBenchPng(const QString& file) const {
    QWidget* shown = m_benchTabs->currentWidget();
    return shown->grab().save(file, "PNG") ? QString() : tr("Could not write %1").arg(file);
}

QString PerformancePage::exportLivePng(const QString& file) const {
    return m_chart->grab().save(file, "PNG") ? QString() : tr("Could not write %1").arg(file);
}

void PerformancePage::exportWithDialog(bool png) {
    const QString file =
        png ? QFileDialog::getSaveFileName(this, tr("Export the chart"),
                                           QStringLiteral("benchmark.png"), tr("PNG (*.png)"))
            : QFileDialog::getSaveFileName(this, tr("Export the result"),
                                           QStringLiteral("benchmark.csv"), tr("CSV (*.csv)"));
    if (file.isEmpty()) {
        return;
    }
    const QString error = png ? exportBenchPng(file) : exportResultCsv(file);
    m_benchStatus->setText(error.isEmpty() ? tr("Exported to %1").arg(file) : error);
}

void PerformancePage::compareWithDialog() {
    const QString file = QFileDialog::getOpenFileName(this, tr("Compare with a saved result"), {},
                                                      tr("JSON (*.json)"));
    if (file.isEmpty()) {
        return;
    }
    const QString error = compareWithFile(file);
    if (!error.isEmpty()) {
        m_benchStatus->setText(error);
    }
}

namespace {
QString metricText(const std::string& metric, double value) {
    if (metric.ends_with("bytes_per_s")) {
        return QStringLiteral("%1 MB/s").arg(value / 1e6, 0, 'f', 2);
    }
    if (metric.ends_with("bytes")) {
        return measuredSizeText(value);
    }
    if (metric.ends_with("fraction")) {
        return QStringLiteral("%1%").arg(100 * value, 0, 'f', 1);
    }
    return QString::number(value, 'f', 0);
}
} // namespace

QString PerformancePage::compareWithFile(const QString& file) {
    if (!m_result) {
        return tr("Open or run a result first: it is A, the file you pick is B.");
    }
    std::ifstream in(file.toStdString());
    std::stringstream content;
    content << in.rdbuf();
    auto json = parseJson(content.str(), file.toStdString());
    auto other = json ? perf::benchResultFromJson(*json)
                      : Expected<perf::BenchResult>(std::unexpected(json.error()));
    if (!other) {
        return QString::fromStdString(other.error().describe());
    }
    auto rows = perf::compareResults(*m_result, *other);
    if (!rows) {
        return QString::fromStdString(rows.error().describe());
    }
    const QString labelB = QFileInfo(file).completeBaseName();
    if (other->preset == "consistency") {
        m_analysis->addResult(*other, labelB);
    }
    m_compareTitle->setText(
        tr("A: %1 · B: %2 (%3)")
            .arg(m_resultLabel.isEmpty() ? QString::fromStdString(m_result->target) : m_resultLabel,
                 labelB, QString::fromStdString(other->preset)));
    m_compare->setRowCount(static_cast<int>(rows->size()));
    for (int r = 0; r < static_cast<int>(rows->size()); ++r) {
        const auto& row = (*rows)[static_cast<std::size_t>(r)];
        const auto delta = row.deltaPercent();
        const QString cells[5] = {QString::fromStdString(row.test),
                                  QString::fromStdString(row.metric), metricText(row.metric, row.a),
                                  metricText(row.metric, row.b),
                                  delta ? QStringLiteral("%1%2%")
                                              .arg(*delta >= 0 ? QStringLiteral("+") : QString())
                                              .arg(*delta, 0, 'f', 1)
                                        : QStringLiteral("—")};
        for (int c = 0; c < 5; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c >= 2) {
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            }
            if (c == 4 && delta) {
                item->setForeground(*delta >= 0 ? theme::kChartExtra : theme::kChartWrite);
            }
            m_compare->setItem(r, c, item);
        }
    }
    m_benchTabs->setCurrentIndex(2);
    return {};
}

void PerformancePage::showAnalysisTab() {
    m_benchTabs->setCurrentIndex(1);
}

void PerformancePage::saveResult() {
    if (!m_result) {
        return;
    }
    const QString file = QFileDialog::getSaveFileName(
        this, tr("Save benchmark result"), QStringLiteral("cdm.json"), tr("JSON (*.json)"));
    if (file.isEmpty()) {
        return;
    }
    std::ofstream out(file.toStdString());
    Json document = perf::toJson(*m_result);
    document["analysis"] = perf::analysisJson(*m_result);
    out << document.dump(2) << '\n';
    if (!out) {
        m_benchStatus->setText(tr("Could not write %1").arg(file));
    }
}

} // namespace ssdk::app
