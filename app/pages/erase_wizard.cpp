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

QString str(const Json& json, const char* key) {
    return QString::fromStdString(json.value(key, std::string()));
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
    connect(m_runner, &HelperCaller::finished, this,
            [this](const QString& verb, const HelperCaller::Outcome& outcome) {
                helperFinished(verb, outcome.ok, outcome.error, outcome.result);
            });
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
        return m_methods->checkedButton() != nullptr && m_probe.is_object() &&
               m_probe["refused"].is_null();
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
        return m_probe.is_object() && m_confirm->text() == str(m_probe, "confirmation");
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
        Json json = m_certificate;
        json.erase("text");
        QFile out(file);
        if (out.open(QIODevice::WriteOnly)) {
            out.write(QByteArray::fromStdString(json.dump(2) + "\n"));
        }
        QFile text(file + QStringLiteral(".txt"));
        if (text.open(QIODevice::WriteOnly)) {
            text.write(QByteArray::fromStdString(m_certificate.value("text", std::string())));
        }
    });
    setPage(CertificatePage, certificatePage);

    connect(this, &QWizard::currentIdChanged, this, [this](int id) {
        if (id == ProgressPage && !m_runner->isBusy() && !m_eraseDone) {
            startErase();
        }
    });
    m_runner->call(QStringLiteral("erase.probe"), Json{{"device", device.path}});
}

QString EraseWizard::chosenMethod() const {
    auto* button = m_methods->checkedButton();
    return button ? button->property("method").toString() : QString();
}

void EraseWizard::showProbe(const Json& probe) {
    m_probe = probe;
    m_identity->setText(tr("<b>%1</b>").arg(str(probe, "identity").toHtmlEscaped()));
    m_identity->setTextFormat(Qt::RichText);
    if (!probe["refused"].is_null()) {
        m_refused->setText(
            tr("Refused: %1").arg(QString::fromStdString(probe["refused"].get<std::string>())));
        m_refused->show();
    }
    if (probe["interrupted"].is_string()) {
        QString text = QString::fromStdString(probe["interrupted"].get<std::string>());
        text[0] = text[0].toUpper();
        m_interrupted->setText(text + QLatin1Char('.'));
        m_interrupted->show();
    }
    const bool frozen =
        probe.contains("ata_security") && probe["ata_security"].value("frozen", false);
    m_unfreeze->setVisible(frozen);
    m_unfreeze->setEnabled(frozen && !m_runner->isBusy());
    for (auto* old : m_methods->buttons()) {
        m_methods->removeButton(old);
        delete old;
    }
    const std::string automatic = probe["auto"].is_string() ? probe["auto"].get<std::string>() : "";
    for (const auto& method : probe.value("methods", Json::array())) {
        const bool available = method.value("available", false);
        QString text = QString::fromStdString(method.value("description", std::string()));
        const QString reason = QString::fromStdString(method.value("reason", std::string()));
        if (!reason.isEmpty()) {
            text += QStringLiteral(" — ") + reason;
        }
        auto* radio = new QRadioButton(text);
        radio->setProperty("method", QString::fromStdString(method.value("method", std::string())));
        radio->setEnabled(available);
        radio->setToolTip(reason);
        m_methods->addButton(radio);
        m_methodList->addWidget(radio);
        if (method.value("method", std::string()) == automatic) {
            radio->setChecked(true);
        }
    }
    m_confirmText->setText(
        tr("This erases <b>all data</b> on %1.<br><br>Type the model <b>%2</b> to confirm:")
            .arg(str(probe, "identity").toHtmlEscaped(),
                 str(probe, "confirmation").toHtmlEscaped()));
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
    if (m_runner->call(QStringLiteral("erase.unfreeze"), Json{{"device", m_device.path}})) {
        m_unfreeze->setEnabled(false);
        m_unfreezeNote->setText(tr("Suspending…"));
        m_unfreezeNote->show();
    }
}

void EraseWizard::unfreezeFinished(bool ok, const QString& error, const Json& result) {
    if (!ok) {
        m_unfreeze->setEnabled(true);
        m_unfreezeNote->setText(tr("Could not unfreeze the drive: %1").arg(error));
        return;
    }
    if (result.value("frozen", true)) {
        m_unfreeze->setEnabled(true);
        m_unfreezeNote->setText(
            tr("The drive is still frozen after the suspend (this machine keeps it powered, or "
               "its firmware froze it again on resume). Hot-plug the drive — unplug its data "
               "and power cable while the machine runs, then plug it back — and try again."));
        return;
    }
    m_unfreezeNote->setText(tr("The drive is no longer frozen. Reading its erase methods again…"));
    m_runner->call(QStringLiteral("erase.probe"), Json{{"device", m_device.path}});
}

void EraseWizard::startErase() {
    m_step->setText(tr("Starting %1…").arg(chosenMethod()));
    m_runner->call(QStringLiteral("erase.run"), Json{{"device", m_device.path},
                                                     {"method", chosenMethod().toStdString()},
                                                     {"confirm", m_confirm->text().toStdString()}});
}

void EraseWizard::helperFinished(const QString& verb, bool ok, const QString& error,
                                 const Json& result) {
    if (verb == QLatin1String("erase.unfreeze")) {
        unfreezeFinished(ok, error, result);
        return;
    }
    if (verb == QLatin1String("erase.probe")) {
        if (!ok) {
            m_identity->setText(tr("Could not read the drive's erase methods: %1").arg(error));
            return;
        }
        showProbe(result);
        return;
    }
    m_eraseDone = true;
    m_progress->setRange(0, 1000);
    m_progress->setValue(1000);
    if (!ok) {
        m_step->setText(tr("The erase failed: %1").arg(error));
        m_verdict->setText(tr("Not erased: %1").arg(error));
        m_verdict->setStyleSheet(QStringLiteral("color: %1").arg(theme::kError.name()));
        emit eraseFinished(false);
        return;
    }
    m_certificate = result;
    const bool passed = result["verification"].value("passed", false);
    m_step->setText(tr("Done."));
    m_verdict->setText(passed ? tr("Erased and verified: %1")
                                    .arg(QString::fromStdString(
                                        result["verification"].value("summary", std::string())))
                              : tr("Erased, but the verification FAILED: %1")
                                    .arg(QString::fromStdString(
                                        result["verification"].value("summary", std::string()))));
    m_verdict->setStyleSheet(
        passed ? QStringLiteral("color: #15803d; font-weight: bold")
               : QStringLiteral("color: %1; font-weight: bold").arg(theme::kError.name()));
    m_certificateText->setPlainText(QString::fromStdString(result.value("text", std::string())));
    emit eraseFinished(true);
}

} // namespace ssdk::app
