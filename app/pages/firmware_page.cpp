#include "app/pages/firmware_page.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "app/helper_caller.h"
#include "app/pages/erase_wizard.h"
#include "app/theme.h"
#include "app/widgets/empty_table.h"
#include "app/widgets/scrolling_page.h"
#include "core/firmware/firmware_client.h"

namespace ssdk::app {

namespace {

QString firmwareVerb(const char* verb) {
    return QString::fromLatin1(verb);
}

QString str(const std::string& text) {
    return QString::fromStdString(text);
}

QGroupBox* box(const QString& title, const QString& name) {
    auto* group = new QGroupBox(title);
    group->setObjectName(name);
    return group;
}

QTableWidget* table(const QString& name, const QStringList& headers) {
    auto* t = new QTableWidget(0, static_cast<int>(headers.size()));
    t->setObjectName(name);
    t->setHorizontalHeaderLabels(headers);
    t->horizontalHeader()->setStretchLastSection(true);
    t->verticalHeader()->hide();
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionMode(QAbstractItemView::NoSelection);
    t->setWordWrap(true);
    return t;
}

QTableWidgetItem* item(const QString& text, bool greyed = false) {
    auto* cell = new QTableWidgetItem(text);
    if (greyed) {
        cell->setForeground(theme::kMutedText);
    }
    return cell;
}

QString yesNo(bool value) {
    return value ? QObject::tr("yes") : QObject::tr("no");
}

} // namespace

FirmwarePage::FirmwarePage(std::shared_ptr<rpc::Transport> helper, QWidget* parent)
    : DevicePage(parent)
    , m_fwupd(firmware::systemFwupdService())
    , m_fwupdCancel(std::make_shared<std::atomic<bool>>(false)) {
    m_runner = new HelperCaller(std::move(helper), this);
    connect(&m_fwupdWatcher, &QFutureWatcher<FwupdOutcome>::finished, this,
            &FirmwarePage::fwupdFinished);
    connect(m_runner, &HelperCaller::finished, this, &FirmwarePage::helperFinished);
    connect(m_runner, &HelperCaller::progress, this,
            [this](const QString&, double fraction, const QString& text) {
                m_progress->show();
                showFraction(m_progress, fraction);
                m_status->setText(text);
            });
    m_confirm = [this](const UpdateQuestion& question) {
        QString text = tr("Update the firmware of %1?\n\n%2\n\n")
                           .arg(m_device ? QString::fromStdString(m_device->path) : QString(),
                                question.account);
        for (const auto& reminder : question.reminders) {
            text += QStringLiteral("• ") + reminder + QLatin1Char('\n');
        }
        return QMessageBox::warning(this, tr("Update firmware"), text,
                                    QMessageBox::Yes | QMessageBox::Cancel,
                                    QMessageBox::Cancel) == QMessageBox::Yes;
    };

    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    m_identity = new QLabel;
    m_identity->setObjectName(QStringLiteral("firmware.identity"));
    m_identity->setWordWrap(true);
    m_identity->setTextFormat(Qt::RichText);
    layout->addWidget(m_identity);
    layout->addWidget(buildSlotsBox());
    layout->addWidget(buildIssuesBox());
    layout->addWidget(buildPathsBox());
    layout->addWidget(buildFwupdBox());
    layout->addWidget(buildUpdateBox());
    layout->addStretch();
    const auto footer = layOutScrollingPage(*this, content, QStringLiteral("firmware"));
    m_progress = footer.progress;
    m_status = footer.status;
    updateButtons();
}

QGroupBox* FirmwarePage::buildSlotsBox() {
    auto* group = box(tr("Firmware slots"), QStringLiteral("firmware.slotsBox"));
    auto* layout = new QVBoxLayout(group);
    m_caps = new QLabel;
    m_caps->setObjectName(QStringLiteral("firmware.caps"));
    m_caps->setWordWrap(true);
    layout->addWidget(m_caps);
    m_slots = table(QStringLiteral("firmware.slots"), {tr("Slot"), tr("Revision"), tr("State")});
    m_slots->setMinimumHeight(120);
    m_slots->setColumnWidth(0, 60);
    m_slots->setColumnWidth(1, 160);
    layout->addWidget(
        withEmptyText(m_slots, tr("No firmware slots reported (NVMe drives report them).")));
    return group;
}

QGroupBox* FirmwarePage::buildIssuesBox() {
    auto* group = box(tr("Known firmware problems"), QStringLiteral("firmware.issuesBox"));
    auto* layout = new QVBoxLayout(group);
    m_issues = new QLabel;
    m_issues->setObjectName(QStringLiteral("firmware.issues"));
    m_issues->setWordWrap(true);
    m_issues->setTextFormat(Qt::RichText);
    m_issues->setOpenExternalLinks(true);
    layout->addWidget(m_issues);
    return group;
}

QGroupBox* FirmwarePage::buildPathsBox() {
    auto* group = box(tr("Update paths"), QStringLiteral("firmware.pathsBox"));
    auto* layout = new QVBoxLayout(group);
    m_paths = table(QStringLiteral("firmware.paths"), {tr("Path"), tr("Offered"), tr("Why")});
    m_paths->setMinimumHeight(175);
    m_paths->setColumnWidth(0, 250);
    m_paths->setColumnWidth(1, 70);
    layout->addWidget(withEmptyText(m_paths, tr("No update paths checked yet.")));
    return group;
}

FirmwarePage::~FirmwarePage() {
    // The worker relays progress to this page: it must be done before the page goes.
    m_fwupdCancel->store(true);
    m_fwupdWatcher.waitForFinished();
}

QGroupBox* FirmwarePage::buildFwupdBox() {
    auto* group = box(tr("fwupd releases"), QStringLiteral("firmware.fwupdBox"));
    auto* layout = new QVBoxLayout(group);
    m_fwupdSummary = new QLabel;
    m_fwupdSummary->setObjectName(QStringLiteral("firmware.fwupdSummary"));
    m_fwupdSummary->setWordWrap(true);
    layout->addWidget(m_fwupdSummary);
    m_fwupdReleases = table(QStringLiteral("firmware.fwupdReleases"),
                            {tr("Version"), tr("Remote"), tr("Summary")});
    m_fwupdReleases->setSelectionMode(QAbstractItemView::SingleSelection);
    m_fwupdReleases->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_fwupdReleases->setColumnWidth(0, 110);
    m_fwupdReleases->setColumnWidth(1, 120);
    m_fwupdReleases->setMinimumHeight(90);
    connect(m_fwupdReleases, &QTableWidget::itemSelectionChanged, this,
            &FirmwarePage::updateButtons);
    layout->addWidget(withEmptyText(m_fwupdReleases, tr("No fwupd releases listed yet.")));
    auto* row = new QHBoxLayout;
    m_fwupdInstall = new QPushButton(tr("Install…"));
    m_fwupdInstall->setObjectName(QStringLiteral("firmware.fwupdInstall"));
    connect(m_fwupdInstall, &QPushButton::clicked, this, &FirmwarePage::startFwupdInstall);
    m_fwupdCancelButton = new QPushButton(tr("Cancel"));
    m_fwupdCancelButton->setObjectName(QStringLiteral("firmware.fwupdCancel"));
    m_fwupdCancelButton->setToolTip(
        tr("fwupd stops a download or an install that has not started writing; it does not "
           "stop a device that is being written."));
    connect(m_fwupdCancelButton, &QPushButton::clicked, this,
            [this] { m_fwupdCancel->store(true); });
    m_fwupdProgress = new QProgressBar;
    m_fwupdProgress->setObjectName(QStringLiteral("firmware.fwupdProgress"));
    m_fwupdProgress->setRange(0, 100);
    m_fwupdProgress->setValue(0);
    m_fwupdInstall->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
    m_fwupdCancelButton->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
    row->addWidget(m_fwupdInstall);
    row->addWidget(m_fwupdCancelButton);
    row->addWidget(m_fwupdProgress, 1);
    row->addStretch(0); // takes the room while the progress bar is hidden
    layout->addLayout(row);
    m_fwupdResult = new QLabel;
    m_fwupdResult->setObjectName(QStringLiteral("firmware.fwupdResult"));
    m_fwupdResult->setWordWrap(true);
    layout->addWidget(m_fwupdResult);
    return group;
}

void FirmwarePage::showFwupd(const firmware::PathStatus* path) {
    m_fwupdReleases->setRowCount(0);
    m_fwupdOffered = false;
    m_fwupdDeviceId.clear();
    if (path == nullptr) {
        m_fwupdSummary->setText(tr("fwupd was not asked about this drive."));
        updateButtons();
        return;
    }
    m_fwupdOffered = path->available;
    m_fwupdDeviceId = path->fwupdDeviceId;
    if (m_fwupdDeviceId.empty()) {
        m_fwupdSummary->setText(tr("Not offered: %1").arg(str(path->reason)));
    } else {
        m_fwupdSummary->setText(tr("<b>%1</b>, version <b>%2</b> (fwupd device %3).<br>%4")
                                    .arg(str(path->fwupdDeviceName).toHtmlEscaped(),
                                         str(path->fwupdVersion).toHtmlEscaped(),
                                         str(path->fwupdDeviceId).left(12),
                                         str(path->reason).toHtmlEscaped()));
    }
    for (const auto& release : path->releases) {
        const int row = m_fwupdReleases->rowCount();
        m_fwupdReleases->insertRow(row);
        m_fwupdReleases->setItem(row, 0, item(str(release.version)));
        m_fwupdReleases->setItem(row, 1, item(str(release.remoteId)));
        m_fwupdReleases->setItem(row, 2, item(str(release.summary)));
    }
    if (m_fwupdReleases->rowCount() > 0) {
        m_fwupdReleases->selectRow(0);
    }
    m_fwupdReleases->setVisible(m_fwupdReleases->rowCount() > 0);
    m_fwupdReleases->resizeRowsToContents();
    updateButtons();
}

void FirmwarePage::startFwupdInstall() {
    const auto selected = m_fwupdReleases->selectionModel()->selectedRows();
    if (!m_fwupdOffered || fwupdBusy() || selected.isEmpty()) {
        return;
    }
    const QString version = m_fwupdReleases->item(selected.front().row(), 0)->text();
    const UpdateQuestion question{
        tr("fwupd installs firmware %1 on %2. fwupd checks the file against its metadata and "
           "may ask for your password.")
            .arg(version, m_fwupdSummary->text()
                              .section(QLatin1String("</b>"), 0, 0)
                              .remove(QLatin1String("<b>"))),
        {tr("Back up your data first."), tr("Keep the machine powered until fwupd is done.")}};
    if (!m_confirm || !m_confirm(question)) {
        m_fwupdResult->setText(tr("Install cancelled; nothing was sent to fwupd."));
        return;
    }
    m_fwupdCancel->store(false);
    m_fwupdResult->clear();
    m_fwupdProgress->setValue(0);
    m_status->setText(tr("fwupd is installing %1…").arg(version));
    const firmware::FwupdInstallRequest request{m_fwupdDeviceId, version.toStdString(), ""};
    auto service = m_fwupd;
    auto cancel = m_fwupdCancel;
    // Runs on a pool thread; the page waits for it in its destructor, so `this` outlives it.
    const firmware::FwupdProgressFn progress = [this](const firmware::FwupdProgress& p) {
        QMetaObject::invokeMethod(
            this,
            [this, percent = p.percent, status = QString::fromStdString(p.status)] {
                fwupdProgress(percent, status);
            },
            Qt::QueuedConnection);
    };
    m_fwupdWatcher.setFuture(QtConcurrent::run([service, cancel, request, progress] {
        return FwupdOutcome{firmware::installWithFwupd(*service, request, progress, cancel.get()),
                            std::make_shared<const firmware::PathStatus>(
                                firmware::probeFwupdDevice(*service, request.deviceId))};
    }));
    updateButtons();
}

void FirmwarePage::fwupdProgress(unsigned percent, const QString& status) {
    m_fwupdProgress->setValue(static_cast<int>(std::min(percent, 100U)));
    m_status->setText(tr("fwupd: %1 %2%").arg(status).arg(percent));
}

void FirmwarePage::fwupdFinished() {
    const FwupdOutcome outcome = m_fwupdWatcher.result();
    m_status->clear();
    if (outcome.install) {
        m_fwupdProgress->setValue(100);
        m_fwupdResult->setText(tr("Installed %1: %2 now runs %3 (was %4).")
                                   .arg(QString::fromStdString(outcome.install->installed),
                                        QString::fromStdString(outcome.install->name),
                                        QString::fromStdString(outcome.install->versionAfter),
                                        QString::fromStdString(outcome.install->versionBefore)));
    } else {
        m_fwupdResult->setText(
            tr("fwupd did not install: %1")
                .arg(QString::fromStdString(outcome.install.error().describe())));
    }
    const QString result = m_fwupdResult->text();
    // The fwupd row of "Update paths" follows what fwupd answers now.
    for (int row = 0; row < m_paths->rowCount(); ++row) {
        if (m_paths->item(row, 0)->data(Qt::UserRole).toString() == str(outcome.path->id)) {
            const bool offered = outcome.path->available;
            m_paths->setItem(row, 0, item(str(outcome.path->title), !offered));
            m_paths->item(row, 0)->setData(Qt::UserRole, str(outcome.path->id));
            m_paths->setItem(row, 1, item(yesNo(offered), !offered));
            m_paths->setItem(row, 2, item(str(outcome.path->reason), !offered));
        }
    }
    showFwupd(outcome.path.get());
    m_fwupdResult->setText(result);
    emit resultShown(QStringLiteral("fwupd.install"));
}

QGroupBox* FirmwarePage::buildUpdateBox() {
    auto* group = box(tr("Update from image…"), QStringLiteral("firmware.updateBox"));
    auto* layout = new QVBoxLayout(group);
    auto* note = new QLabel(tr("Only an NVMe firmware image the drive's vendor published for "
                               "this exact model. SSD Keeper checks power, image size and "
                               "alignment and the slot before anything is sent."));
    note->setWordWrap(true);
    note->setProperty("role", QStringLiteral("muted"));
    layout->addWidget(note);
    auto* imageRow = new QHBoxLayout;
    m_image = new QLineEdit;
    m_image->setObjectName(QStringLiteral("firmware.image"));
    m_image->setPlaceholderText(tr("Firmware image file"));
    m_browse = new QPushButton(tr("Browse…"));
    m_browse->setObjectName(QStringLiteral("firmware.browse"));
    connect(m_browse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Firmware image"));
        if (!file.isEmpty()) {
            m_image->setText(file);
        }
    });
    imageRow->addWidget(new QLabel(tr("Image:")));
    imageRow->addWidget(m_image, 1);
    imageRow->addWidget(m_browse);
    layout->addLayout(imageRow);
    auto* row = new QHBoxLayout;
    m_slot = new QSpinBox;
    m_slot->setObjectName(QStringLiteral("firmware.slot"));
    m_slot->setRange(static_cast<int>(firmware::kMinSlot), static_cast<int>(firmware::kMaxSlot));
    m_slot->setValue(2);
    m_action = new QComboBox;
    m_action->setObjectName(QStringLiteral("firmware.action"));
    m_action->addItem(tr("Store and activate at the next reset"),
                      QStringLiteral("replace-activate"));
    m_action->addItem(tr("Store only"), QStringLiteral("replace"));
    m_action->addItem(tr("Activate the image already in the slot"), QStringLiteral("activate"));
    m_action->addItem(tr("Store and activate now (no reset)"), QStringLiteral("activate-now"));
    connect(m_action, &QComboBox::currentIndexChanged, this, &FirmwarePage::updateButtons);
    row->addWidget(new QLabel(tr("Slot:")));
    row->addWidget(m_slot);
    row->addWidget(new QLabel(tr("Action:")));
    row->addWidget(m_action, 1);
    layout->addLayout(row);
    m_systemDisk = new QCheckBox(tr("This drive holds the running system: update it anyway"));
    m_systemDisk->setObjectName(QStringLiteral("firmware.confirmSystemDisk"));
    m_systemDisk->setVisible(false);
    layout->addWidget(m_systemDisk);
    m_updateButton = new QPushButton(tr("Check and update…"));
    m_updateButton->setObjectName(QStringLiteral("firmware.updateButton"));
    connect(m_updateButton, &QPushButton::clicked, this, &FirmwarePage::startUpdate);
    connect(m_image, &QLineEdit::textChanged, this, &FirmwarePage::updateButtons);
    layout->addWidget(m_updateButton, 0, Qt::AlignLeft);
    m_updateResult = new QLabel;
    m_updateResult->setObjectName(QStringLiteral("firmware.updateResult"));
    m_updateResult->setWordWrap(true);
    layout->addWidget(m_updateResult);
    return group;
}

void FirmwarePage::setConfirmHandler(std::function<bool(const UpdateQuestion&)> handler) {
    m_confirm = std::move(handler);
}

void FirmwarePage::setDevice(const device::Device* device) {
    const bool same = device != nullptr && m_device && m_device->path == device->path;
    m_device = device != nullptr ? std::optional<device::Device>(*device) : std::nullopt;
    if (same) {
        return; // a rescan of the same drive: the firmware did not change
    }
    m_imagePathOffered = false;
    m_slots->setRowCount(0);
    m_paths->setRowCount(0);
    m_caps->clear();
    m_issues->clear();
    m_updateResult->clear();
    m_fwupdResult->clear();
    m_fwupdSummary->clear();
    m_fwupdReleases->setRowCount(0);
    m_fwupdReleases->hide();
    m_fwupdOffered = false;
    m_systemDisk->setVisible(m_device && m_device->holdsRootFilesystem());
    m_identity->setText(m_device ? tr("<b>%1</b> — %2")
                                       .arg(QString::fromStdString(m_device->path),
                                            QString::fromStdString(m_device->model))
                                 : tr("Select a drive."));
    refresh();
    updateButtons();
}

void FirmwarePage::refresh() {
    if (!m_device) {
        return;
    }
    if (m_runner->isBusy()) {
        m_refreshPending = true;
        return;
    }
    m_status->setText(
        tr("Reading the firmware of %1…").arg(QString::fromStdString(m_device->path)));
    const firmware::InfoRequest request{m_device->path};
    m_runner->run(firmwareVerb(firmware::kVerbInfo),
                  clientWork<firmware::FirmwareClient>(
                      [request](firmware::FirmwareClient& client, const auto&) {
                          return client.info(request);
                      }));
}

void FirmwarePage::showInfo(const firmware::FirmwareInfo& info) {
    const firmware::DriveFirmwareFacts& facts = info.facts;
    const QString revision = str(facts.revision);
    m_identity->setText(
        tr("<b>%1</b> — %2 — firmware <b>%3</b>")
            .arg(str(info.device.path), str(facts.model).toHtmlEscaped(),
                 revision.isEmpty() ? tr("not reported") : revision.toHtmlEscaped()));
    const firmware::NvmeFirmwareCaps* caps = facts.nvme ? &*facts.nvme : nullptr;
    m_slots->setRowCount(0);
    if (caps != nullptr) {
        m_caps->setText(
            tr("%1 slot(s); slot 1 read-only: %2; activation without reset: %3; Firmware "
               "Download/Commit: %4; download chunk %5 KiB%6")
                .arg(caps->slotCount)
                .arg(yesNo(caps->slot1ReadOnly), yesNo(caps->activationWithoutReset),
                     yesNo(caps->downloadCommitSupported))
                .arg(caps->chunkBytes() / 1024)
                .arg(caps->granularityStated() ? tr(" (FWUG)") : tr(" (FWUG not stated)")));
        m_slot->setMaximum(std::max(1, static_cast<int>(caps->slotCount)));
    } else if (facts.ata) {
        QStringList modes;
        for (const auto& mode : facts.ata->modes()) {
            modes << str(mode);
        }
        m_caps->setText(
            facts.ata->supported
                ? tr("ATA DOWNLOAD MICROCODE modes: %1").arg(modes.join(QStringLiteral("; ")))
                : tr("The drive does not support ATA DOWNLOAD MICROCODE."));
    } else {
        const QString why = str(facts.nvmeError);
        m_caps->setText(why.isEmpty() ? tr("This drive reports no firmware slots.")
                                      : tr("Firmware slots unavailable: %1").arg(why));
    }
    if (const auto& log = facts.slotLog) {
        for (const auto& slot : firmware::slotStates(*log, caps)) {
            QStringList state;
            if (slot.active) {
                state << tr("active");
            }
            if (slot.nextReset) {
                state << tr("active after the next reset");
            }
            if (slot.readOnly) {
                state << tr("read-only");
            }
            const int row = m_slots->rowCount();
            m_slots->insertRow(row);
            const QString rev = str(slot.revision);
            m_slots->setItem(row, 0, item(QString::number(slot.slot)));
            m_slots->setItem(row, 1, item(rev.isEmpty() ? tr("(empty)") : rev, rev.isEmpty()));
            m_slots->setItem(row, 2, item(state.join(QStringLiteral(", "))));
        }
    }
    m_slots->setVisible(m_slots->rowCount() > 0); // the line above says why there are none
    if (info.knownIssues.empty() && (revision.isEmpty() || str(facts.model).isEmpty())) {
        // The catalogs list problems by model and firmware revision: without both there is
        // nothing to look up, which is not the same as "none known".
        m_issues->setText(
            tr("Not looked up: the drive reports no %1, and known problems are "
               "listed by model and firmware revision.")
                .arg(str(facts.model).isEmpty() ? tr("model") : tr("firmware revision")));
    } else if (info.knownIssues.empty()) {
        m_issues->setText(tr("None known for this model and revision (SSD Keeper's catalog and "
                             "smartctl's drive database)."));
    } else {
        QString html;
        for (const auto& issue : info.knownIssues) {
            const QString source = str(issue.source);
            const QString link =
                source.startsWith(QLatin1String("http"))
                    ? QStringLiteral("<a href=\"%1\">%1</a>").arg(source.toHtmlEscaped())
                    : source.toHtmlEscaped();
            html += QStringLiteral("<p><span style=\"color:%1\"><b>%2</b></span><br>")
                        .arg(theme::kError.name(), str(issue.problem).toHtmlEscaped());
            if (!issue.fixedRevision.empty()) {
                html += tr("Fixed in firmware <b>%1</b>. ")
                            .arg(str(issue.fixedRevision).toHtmlEscaped());
            }
            html += tr("Source: %1</p>").arg(link);
        }
        m_issues->setText(html);
    }
    m_paths->setRowCount(0);
    m_imagePathOffered = false;
    const firmware::PathStatus* fwupdPath = nullptr;
    for (const auto& path : info.paths) {
        const bool offered = path.available;
        if (path.id == "nvme-image") {
            m_imagePathOffered = offered;
        }
        if (path.id == "fwupd") {
            fwupdPath = &path;
        }
        const int row = m_paths->rowCount();
        m_paths->insertRow(row);
        m_paths->setItem(row, 0, item(str(path.title), !offered));
        m_paths->item(row, 0)->setData(Qt::UserRole, str(path.id));
        m_paths->setItem(row, 1, item(yesNo(offered), !offered));
        m_paths->setItem(row, 2, item(str(path.reason), !offered));
    }
    m_paths->resizeRowsToContents();
    m_slots->resizeRowsToContents();
    showFwupd(fwupdPath);
}

Expected<firmware::UpdateVerbRequest> FirmwarePage::updateRequest() const {
    auto action = firmware::commitActionArg(m_action->currentData().toString().toStdString());
    if (!action) {
        return std::unexpected(action.error());
    }
    firmware::UpdateVerbRequest request{m_device ? m_device->path : std::string(),
                                        static_cast<unsigned>(m_slot->value()), *action, "",
                                        m_systemDisk->isVisible() && m_systemDisk->isChecked()};
    if (firmware::replacesImage(*action)) {
        request.image = m_image->text().trimmed().toStdString();
    }
    return request;
}

void FirmwarePage::startUpdate() {
    if (!m_device || m_runner->isBusy()) {
        return;
    }
    m_updateResult->clear();
    const auto request = updateRequest();
    if (!request) {
        m_updateResult->setText(tr("Cannot check the update: %1")
                                    .arg(QString::fromStdString(request.error().describe())));
        emit resultShown(firmwareVerb(firmware::kVerbPlan));
        return;
    }
    // The plan gets the image's size, read here with the user's own rights.
    std::uint64_t imageSize = 0;
    if (firmware::replacesImage(request->action)) {
        const QFileInfo file(QString::fromStdString(request->image));
        if (!file.isFile() || !file.isReadable()) {
            m_updateResult->setText(
                tr("Cannot check the update: %1 is not a readable file.").arg(file.filePath()));
            emit resultShown(firmwareVerb(firmware::kVerbPlan));
            return;
        }
        imageSize = static_cast<std::uint64_t>(file.size());
    }
    m_status->setText(tr("Checking the update…"));
    const firmware::PlanVerbRequest planRequest = firmware::planOf(*request, imageSize);
    m_runner->run(firmwareVerb(firmware::kVerbPlan),
                  clientWork<firmware::FirmwareClient>(
                      [planRequest](firmware::FirmwareClient& client, const auto&) {
                          return client.plan(planRequest);
                      }));
}

void FirmwarePage::showPlanAndMaybeUpdate(const firmware::UpdatePlan& plan) {
    QStringList lines;
    for (const auto& check : plan.checks) {
        lines << QStringLiteral("%1 %2: %3")
                     .arg(check.passed ? QStringLiteral("✔") : QStringLiteral("✘"), str(check.name),
                          str(check.detail));
    }
    if (!plan.allowed()) {
        m_updateResult->setText(
            tr("Refused — %1\n%2").arg(str(plan.refusal()), lines.join(QLatin1Char('\n'))));
        m_status->clear();
        return;
    }
    m_updateResult->setText(lines.join(QLatin1Char('\n')));
    UpdateQuestion question{str(plan.resetAccount), {}};
    for (const auto& reminder : plan.reminders) {
        question.reminders << str(reminder);
    }
    if (!m_confirm || !m_confirm(question)) {
        m_status->setText(tr("Update cancelled; nothing was sent to the drive."));
        return;
    }
    const auto request = updateRequest();
    if (!request) {
        m_updateResult->setText(
            tr("The update failed: %1").arg(QString::fromStdString(request.error().describe())));
        m_status->clear();
        return;
    }
    m_progress->show();
    showFraction(m_progress, 0.0);
    m_status->setText(tr("Updating the firmware; keep the machine powered…"));
    m_runner->run(firmwareVerb(firmware::kVerbUpdate),
                  clientWork<firmware::FirmwareClient>(
                      [request = *request](firmware::FirmwareClient& client,
                                           const rpc::Transport::EventHandler& onEvent) {
                          return client.update(request, onEvent);
                      }));
}

void FirmwarePage::helperFinished(const QString& verb, const HelperCaller::Outcome& outcome) {
    QString why;
    if (verb == firmwareVerb(firmware::kVerbInfo)) {
        if (auto info = replyOf(outcome, firmware::firmwareInfoFromJson, why)) {
            showInfo(*info);
        } else {
            m_caps->setText(tr("The firmware could not be read: %1").arg(why));
        }
        m_status->clear();
    } else if (verb == firmwareVerb(firmware::kVerbPlan)) {
        if (auto plan = replyOf(outcome, firmware::updatePlanFromJson, why)) {
            showPlanAndMaybeUpdate(*plan);
        } else {
            m_updateResult->setText(tr("Cannot check the update: %1").arg(why));
            m_status->clear();
        }
    } else if (verb == firmwareVerb(firmware::kVerbUpdate)) {
        m_progress->hide();
        if (auto reply = replyOf(outcome, firmware::updateReplyFromJson, why)) {
            m_updateResult->setText(
                tr("Firmware committed. %1%2")
                    .arg(str(reply->result.account),
                         reply->result.resetNeeded
                             ? tr("\nA reset is needed before the drive runs it.")
                             : QString()));
            m_refreshPending = true;
        } else {
            m_updateResult->setText(tr("The update failed: %1").arg(why));
        }
        m_status->clear();
    }
    emit resultShown(verb);
    if (m_refreshPending && !m_runner->isBusy()) {
        m_refreshPending = false;
        refresh();
    }
    updateButtons();
}

bool FirmwarePage::isLoading() const {
    return m_runner != nullptr && m_runner->isBusy();
}

void FirmwarePage::updateButtons() {
    const bool activate = m_action->currentData().toString() == QLatin1String("activate");
    // The NVMe image form is live only where that path is offered (not on SATA, USB, virtio or
    // loop devices): the reason stands in Update paths.
    const bool offered = m_device && m_imagePathOffered;
    m_image->setEnabled(offered && !activate);
    m_browse->setEnabled(offered && !activate);
    m_slot->setEnabled(offered);
    m_action->setEnabled(offered);
    const bool ready =
        offered && !m_runner->isBusy() && (activate || !m_image->text().trimmed().isEmpty());
    m_updateButton->setEnabled(ready);
    const bool installing = fwupdBusy();
    m_fwupdInstall->setEnabled(m_fwupdOffered && !installing &&
                               !m_fwupdReleases->selectionModel()->selectedRows().isEmpty());
    m_fwupdInstall->setToolTip(m_fwupdOffered ? QString()
                                              : tr("fwupd offers no upgrade for this drive; see "
                                                   "the reason above."));
    m_fwupdCancelButton->setEnabled(installing);
    m_fwupdProgress->setVisible(installing || m_fwupdProgress->value() > 0);
    m_updateButton->setToolTip(m_imagePathOffered
                                   ? QString()
                                   : tr("The NVMe image path is not offered for this drive; "
                                        "see Update paths for why."));
}

} // namespace ssdk::app
