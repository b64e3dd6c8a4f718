#include "app/widgets/what_if_panel.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QtConcurrent>

#include "app/device_text.h"
#include "app/helper_caller.h"
#include "core/base/atomic_file.h"
#include "core/base/bytes.h"
#include "core/cachectl/engine/policy.h"
#include "core/cachectl/engine/simulator.h"
#include "core/cachectl/engine/trace.h"
#include "core/lab/lab.h"
#include "core/perf/perf_client.h"
#include "core/rpc/protocol.h"

namespace ssdk::app {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr int kDefaultSeconds = 60;
constexpr int kMaxSeconds = 3600; // trace.record's own limit

// The curve: the default policy and LRU over cache sizes up to the trace's unique blocks.
std::pair<QString, std::vector<WhatIfPoint>> simulateTrace(const QString& path,
                                                           const QString& formatName) {
    using namespace ssdk::cachectl::engine;
    auto format = parseTraceFormat(formatName.toStdString());
    if (!format) {
        return {toQString(format.error().describe()), {}};
    }
    auto refs = readTrace(path.toStdString(), *format);
    if (!refs) {
        return {toQString(refs.error().describe()), {}};
    }
    const ReplayTrace trace(std::move(*refs));
    std::vector<WhatIfPoint> points;
    for (const auto size : mrcSizes(trace.uniqueBlocks(), 10)) {
        auto ours = simulate(trace, kDefaultPolicy, size);
        auto lru = simulate(trace, "lru", size);
        if (!ours || !lru) {
            return {toQString((ours ? lru.error() : ours.error()).describe()), {}};
        }
        points.push_back({size * 4096, ours->hitRatio(), lru->hitRatio()});
    }
    return {QString(), points};
}

// Saves a recorded trace (the simulator's "blocks" format: header, then lines) and replays it.
std::pair<QString, std::vector<WhatIfPoint>>
saveAndSimulate(const QString& path, const std::string& header, const QByteArray& lines) {
    const std::filesystem::path file = path.toStdString();
    std::error_code error;
    std::filesystem::create_directories(file.parent_path(), error);
    if (error) {
        return {QObject::tr("could not create %1: %2")
                    .arg(toQString(file.parent_path().string()), toQString(error.message())),
                {}};
    }
    std::string text;
    text.reserve(header.size() + static_cast<std::size_t>(lines.size()));
    text.append(header).append(lines.constData(), static_cast<std::size_t>(lines.size()));
    if (auto written = writeFileAtomically(file, text, 0600); !written) {
        return {toQString(written.error().describe()), {}};
    }
    return simulateTrace(path, QStringLiteral("blocks"));
}

// <state>/ssdkeeper/traces/<device name>-<local time>.blocks
QString recordedTracePath(const QString& device) {
    const QString name = device.section(QLatin1Char('/'), -1);
    const auto dir = lab::userStateDirectory() / "ssdkeeper" / "traces";
    return toQString(dir.string()) + QLatin1Char('/') + name + QLatin1Char('-') +
           QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")) +
           QStringLiteral(".blocks");
}

} // namespace

HelperTraceRecordCalls::HelperTraceRecordCalls(QObject* parent)
    : TraceRecordCalls(parent)
    , m_caller(new HelperCaller(this)) {
    connect(m_caller, &HelperCaller::finished, this,
            [this](const QString&, const HelperCaller::Outcome& outcome) {
                QByteArray trace = m_lines ? std::move(*m_lines) : QByteArray();
                m_lines.reset();
                if (!outcome.ok) {
                    emit finished(false, outcome.error, outcome.result, QByteArray());
                    return;
                }
                // The lines of each "trace" event; the result's header goes before them
                // (helper/trace_verbs.h), joined off the GUI thread.
                emit finished(true, QString(), outcome.result, trace);
            });
    connect(m_caller, &HelperCaller::progress, this,
            [this](const QString&, double fraction, const QString& text) {
                emit progress(fraction, text);
            });
}

bool HelperTraceRecordCalls::record(const QString& device, unsigned seconds) {
    auto lines = std::make_shared<QByteArray>();
    const bool started = m_caller->run(
        QString::fromLatin1(perf::kVerbTraceRecord),
        [request = perf::TraceRecordRequest{device.toStdString(), seconds}](
            rpc::Transport& transport,
            const rpc::Transport::EventHandler& onEvent) -> Expected<Json> {
            auto reply = perf::PerfClient(transport).record(request, onEvent);
            if (!reply) {
                return std::unexpected(reply.error());
            }
            return perf::toJson(*reply);
        },
        [lines](const rpc::Event& event) {
            if (auto chunk = perf::traceChunkOf(event.name, event.data)) {
                lines->append(chunk->lines.data(), static_cast<qsizetype>(chunk->lines.size()));
            }
        });
    if (started) {
        m_lines = std::move(lines);
    }
    return started;
}

void HelperTraceRecordCalls::stop() {
    m_caller->cancel();
}

WhatIfPanel::WhatIfPanel(TraceRecordCalls* calls, QWidget* parent)
    : QGroupBox(tr("What would more RAM buy? (replay a recorded trace)"), parent)
    , m_calls(calls != nullptr ? calls : new HelperTraceRecordCalls(this)) {
    if (m_calls->parent() == nullptr) {
        m_calls->setParent(this);
    }
    auto* layout = new QVBoxLayout(this);

    auto* recordRow = new QHBoxLayout;
    m_seconds = new QSpinBox;
    m_seconds->setObjectName("ramcache.recordSeconds");
    m_seconds->setRange(1, kMaxSeconds);
    m_seconds->setValue(kDefaultSeconds);
    m_seconds->setSuffix(tr(" s"));
    m_record = new QPushButton(tr("Record"));
    m_record->setObjectName("ramcache.record");
    m_record->setToolTip(tr("Records the block requests of the selected partition while you "
                            "work as usual (administrator: the kernel's block tracepoint), "
                            "then replays them below"));
    m_progress = new QProgressBar;
    m_progress->setObjectName("ramcache.recordProgress");
    m_progress->setTextVisible(false);
    m_progress->setMaximumWidth(160);
    m_progress->setVisible(false);
    recordRow->addWidget(new QLabel(tr("Record this workload for")));
    recordRow->addWidget(m_seconds);
    recordRow->addWidget(m_record);
    recordRow->addWidget(m_progress);
    recordRow->addStretch(1);
    layout->addLayout(recordRow);

    auto* openRow = new QHBoxLayout;
    m_format = new QComboBox;
    m_format->setObjectName("ramcache.traceFormat");
    for (const auto& name : cachectl::engine::traceFormatNames()) {
        m_format->addItem(toQString(name));
    }
    m_format->setCurrentText(QStringLiteral("blocks"));
    m_open = new QPushButton(tr("Open trace…"));
    m_open->setObjectName("ramcache.openTrace");
    openRow->addWidget(new QLabel(tr("or open a trace, format")));
    openRow->addWidget(m_format);
    openRow->addWidget(m_open);
    openRow->addStretch(1);
    layout->addLayout(openRow);

    m_label = new QLabel(tr("Record the selected partition's requests here (or with "
                            "`ssdkeeperctl trace record`), or open a recorded trace."));
    m_label->setObjectName("ramcache.whatIfLabel");
    m_label->setWordWrap(true);
    layout->addWidget(m_label);

    auto* curve = new QChart;
    curve->setMargins(QMargins(4, 4, 4, 4));
    curve->legend()->setAlignment(Qt::AlignBottom);
    m_ours = new QLineSeries;
    m_ours->setName(tr("SSD Keeper cache"));
    m_lru = new QLineSeries;
    m_lru->setName(tr("LRU"));
    curve->addSeries(m_ours);
    curve->addSeries(m_lru);
    auto* sizeAxis = new QValueAxis;
    sizeAxis->setTitleText(tr("cache size (MiB)"));
    sizeAxis->setLabelFormat(QStringLiteral("%d"));
    sizeAxis->setRange(0, 100); // before a trace: not 0..1 printed as "0 0 0 0 1"
    auto* ratioAxis = new QValueAxis;
    ratioAxis->setRange(0, 100);
    ratioAxis->setLabelFormat(QStringLiteral("%d %%"));
    ratioAxis->setTitleText(tr("hit ratio"));
    curve->addAxis(sizeAxis, Qt::AlignBottom);
    curve->addAxis(ratioAxis, Qt::AlignLeft);
    for (auto* series : {m_ours, m_lru}) {
        series->attachAxis(sizeAxis);
        series->attachAxis(ratioAxis);
    }
    m_view = new QChartView(curve);
    m_view->setObjectName("ramcache.whatIf");
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(200);
    layout->addWidget(m_view);

    connect(m_open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open a block trace"));
        if (!path.isEmpty()) {
            loadTrace(path, m_format->currentText());
        }
    });
    connect(m_record, &QPushButton::clicked, this, &WhatIfPanel::onRecordClicked);
    connect(m_calls, &TraceRecordCalls::progress, this,
            [this](double fraction, const QString& text) {
                showFraction(m_progress, fraction);
                m_label->setText(text);
            });
    connect(m_calls, &TraceRecordCalls::finished, this, &WhatIfPanel::onRecorded);
    connect(&m_watcher, &QFutureWatcher<std::pair<QString, std::vector<WhatIfPoint>>>::finished,
            this, [this] {
                const auto [error, points] = m_watcher.result();
                showCurve(error, points);
            });
    updateRecordControls();
}

WhatIfPanel::~WhatIfPanel() {
    m_watcher.waitForFinished();
}

void WhatIfPanel::setRecordTarget(const QString& device) {
    m_target = device;
    updateRecordControls();
}

void WhatIfPanel::updateRecordControls() {
    m_record->setText(m_recording ? tr("Stop") : tr("Record"));
    m_record->setEnabled(m_recording || (!m_target.isEmpty() && !m_replaying));
    m_seconds->setEnabled(!m_recording);
    m_open->setEnabled(!m_recording && !m_replaying);
    m_progress->setVisible(m_recording);
}

void WhatIfPanel::onRecordClicked() {
    if (m_recording) {
        m_record->setEnabled(false); // until finished() arrives with what was recorded
        m_calls->stop();
        return;
    }
    const auto seconds = static_cast<unsigned>(m_seconds->value());
    if (!m_calls->record(m_target, seconds)) {
        m_label->setText(tr("Another recording is still running."));
        return;
    }
    m_recording = true;
    showFraction(m_progress, 0.0);
    m_label->setText(
        tr("Recording %1 for %2 s: use it as you usually do…").arg(m_target).arg(seconds));
    updateRecordControls();
}

void WhatIfPanel::onRecorded(bool ok, const QString& error, const Json& result,
                             const QByteArray& trace) {
    m_recording = false;
    if (!ok) {
        m_label->setText(tr("Could not record %1: %2").arg(m_target, error));
        updateRecordControls();
        return;
    }
    auto reply = perf::traceRecordReplyFromJson(result);
    if (!reply) {
        m_label->setText(
            tr("Could not record %1: %2").arg(m_target, toQString(reply.error().describe())));
        updateRecordControls();
        return;
    }
    if (reply->requests == 0 || trace.isEmpty()) {
        m_label->setText(tr("%1 saw no requests in %2 s: nothing to replay. Record while the "
                            "workload runs.")
                             .arg(m_target)
                             .arg(reply->seconds, 0, 'f', 0));
        updateRecordControls();
        return;
    }
    const QString path = recordedTracePath(m_target);
    QString text = tr("Recorded %1 requests (%2 reads, %3 writes) from %4 in %5 s")
                       .arg(reply->requests)
                       .arg(reply->reads)
                       .arg(reply->writes)
                       .arg(m_target)
                       .arg(reply->seconds, 0, 'f', 0);
    if (reply->stoppedEarly) {
        text += tr(" (stopped early)");
    }
    if (reply->truncated) {
        text += tr(" (stopped at the request limit)");
    }
    if (reply->lostEvents > 0) {
        text +=
            tr(" (the kernel dropped %1 events: its trace buffer was full)").arg(reply->lostEvents);
    }
    m_source = text + tr(", saved as %1. ").arg(path);
    m_label->setText(m_source + tr("Replaying…"));
    m_replaying = true;
    updateRecordControls();
    m_watcher.setFuture(QtConcurrent::run(saveAndSimulate, path, reply->header, trace));
}

void WhatIfPanel::loadTrace(const QString& path, const QString& format) {
    m_replaying = true;
    updateRecordControls();
    m_source = path + QStringLiteral(": ");
    m_label->setText(tr("Replaying %1…").arg(path));
    m_watcher.setFuture(QtConcurrent::run(simulateTrace, path, format));
}

void WhatIfPanel::showCurve(const QString& error, const std::vector<WhatIfPoint>& points) {
    m_replaying = false;
    m_ours->clear();
    m_lru->clear();
    if (!error.isEmpty()) {
        m_label->setText(tr("Could not replay the trace: %1").arg(error));
    } else {
        double maxX = 1;
        for (const auto& point : points) {
            const double mib = static_cast<double>(point.cacheBytes) / kMiB;
            m_ours->append(mib, point.hitRatio * 100.0);
            m_lru->append(mib, point.lruHitRatio * 100.0);
            maxX = std::max(maxX, mib);
        }
        auto axes = m_view->chart()->axes(Qt::Horizontal);
        if (auto* axis = axes.isEmpty() ? nullptr : qobject_cast<QValueAxis*>(axes.first())) {
            axis->setRange(0, maxX);
            // Small traces: fractions of a MiB must stay readable.
            axis->setLabelFormat(maxX < 10 ? QStringLiteral("%.2f") : QStringLiteral("%d"));
        }
        const auto& last = points.empty() ? WhatIfPoint{} : points.back();
        m_label->setText(m_source +
                         tr("%1 sizes up to %2: hit ratio %3 % with the cache's policy, %4 % with "
                            "LRU")
                             .arg(points.size())
                             .arg(sizeText(Bytes(last.cacheBytes)))
                             .arg(last.hitRatio * 100.0, 0, 'f', 1)
                             .arg(last.lruHitRatio * 100.0, 0, 'f', 1));
    }
    updateRecordControls();
    emit ready();
}

} // namespace ssdk::app
