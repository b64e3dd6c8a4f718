#include "app/pages/ram_cache_page.h"

#include <QButtonGroup>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QMessageBox>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QSlider>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>

#include "app/device_text.h"
#include "app/helper_caller.h"
#include "app/widgets/what_if_panel.h"
#include "core/base/bytes.h"
#include "core/cachectl/cache_client.h"

namespace ssdk::app {

namespace {

constexpr std::uint64_t kMiB = 1024ULL * 1024ULL;
constexpr int kChartSeconds = 120;
constexpr std::uint64_t kKiB = 1024;

QString iec(std::uint64_t bytes) {
    return QString::fromStdString(formatIec(Bytes(bytes)));
}

QString verbName(const char* verb) {
    return QString::fromLatin1(verb);
}

// The reply's JSON read back typed (parse) and handed to done.
template <typename Parse, typename Done>
std::function<Expected<void>(const Json&)> readReply(Parse parse, Done done) {
    return [parse, done](const Json& json) -> Expected<void> {
        auto reply = parse(json);
        if (!reply) {
            return std::unexpected(reply.error());
        }
        done(*reply);
        return {};
    };
}

} // namespace

RamCachePage::RamCachePage(HelperCaller* caller, TraceRecordCalls* recordCalls, QWidget* parent)
    : DevicePage(parent)
    , m_caller(caller != nullptr ? caller : new HelperCaller(this)) {
    if (m_caller->parent() == nullptr) {
        m_caller->setParent(this);
    }
    build(recordCalls);
    connect(m_caller, &HelperCaller::finished, this, &RamCachePage::onFinished);
    connect(m_whatIf, &WhatIfPanel::ready, this, &RamCachePage::whatIfReady);
    m_clock.start();
    refresh();
}

RamCachePage::~RamCachePage() = default;

void RamCachePage::build(TraceRecordCalls* recordCalls) {
    auto* outer = new QVBoxLayout(this);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    outer->addWidget(scroll);
    auto* content = new QWidget;
    scroll->setWidget(content);
    auto* layout = new QVBoxLayout(content);

    m_summary = new QLabel;
    m_summary->setObjectName("ramcache.summary");
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);

    auto* settings = new QGroupBox(tr("Cache"));
    auto* form = new QFormLayout(settings);
    m_partition = new QComboBox;
    m_partition->setObjectName("ramcache.partition");
    form->addRow(tr("Partition"), m_partition);
    m_enable = new QCheckBox(tr("Cache this partition in RAM"));
    m_enable->setObjectName("ramcache.enable");
    form->addRow(QString(), m_enable);

    m_backend = new QComboBox;
    m_backend->setObjectName("ramcache.backend");
    m_backendReason = new QLabel;
    m_backendReason->setObjectName("ramcache.backendReason");
    m_backendReason->setWordWrap(true);
    m_backendReason->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* backendBox = new QVBoxLayout;
    backendBox->addWidget(m_backend);
    backendBox->addWidget(m_backendReason);
    form->addRow(tr("Backend"), backendBox);

    m_size = new QSlider(Qt::Horizontal);
    m_size->setObjectName("ramcache.size");
    m_size->setRange(16, 1024);
    m_size->setSingleStep(16);
    m_size->setPageStep(256);
    m_sizeLabel = new QLabel;
    m_sizeLabel->setObjectName("ramcache.sizeLabel");
    m_sizeLabel->setWordWrap(true);
    m_suggest = new QPushButton(tr("Suggested"));
    m_suggest->setObjectName("ramcache.suggest");
    auto* sizeRow = new QHBoxLayout;
    sizeRow->addWidget(m_size, 1);
    sizeRow->addWidget(m_suggest);
    auto* sizeBox = new QVBoxLayout;
    sizeBox->addLayout(sizeRow);
    sizeBox->addWidget(m_sizeLabel);
    form->addRow(tr("Size"), sizeBox);

    m_compression = new QComboBox;
    m_compression->setObjectName("ramcache.compression");
    m_ratio = new QLabel;
    m_ratio->setObjectName("ramcache.ratio");
    auto* compressionRow = new QHBoxLayout;
    compressionRow->addWidget(m_compression);
    compressionRow->addWidget(m_ratio, 1);
    form->addRow(tr("Compression"), compressionRow);

    m_writeThrough = new QRadioButton(tr("Write-through (safe: every write reaches the drive)"));
    m_writeThrough->setObjectName("ramcache.writeThrough");
    m_writeBack = new QRadioButton(tr("Write-back (faster writes)"));
    m_writeBack->setObjectName("ramcache.writeBack");
    m_writeThrough->setChecked(true);
    auto* modeGroup = new QButtonGroup(this);
    modeGroup->addButton(m_writeThrough);
    modeGroup->addButton(m_writeBack);
    m_writeBackWarning = new QLabel(
        tr("Write-back keeps recent writes in RAM: on a power loss or crash the last seconds of "
           "writes that were not yet flushed are lost. Use it on a laptop with a battery or a "
           "desktop on a UPS."));
    m_writeBackWarning->setObjectName("ramcache.writeBackWarning");
    m_writeBackWarning->setWordWrap(true);
    m_writeBackWarning->setStyleSheet(QStringLiteral("color: #b35c00;"));
    auto* modeBox = new QVBoxLayout;
    modeBox->addWidget(m_writeThrough);
    modeBox->addWidget(m_writeBack);
    modeBox->addWidget(m_writeBackWarning);
    form->addRow(tr("Mode"), modeBox);

    // Check box labels do not wrap: short labels, the details in tool tips.
    m_applyNow = new QCheckBox(tr("Apply now: unmount, stack the cache, mount at the same place"));
    m_applyNow->setObjectName("ramcache.applyNow");
    m_applyNow->setToolTip(tr("The partition is mounted: it is unmounted, the cache is stacked "
                              "under it, and it is mounted again at the same place with the "
                              "same options."));
    form->addRow(QString(), m_applyNow);
    buildSafety(form);
    layout->addWidget(settings);
    layout->addWidget(buildTuning());

    auto* live = new QGroupBox(tr("Live"));
    auto* liveLayout = new QVBoxLayout(live);
    auto* liveRow = new QHBoxLayout;
    m_statsLabel = new QLabel(tr("No cache is active on this drive."));
    m_statsLabel->setObjectName("ramcache.stats");
    m_statsLabel->setWordWrap(true);
    m_flush = new QPushButton(tr("Flush"));
    m_flush->setObjectName("ramcache.flush");
    m_flush->setToolTip(tr("Write every dirty block to the drive now"));
    liveRow->addWidget(m_statsLabel, 1);
    liveRow->addWidget(m_flush);
    liveLayout->addLayout(liveRow);

    auto* chart = new QChart;
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->setAlignment(Qt::AlignBottom);
    m_hitSeries = new QLineSeries;
    m_hitSeries->setName(tr("Hit ratio (%)"));
    m_dirtySeries = new QLineSeries;
    m_dirtySeries->setName(tr("Dirty (MiB)"));
    m_ramSeries = new QLineSeries;
    m_ramSeries->setName(tr("RAM used (MiB)"));
    for (auto* series : {m_hitSeries, m_dirtySeries, m_ramSeries}) {
        chart->addSeries(series);
    }
    m_timeAxis = new QValueAxis;
    m_timeAxis->setTitleText(tr("seconds"));
    m_timeAxis->setRange(0, kChartSeconds);
    m_timeAxis->setLabelFormat(QStringLiteral("%d"));
    auto* percentAxis = new QValueAxis;
    percentAxis->setRange(0, 100);
    percentAxis->setLabelFormat(QStringLiteral("%d %%"));
    m_bytesAxis = new QValueAxis;
    m_bytesAxis->setRange(0, 64);
    m_bytesAxis->setLabelFormat(QStringLiteral("%d MiB"));
    chart->addAxis(m_timeAxis, Qt::AlignBottom);
    chart->addAxis(percentAxis, Qt::AlignLeft);
    chart->addAxis(m_bytesAxis, Qt::AlignRight);
    for (auto* series : {m_hitSeries, m_dirtySeries, m_ramSeries}) {
        series->attachAxis(m_timeAxis);
        series->attachAxis(series == m_hitSeries ? percentAxis : m_bytesAxis);
    }
    m_chartView = new QChartView(chart);
    m_chartView->setObjectName("ramcache.chart");
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumHeight(220);
    liveLayout->addWidget(m_chartView);
    layout->addWidget(live);

    m_whatIf = new WhatIfPanel(recordCalls);
    layout->addWidget(m_whatIf);

    m_message = new QLabel;
    m_message->setObjectName("ramcache.message");
    m_message->setWordWrap(true);
    layout->addWidget(m_message);
    layout->addStretch(1);

    m_poll = new QTimer(this);
    m_poll->setInterval(1000);
    connect(m_poll, &QTimer::timeout, this, [this] {
        if (!m_waiting && m_queue.empty()) {
            sendStatus();
        }
    });

    connect(m_enable, &QCheckBox::clicked, this, &RamCachePage::onToggled);
    connect(m_backend, &QComboBox::currentIndexChanged, this, [this] { updateControls(); });
    connect(m_partition, &QComboBox::currentIndexChanged, this, [this] { updateControls(); });
    connect(m_size, &QSlider::valueChanged, this, [this] { updateSizeLabel(); });
    connect(m_suggest, &QPushButton::clicked, this, [this] {
        m_size->setValue(static_cast<int>(std::max<std::uint64_t>(m_suggested / kMiB, 16)));
    });
    connect(m_writeBack, &QRadioButton::toggled, this, [this](bool on) {
        m_writeBackWarning->setVisible(on);
        if (auto active = activeCache(); active) {
            const cachectl::ModeRequest request{active->record.active.plan.origin,
                                                on ? cachectl::CacheMode::WriteBack
                                                   : cachectl::CacheMode::WriteThrough};
            send({verbName(cachectl::kVerbMode),
                  clientWork<cachectl::CacheClient>(
                      [request](cachectl::CacheClient& client, const auto&) {
                          return client.setMode(request);
                      }),
                  readReply(cachectl::recordReplyFromJson, [this](const cachectl::RecordReply&) {
                      changed(tr("Mode changed."));
                  })});
        }
    });
    connect(m_flush, &QPushButton::clicked, this, [this] {
        if (auto active = activeCache(); active) {
            m_flush->setEnabled(false);
            const cachectl::FlushRequest request{active->record.active.plan.origin};
            send({verbName(cachectl::kVerbFlush),
                  clientWork<cachectl::CacheClient>(
                      [request](cachectl::CacheClient& client, const auto&) {
                          return client.flush(request);
                      }),
                  readReply(cachectl::flushReplyFromJson, [this](const cachectl::FlushReply&) {
                      changed(tr("Flushed: every dirty block is on the drive."));
                  })});
        }
    });
    m_writeBackWarning->setVisible(false);
    updateControls();
}

void RamCachePage::refresh() {
    send({verbName(cachectl::kVerbProbe),
          clientWork<cachectl::CacheClient>(
              [](cachectl::CacheClient& client, const auto&) { return client.probe(); }),
          readReply(cachectl::probeReplyFromJson,
                    [this](const cachectl::ProbeReply& reply) { applyProbe(reply); })});
    sendStatus();
}

void RamCachePage::sendStatus() {
    send({verbName(cachectl::kVerbStatus),
          clientWork<cachectl::CacheClient>(
              [](cachectl::CacheClient& client, const auto&) { return client.status(); }),
          readReply(cachectl::statusReplyFromJson,
                    [this](const cachectl::StatusReply& reply) { applyStatus(reply); })});
}

void RamCachePage::changed(const QString& message) {
    m_message->setText(message);
    sendStatus();
}

void RamCachePage::send(PendingCall call) {
    m_queue.push_back(std::move(call));
    pump();
}

void RamCachePage::pump() {
    if (m_waiting || m_queue.empty() || m_caller->isBusy()) {
        return;
    }
    PendingCall call = std::move(m_queue.front());
    m_queue.pop_front();
    m_done = std::move(call.done);
    m_waiting = m_caller->run(call.verb, std::move(call.work));
}

void RamCachePage::onFinished(const QString& verb, const HelperCaller::Outcome& outcome) {
    m_waiting = false;
    const auto done = std::move(m_done);
    m_done = nullptr;
    QString error = outcome.error;
    bool ok = outcome.ok;
    if (ok && done) {
        if (auto handled = done(outcome.result); !handled) {
            ok = false;
            error = toQString(handled.error().describe());
        }
    }
    if (!ok) {
        if (verb != verbName(cachectl::kVerbStatus)) {
            m_message->setText(tr("%1 failed: %2").arg(verb, error));
        }
        if (verb == verbName(cachectl::kVerbEnable)) {
            m_enable->setChecked(false);
        }
    }
    updateControls();
    pump();
}

void RamCachePage::applyEnabled(const cachectl::EnableReply& reply) {
    if (reply.fstab) {
        confirmAtNextBoot(*reply.fstab, m_bootRequest);
        return;
    }
    if (!reply.record) {
        return;
    }
    const auto& record = *reply.record;
    if (record.phase == cachectl::CachePhase::Scheduled) {
        m_message->setText(
            tr("At next boot %1 stacks the cache, and /etc/fstab mounts %2. Nothing changed "
               "now; untick to put fstab back.")
                .arg(toQString(record.boot ? record.boot->unit : std::string()),
                     toQString(record.active.cachedDevice)));
    } else {
        m_message->setText(tr("The cache is on: mount %1 (done for you when it was mounted).")
                               .arg(toQString(record.active.cachedDevice)));
        m_hitSeries->clear();
        m_dirtySeries->clear();
        m_ramSeries->clear();
        m_clock.restart();
    }
    sendStatus();
}

void RamCachePage::applyProbe(const cachectl::ProbeReply& reply) {
    m_backends = reply.backends;
    m_totalRam = reply.ram.totalBytes;
    m_availableRam = reply.ram.availableBytes;
    m_suggested = reply.ram.suggestedBytes;
    const QString previous = m_backend->currentData().toString();
    m_backend->blockSignals(true);
    m_backend->clear();
    auto* model = qobject_cast<QStandardItemModel*>(m_backend->model());
    int firstAvailable = -1;
    for (const auto& backend : m_backends) {
        const bool available = backend.probe.available;
        const QString title = toQString(backend.title);
        m_backend->addItem(available ? title : tr("%1 — unavailable").arg(title),
                           toQString(backend.name));
        const int index = m_backend->count() - 1;
        m_backend->setItemData(index, toQString(backend.probe.reasonText()), Qt::ToolTipRole);
        if (!available && model != nullptr) {
            model->item(index)->setEnabled(false);
        } else if (firstAvailable < 0) {
            firstAvailable = index;
        }
    }
    const int keep = m_backend->findData(previous);
    m_backend->setCurrentIndex(keep >= 0 ? keep : std::max(firstAvailable, 0));
    m_backend->blockSignals(false);
    // RAM: up to 75 % of it on the slider; RAPID's 25 %/4 GiB is the suggestion.
    const int maxMiB = static_cast<int>(std::max<std::uint64_t>(m_totalRam * 3 / 4 / kMiB, 64));
    m_size->setRange(16, maxMiB);
    if (m_size->value() == 16 || m_size->value() > maxMiB) {
        m_size->setValue(static_cast<int>(std::max<std::uint64_t>(m_suggested / kMiB, 16)));
    }
    updateSizeLabel();
}

void RamCachePage::applyStatus(const cachectl::StatusReply& reply) {
    m_caches = reply.caches;
    const auto active = activeCache();
    if (active) {
        const auto& plan = active->record.active.plan;
        m_enable->setChecked(true);
        const int index = m_backend->findData(toQString(active->record.active.backend));
        if (index >= 0) {
            m_backend->setCurrentIndex(index);
        }
        m_writeBack->blockSignals(true);
        m_writeThrough->blockSignals(true);
        (plan.mode == cachectl::CacheMode::WriteBack ? m_writeBack : m_writeThrough)
            ->setChecked(true);
        m_writeBackWarning->setVisible(m_writeBack->isChecked());
        m_writeBack->blockSignals(false);
        m_writeThrough->blockSignals(false);
        if (active->stats) {
            addSample(*active->stats);
        } else {
            m_statsLabel->setText(
                tr("Statistics unavailable: %1").arg(toQString(active->statsError)));
        }
        if (!m_poll->isActive()) {
            m_poll->start();
        }
    } else {
        m_enable->setChecked(false);
        m_poll->stop();
        m_statsLabel->setText(tr("No cache is active on this drive."));
        m_ratio->clear();
    }
    applySafety(active);
}

void RamCachePage::addSample(const cachectl::CacheStats& stats) {
    const double t = static_cast<double>(m_clock.elapsed()) / 1000.0;
    const double hit = stats.hitRatio() * 100.0;
    const double dirty = static_cast<double>(stats.dirtyBytes) / kMiB;
    const double ram = static_cast<double>(stats.ramUsedBytes) / kMiB;
    m_hitSeries->append(t, hit);
    m_dirtySeries->append(t, dirty);
    m_ramSeries->append(t, ram);
    for (auto* series : {m_hitSeries, m_dirtySeries, m_ramSeries}) {
        while (series->count() > 0 && series->at(0).x() < t - kChartSeconds) {
            series->remove(0);
        }
    }
    m_timeAxis->setRange(std::max(0.0, t - kChartSeconds), std::max<double>(t, kChartSeconds));
    double top = 64;
    for (auto* series : {m_dirtySeries, m_ramSeries}) {
        for (const auto& point : series->points()) {
            top = std::max(top, point.y() * 1.1);
        }
    }
    m_bytesAxis->setRange(0, top);
    m_statsLabel->setText(tr("Hit ratio %1 % (%2 hits, %3 misses) · dirty %4 · RAM used %5 of %6")
                              .arg(hit, 0, 'f', 1)
                              .arg(stats.hits)
                              .arg(stats.misses)
                              .arg(iec(stats.dirtyBytes))
                              .arg(iec(stats.ramUsedBytes))
                              .arg(iec(stats.cacheBytes)));
    QStringList tuning;
    if (stats.sequentialCutoff) {
        const auto cutoff = *stats.sequentialCutoff;
        tuning << tr("sequential cutoff %1").arg(cutoff == 0 ? tr("off") : iec(cutoff));
    }
    if (stats.writebackPercent) {
        tuning << tr("writeback percent %1").arg(*stats.writebackPercent);
    }
    if (!tuning.isEmpty()) {
        m_statsLabel->setText(m_statsLabel->text() + QStringLiteral(" · ") +
                              tuning.join(QStringLiteral(" · ")));
    }
    m_ratio->setText(stats.physicalBytes > 0
                         ? tr("live ratio %1×").arg(stats.compressionRatio(), 0, 'f', 2)
                         : tr("live ratio: nothing compressed yet"));
}

QString RamCachePage::selectedPartition() const {
    return m_partition->currentData().toString();
}

std::optional<cachectl::CacheStatus> RamCachePage::activeCache() const {
    const std::string selected = selectedPartition().toStdString();
    for (const auto& cache : m_caches) {
        if (!selected.empty() && cache.record.active.plan.origin == selected) {
            return cache;
        }
    }
    return std::nullopt;
}

const cachectl::BackendReport* RamCachePage::selectedBackend() const {
    const int index = m_backend->currentIndex();
    for (const auto& item : m_backends) {
        if (index >= 0 && toQString(item.name) == m_backend->itemData(index).toString()) {
            return &item;
        }
    }
    return nullptr;
}

void RamCachePage::setDevice(const device::Device* device) {
    const QString previous = selectedPartition();
    m_partition->blockSignals(true);
    m_partition->clear();
    m_devicePath.clear();
    m_systemDisk = false;
    if (device != nullptr) {
        m_devicePath = toQString(device->path);
        auto label = [](const std::string& path, const std::optional<device::Filesystem>& fs,
                        const std::vector<device::Mount>& mounts, Bytes size) {
            QString text = toQString(path) + QStringLiteral(" · ") + iec(size.value);
            if (fs) {
                text += QStringLiteral(" · ") + toQString(fs->type);
            }
            if (!mounts.empty()) {
                text += QStringLiteral(" · ") + toQString(mounts.front().mountPoint);
            }
            return text;
        };
        for (const auto& partition : device->partitions) {
            m_partition->addItem(
                label(partition.path, partition.filesystem, partition.mounts, partition.size),
                toQString(partition.path));
        }
        if (device->partitions.empty()) {
            m_partition->addItem(
                label(device->path, device->filesystem, device->mounts, device->size),
                toQString(device->path));
        }
        m_systemDisk = device->holdsRootFilesystem();
        m_summary->setText(
            m_systemDisk
                ? tr("%1 holds the running system (/): SSD Keeper does not stack a cache under "
                     "it. Select another drive.")
                      .arg(toQString(device->path))
                : tr("Keep the most used blocks of %1 in RAM (RAPID-style): reads that hit come "
                     "from memory, and in write-back mode writes are absorbed and written back in "
                     "larger chunks.")
                      .arg(toQString(device->path)));
    } else {
        m_summary->setText(tr("Select a drive."));
    }
    const int keep = m_partition->findData(previous);
    m_partition->setCurrentIndex(std::max(keep, 0));
    m_partition->blockSignals(false);
    // Mounted? Then enabling needs "apply now".
    bool mounted = false;
    if (device != nullptr) {
        for (const auto& partition : device->partitions) {
            if (toQString(partition.path) == selectedPartition() && !partition.mounts.empty()) {
                mounted = true;
            }
        }
        mounted = mounted || (device->partitions.empty() && !device->mounts.empty());
    }
    m_applyNow->setVisible(mounted);
    updateControls();
}

void RamCachePage::updateSizeLabel() {
    const std::uint64_t bytes = static_cast<std::uint64_t>(m_size->value()) * kMiB;
    QString text = tr("%1 of %2 RAM (%3 free). Suggested: %4 (a quarter of the RAM, at most "
                      "4 GiB).")
                       .arg(iec(bytes), iec(m_totalRam), iec(m_availableRam), iec(m_suggested));
    if (m_suggested > 0 && bytes > m_suggested) {
        text += QLatin1Char(' ') + tr("More than suggested: leave enough RAM for programs.");
    }
    m_sizeLabel->setText(text);
}

void RamCachePage::updateControls() {
    m_whatIf->setRecordTarget(selectedPartition());
    const cachectl::BackendReport* backend = selectedBackend();
    const bool available = backend != nullptr && backend->probe.available;
    if (backend != nullptr && !available) {
        m_backendReason->setText(
            tr("Unavailable here: %1").arg(toQString(backend->probe.reasonText())));
    } else {
        QStringList others;
        for (const auto& item : m_backends) {
            if (!item.probe.available) {
                others << tr("%1: %2").arg(toQString(item.name),
                                           toQString(item.probe.reasonText()));
            }
        }
        m_backendReason->setText(
            others.isEmpty()
                ? QString()
                : tr("Not available here — %1").arg(others.join(QStringLiteral("; "))));
    }
    const auto active = activeCache();
    const bool on = active.has_value();
    const bool haveDevice = !selectedPartition().isEmpty();
    m_enable->setEnabled(haveDevice && (on || (available && !m_systemDisk)));
    m_backend->setEnabled(!on);
    m_partition->setEnabled(!on);
    m_size->setEnabled(!on);
    m_suggest->setEnabled(!on);
    m_compression->setEnabled(!on);
    m_flush->setEnabled(on && !m_waiting);
    m_atNextBoot->setEnabled(!on && haveDevice);
    m_powerSafe->setEnabled(haveDevice);

    const QString current = m_compression->currentText();
    m_compression->blockSignals(true);
    m_compression->clear();
    if (backend != nullptr) {
        for (const auto compression : backend->capabilities.compressions) {
            m_compression->addItem(toQString(std::string(cachectl::toString(compression))));
        }
        m_writeBack->setEnabled(backend->capabilities.writeBack);
    }
    if (on) {
        m_compression->setCurrentText(
            toQString(std::string(cachectl::toString(active->record.active.plan.compression))));
    } else if (m_compression->findText(current) >= 0) {
        m_compression->setCurrentText(current);
    }
    m_compression->blockSignals(false);
    updateTuning(backend, active);
}

void RamCachePage::onToggled(bool on) {
    m_message->clear();
    if (on) {
        cachectl::EnableRequest request;
        request.device = selectedPartition().toStdString();
        request.backend = m_backend->currentData().toString().toStdString();
        request.size = static_cast<std::uint64_t>(m_size->value()) * kMiB;
        request.compression = cachectl::parseCompression(m_compression->currentText().toStdString())
                                  .value_or(cachectl::Compression::None);
        request.mode = m_writeBack->isChecked() ? cachectl::CacheMode::WriteBack
                                                : cachectl::CacheMode::WriteThrough;
        request.powerSafe = m_powerSafe->isChecked();
        addTuning(request);
        if (m_atNextBoot->isChecked()) {
            // Ask for the fstab change first; confirmAtNextBoot() shows it.
            request.atNextBoot = true;
            m_bootRequest = request;
            request.preview = true;
            sendEnable(request);
            return;
        }
        if (m_applyNow->isVisible()) {
            if (!m_applyNow->isChecked()) {
                m_enable->setChecked(false);
                m_message->setText(tr("The partition is mounted: tick \"apply now\" to unmount "
                                      "it, stack the cache and mount it again."));
                return;
            }
            request.applyNow = true;
        }
        sendEnable(request);
    } else if (auto active = activeCache(); active) {
        const cachectl::DisableRequest request{active->record.active.plan.origin};
        send({verbName(cachectl::kVerbDisable),
              clientWork<cachectl::CacheClient>(
                  [request](cachectl::CacheClient& client, const auto&) {
                      return client.disable(request);
                  }),
              readReply(cachectl::disableReplyFromJson, [this](const cachectl::DisableReply&) {
                  changed(tr("The cache is off; the partition is as it was."));
              })});
    }
}

void RamCachePage::sendEnable(const cachectl::EnableRequest& request) {
    send({verbName(cachectl::kVerbEnable),
          clientWork<cachectl::CacheClient>([request](cachectl::CacheClient& client,
                                                      const rpc::Transport::EventHandler& onEvent) {
              return client.enable(request, onEvent);
          }),
          readReply(cachectl::enableReplyFromJson,
                    [this](const cachectl::EnableReply& reply) { applyEnabled(reply); })});
}

QWidget* RamCachePage::buildTuning() {
    auto* group = new QGroupBox(tr("Advanced"));
    auto* form = new QFormLayout(group);
    m_cutoffSet = new QCheckBox(tr("Sequential cutoff"));
    m_cutoffSet->setObjectName("ramcache.sequentialCutoffSet");
    m_cutoff = new QSpinBox;
    m_cutoff->setObjectName("ramcache.sequentialCutoff");
    m_cutoff->setRange(0, static_cast<int>(cachectl::kMaxSequentialCutoff / kKiB));
    m_cutoff->setSingleStep(512);
    m_cutoff->setValue(4096); // bcache's and the engine's default, 4 MiB
    m_cutoff->setSuffix(tr(" KiB"));
    m_cutoff->setSpecialValueText(tr("0 (never bypass)"));
    m_cutoff->setMaximumWidth(200);
    form->addRow(m_cutoffSet, m_cutoff);
    m_percentSet = new QCheckBox(tr("Writeback percent"));
    m_percentSet->setObjectName("ramcache.writebackPercentSet");
    m_percent = new QSpinBox;
    m_percent->setObjectName("ramcache.writebackPercent");
    m_percent->setRange(0, 100);
    m_percent->setValue(10); // bcache's default
    m_percent->setSuffix(tr(" %"));
    m_percent->setMaximumWidth(200);
    form->addRow(m_percentSet, m_percent);
    auto* note = new QLabel(tr("Unticked: the backend's default."));
    note->setWordWrap(true);
    form->addRow(note);
    for (auto* box : {m_cutoffSet, m_percentSet}) {
        connect(box, &QCheckBox::toggled, this, [this] { updateControls(); });
    }
    return group;
}

void RamCachePage::updateTuning(const cachectl::BackendReport* backend,
                                const std::optional<cachectl::CacheStatus>& active) {
    const cachectl::Capabilities capabilities =
        backend != nullptr ? backend->capabilities : cachectl::Capabilities{};
    struct Knob {
        QCheckBox* set;
        QSpinBox* value;
        bool supported;
        std::string reason;
        std::optional<std::uint64_t> asked; // what the running cache was asked for
        QString help;
    };
    std::optional<std::uint64_t> askedPercent;
    if (active && active->record.active.plan.writebackPercent) {
        askedPercent = *active->record.active.plan.writebackPercent;
    }
    const Knob knobs[] = {
        {m_cutoffSet, m_cutoff, capabilities.sequentialCutoff,
         capabilities.noSequentialCutoffReason,
         active ? active->record.active.plan.sequentialCutoff : std::nullopt,
         tr("Sequential reads and writes longer than this bypass the cache (bcache's "
            "sequential_cutoff). 0: nothing bypasses it.")},
        {m_percentSet, m_percent, capabilities.writebackPercent,
         capabilities.noWritebackPercentReason, askedPercent,
         tr("bcache keeps writing back until dirty data is below this share of the cache "
            "(write-back only).")},
    };
    for (const auto& knob : knobs) {
        QString tip = knob.help;
        if (!knob.supported && backend != nullptr) {
            tip += QLatin1Char('\n') + tr("Not with %1: %2")
                                           .arg(toQString(backend->name),
                                                knob.reason.empty() ? tr("it has no such setting")
                                                                    : toQString(knob.reason));
        }
        for (QWidget* widget :
             {static_cast<QWidget*>(knob.set), static_cast<QWidget*>(knob.value)}) {
            widget->setToolTip(tip);
        }
        knob.set->blockSignals(true);
        if (active) {
            // What the running cache was asked for; changed by turning it off and on.
            knob.set->setChecked(knob.asked.has_value());
            if (knob.asked) {
                knob.value->setValue(
                    static_cast<int>(knob.value == m_cutoff ? *knob.asked / kKiB : *knob.asked));
            }
        } else if (!knob.supported) {
            knob.set->setChecked(false);
        }
        knob.set->blockSignals(false);
        knob.set->setEnabled(knob.supported && !active);
        knob.value->setEnabled(knob.supported && !active && knob.set->isChecked());
    }
}

void RamCachePage::addTuning(cachectl::EnableRequest& request) const {
    if (m_cutoffSet->isEnabled() && m_cutoffSet->isChecked()) {
        request.sequentialCutoff = static_cast<std::uint64_t>(m_cutoff->value()) * kKiB;
    }
    if (m_percentSet->isEnabled() && m_percentSet->isChecked()) {
        request.writebackPercent = static_cast<unsigned>(m_percent->value());
    }
}

void RamCachePage::buildSafety(QFormLayout* form) {
    m_atNextBoot = new QCheckBox(tr("At next boot instead (nothing changes now)"));
    m_atNextBoot->setObjectName("ramcache.atNextBoot");
    m_atNextBoot->setToolTip(tr("A boot unit stacks the cache and /etc/fstab mounts it; the "
                                "fstab change is shown before anything is written."));
    form->addRow(QString(), m_atNextBoot);
    m_powerSafe = new QCheckBox(tr("On battery or before suspend: flush, then write-through"));
    m_powerSafe->setObjectName("ramcache.powerSafe");
    m_powerSafe->setToolTip(
        tr("Back to write-back on mains power or after resume. Before shutdown write-back is "
           "always flushed and switched to write-through."));
    m_safetyState = new QLabel;
    m_safetyState->setObjectName("ramcache.safetyState");
    m_safetyState->setWordWrap(true);
    auto* powerBox = new QVBoxLayout;
    powerBox->addWidget(m_powerSafe);
    powerBox->addWidget(m_safetyState);
    form->addRow(tr("Power"), powerBox);
    connect(m_atNextBoot, &QCheckBox::toggled, this, [this](bool on) {
        if (on) {
            m_applyNow->setChecked(false);
        }
    });
    connect(m_applyNow, &QCheckBox::toggled, this, [this](bool on) {
        if (on) {
            m_atNextBoot->setChecked(false);
        }
    });
    connect(m_powerSafe, &QCheckBox::clicked, this, [this](bool on) {
        if (auto active = activeCache(); active) {
            const cachectl::PolicyRequest request{active->record.active.plan.origin, on};
            send({verbName(cachectl::kVerbPolicy),
                  clientWork<cachectl::CacheClient>(
                      [request](cachectl::CacheClient& client, const auto&) {
                          return client.setPolicy(request);
                      }),
                  readReply(cachectl::recordReplyFromJson, [this](const cachectl::RecordReply&) {
                      changed(tr("Power policy saved."));
                  })});
        }
    });
}

void RamCachePage::applySafety(const std::optional<cachectl::CacheStatus>& active) {
    QStringList state;
    if (active) {
        const auto& record = active->record;
        m_powerSafe->setChecked(record.power.safeOnBattery);
        if (!record.power.switchedBy.empty()) {
            state << tr("Write-through now because of %1; write-back returns on mains power or "
                        "resume.")
                         .arg(toQString(record.power.switchedBy));
        }
        if (record.boot) {
            state << tr("At boot: %1, mounted through %2.")
                         .arg(toQString(record.boot->unit), toQString(record.boot->fstab));
        }
        if (record.phase == cachectl::CachePhase::Scheduled) {
            state << tr("Scheduled: the cache is stacked at the next boot.");
        }
    }
    m_safetyState->setText(state.join(QLatin1Char(' ')));
    m_safetyState->setVisible(!state.isEmpty());
}

void RamCachePage::confirmAtNextBoot(const cachectl::FstabPreview& fstab,
                                     cachectl::EnableRequest request) {
    if (m_bootConfirm != nullptr) {
        m_bootConfirm->close();
    }
    m_bootConfirm = new QMessageBox(
        QMessageBox::Question, tr("Cache at next boot"),
        tr("<p>SSD Keeper will change line %1 of %2 so that the filesystem is mounted from the "
           "cache, which a boot unit stacks before it. Nothing else changes now; turning the "
           "cache off puts the line back exactly.</p><pre>%3</pre>")
            .arg(fstab.line)
            .arg(toQString(fstab.path).toHtmlEscaped(), toQString(fstab.diff).toHtmlEscaped()),
        QMessageBox::Ok | QMessageBox::Cancel, this);
    m_bootConfirm->setObjectName("ramcache.bootConfirm");
    m_bootConfirm->button(QMessageBox::Ok)->setText(tr("Change fstab"));
    m_bootConfirm->setAttribute(Qt::WA_DeleteOnClose);
    request.preview = false;
    request.fstabLine = fstab.after;
    connect(m_bootConfirm, &QMessageBox::finished, this, [this, request](int result) {
        m_bootConfirm = nullptr;
        if (result == QMessageBox::Ok) {
            sendEnable(request);
        } else {
            m_enable->setChecked(false);
            m_message->setText(tr("Nothing changed."));
        }
    });
    m_bootConfirm->open();
}

void RamCachePage::loadTrace(const QString& path, const QString& format) {
    m_whatIf->loadTrace(path, format);
}

} // namespace ssdk::app
