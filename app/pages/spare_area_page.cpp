#include "app/pages/spare_area_page.h"

#include <algorithm>

#include <QFrame>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "app/device_text.h"
#include "app/theme.h"
#include "app/widgets/partition_bar.h"
#include "app/widgets/spare_area_bar.h"
#include "core/overprovision/spare_area_client.h"

namespace ssdk::app {

using namespace ssdk::overprovision;

namespace {

QString legendItem(const QColor& color, const QString& text) {
    return QStringLiteral("<span style='color:%1'>&#9632;</span>&nbsp;%2").arg(color.name(), text);
}

// Changes to these mean the usage and journal must be read again.
std::string inspectionToken(const device::Device& device) {
    std::string token = device.path + "|" + std::to_string(device.size.value);
    for (const auto& partition : device.partitions) {
        token += "|" + std::to_string(partition.number) + ":" +
                 std::to_string(partition.start.value) + "+" +
                 std::to_string(partition.size.value) + ":" +
                 (partition.filesystem ? partition.filesystem->type : std::string()) + ":" +
                 std::to_string(partition.mounts.size());
    }
    return token;
}

QString readingText() {
    return SpareAreaPage::tr("Reading the filesystem's used space…");
}

QString verbName(const char* verb) {
    return QString::fromLatin1(verb);
}

} // namespace

SpareAreaPage::SpareAreaPage(bool live, std::shared_ptr<rpc::Transport> helper, QWidget* parent)
    : DevicePage(parent)
    , m_live(live)
    , m_session(std::move(helper)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(24, 20, 24, 20);
    layout->setSpacing(12);
    m_title = new QLabel;
    m_title->setObjectName(QStringLiteral("spare.title"));
    m_title->setProperty("role", QStringLiteral("title"));
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.4);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    layout->addWidget(m_title);
    m_empty = new QLabel(tr("Select a drive to set its spare area."));
    m_empty->setProperty("role", QStringLiteral("muted"));
    layout->addWidget(m_empty);
    m_content = buildContent();
    // The plan's lines scroll with the bars when the window is short or the font large.
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(m_content);
    layout->addWidget(scroll, 1);
    setDevice(nullptr);
}

QWidget* SpareAreaPage::buildContent() {
    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(10);

    m_recoveryBanner = new QFrame;
    m_recoveryBanner->setObjectName(QStringLiteral("spare.recovery"));
    m_recoveryBanner->setStyleSheet(
        QStringLiteral("QFrame#spare\\.recovery { background: %1; border: 1px solid %2; "
                       "border-radius: 6px; }")
            .arg(theme::kCautionBackground.name(), theme::kCautionBorder.name()));
    auto* bannerLayout = new QHBoxLayout(m_recoveryBanner);
    m_recoveryText = new QLabel;
    m_recoveryText->setObjectName(QStringLiteral("spare.recoveryText"));
    m_recoveryText->setWordWrap(true);
    bannerLayout->addWidget(m_recoveryText, 1);
    m_finish = new QPushButton(tr("Finish"));
    m_finish->setObjectName(QStringLiteral("spare.finish"));
    m_rollback = new QPushButton(tr("Roll back"));
    m_rollback->setObjectName(QStringLiteral("spare.rollback"));
    bannerLayout->addWidget(m_finish);
    bannerLayout->addWidget(m_rollback);
    connect(m_finish, &QPushButton::clicked, this, [this] { recover(Recovery::Finish); });
    connect(m_rollback, &QPushButton::clicked, this, [this] { recover(Recovery::RollBack); });
    layout->addWidget(m_recoveryBanner);

    m_factory = new QLabel;
    m_factory->setObjectName(QStringLiteral("spare.factory"));
    m_current = new QLabel;
    m_current->setObjectName(QStringLiteral("spare.current"));
    layout->addWidget(m_factory);
    layout->addWidget(m_current);

    auto* sliderRow = new QHBoxLayout;
    sliderRow->addWidget(new QLabel(tr("Spare area:")));
    m_slider = new QSlider(Qt::Horizontal);
    m_slider->setObjectName(QStringLiteral("spare.slider"));
    m_slider->setAccessibleName(tr("Spare area"));
    m_slider->setRange(0, static_cast<int>(kMaximumSparePercent));
    m_slider->setValue(20);
    m_slider->setTickPosition(QSlider::TicksBelow);
    m_slider->setTickInterval(5);
    sliderRow->addWidget(m_slider, 1);
    m_sliderValue = new QLabel;
    m_sliderValue->setObjectName(QStringLiteral("spare.sliderValue"));
    m_sliderValue->setMinimumWidth(60);
    sliderRow->addWidget(m_sliderValue);
    layout->addLayout(sliderRow);
    connect(m_slider, &QSlider::valueChanged, this, &SpareAreaPage::updatePlan);

    auto* beforeLabel = new QLabel(tr("Now"));
    beforeLabel->setProperty("role", QStringLiteral("section"));
    layout->addWidget(beforeLabel);
    m_before = new SpareAreaBar;
    m_before->setObjectName(QStringLiteral("spare.before"));
    layout->addWidget(m_before);
    auto* afterLabel = new QLabel(tr("After"));
    afterLabel->setProperty("role", QStringLiteral("section"));
    layout->addWidget(afterLabel);
    m_after = new SpareAreaBar;
    m_after->setObjectName(QStringLiteral("spare.after"));
    layout->addWidget(m_after);
    m_legend = new QLabel;
    m_legend->setObjectName(QStringLiteral("spare.legend"));
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setProperty("role", QStringLiteral("muted"));
    layout->addWidget(m_legend);

    m_planText = new QLabel;
    m_planText->setObjectName(QStringLiteral("spare.plan"));
    m_planText->setWordWrap(true);
    m_planText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_planText->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    layout->addWidget(m_planText);

    auto* buttons = new QHBoxLayout;
    m_apply = new QPushButton(tr("Apply"));
    m_apply->setObjectName(QStringLiteral("spare.apply"));
    m_undo = new QPushButton(tr("Undo"));
    m_undo->setObjectName(QStringLiteral("spare.undo"));
    m_unmountApply = new QPushButton(tr("Unmount, shrink and remount"));
    m_unmountApply->setObjectName(QStringLiteral("spare.unmountApply"));
    m_unmountApply->setToolTip(tr("ext4 shrinks only unmounted: unmount it, shrink it and mount "
                                  "it again where and as it was"));
    m_unmountApply->hide();
    connect(m_apply, &QPushButton::clicked, this, &SpareAreaPage::apply);
    connect(m_unmountApply, &QPushButton::clicked, this, &SpareAreaPage::applyWithUnmount);
    connect(m_undo, &QPushButton::clicked, this, &SpareAreaPage::undo);
    buttons->addWidget(m_apply);
    buttons->addWidget(m_unmountApply);
    buttons->addWidget(m_undo);
    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("spare.progress"));
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    // Shown only while a change runs: an idle bar reads as an empty text field.
    hideWhileIdle(m_progress);
    buttons->addWidget(m_progress, 1);
    layout->addLayout(buttons);
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("spare.status"));
    m_status->setWordWrap(true);
    m_status->setProperty("role", QStringLiteral("muted"));
    layout->addWidget(m_status);
    layout->addStretch(1);
    return content;
}

bool SpareAreaPage::isLoading() const {
    return m_rereading || (m_helper != nullptr && m_helper->isBusy());
}

void SpareAreaPage::setDriveReader(DriveReader reader) {
    m_driveReader = std::move(reader);
}

HelperCaller* SpareAreaPage::helper() {
    if (m_helper == nullptr) {
        m_helper = new HelperCaller(m_session, this);
        connect(m_helper, &HelperCaller::finished, this, &SpareAreaPage::helperFinished);
        connect(m_helper, &HelperCaller::progress, this, &SpareAreaPage::helperProgress);
    }
    return m_helper;
}

void SpareAreaPage::setDevice(const device::Device* device) {
    if (device == nullptr) {
        m_device.reset();
        m_title->setText(tr("Spare Area"));
        m_empty->show();
        m_content->hide();
        return;
    }
    const bool sameDrive = m_device && m_device->path == device->path;
    m_device = *device;
    m_empty->hide();
    m_content->show();
    m_title->setText(tr("Spare Area · %1").arg(toQString(device->path)));
    if (!sameDrive) {
        m_usage.reset();
        m_journal.reset();
        m_mountUsers.clear();
        m_usageError.clear();
        m_status->clear();
        showFraction(m_progress, 0.0);
    }
    updatePlan();
    if (m_live && inspectionToken(*device) != m_inspectedToken) {
        inspect();
    }
}

void SpareAreaPage::inspect() {
    if (!m_device || (m_helper != nullptr && m_helper->isBusy())) {
        return;
    }
    m_inspectedToken = inspectionToken(*m_device);
    // The outcome of a change stays shown while the drive is read again.
    if (m_status->text().isEmpty()) {
        m_status->setText(readingText());
    }
    const InspectRequest request{m_device->path};
    m_inspecting = true;
    updatePlan();
    helper()->run(verbName(kVerbOpInspect),
                  clientWork<SpareAreaClient>([request](SpareAreaClient& client, const auto&) {
                      return client.inspect(request);
                  }));
}

void SpareAreaPage::showInspection(const Json& status) {
    auto reply = inspectReplyFromJson(status);
    if (!reply) {
        m_usage.reset();
        m_journal.reset();
        m_mountUsers.clear();
        m_usageError = toQString(reply.error().describe());
        updatePlan();
        return;
    }
    m_usage = reply->usage;
    m_journal = reply->journal;
    m_mountUsers = reply->mountUsers;
    m_usageError = toQString(reply->usageError);
    updatePlan();
}

void SpareAreaPage::updatePlan() {
    m_sliderValue->setText(tr("%1 %").arg(m_slider->value()));
    if (!m_device) {
        return;
    }
    auto planned = plan(*m_device, m_usage, m_slider->value());
    if (!planned) {
        m_plan.reset();
        m_planText->setText(toQString(planned.error().describe()));
        return;
    }
    m_plan = *planned;
    m_unmountPlan.reset();
    if (m_plan->unmountOffered) {
        auto withUnmount = plan(*m_device, m_usage, m_slider->value(),
                                PlanOptions{.unmountAndRemount = true, .mountUsers = m_mountUsers});
        if (withUnmount) {
            m_unmountPlan = *withUnmount;
        }
    }
    if (m_plan->factory) {
        m_factory->setText(tr("Factory spare: %1 % (estimated: %2 of NAND for %3 sold)")
                               .arg(m_plan->factory->percent, 0, 'f', 2)
                               .arg(sizeText(m_plan->factory->rawNand))
                               .arg(sizeText(m_plan->factory->userCapacity)));
    } else {
        m_factory->setText(tr("Factory spare: unknown for this drive"));
    }
    m_current->setText(tr("Spare area you set: %1 (%2 %) unallocated at the end")
                           .arg(sizeText(m_plan->currentSpare))
                           .arg(m_plan->currentSparePercent, 0, 'f', 1));
    Plan current = *m_plan;
    std::optional<device::Filesystem> filesystem;
    if (m_plan->partitionIndex >= 0) {
        filesystem =
            m_device->partitions[static_cast<std::size_t>(m_plan->partitionIndex)].filesystem;
    }
    const QColor partitionColor = filesystemColor(filesystem);
    m_legend->setText(legendItem(partitionColor, tr("used")) + QStringLiteral(" &nbsp; ") +
                      legendItem(theme::faded(partitionColor, 0.6), tr("free in the partition")) +
                      QStringLiteral(" &nbsp; ") +
                      legendItem(spare_colors::kUserSpare, tr("spare area you set")) +
                      QStringLiteral(" &nbsp; ") +
                      legendItem(spare_colors::kFactorySpare, tr("factory spare")));
    m_before->setModel(spareBarModel(*m_device, current, false));
    m_after->setModel(spareBarModel(*m_device, current, true));
    // Until the used space is read there is no verdict, only the sizes (the status line says
    // what is being read).
    const bool awaitingUsage = m_inspecting && !m_usage;
    Plan described = *m_plan;
    if (awaitingUsage) {
        described.refusals.clear();
        described.notes.clear();
    }
    QString text = toQString(described.describe());
    if (!awaitingUsage && !m_usage && !m_usageError.isEmpty() && m_plan->partitionIndex >= 0) {
        text += tr("Used space: %1\n").arg(m_usageError);
    }
    if (m_unmountPlan && !awaitingUsage) {
        if (m_unmountPlan->possible) {
            text += tr("\n\"Unmount, shrink and remount\" can do it: nothing holds %1 open.\n")
                        .arg(toQString(m_unmountPlan->mountPoint));
        } else {
            text += tr("\n\"Unmount, shrink and remount\" cannot either:\n");
            for (const auto& reason : m_unmountPlan->refusals) {
                if (std::find(m_plan->refusals.begin(), m_plan->refusals.end(), reason) ==
                    m_plan->refusals.end()) {
                    text += tr("Cannot: %1.\n").arg(toQString(reason));
                }
            }
        }
    }
    m_planText->setText(text.trimmed());

    const bool pending = m_journal && m_journal->pending();
    m_recoveryBanner->setVisible(pending);
    if (pending) {
        m_recoveryText->setText(
            tr("An earlier change of %1 (%2 from %3 to %4) was interrupted. Finish it, or roll "
               "it back to the sizes before it. Nothing else can be changed until then.%5")
                .arg(toQString(m_journal->partitionPath))
                .arg(toQString(std::string(toString(m_journal->direction))))
                .arg(sizeText(m_journal->fromPartitionSize))
                .arg(sizeText(m_journal->toPartitionSize))
                .arg(m_journal->lastError.empty()
                         ? QString()
                         : tr("\nIt stopped at: %1").arg(toQString(m_journal->lastError))));
    }
    const bool busy = m_rereading || (m_helper != nullptr && m_helper->isBusy());
    m_apply->setEnabled(m_live && !busy && !pending && m_plan->possible);
    m_apply->setVisible(!m_unmountPlan);
    m_unmountApply->setVisible(m_unmountPlan.has_value());
    m_unmountApply->setEnabled(m_live && !busy && !pending && m_unmountPlan &&
                               m_unmountPlan->possible);
    m_undo->setEnabled(m_live && !busy && !pending && m_journal && m_journal->undoable());
    m_finish->setEnabled(m_live && !busy);
    m_rollback->setEnabled(m_live && !busy);
}

QString SpareAreaPage::confirmationText() const {
    if (!m_plan || m_plan->partitionIndex < 0) {
        return {};
    }
    const bool shrink = m_plan->direction == Direction::Shrink;
    return tr("%1 partition %2 (%3) from %4 to %5, leaving %6 (%7 %) of %8 unallocated as "
              "spare area?%9")
        .arg(shrink ? tr("Shrink") : tr("Grow"))
        .arg(toQString(m_plan->partitionPath))
        .arg(toQString(m_plan->filesystemType))
        .arg(sizeText(m_plan->oldPartitionSize))
        .arg(sizeText(m_plan->newPartitionSize))
        .arg(sizeText(m_plan->newSpare))
        .arg(m_plan->requestedPercent, 0, 'f', 0)
        .arg(toQString(m_plan->devicePath))
        .arg(shrink ? tr("\n\nThe partition table is backed up first, every step is journaled, "
                         "and Undo grows it back.")
                    : QString());
}

QString SpareAreaPage::unmountConfirmationText() const {
    if (!m_unmountPlan || !m_unmountPlan->possible) {
        return {};
    }
    const Plan& p = *m_unmountPlan;
    return tr("Unmount %1 from %2, shrink it (%3) from %4 to %5, and mount it at %2 again with "
              "the same options, leaving %6 (%7 %) of %8 unallocated as spare area?\n\nNothing "
              "may use %2 meanwhile. The partition table is backed up first, every step is "
              "journaled, and Undo grows it back.")
        .arg(toQString(p.partitionPath))
        .arg(toQString(p.mountPoint))
        .arg(toQString(p.filesystemType))
        .arg(sizeText(p.oldPartitionSize))
        .arg(sizeText(p.newPartitionSize))
        .arg(sizeText(p.newSpare))
        .arg(p.requestedPercent, 0, 'f', 0)
        .arg(toQString(p.devicePath));
}

void SpareAreaPage::apply() {
    if (!m_plan || !m_plan->possible || !m_device) {
        return;
    }
    const auto answer =
        QMessageBox::question(this, tr("Set spare area"), confirmationText(),
                              QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer != QMessageBox::Yes) {
        return;
    }
    startApply(*m_plan, false);
}

void SpareAreaPage::applyWithUnmount() {
    if (!m_unmountPlan || !m_unmountPlan->possible || !m_device) {
        return;
    }
    const auto answer =
        QMessageBox::question(this, tr("Unmount, shrink and remount"), unmountConfirmationText(),
                              QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer != QMessageBox::Yes) {
        return;
    }
    startApply(*m_unmountPlan, true);
}

void SpareAreaPage::startApply(const Plan& planned, bool unmount) {
    setBusy(true, unmount ? tr("Unmounting, shrinking and remounting…") : tr("Applying…"));
    const ApplyRequest request{m_device->path, static_cast<unsigned>(m_slider->value()),
                               planned.partitionPath, unmount};
    helper()->run(
        verbName(kVerbOpApply),
        clientWork<SpareAreaClient>([request](SpareAreaClient& client, const auto& onEvent) {
            return client.apply(request, onEvent);
        }));
}

void SpareAreaPage::undo() {
    if (!m_journal || !m_journal->undoable() || !m_device) {
        return;
    }
    const auto answer =
        QMessageBox::question(this, tr("Undo spare area"),
                              tr("Grow partition %1 back to %2 and its filesystem with it?")
                                  .arg(toQString(m_journal->partitionPath))
                                  .arg(sizeText(m_journal->fromPartitionSize)),
                              QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer != QMessageBox::Yes) {
        return;
    }
    setBusy(true, tr("Undoing…"));
    const UndoRequest request{m_device->path};
    helper()->run(
        verbName(kVerbOpUndo),
        clientWork<SpareAreaClient>([request](SpareAreaClient& client, const auto& onEvent) {
            return client.undo(request, onEvent);
        }));
}

void SpareAreaPage::recover(Recovery action) {
    if (!m_device) {
        return;
    }
    setBusy(true, action == Recovery::Finish ? tr("Finishing…") : tr("Rolling back…"));
    const RecoverRequest request{m_device->path, action};
    helper()->run(
        verbName(kVerbOpRecover),
        clientWork<SpareAreaClient>([request](SpareAreaClient& client, const auto& onEvent) {
            return client.recover(request, onEvent);
        }));
}

void SpareAreaPage::setBusy(bool busy, const QString& text) {
    m_apply->setEnabled(!busy);
    m_unmountApply->setEnabled(!busy && m_unmountPlan && m_unmountPlan->possible);
    m_undo->setEnabled(!busy);
    m_slider->setEnabled(!busy);
    m_progress->setVisible(busy);
    if (busy) {
        showFraction(m_progress, 0.0);
    }
    if (!text.isEmpty()) {
        m_status->setText(text);
    }
}

void SpareAreaPage::helperProgress(const QString&, double fraction, const QString& text) {
    showFraction(m_progress, fraction);
    m_status->setText(text);
}

void SpareAreaPage::helperFinished(const QString& verb, const HelperCaller::Outcome& outcome) {
    m_slider->setEnabled(true);
    if (verb == verbName(kVerbOpInspect)) {
        m_inspecting = false;
        if (outcome.ok) {
            if (m_status->text() == readingText()) {
                m_status->clear();
            }
            showInspection(outcome.result);
        } else {
            m_usageError = outcome.error;
            m_status->setText(tr("Could not read the drive: %1").arg(outcome.error));
            updatePlan();
        }
        emit verbFinished(verb, outcome.ok);
        // The drive changed while it was read (a rescan during a change): read it again.
        if (m_live && m_device && inspectionToken(*m_device) != m_inspectedToken) {
            inspect();
        }
        return;
    }
    // The client read the answer already; reading its JSON again cannot fail but is checked.
    QString failure = outcome.error;
    std::optional<JournalReply> reply;
    if (outcome.ok) {
        if (auto parsed = journalReplyFromJson(outcome.result)) {
            reply = std::move(*parsed);
        } else {
            failure = toQString(parsed.error().describe());
        }
    }
    if (reply) {
        showFraction(m_progress, 1.0);
        const QString partition = toQString(reply->journal.partitionPath);
        const QString size = sizeText(reply->journal.toPartitionSize);
        m_status->setText(verb == verbName(kVerbOpUndo)
                              ? tr("Undone: %1 is back to %2.").arg(partition, size)
                              : tr("Done: %1 is now %2; the space freed at the end is spare "
                                   "area and was trimmed.")
                                    .arg(partition, size));
    } else {
        m_status->setText(tr("Failed: %1").arg(failure));
        QMessageBox::warning(this, tr("Spare area"), failure);
    }
    // verb may refer to the caller's own record of the running verb, which inspect() changes.
    rereadDrive(QString(verb), reply.has_value());
}

void SpareAreaPage::rereadDrive(const QString& verb, bool ok) {
    const QString path = m_device ? toQString(m_device->path) : QString();
    if (!m_driveReader || !m_device) {
        // The partition sizes changed: read usage and journal again; the drive itself comes
        // with the next setDevice.
        m_inspectedToken.clear();
        inspect();
        emit driveChanged(path);
        emit verbFinished(verb, ok);
        return;
    }
    m_rereading = true;
    updatePlan();
    auto* watcher = new QFutureWatcher<Expected<device::Device>>(this);
    connect(watcher, &QFutureWatcher<Expected<device::Device>>::finished, this,
            [this, watcher, verb, ok, path] {
                watcher->deleteLater();
                m_rereading = false;
                const Expected<device::Device> fresh = watcher->result();
                // Usage and journal are read again in any case: a failed change leaves a
                // journal to finish or roll back.
                m_inspectedToken.clear();
                if (fresh && m_device && toQString(m_device->path) == path) {
                    setDevice(&*fresh);
                } else {
                    if (!fresh) {
                        m_status->setText(m_status->text() + QLatin1Char(' ') +
                                          tr("The drive could not be read again: %1")
                                              .arg(toQString(fresh.error().describe())));
                    }
                    updatePlan();
                    inspect();
                }
                emit driveChanged(path);
                emit verbFinished(verb, ok);
            });
    watcher->setFuture(QtConcurrent::run(
        [reader = m_driveReader, devicePath = m_device->path] { return reader(devicePath); }));
}

} // namespace ssdk::app
