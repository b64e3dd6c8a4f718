#pragma once

#include <memory>
#include <optional>

#include <QWizard>

#include "app/helper_caller.h"
#include "core/base/json.h"
#include "core/device/device.h"
#include "core/maintenance/maintenance_client.h"
#include "core/rpc/transport.h"

class QButtonGroup;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QVBoxLayout;

namespace ssdk::app {

// The typed reply of a finished HelperCaller call read back with parse, or nothing with why
// there is none: the call's error, or why its answer could not be read.
template <typename Parse>
auto replyOf(const HelperCaller::Outcome& outcome, Parse parse, QString& why)
    -> std::optional<typename decltype(parse(outcome.result))::value_type> {
    if (!outcome.ok) {
        why = outcome.error;
        return std::nullopt;
    }
    auto reply = parse(outcome.result);
    if (!reply) {
        why = QString::fromStdString(reply.error().describe());
        return std::nullopt;
    }
    return std::move(*reply);
}

// Secure erase in four steps: the methods the drive supports (erase.probe; strongest first,
// with the reason for each one that is not available), the typed confirmation of the model,
// the erase with progress (erase.run), and the certificate with the verification. A
// security-frozen ATA drive gets the offer of a 5 s suspend to unfreeze it (erase.unfreeze).
class EraseWizard : public QWizard {
    Q_OBJECT
public:
    enum PageId { MethodPage, ConfirmPage, ProgressPage, CertificatePage };

    // helper: the helper session (AppServices::helper); nullptr = a helper process of its own.
    EraseWizard(const device::Device& device, std::shared_ptr<rpc::Transport> helper = nullptr,
                QWidget* parent = nullptr);

    QString chosenMethod() const;
    QLineEdit* confirmationEdit() const { return m_confirm; }
    HelperCaller* runner() const { return m_runner; }
    // The erase's answer (maintenance::EraseReply as JSON), null before the erase finished.
    Json certificate() const { return m_erased ? toJson(*m_erased) : Json(); }

signals:
    void probed();
    void eraseFinished(bool ok);

private:
    void probe();
    void showProbe(const maintenance::EraseProbeReply& probe);
    void startErase();
    void askUnfreeze();
    void unfreezeFinished(const maintenance::UnfreezeReply& result);
    void helperFinished(const QString& verb, const HelperCaller::Outcome& outcome);

    device::Device m_device;
    HelperCaller* m_runner = nullptr;
    std::optional<maintenance::EraseProbeReply> m_probe;
    std::optional<maintenance::EraseReply> m_erased;
    bool m_eraseDone = false;

    QLabel* m_identity = nullptr;
    QLabel* m_refused = nullptr;
    QLabel* m_interrupted = nullptr;
    QPushButton* m_unfreeze = nullptr;
    QLabel* m_unfreezeNote = nullptr;
    QVBoxLayout* m_methodList = nullptr;
    QButtonGroup* m_methods = nullptr;
    QLabel* m_confirmText = nullptr;
    QLineEdit* m_confirm = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_step = nullptr;
    QPlainTextEdit* m_certificateText = nullptr;
    QLabel* m_verdict = nullptr;
};

} // namespace ssdk::app
