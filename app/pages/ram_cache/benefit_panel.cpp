#include "app/pages/ram_cache/benefit_panel.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QStorageInfo>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

#include "app/device_text.h"
#include "app/pages/ram_cache/cache_controller.h"
#include "app/pages/ram_cache/units.h"
#include "core/base/atomic_file.h"
#include "core/base/system_process_runner.h"
#include "core/lab/lab.h"
#include "core/perf/fio_runner.h"
#include "core/platform/platform.h"

namespace ssdk::app::ramcache {

namespace {

// fio leaves this much free beside the test file (prepareTarget's margin).
constexpr std::uint64_t kFreeMargin = 64ULL << 20;

perf::BenefitSettings settingsOf(const cachectl::EnableRequest& request) {
    return perf::BenefitSettings{request.backend, request.size,
                                 std::string(cachectl::toString(request.compression)),
                                 std::string(cachectl::toString(request.mode))};
}

QString settingsText(const perf::BenefitSettings& settings) {
    return QObject::tr("%1, %2, compression %3, %4")
        .arg(toQString(settings.backend), iec(settings.cacheBytes), toQString(settings.compression),
             toQString(settings.mode));
}

// A file name part: [A-Za-z0-9_.-], anything else as '_'.
QString fileNamePart(QString text) {
    for (auto& c : text) {
        if (!(c.isLetterOrNumber() && c.unicode() < 128) && c != QLatin1Char('_') &&
            c != QLatin1Char('.') && c != QLatin1Char('-')) {
            c = QLatin1Char('_');
        }
    }
    return text;
}

QString megabytes(double bytesPerS) {
    return QObject::tr("%1 MB/s").arg(bytesPerS / 1e6, 0, 'f', 1);
}

// Whole IOPS from 100 on, one decimal from 10, two below (a cache that makes writes slower
// can go under 1).
QString iops(double value) {
    const int decimals = value >= 100 ? 0 : value >= 10 ? 1 : 2;
    return QObject::tr("%1 IOPS").arg(value, 0, 'f', decimals);
}

QString ratio(double without, double with) {
    return without > 0 ? QObject::tr("×%1").arg(with / without, 0, 'f', 2) : QString();
}

// The four figures of one side, measured on a test file in `directory` (off the GUI thread).
Expected<perf::BenefitFigures> measureIn(perf::FioRunner& runner, const platform::Platform& system,
                                         const std::string& directory) {
    if (findExecutable("fio").empty()) {
        return fail(ErrorCode::ToolMissing,
                    "fio is not installed; install the 'fio' package to compare");
    }
    const device::Discovery discovery = system.makeDiscovery(SysfsRoot());
    auto prepared =
        perf::prepareTarget(directory, Bytes(BenefitPanel::kTestFileBytes), false, discovery);
    if (!prepared) {
        return std::unexpected(prepared.error());
    }
    perf::FioRunSpec spec;
    spec.jobs =
        perf::cacheBenefitJobs(Bytes(BenefitPanel::kTestFileBytes), BenefitPanel::kSecondsEach);
    auto run = runner.run(*prepared, spec, std::chrono::minutes(5));
    if (!run) {
        return std::unexpected(run.error());
    }
    const auto figures = perf::benefitFiguresOf(run->output);
    if (!figures.complete()) {
        return fail(ErrorCode::Io, "fio reported no figure for some of the four tests");
    }
    return figures;
}

} // namespace

BenefitPanel::BenefitPanel(CacheController* controller, QWidget* parent)
    : QGroupBox(tr("What it buys"), parent)
    , m_controller(controller) {
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(
        tr("A short fio run on a test file in the partition's filesystem, without the cache and "
           "then with it (the settings above); the cache is put back as it was afterwards."));
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto* buttons = new QHBoxLayout;
    m_compare = new QPushButton(tr("Compare with and without cache"));
    m_compare->setObjectName("ramcache.compare");
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setObjectName("ramcache.compareCancel");
    m_cancel->setEnabled(false);
    m_progress = new QProgressBar;
    m_progress->setObjectName("ramcache.compareProgress");
    m_progress->setRange(0, 100);
    m_progress->setVisible(false);
    buttons->addWidget(m_compare);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_progress, 1);
    // Takes the row's free space while the progress bar is hidden, none while it is shown.
    buttons->addStretch(0);
    layout->addLayout(buttons);
    m_status = new QLabel;
    m_status->setObjectName("ramcache.compareStatus");
    m_status->setWordWrap(true);
    layout->addWidget(m_status);

    m_table = new QTableWidget(4, 3);
    m_table->setObjectName("ramcache.compareTable");
    m_table->setHorizontalHeaderLabels({tr("Without cache"), tr("With cache"), tr("Change")});
    m_table->setVerticalHeaderLabels({tr("Sequential read (1 MiB, Q8)"),
                                      tr("Sequential write (1 MiB, Q8)"), tr("4K random read (Q1)"),
                                      tr("4K random write (Q1)")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->setVisible(false);
    layout->addWidget(m_table);
    m_measuredWith = new QLabel;
    m_measuredWith->setObjectName("ramcache.compareSettings");
    m_measuredWith->setWordWrap(true);
    layout->addWidget(m_measuredWith);

    m_progressTimer.setInterval(250);
    connect(&m_progressTimer, &QTimer::timeout, this, &BenefitPanel::updateProgress);
    connect(m_compare, &QPushButton::clicked, this, &BenefitPanel::compareClicked);
    connect(m_cancel, &QPushButton::clicked, this, &BenefitPanel::cancel);
    connect(&m_watcher, &QFutureWatcher<Expected<perf::BenefitFigures>>::finished, this,
            &BenefitPanel::onMeasured);
}

BenefitPanel::~BenefitPanel() {
    if (m_runner) {
        m_runner->cancel();
        m_watcher.waitForFinished();
    }
}

std::filesystem::path BenefitPanel::savedPath(const QString& driveKey, const QString& partition) {
    const QString name = fileNamePart(driveKey) + QLatin1Char('-') +
                         fileNamePart(partition.section(QLatin1Char('/'), -1)) +
                         QStringLiteral(".json");
    return lab::userStateDirectory() / "ssdkeeper" / "ram-cache" / name.toStdString();
}

void BenefitPanel::setTarget(Target target) {
    if (m_running) {
        return;
    }
    // The page calls this after every cache call: the saved file is read (and the status line
    // cleared) only when another partition is selected.
    const bool same =
        target.partition == m_target.partition && target.driveKey == m_target.driveKey;
    m_target = std::move(target);
    if (!same) {
        m_shown.reset();
        m_status->clear();
        if (!m_target.partition.isEmpty()) {
            loadSaved();
        }
    }
    showBenefit();
}

void BenefitPanel::loadSaved() {
    const auto path = savedPath(m_target.driveKey, m_target.partition);
    QFile file(toQString(path.string()));
    if (!file.open(QIODevice::ReadOnly)) {
        return; // never compared here
    }
    auto json = parseJson(file.readAll().toStdString(), path.string());
    auto saved = json ? perf::cacheBenefitFromJson(*json)
                      : Expected<perf::CacheBenefit>(std::unexpected(json.error()));
    if (saved) {
        m_shown = std::move(*saved);
    } else {
        m_status->setText(tr("The saved comparison could not be read: %1")
                              .arg(toQString(saved.error().describe())));
    }
}

void BenefitPanel::setSettings(const std::expected<cachectl::EnableRequest, QString>& request) {
    m_settings.reset();
    if (request) {
        m_settings = *request;
    }
    m_compare->setEnabled(!m_running && m_settings.has_value() && !m_target.partition.isEmpty());
    m_compare->setToolTip(request ? QString() : request.error());
    showBenefit();
}

QString BenefitPanel::refusal() const {
    if (m_target.partition.isEmpty()) {
        return tr("Select a partition.");
    }
    if (m_target.scheduled) {
        return tr("Its cache is set up for the next boot: turn that off before comparing.");
    }
    if (m_target.mountPoint.isEmpty()) {
        return tr("%1 is not mounted: the comparison writes a test file in its filesystem. "
                  "Mount it first.")
            .arg(m_target.partition);
    }
    const QStorageInfo storage(m_target.mountPoint);
    const auto available =
        static_cast<std::uint64_t>(std::max<qint64>(storage.bytesAvailable(), 0));
    if (!storage.isValid() || available < kTestFileBytes + kFreeMargin) {
        return tr("%1 has %2 free: the comparison needs %3 for its test file.")
            .arg(m_target.mountPoint, iec(available), iec(kTestFileBytes + kFreeMargin));
    }
    if (storage.isReadOnly() || !QFileInfo(m_target.mountPoint).isWritable()) {
        return tr("%1 cannot be written here: the comparison writes a test file in it.")
            .arg(m_target.mountPoint);
    }
    return {};
}

void BenefitPanel::start(cachectl::EnableRequest withCache) {
    if (m_running) {
        return;
    }
    if (const QString why = refusal(); !why.isEmpty()) {
        m_status->setText(why);
        return;
    }
    withCache.applyNow = true;
    withCache.atNextBoot = false;
    withCache.preview = false;
    m_withCache = std::move(withCache);
    m_result = perf::CacheBenefit{};
    m_result.partition = m_target.partition.toStdString();
    m_result.mountPoint = m_target.mountPoint.toStdString();
    m_result.settings = settingsOf(m_withCache);
    m_result.testFileBytes = kTestFileBytes;
    m_result.secondsEach = kSecondsEach;
    m_ourCacheOn = false;
    m_originalOff = false;
    m_failure.clear();
    m_steps.clear();
    if (m_target.current) {
        m_steps.push_back(Step::CacheOff);
    }
    m_steps.insert(m_steps.end(),
                   {Step::MeasureWithout, Step::CacheOn, Step::MeasureWith, Step::Restore});
    setRunning(true);
    next();
}

void BenefitPanel::cancel() {
    if (!m_running || !m_failure.isEmpty()) {
        return;
    }
    m_failure = tr("Cancelled.");
    m_cancel->setEnabled(false);
    m_status->setText(tr("Cancelling…"));
    if (m_runner) {
        m_runner->cancel(); // onMeasured() puts the cache back
    }
    // A cache call in flight: cacheStepDone() sees m_failure.
}

void BenefitPanel::next() {
    if (m_steps.empty()) {
        finish();
        return;
    }
    const Step step = m_steps.front();
    m_steps.pop_front();
    const std::string origin = m_target.partition.toStdString();
    switch (step) {
    case Step::CacheOff:
        m_status->setText(tr("Turning your cache off…"));
        m_controller->disable(origin, [this](const QString& error) {
            m_originalOff = error.isEmpty();
            cacheStepDone(error);
        });
        return;
    case Step::MeasureWithout:
        measure(false);
        return;
    case Step::CacheOn:
        m_status->setText(tr("Turning the cache on (%1)…").arg(settingsText(m_result.settings)));
        m_controller->enable(m_withCache, [this](const QString& error) {
            m_ourCacheOn = error.isEmpty();
            cacheStepDone(error);
        });
        return;
    case Step::MeasureWith:
        measure(true);
        return;
    case Step::Restore:
        if (m_ourCacheOn) {
            m_status->setText(tr("Turning the cache off…"));
            m_controller->disable(origin, [this](const QString& error) {
                if (!error.isEmpty()) {
                    m_failure = tr("The cache could not be turned off: %1").arg(error);
                    finish();
                    return;
                }
                m_ourCacheOn = false;
                m_steps.push_front(Step::Restore);
                next();
            });
        } else if (m_originalOff && m_target.current) {
            m_status->setText(tr("Putting your cache back…"));
            m_controller->enable(*m_target.current, [this](const QString& error) {
                if (!error.isEmpty()) {
                    m_failure = tr("Your cache could not be put back: %1").arg(error);
                    finish();
                    return;
                }
                m_originalOff = false;
                next();
            });
        } else {
            finish();
        }
        return;
    }
}

void BenefitPanel::cacheStepDone(const QString& error) {
    if (!error.isEmpty()) {
        stop(tr("The cache could not be changed: %1").arg(error));
    } else if (!m_failure.isEmpty()) {
        stop(m_failure);
    } else {
        next();
    }
}

void BenefitPanel::stop(const QString& why) {
    if (m_failure.isEmpty()) {
        m_failure = why;
    }
    m_steps = {Step::Restore};
    next();
}

void BenefitPanel::measure(bool withCache) {
    m_measuringWith = withCache;
    m_status->setText(withCache ? tr("Measuring with the cache…")
                                : tr("Measuring without the cache…"));
    std::shared_ptr<platform::Platform> system = platform::makePlatform();
    m_runner = std::shared_ptr<perf::FioRunner>(new perf::FioRunner(system->processRunner()),
                                                [system](perf::FioRunner* r) { delete r; });
    m_clock.start();
    m_watcher.setFuture(QtConcurrent::run(
        [runner = m_runner, system, directory = m_target.mountPoint.toStdString()] {
            return measureIn(*runner, *system, directory);
        }));
}

void BenefitPanel::onMeasured() {
    m_runner.reset();
    auto figures = m_watcher.result();
    if (!figures) {
        stop(figures.error().code() == ErrorCode::Cancelled
                 ? tr("Cancelled.")
                 : tr("Measuring failed: %1").arg(toQString(figures.error().describe())));
        return;
    }
    (m_measuringWith ? m_result.with : m_result.without) = *figures;
    if (!m_failure.isEmpty()) {
        stop(m_failure);
        return;
    }
    next();
}

void BenefitPanel::finish() {
    m_steps.clear();
    setRunning(false);
    if (m_failure.isEmpty()) {
        m_result.measuredS = QDateTime::currentSecsSinceEpoch();
        const auto path = savedPath(m_target.driveKey, m_target.partition);
        std::error_code error;
        std::filesystem::create_directories(path.parent_path(), error);
        auto written = writeFileAtomically(path, toJson(m_result).dump(2) + "\n", 0600);
        m_status->setText(
            written ? tr("Done; saved in %1.").arg(toQString(path.string()))
                    : tr("Done, but not saved: %1").arg(toQString(written.error().describe())));
        m_shown = m_result;
    } else {
        m_status->setText(
            m_failure + QLatin1Char(' ') +
            (m_ourCacheOn || m_originalOff ? QString() : tr("The cache is as it was before.")));
    }
    showBenefit();
    emit finished();
}

void BenefitPanel::setRunning(bool running) {
    m_running = running;
    m_compare->setEnabled(!running && m_settings.has_value());
    m_cancel->setEnabled(running);
    m_progress->setVisible(running);
    m_progress->setValue(0);
    if (running) {
        m_progressTimer.start();
    } else {
        m_progressTimer.stop();
    }
    emit runningChanged(running);
}

void BenefitPanel::updateProgress() {
    // Four steps of about equal length: (off), without, on, with, (back).
    const int total = m_target.current ? 6 : 4;
    const int left = static_cast<int>(m_steps.size());
    double done = total - left - 1;
    if (m_runner) {
        const double expected = 4.0 * kSecondsEach + 2.0;
        done += std::min(0.95, static_cast<double>(m_clock.elapsed()) / 1000.0 / expected);
    }
    m_progress->setValue(std::clamp(static_cast<int>(100.0 * done / total), 0, 99));
}

void BenefitPanel::showBenefit() {
    m_table->setVisible(m_shown.has_value());
    if (!m_shown) {
        m_measuredWith->setText(m_running || m_target.partition.isEmpty()
                                    ? QString()
                                    : tr("Not compared yet on this partition."));
        return;
    }
    const auto& without = m_shown->without;
    const auto& with = m_shown->with;
    const QString rows[4][3] = {
        {megabytes(without.seqReadBytesPerS), megabytes(with.seqReadBytesPerS),
         ratio(without.seqReadBytesPerS, with.seqReadBytesPerS)},
        {megabytes(without.seqWriteBytesPerS), megabytes(with.seqWriteBytesPerS),
         ratio(without.seqWriteBytesPerS, with.seqWriteBytesPerS)},
        {iops(without.rndReadIops), iops(with.rndReadIops),
         ratio(without.rndReadIops, with.rndReadIops)},
        {iops(without.rndWriteIops), iops(with.rndWriteIops),
         ratio(without.rndWriteIops, with.rndWriteIops)}};
    for (int row = 0; row < 4; ++row) {
        for (int column = 0; column < 3; ++column) {
            auto* item = new QTableWidgetItem(rows[row][column]);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(row, column, item);
        }
    }
    m_table->setFixedHeight(m_table->horizontalHeader()->height() +
                            4 * m_table->verticalHeader()->defaultSectionSize() +
                            2 * m_table->frameWidth());
    QString text = tr("Measured %1 with %2 (%3 test file, %4 s per test).")
                       .arg(QDateTime::fromSecsSinceEpoch(m_shown->measuredS)
                                .toString(QStringLiteral("yyyy-MM-dd HH:mm")),
                            settingsText(m_shown->settings), iec(m_shown->testFileBytes))
                       .arg(m_shown->secondsEach);
    if (m_settings && settingsOf(*m_settings) != m_shown->settings) {
        text += QLatin1Char(' ') + tr("The settings above differ (%1): compare again to "
                                      "measure them.")
                                       .arg(settingsText(settingsOf(*m_settings)));
    }
    m_measuredWith->setText(text);
}

} // namespace ssdk::app::ramcache
