#pragma once

#include <memory>
#include <optional>

#include "app/helper_caller.h"
#include "app/pages/device_page.h"
#include "core/maintenance/verbs.h"
#include "core/platform/platform.h"
#include "core/rpc/transport.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace ssdk::app {

// TRIM audit (run when a drive is selected), Verify TRIM, manual fstrim and fstrim.timer, quick
// format + verify, and the secure erase wizard. Everything privileged goes through the helper
// on a pool thread (HelperCaller). Widgets have object names "maintenance.<name>".
class MaintenancePage : public DevicePage {
    Q_OBJECT
public:
    // helper: the helper session (AppServices::helper); nullptr = a helper process of its own.
    // platform: AppServices::platform (fstrim.timer is read through its process runner);
    // nullptr = makePlatform().
    explicit MaintenancePage(std::shared_ptr<rpc::Transport> helper = nullptr,
                             std::shared_ptr<platform::Platform> platform = nullptr,
                             QWidget* parent = nullptr);

    void setDevice(const device::Device* device) override;

    // The actions the buttons start; public so tests drive them.
    void runAudit();
    void runVerify();
    void runFstrim();
    void runFormat(bool confirmed);
    void openEraseWizard();

    HelperCaller* runner() const { return m_runner; }
    bool isLoading() const override;

signals:
    // Emitted after a result was shown (verb: maintenance::kVerbTrimAudit, …).
    void resultShown(const QString& verb);

private:
    QWidget* buildAuditBox();
    QWidget* buildVerifyBox();
    QWidget* buildFormatBox();
    QWidget* buildEraseBox();
    void showAudit(const maintenance::trim::TrimAudit& audit);
    void showVerify(const maintenance::trim::VerifyResult& result);
    void showFstrim(const maintenance::FstrimReply& reply);
    void showFormat(const maintenance::trim::FormatResult& result);
    void showTimer(const maintenance::trim::TimerFacts& timer);
    void showError(const QString& verb, const QString& error);
    void helperFinished(const QString& verb, const HelperCaller::Outcome& outcome);
    void helperProgress(const QString& verb, double fraction, const QString& text);
    void updateFormatNote();
    void updateButtons();
    void refreshTimer();

    std::shared_ptr<rpc::Transport> m_helper; // handed on to the erase wizard
    std::shared_ptr<platform::Platform> m_platform;
    HelperCaller* m_runner = nullptr;
    std::optional<device::Device> m_device;

    QComboBox* m_auditTarget = nullptr;
    QTableWidget* m_layers = nullptr;
    QLabel* m_verdict = nullptr;
    QPushButton* m_auditButton = nullptr;

    QComboBox* m_mountPoint = nullptr;
    QComboBox* m_verifyMode = nullptr;
    QPushButton* m_verifyButton = nullptr;
    QPushButton* m_fstrimButton = nullptr;
    QLabel* m_verifyResult = nullptr;
    QLabel* m_timerStatus = nullptr;
    QPushButton* m_timerButton = nullptr;
    bool m_timerEnabled = false;
    bool m_readingTimer = false; // refreshTimer's background read runs

    QComboBox* m_partition = nullptr;
    QComboBox* m_fsType = nullptr;
    QCheckBox* m_verifyFormat = nullptr;
    QCheckBox* m_discardFirst = nullptr;
    QLabel* m_formatNote = nullptr;
    QPushButton* m_formatButton = nullptr;
    QLabel* m_formatResult = nullptr;

    QPushButton* m_eraseButton = nullptr;
    QLabel* m_eraseNote = nullptr;

    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
};

} // namespace ssdk::app
