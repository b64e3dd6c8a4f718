#include "app/pages/maintenance_page.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "app/device_text.h"
#include "app/pages/erase_wizard.h"
#include "app/theme.h"
#include "app/widgets/empty_table.h"
#include "app/widgets/scrolling_page.h"
#include "core/maintenance/erase/guards.h"
#include "core/maintenance/trim/fstrim.h"
#include "core/platform/platform.h"

namespace ssdk::app {

namespace {

namespace trim = maintenance::trim;

QString fromView(std::string_view value) {
    return QString::fromUtf8(value.data(), static_cast<qsizetype>(value.size()));
}

QString maintenanceVerb(const char* verb) {
    return QString::fromLatin1(verb);
}

QColor statusColor(trim::LayerStatus status) {
    switch (status) {
    case trim::LayerStatus::Passes:
        return theme::kSuccess;
    case trim::LayerStatus::Blocks:
        return theme::kError;
    case trim::LayerStatus::Warning:
        return theme::kLab;
    case trim::LayerStatus::Info:
        break;
    }
    return theme::kMutedText;
}

QString outcomeText(trim::VerifyOutcome outcome) {
    switch (outcome) {
    case trim::VerifyOutcome::Reached:
        return QObject::tr("TRIM reached the drive");
    case trim::VerifyOutcome::NotReached:
        return QObject::tr("TRIM did NOT reach the drive");
    case trim::VerifyOutcome::Inconclusive:
        break;
    }
    return QObject::tr("Inconclusive");
}

// The verdict of a TRIM check in its colour (green reached, red not reached, amber
// inconclusive, grey none), then its reason: the head of the verify and format results.
QString outcomeHeading(std::optional<trim::VerifyOutcome> outcome, std::string_view reason) {
    const QColor color = !outcome                                      ? theme::kMutedText
                         : *outcome == trim::VerifyOutcome::Reached    ? theme::kSuccess
                         : *outcome == trim::VerifyOutcome::NotReached ? theme::kError
                                                                       : theme::kLab;
    return QStringLiteral("<b style='color:%1; font-size:14pt'>%2</b><br>%3<br>")
        .arg(color.name(), outcome ? outcomeText(*outcome) : QObject::tr("No verdict"),
             fromView(reason).toHtmlEscaped());
}

QGroupBox* box(const QString& title, const QString& name) {
    auto* group = new QGroupBox(title);
    group->setObjectName(name);
    return group;
}

} // namespace

MaintenancePage::MaintenancePage(std::shared_ptr<rpc::Transport> helper,
                                 std::shared_ptr<platform::Platform> platform, QWidget* parent)
    : DevicePage(parent)
    , m_helper(helper)
    , m_platform(platform ? std::move(platform) : platform::makePlatform()) {
    m_runner = new HelperCaller(std::move(helper), this);
    connect(m_runner, &HelperCaller::finished, this, &MaintenancePage::helperFinished);
    connect(m_runner, &HelperCaller::progress, this, &MaintenancePage::helperProgress);

    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    layout->addWidget(buildAuditBox());
    layout->addWidget(buildVerifyBox());
    layout->addWidget(buildFormatBox());
    layout->addWidget(buildEraseBox());
    layout->addStretch();
    const auto footer = layOutScrollingPage(*this, content, QStringLiteral("maintenance"));
    m_progress = footer.progress;
    m_status = footer.status;
    updateButtons();
}

QWidget* MaintenancePage::buildAuditBox() {
    auto* group = box(tr("TRIM audit: can a discard reach the flash?"),
                      QStringLiteral("maintenance.auditBox"));
    auto* layout = new QVBoxLayout(group);
    auto* row = new QHBoxLayout;
    m_auditTarget = new QComboBox;
    m_auditTarget->setObjectName(QStringLiteral("maintenance.auditTarget"));
    m_auditTarget->setMinimumWidth(200);
    m_auditButton = new QPushButton(tr("Audit"));
    m_auditButton->setObjectName(QStringLiteral("maintenance.auditButton"));
    connect(m_auditButton, &QPushButton::clicked, this, &MaintenancePage::runAudit);
    row->addWidget(new QLabel(tr("Drive, partition or mount point:")));
    row->addWidget(m_auditTarget, 1);
    row->addWidget(m_auditButton);
    layout->addLayout(row);
    m_layers = new QTableWidget(0, 4);
    m_layers->setObjectName(QStringLiteral("maintenance.layers"));
    m_layers->setHorizontalHeaderLabels({tr("Layer"), tr("Name"), tr("Status"), tr("Why")});
    m_layers->horizontalHeader()->setStretchLastSection(true);
    m_layers->verticalHeader()->hide();
    m_layers->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_layers->setWordWrap(true);
    m_layers->setMinimumHeight(190);
    layout->addWidget(
        withEmptyText(m_layers, tr("No audit yet: choose what to check and press Audit.")));
    m_verdict = new QLabel;
    m_verdict->setObjectName(QStringLiteral("maintenance.verdict"));
    m_verdict->setWordWrap(true);
    layout->addWidget(m_verdict);
    return group;
}

QWidget* MaintenancePage::buildVerifyBox() {
    auto* group =
        box(tr("Verify TRIM, fstrim and scheduled TRIM"), QStringLiteral("maintenance.verifyBox"));
    auto* layout = new QVBoxLayout(group);
    auto* row = new QHBoxLayout;
    m_mountPoint = new QComboBox;
    m_mountPoint->setObjectName(QStringLiteral("maintenance.mountPoint"));
    m_mountPoint->setMinimumWidth(240);
    m_verifyMode = new QComboBox;
    m_verifyMode->setObjectName(QStringLiteral("maintenance.verifyMode"));
    m_verifyMode->setProperty("remember", true);
    m_verifyMode->addItem(tr("Trim now (FITRIM)"), static_cast<int>(trim::TrimMode::Fstrim));
    m_verifyMode->addItem(tr("Wait for online discard"),
                          static_cast<int>(trim::TrimMode::OnlineDiscard));
    m_verifyButton = new QPushButton(tr("Verify TRIM"));
    m_verifyButton->setObjectName(QStringLiteral("maintenance.verifyButton"));
    m_verifyButton->setToolTip(tr("Writes a file of marker blocks, deletes it, trims, and reads "
                                  "the device back. Nothing outside that file is written."));
    m_fstrimButton = new QPushButton(tr("Run fstrim"));
    m_fstrimButton->setObjectName(QStringLiteral("maintenance.fstrimButton"));
    connect(m_verifyButton, &QPushButton::clicked, this, &MaintenancePage::runVerify);
    connect(m_fstrimButton, &QPushButton::clicked, this, &MaintenancePage::runFstrim);
    row->addWidget(new QLabel(tr("Mounted filesystem:")));
    row->addWidget(m_mountPoint, 1);
    row->addWidget(m_verifyMode);
    layout->addLayout(row);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(m_verifyButton);
    buttons->addWidget(m_fstrimButton);
    layout->addLayout(buttons);
    m_verifyResult = new QLabel;
    m_verifyResult->setObjectName(QStringLiteral("maintenance.verifyResult"));
    m_verifyResult->setWordWrap(true);
    m_verifyResult->setTextFormat(Qt::RichText);
    m_verifyResult->setMinimumHeight(120);
    m_verifyResult->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    layout->addWidget(m_verifyResult);
    auto* timerRow = new QHBoxLayout;
    m_timerStatus = new QLabel(tr("fstrim.timer: …"));
    m_timerStatus->setObjectName(QStringLiteral("maintenance.timerStatus"));
    m_timerStatus->setWordWrap(true);
    m_timerButton = new QPushButton(tr("Enable weekly TRIM"));
    m_timerButton->setObjectName(QStringLiteral("maintenance.timerButton"));
    connect(m_timerButton, &QPushButton::clicked, this, [this] {
        const maintenance::TimerRequest request{!m_timerEnabled};
        if (m_runner->run(maintenanceVerb(maintenance::kVerbTrimTimer),
                          clientWork<maintenance::MaintenanceClient>(
                              [request](maintenance::MaintenanceClient& client, const auto&) {
                                  return client.setTimer(request);
                              }))) {
            updateButtons();
        }
    });
    timerRow->addWidget(m_timerStatus, 1);
    timerRow->addWidget(m_timerButton);
    layout->addLayout(timerRow);
    return group;
}

QWidget* MaintenancePage::buildFormatBox() {
    auto* group = box(tr("Quick format + verify TRIM"), QStringLiteral("maintenance.formatBox"));
    auto* layout = new QVBoxLayout(group);
    auto* row = new QHBoxLayout;
    m_partition = new QComboBox;
    m_partition->setMinimumWidth(160);
    m_partition->setObjectName(QStringLiteral("maintenance.partition"));
    m_fsType = new QComboBox;
    m_fsType->setObjectName(QStringLiteral("maintenance.fsType"));
    m_fsType->setProperty("remember", true);
    for (const auto& formatter : trim::formatters()) {
        m_fsType->addItem(QString::fromStdString(formatter.fsType));
    }
    m_verifyFormat = new QCheckBox(tr("Verify TRIM"));
    m_verifyFormat->setChecked(true);
    m_verifyFormat->setObjectName(QStringLiteral("maintenance.verifyFormat"));
    m_verifyFormat->setProperty("remember", true);
    m_discardFirst = new QCheckBox(tr("Discard the whole partition first"));
    m_formatButton = new QPushButton(tr("Format…"));
    m_formatButton->setObjectName(QStringLiteral("maintenance.formatButton"));
    connect(m_formatButton, &QPushButton::clicked, this, [this] { runFormat(false); });
    connect(m_fsType, &QComboBox::currentTextChanged, this, &MaintenancePage::updateFormatNote);
    row->addWidget(new QLabel(tr("Unmounted partition:")));
    row->addWidget(m_partition, 1);
    row->addWidget(new QLabel(tr("Filesystem:")));
    row->addWidget(m_fsType);
    row->addWidget(m_formatButton);
    layout->addLayout(row);
    auto* options = new QHBoxLayout;
    options->addWidget(m_verifyFormat);
    options->addWidget(m_discardFirst);
    options->addStretch();
    layout->addLayout(options);
    m_formatNote = new QLabel;
    m_formatNote->setProperty("role", QStringLiteral("muted"));
    m_formatNote->setWordWrap(true);
    layout->addWidget(m_formatNote);
    m_formatResult = new QLabel;
    m_formatResult->setObjectName(QStringLiteral("maintenance.formatResult"));
    m_formatResult->setWordWrap(true);
    m_formatResult->setMinimumHeight(60);
    m_formatResult->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    layout->addWidget(m_formatResult);
    updateFormatNote();
    return group;
}

QWidget* MaintenancePage::buildEraseBox() {
    auto* group = box(tr("Secure erase"), QStringLiteral("maintenance.eraseBox"));
    auto* layout = new QHBoxLayout(group);
    m_eraseNote = new QLabel(tr("Erases the whole drive with the strongest method it supports "
                                "(NVMe sanitize/format, ATA sanitize/security erase, discard, "
                                "zero-out), then verifies and writes a certificate."));
    m_eraseNote->setWordWrap(true);
    m_eraseButton = new QPushButton(tr("Erase drive…"));
    m_eraseButton->setObjectName(QStringLiteral("maintenance.eraseButton"));
    connect(m_eraseButton, &QPushButton::clicked, this, &MaintenancePage::openEraseWizard);
    layout->addWidget(m_eraseNote, 1);
    layout->addWidget(m_eraseButton);
    return group;
}

void MaintenancePage::setDevice(const device::Device* device) {
    const bool same = device && m_device && m_device->path == device->path;
    const QString auditWas = m_auditTarget->currentText();
    m_device = device ? std::optional<device::Device>(*device) : std::nullopt;
    m_auditTarget->clear();
    m_mountPoint->clear();
    m_partition->clear();
    if (m_device) {
        m_auditTarget->addItem(QString::fromStdString(m_device->path));
        auto addMounts = [&](const std::vector<device::Mount>& mounts) {
            for (const auto& mount : mounts) {
                m_auditTarget->addItem(QString::fromStdString(mount.mountPoint));
                m_mountPoint->addItem(QString::fromStdString(mount.mountPoint));
            }
        };
        addMounts(m_device->mounts);
        for (const auto& partition : m_device->partitions) {
            m_auditTarget->addItem(QString::fromStdString(partition.path));
            addMounts(partition.mounts);
            if (partition.mounts.empty() && partition.holders.empty()) {
                m_partition->addItem(QString::fromStdString(partition.path));
            }
        }
        // Prefer auditing a filesystem: that covers the whole stack.
        if (m_mountPoint->count() > 0) {
            m_auditTarget->setCurrentText(m_mountPoint->itemText(0));
        }
        if (same && m_auditTarget->findText(auditWas) >= 0) {
            m_auditTarget->setCurrentText(auditWas);
        }
    }
    if (!same) {
        m_layers->setRowCount(0);
        m_verdict->clear();
        m_verifyResult->clear();
        m_formatResult->clear();
        refreshTimer();
        if (m_device) {
            runAudit();
        }
    }
    updateButtons();
}

bool MaintenancePage::isLoading() const {
    return m_readingTimer || (m_runner != nullptr && m_runner->isBusy());
}

void MaintenancePage::refreshTimer() {
    auto* watcher = new QFutureWatcher<trim::TimerFacts>(this);
    m_readingTimer = true;
    connect(watcher, &QFutureWatcher<trim::TimerFacts>::finished, this, [this, watcher] {
        m_readingTimer = false;
        showTimer(watcher->result());
        watcher->deleteLater();
    });
    watcher->setFuture(QtConcurrent::run([platform = m_platform] {
        return trim::readTimer(platform->processRunner(), SysfsRoot());
    }));
}

void MaintenancePage::showTimer(const trim::TimerFacts& timer) {
    m_timerEnabled = timer.enabled;
    if (!timer.available) {
        const QString reason = QString::fromStdString(timer.unavailableReason);
        m_timerStatus->setText(tr("fstrim.timer: unavailable — %1").arg(reason));
        m_timerButton->setEnabled(false);
        m_timerButton->setToolTip(reason);
        return;
    }
    m_timerStatus->setText(tr("fstrim.timer: %1, %2")
                               .arg(m_timerEnabled ? tr("enabled") : tr("disabled"),
                                    timer.active ? tr("active") : tr("inactive")));
    m_timerButton->setText(m_timerEnabled ? tr("Disable weekly TRIM") : tr("Enable weekly TRIM"));
    m_timerButton->setEnabled(!m_runner->isBusy());
}

void MaintenancePage::updateFormatNote() {
    if (const auto* formatter = trim::findFormatter(m_fsType->currentText().toStdString())) {
        m_formatNote->setText(tr("%1: %2").arg(QString::fromStdString(formatter->program),
                                               QString::fromStdString(formatter->discardNote)));
    }
}

void MaintenancePage::updateButtons() {
    const bool idle = !m_runner->isBusy() && m_device.has_value();
    m_auditButton->setEnabled(idle && m_auditTarget->count() > 0);
    m_verifyButton->setEnabled(idle && m_mountPoint->count() > 0);
    m_fstrimButton->setEnabled(idle && m_mountPoint->count() > 0);
    m_formatButton->setEnabled(idle && m_partition->count() > 0);
    // Checked first: a drive the erase guards refuse (the running system's, mounted, held,
    // read-only) offers no Erase at all, and says why, instead of a wizard that refuses later.
    const Expected<void> erasable =
        m_device ? maintenance::erase::checkEraseGuards(
                       *m_device, maintenance::erase::confirmationWord(*m_device))
                 : Expected<void>{};
    m_eraseButton->setEnabled(idle && erasable.has_value());
    m_eraseButton->setToolTip(erasable ? QString()
                                       : QString::fromStdString(erasable.error().message()));
    m_progress->setVisible(m_runner->isBusy());
}

void MaintenancePage::runAudit() {
    const maintenance::AuditRequest request{m_auditTarget->currentText().toStdString()};
    if (m_runner->run(maintenanceVerb(maintenance::kVerbTrimAudit),
                      clientWork<maintenance::MaintenanceClient>(
                          [request](maintenance::MaintenanceClient& client, const auto&) {
                              return client.audit(request);
                          }))) {
        m_status->setText(tr("Auditing %1…").arg(m_auditTarget->currentText()));
        m_progress->setRange(0, 0);
        updateButtons();
    }
}

void MaintenancePage::runVerify() {
    maintenance::VerifyRequest request{m_mountPoint->currentText().toStdString()};
    request.mode = static_cast<trim::TrimMode>(m_verifyMode->currentData().toInt());
    if (m_runner->run(maintenanceVerb(maintenance::kVerbTrimVerify),
                      clientWork<maintenance::MaintenanceClient>(
                          [request](maintenance::MaintenanceClient& client,
                                    const rpc::Transport::EventHandler& onEvent) {
                              return client.verify(request, onEvent);
                          }))) {
        m_verifyResult->setText(tr("Verifying…"));
        m_progress->setRange(0, 1000);
        updateButtons();
    }
}

void MaintenancePage::runFstrim() {
    const maintenance::FstrimRequest request{m_mountPoint->currentText().toStdString()};
    if (m_runner->run(maintenanceVerb(maintenance::kVerbTrimFstrim),
                      clientWork<maintenance::MaintenanceClient>(
                          [request](maintenance::MaintenanceClient& client,
                                    const rpc::Transport::EventHandler& onEvent) {
                              return client.fstrim(request, onEvent);
                          }))) {
        m_progress->setRange(0, 1000);
        updateButtons();
    }
}

void MaintenancePage::runFormat(bool confirmed) {
    const QString partition = m_partition->currentText();
    if (partition.isEmpty()) {
        return;
    }
    if (!confirmed && QMessageBox::warning(this, tr("Format %1?").arg(partition),
                                           tr("Formatting %1 as %2 destroys everything on it.")
                                               .arg(partition, m_fsType->currentText()),
                                           QMessageBox::Cancel | QMessageBox::Discard,
                                           QMessageBox::Cancel) != QMessageBox::Discard) {
        return;
    }
    const maintenance::FormatRequest request{
        partition.toStdString(), m_fsType->currentText().toStdString(), m_verifyFormat->isChecked(),
        m_discardFirst->isChecked()};
    if (m_runner->run(maintenanceVerb(maintenance::kVerbFormatRun),
                      clientWork<maintenance::MaintenanceClient>(
                          [request](maintenance::MaintenanceClient& client,
                                    const rpc::Transport::EventHandler& onEvent) {
                              return client.format(request, onEvent);
                          }))) {
        m_formatResult->setText(tr("Formatting…"));
        m_progress->setRange(0, 1000);
        updateButtons();
    }
}

void MaintenancePage::openEraseWizard() {
    if (!m_device) {
        return;
    }
    auto* wizard = new EraseWizard(*m_device, m_helper, this);
    wizard->setAttribute(Qt::WA_DeleteOnClose);
    wizard->show();
}

void MaintenancePage::helperProgress(const QString&, double fraction, const QString& text) {
    showFraction(m_progress, fraction);
    m_status->setText(text);
}

void MaintenancePage::showError(const QString& verb, const QString& error) {
    const QString html = QStringLiteral("<span style='color:%1'>%2</span>")
                             .arg(theme::kError.name(), error.toHtmlEscaped());
    if (verb == maintenanceVerb(maintenance::kVerbTrimAudit)) {
        m_verdict->setText(html);
    } else if (verb == maintenanceVerb(maintenance::kVerbFormatRun)) {
        m_formatResult->setText(html);
    } else {
        m_verifyResult->setText(html);
    }
}

void MaintenancePage::helperFinished(const QString& verb, const HelperCaller::Outcome& outcome) {
    m_status->clear();
    updateButtons();
    // Each verb's answer read back typed and shown; a failed call or an unreadable answer is
    // shown as the error instead.
    const auto show = [&](auto parse, auto display) {
        QString why;
        if (auto reply = replyOf(outcome, parse, why)) {
            display(*reply);
        } else {
            showError(verb, why);
        }
    };
    if (verb == maintenanceVerb(maintenance::kVerbTrimAudit)) {
        show(maintenance::trimAuditFromJson, [this](const auto& audit) { showAudit(audit); });
    } else if (verb == maintenanceVerb(maintenance::kVerbTrimVerify)) {
        show(maintenance::verifyResultFromJson, [this](const auto& result) { showVerify(result); });
    } else if (verb == maintenanceVerb(maintenance::kVerbTrimFstrim)) {
        show(maintenance::fstrimReplyFromJson, [this](const auto& reply) { showFstrim(reply); });
    } else if (verb == maintenanceVerb(maintenance::kVerbTrimTimer)) {
        show(maintenance::timerFactsFromJson, [this](const auto&) { refreshTimer(); });
    } else if (verb == maintenanceVerb(maintenance::kVerbFormatRun)) {
        show(maintenance::formatResultFromJson, [this](const auto& result) { showFormat(result); });
    }
    emit resultShown(verb);
}

void MaintenancePage::showAudit(const trim::TrimAudit& audit) {
    m_layers->setRowCount(static_cast<int>(audit.layers.size()));
    int row = 0;
    for (const auto& layer : audit.layers) {
        auto* statusItem = new QTableWidgetItem(fromView(trim::toString(layer.status)));
        statusItem->setForeground(statusColor(layer.status));
        m_layers->setItem(row, 0, new QTableWidgetItem(fromView(layer.layer)));
        m_layers->setItem(row, 1, new QTableWidgetItem(fromView(layer.name)));
        m_layers->setItem(row, 2, statusItem);
        auto* detail = new QTableWidgetItem(fromView(layer.detail));
        detail->setToolTip(fromView(layer.detail));
        m_layers->setItem(row, 3, detail);
        ++row;
    }
    m_layers->resizeColumnsToContents();
    m_layers->horizontalHeader()->setStretchLastSection(true);
    m_layers->resizeRowsToContents();
    const bool hasFilesystem =
        !audit.layers.empty() && audit.layers.front().layer == maintenance::kAuditFilesystemLayer;
    // Green: discards reach the drive and something issues them; amber: they could, but
    // neither online discard nor a recent scheduled fstrim does; red: a layer stops them.
    const QString color = !audit.reachesDrive                            ? theme::kError.name()
                          : (!hasFilesystem || audit.filesystemDiscards) ? theme::kSuccess.name()
                                                                         : theme::kLab.name();
    m_verdict->setText(QStringLiteral("<b style='color:%1'>%2</b><br>%3")
                           .arg(color, fromView(audit.verdict).toHtmlEscaped(),
                                tr("Trimmed blocks read back as: %1")
                                    .arg(fromView(trim::toString(audit.readAfterTrim)))));
}

void MaintenancePage::showVerify(const trim::VerifyResult& result) {
    QString html = outcomeHeading(result.outcome, result.reason);
    html += tr("Marker blocks on %1 after the trim: %2 markers, %3 zeros, %4 ones, %5 other.")
                .arg(fromView(result.device))
                .arg(result.after.markers)
                .arg(result.after.zeros)
                .arg(result.after.ones)
                .arg(result.after.other);
    if (result.backingHoles) {
        html += tr(" Lab drive image: %1 of those blocks store no data any more.")
                    .arg(*result.backingHoles);
    }
    m_verifyResult->setText(html);
    showAudit(result.audit);
}

void MaintenancePage::showFstrim(const maintenance::FstrimReply& reply) {
    m_verifyResult->setText(
        tr("fstrim %1: %2 trimmed").arg(fromView(reply.mountPoint), sizeText(reply.trimmed)));
}

void MaintenancePage::showFormat(const trim::FormatResult& result) {
    const QString fs = fromView(result.fsType).toHtmlEscaped();
    // Plain text first (it reads the same as rich text), the verdict below it.
    QString html = tr("Formatted %1 as %2 (%3).")
                       .arg(fromView(result.device), fromView(result.fsType),
                            fromView(result.formatterCommand))
                       .toHtmlEscaped();
    if (!result.reason.empty()) { // verified
        html += QStringLiteral("<br>") + outcomeHeading(result.outcome, result.reason);
        if (result.freeMapError.empty()) {
            html += tr("Sampled %1 data blocks. Judged %2, the ones the new %3 leaves free (read "
                       "from %4): %5 discarded, %6 kept old data, %7 hold other data. %8 now used "
                       "by the new %3, not judged.")
                        .arg(result.sampled)
                        .arg(result.counts.judged())
                        .arg(fs, fromView(result.freeMapSource).toHtmlEscaped())
                        .arg(result.counts.discarded)
                        .arg(result.counts.kept)
                        .arg(result.counts.rewritten)
                        .arg(result.counts.inUseByNewFs);
        }
        if (result.groundTruthAgreements) {
            html += tr(" Lab drive image agrees on %1 of %2 judged blocks.")
                        .arg(*result.groundTruthAgreements)
                        .arg(result.counts.judged());
        }
        if (result.groundTruthDisagrees) {
            html +=
                QStringLiteral("<br><b style='color:%1'>%2</b>")
                    .arg(theme::kError.name(), fromView(result.groundTruthWarning).toHtmlEscaped());
        }
    }
    if (result.offerBlkdiscard) {
        html += tr("<br>The formatter did not discard: tick \"Discard the whole partition first\" "
                   "and format again.");
    }
    m_formatResult->setText(html);
}

} // namespace ssdk::app
