#pragma once

#include <memory>

#include <QWizard>

#include "core/base/json.h"
#include "core/device/device.h"
#include "core/rpc/transport.h"

class QButtonGroup;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QVBoxLayout;

namespace ssdk::app {

class HelperCaller;

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
    const Json& certificate() const { return m_certificate; }

signals:
    void probed();
    void eraseFinished(bool ok);

private:
    void showProbe(const Json& probe);
    void startErase();
    void askUnfreeze();
    void unfreezeFinished(bool ok, const QString& error, const Json& result);
    void helperFinished(const QString& verb, bool ok, const QString& error, const Json& result);

    device::Device m_device;
    HelperCaller* m_runner = nullptr;
    Json m_probe;
    Json m_certificate;
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
