#include "app/pages/erase_wizard.h"

#include <QButtonGroup>
#include <QFile>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>
#include <QWizardPage>

#include "app/helper_caller.h"
#include "app/theme.h"

namespace ssdk::app {

namespace {

QString fromStd(const std::string& text) {
    return QString::fromStdString(text);
}

QString wizardVerb(const char* name) {
    return QString::fromLatin1(name);
}

// A wizard page whose Next button follows a predicate.
class GatedPage : public QWizardPage {
public:
    std::function<bool()> complete = [] { return true; };
    bool isComplete() const override { return complete(); }
    void changed() { emit completeChanged(); }
};

} // namespace

EraseWizard::EraseWizard(const device::Device& device, std::shared_ptr<rpc::Transport> helper,
                         QWidget* parent)
    : QWizard(parent)
    , m_device(device) {
    setObjectName(QStringLiteral("maintenance.eraseWizard"));
    setWindowTitle(tr("Secure erase"));
    setWizardStyle(QWizard::ClassicStyle);
    setOption(QWizard::NoBackButtonOnLastPage);
    setOption(QWizard::NoCancelButtonOnLastPage);
    resize(720, 520);
    m_runner = new HelperCaller(std::move(helper), this);
    connect(m_runner, &HelperCaller::finished, this, &EraseWizard::helperFinished);
    connect(m_runner, &HelperCaller::progress, this,
            [this](const QString&, double fraction, const QString& text) {
                showFraction(m_progress, fraction);
                m_step->setText(text);
            });

    auto* methodPage = new GatedPage;
    methodPage->setTitle(tr("Choose the erase method"));
    methodPage->setSubTitle(tr("Methods are listed strongest first. Unavailable ones say why."));
    auto* methodLayout = new QVBoxLayout(methodPage);
    m_identity =
        new QLabel(tr("Reading what %1 supports…").arg(QString::fromStdString(device.path)));
    m_identity->setWordWrap(true);
    methodLayout->addWidget(m_identity);
    m_refused = new QLabel;
    m_refused->setObjectName(QStringLiteral("maintenance.eraseRefused"));
    m_refused->setWordWrap(true);
    m_refused->setStyleSheet(
        QStringLiteral("color: %1; font-weight: bold").arg(theme::kError.name()));
    m_refused->hide();
    methodLayout->addWidget(m_refused);
    m_interrupted = new QLabel;
    m_interrupted->setObjectName(QStringLiteral("maintenance.eraseInterrupted"));
    m_interrupted->setWordWrap(true);
    m_interrupted->setStyleSheet(
        QStringLiteral("color: %1; font-weight: bold").arg(theme::kError.name()));
    m_interrupted->hide();
    methodLayout->addWidget(m_interrupted);
    // A security-frozen ATA drive refuses the ATA erase methods until it loses power.
    m_unfreeze = new QPushButton(tr("Suspend the machine for 5 s to unfreeze the drive"));
    m_unfreeze->setObjectName(QStringLiteral("maintenance.unfreeze"));
    m_unfreeze->hide();
    methodLayout->addWidget(m_unfreeze, 0, Qt::AlignLeft);
    m_unfreezeNote = new QLabel;
    m_unfreezeNote->setObjectName(QStringLiteral("maintenance.unfreezeNote"));
    m_unfreezeNote->setWordWrap(true);
    m_unfreezeNote->hide();
    methodLayout->addWidget(m_unfreezeNote);
    connect(m_unfreeze, &QPushButton::clicked, this, &EraseWizard::askUnfreeze);
    m_methodList = new QVBoxLayout;
    methodLayout->addLayout(m_methodList);
    methodLayout->addStretch();
    m_methods = new QButtonGroup(this);
    methodPage->complete = [this] {
        return m_methods->checkedButton() != nullptr && m_probe && !m_probe->refused;
    };
    connect(m_methods, &QButtonGroup::buttonClicked, methodPage,
            [methodPage] { methodPage->changed(); });
    connect(this, &EraseWizard::probed, methodPage, [methodPage] { methodPage->changed(); });
    setPage(MethodPage, methodPage);

    auto* confirmPage = new GatedPage;
    confirmPage->setTitle(tr("Confirm: every byte on this drive will be destroyed"));
    auto* confirmLayout = new QVBoxLayout(confirmPage);
    m_confirmText = new QLabel;
    m_confirmText->setWordWrap(true);
    m_confirmText->setTextFormat(Qt::RichText);
    confirmLayout->addWidget(m_confirmText);
    m_confirm = new QLineEdit;
    m_confirm->setObjectName(QStringLiteral("maintenance.eraseConfirm"));
    confirmLayout->addWidget(m_confirm);
    confirmLayout->addStretch();
    confirmPage->complete = [this] {
        return m_probe && m_confirm->text() == fromStd(m_probe->confirmation);
    };
    connect(m_confirm, &QLineEdit::textChanged, confirmPage,
            [confirmPage] { confirmPage->changed(); });
    setPage(ConfirmPage, confirmPage);

    auto* progressPage = new GatedPage;
    progressPage->setTitle(tr("Erasing"));
    auto* progressLayout = new QVBoxLayout(progressPage);
    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("maintenance.eraseProgress"));
    m_progress->setRange(0, 0);
    m_step = new QLabel;
    m_step->setWordWrap(true);
    progressLayout->addWidget(m_progress);
    progressLayout->addWidget(m_step);
    progressLayout->addStretch();
    progressPage->complete = [this] { return m_eraseDone; };
    connect(this, &EraseWizard::eraseFinished, progressPage,
            [progressPage] { progressPage->changed(); });
    setPage(ProgressPage, progressPage);

    auto* certificatePage = new QWizardPage;
    certificatePage->setTitle(tr("Certificate"));
    certificatePage->setFinalPage(true);
    auto* certificateLayout = new QVBoxLayout(certificatePage);
    m_verdict = new QLabel;
    m_verdict->setObjectName(QStringLiteral("maintenance.eraseVerdict"));
    m_verdict->setWordWrap(true);
    certificateLayout->addWidget(m_verdict);
    m_certificateText = new QPlainTextEdit;
    m_certificateText->setReadOnly(true);
    certificateLayout->addWidget(m_certificateText);
    auto* save = new QPushButton(tr("Save certificate…"));
    certificateLayout->addWidget(save, 0, Qt::AlignLeft);
    connect(save, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getSaveFileName(this, tr("Save certificate"),
                                                          QStringLiteral("erase-certificate.json"));
        if (file.isEmpty()) {
            return;
        }
        if (!m_erased) {
            return;
        }
        QFile out(file);
        if (out.open(QIODevice::WriteOnly)) {
            out.write(QByteArray::fromStdString(
                maintenance::certificateFileJson(*m_erased).dump(2) + "\n"));
        }
        QFile text(file + QStringLiteral(".txt"));
        if (text.open(QIODevice::WriteOnly)) {
            text.write(QByteArray::fromStdString(m_erased->text));
        }
    });
    setPage(CertificatePage, certificatePage);

    connect(this, &QWizard::currentIdChanged, this, [this](int id) {
        if (id == ProgressPage && !m_runner->isBusy() && !m_eraseDone) {
            startErase();
        }
    });
    probe();
}

void EraseWizard::probe() {
    const maintenance::EraseProbeRequest request{m_device.path};
    m_runner->run(wizardVerb(maintenance::kVerbEraseProbe),
                  clientWork<maintenance::MaintenanceClient>(
                      [request](maintenance::MaintenanceClient& client, const auto&) {
                          return client.probeErase(request);
                      }));
}

QString EraseWizard::chosenMethod() const {
    auto* button = m_methods->checkedButton();
    return button ? button->property("method").toString() : QString();
}

void EraseWizard::showProbe(const maintenance::EraseProbeReply& probe) {
    m_probe = probe;
    m_identity->setText(tr("<b>%1</b>").arg(fromStd(probe.identity).toHtmlEscaped()));
    m_identity->setTextFormat(Qt::RichText);
    if (probe.refused) {
        m_refused->setText(tr("Refused: %1").arg(fromStd(*probe.refused)));
        m_refused->show();
    }
    if (probe.interrupted) {
        QString text = fromStd(*probe.interrupted);
        text[0] = text[0].toUpper();
        m_interrupted->setText(text + QLatin1Char('.'));
        m_interrupted->show();
    }
    const bool frozen = probe.ataSecurity && probe.ataSecurity->frozen;
    m_unfreeze->setVisible(frozen);
    m_unfreeze->setEnabled(frozen && !m_runner->isBusy());
    for (auto* old : m_methods->buttons()) {
        m_methods->removeButton(old);
        delete old;
    }
    for (const auto& method : probe.methods) {
        QString text = fromStd(method.description);
        const QString reason = fromStd(method.reason);
        if (!reason.isEmpty()) {
            text += QStringLiteral(" — ") + reason;
        }
        auto* radio = new QRadioButton(text);
        radio->setProperty("method",
                           QString::fromLatin1(maintenance::erase::toString(method.method)));
        radio->setEnabled(method.available);
        radio->setToolTip(reason);
        m_methods->addButton(radio);
        m_methodList->addWidget(radio);
        if (probe.automatic == method.method) {
            radio->setChecked(true);
        }
    }
    m_confirmText->setText(
        tr("This erases <b>all data</b> on %1.<br><br>Type the model <b>%2</b> to confirm:")
            .arg(fromStd(probe.identity).toHtmlEscaped(),
                 fromStd(probe.confirmation).toHtmlEscaped()));
    emit probed();
}

void EraseWizard::askUnfreeze() {
    const auto answer = QMessageBox::question(
        this, tr("Unfreeze the drive"),
        tr("The drive's security is frozen: the firmware locked it at boot, and only a power "
           "cycle lifts that. SSD Keeper can suspend this machine to RAM for 5 seconds; the "
           "real-time clock wakes it again.\n\nSave your work in other programs first. "
           "Suspend now?"));
    if (answer != QMessageBox::Yes) {
        return;
    }
    const maintenance::UnfreezeRequest request{m_device.path};
    if (m_runner->run(wizardVerb(maintenance::kVerbEraseUnfreeze),
                      clientWork<maintenance::MaintenanceClient>(
                          [request](maintenance::MaintenanceClient& client,
                                    const rpc::Transport::EventHandler& onEvent) {
                              return client.unfreeze(request, onEvent);
                          }))) {
        m_unfreeze->setEnabled(false);
        m_unfreezeNote->setText(tr("Suspending…"));
        m_unfreezeNote->show();
    }
}

void EraseWizard::unfreezeFinished(const maintenance::UnfreezeReply& result) {
    if (result.frozen) {
        m_unfreeze->setEnabled(true);
        m_unfreezeNote->setText(
            tr("The drive is still frozen after the suspend (this machine keeps it powered, or "
               "its firmware froze it again on resume). Hot-plug the drive — unplug its data "
               "and power cable while the machine runs, then plug it back — and try again."));
        return;
    }
    m_unfreezeNote->setText(tr("The drive is no longer frozen. Reading its erase methods again…"));
    probe();
}

void EraseWizard::startErase() {
    m_step->setText(tr("Starting %1…").arg(chosenMethod()));
    const maintenance::EraseRequest request{m_device.path, chosenMethod().toStdString(),
                                            m_confirm->text().toStdString()};
    m_runner->run(wizardVerb(maintenance::kVerbEraseRun),
                  clientWork<maintenance::MaintenanceClient>(
                      [request](maintenance::MaintenanceClient& client,
                                const rpc::Transport::EventHandler& onEvent) {
                          return client.erase(request, onEvent);
                      }));
}

void EraseWizard::helperFinished(const QString& name, const HelperCaller::Outcome& outcome) {
    QString why;
    if (name == wizardVerb(maintenance::kVerbEraseUnfreeze)) {
        if (auto reply = replyOf(outcome, maintenance::unfreezeReplyFromJson, why)) {
            unfreezeFinished(*reply);
            return;
        }
        m_unfreeze->setEnabled(true);
        m_unfreezeNote->setText(tr("Could not unfreeze the drive: %1").arg(why));
        return;
    }
    if (name == wizardVerb(maintenance::kVerbEraseProbe)) {
        if (auto reply = replyOf(outcome, maintenance::eraseProbeReplyFromJson, why)) {
            showProbe(*reply);
            return;
        }
        m_identity->setText(tr("Could not read the drive's erase methods: %1").arg(why));
        return;
    }
    m_eraseDone = true;
    m_progress->setRange(0, 1000);
    m_progress->setValue(1000);
    auto reply = replyOf(outcome, maintenance::eraseReplyFromJson, why);
    if (!reply) {
        m_step->setText(tr("The erase failed: %1").arg(why));
        m_verdict->setText(tr("Not erased: %1").arg(why));
        m_verdict->setStyleSheet(QStringLiteral("color: %1").arg(theme::kError.name()));
        emit eraseFinished(false);
        return;
    }
    m_erased = *reply;
    const auto& verification = reply->certificate.verification;
    m_step->setText(tr("Done."));
    m_verdict->setText(
        verification.passed
            ? tr("Erased and verified: %1").arg(fromStd(verification.summary))
            : tr("Erased, but the verification FAILED: %1").arg(fromStd(verification.summary)));
    m_verdict->setStyleSheet(
        QStringLiteral("color: %1; font-weight: bold")
            .arg((verification.passed ? theme::kSuccess : theme::kError).name()));
    m_certificateText->setPlainText(fromStd(reply->text));
    emit eraseFinished(true);
}

} // namespace ssdk::app
