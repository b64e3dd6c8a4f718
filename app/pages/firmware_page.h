#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

#include <QFutureWatcher>
#include <QString>
#include <QStringList>

#include "app/helper_caller.h"
#include "app/pages/device_page.h"
#include "core/firmware/fwupd.h"
#include "core/rpc/transport.h"

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

// Declared in core/firmware/verbs.h, which a Qt header cannot include (the types name a
// member `slots`, Qt's macro; firmware_page.cpp includes it with the macro set aside).
namespace ssdk::firmware {
struct FirmwareInfo;
struct PathStatus;
struct UpdatePlan;
struct UpdateVerbRequest;
} // namespace ssdk::firmware

namespace ssdk::app {

// Firmware: the running revision, the NVMe slot table, known problems of the model and
// revision (with their public sources), the update paths with the reason each one is not
// offered, the releases fwupd offers as upgrades with an Install button, and an "Update from
// image…" flow (checks, confirmation, progress). Reads and NVMe updates go through the helper
// (firmware.info/plan/update); fwupd installs talk to the fwupd daemon directly (it asks
// polkit itself), on a pool thread with its progress relayed to the GUI thread.
// Object names "firmware.*".
class FirmwarePage : public DevicePage {
    Q_OBJECT
public:
    // helper: the helper session (AppServices::helper); nullptr = a helper process of its own.
    explicit FirmwarePage(std::shared_ptr<rpc::Transport> helper = nullptr,
                          QWidget* parent = nullptr);
    ~FirmwarePage() override;

    void setDevice(const device::Device* device) override;

    // What a confirmation asks about: what happens afterwards, and what to keep in mind.
    struct UpdateQuestion {
        QString account;
        QStringList reminders;
    };

    // Shows a firmware.info answer (public so tests and screenshots can feed one).
    void showInfo(const firmware::FirmwareInfo& info);
    // Starts the update flow: firmware.plan, the confirmation, then firmware.update.
    void startUpdate();
    // Decides the confirmation of an NVMe update or an fwupd install; the default asks with a
    // message box. Tests replace it.
    void setConfirmHandler(std::function<bool(const UpdateQuestion& question)> handler);
    // Installs the release selected in the fwupd table through fwupd (after the confirmation).
    void startFwupdInstall();
    bool fwupdBusy() const { return m_fwupdWatcher.isRunning(); }

    HelperCaller* runner() const { return m_runner; }
    bool isLoading() const override;

signals:
    // After a helper answer was shown (firmware::kVerbInfo, kVerbPlan, kVerbUpdate),
    // or an fwupd install finished and its releases were read again ("fwupd.install").
    void resultShown(const QString& verb);

private:
    QGroupBox* buildSlotsBox();
    QGroupBox* buildIssuesBox();
    QGroupBox* buildPathsBox();
    QGroupBox* buildUpdateBox();
    QGroupBox* buildFwupdBox();
    // path: fwupd's update path; null when fwupd was not asked.
    void showFwupd(const firmware::PathStatus* path);
    void fwupdProgress(unsigned percent, const QString& status);
    void fwupdFinished();
    void refresh();
    void helperFinished(const QString& verb, const HelperCaller::Outcome& outcome);
    void showPlanAndMaybeUpdate(const firmware::UpdatePlan& plan);
    // The update the widgets describe; an error when the action is not one.
    Expected<firmware::UpdateVerbRequest> updateRequest() const;
    void updateButtons();

    HelperCaller* m_runner = nullptr;
    std::optional<device::Device> m_device;
    bool m_refreshPending = false;
    bool m_imagePathOffered = false;
    std::function<bool(const UpdateQuestion&)> m_confirm;

    QLabel* m_identity = nullptr;
    QLabel* m_caps = nullptr;
    QTableWidget* m_slots = nullptr;
    QLabel* m_issues = nullptr;
    QTableWidget* m_paths = nullptr;
    QLineEdit* m_image = nullptr;
    QPushButton* m_browse = nullptr;
    QSpinBox* m_slot = nullptr;
    QComboBox* m_action = nullptr;
    QCheckBox* m_systemDisk = nullptr;
    QPushButton* m_updateButton = nullptr;
    QLabel* m_updateResult = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;

    // fwupd: the drive's fwupd device and the upgrades fwupd offers for it.
    struct FwupdOutcome {
        Expected<firmware::FwupdInstallOutcome> install;
        // The fwupd device and its upgrades read again afterwards.
        std::shared_ptr<const firmware::PathStatus> path;
    };
    std::shared_ptr<firmware::FwupdService> m_fwupd;
    std::shared_ptr<std::atomic<bool>> m_fwupdCancel;
    QFutureWatcher<FwupdOutcome> m_fwupdWatcher;
    bool m_fwupdOffered = false;
    std::string m_fwupdDeviceId;
    QLabel* m_fwupdSummary = nullptr;
    QTableWidget* m_fwupdReleases = nullptr;
    QPushButton* m_fwupdInstall = nullptr;
    QPushButton* m_fwupdCancelButton = nullptr;
    QProgressBar* m_fwupdProgress = nullptr;
    QLabel* m_fwupdResult = nullptr;
};

} // namespace ssdk::app
