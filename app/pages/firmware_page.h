#pragma once

#include <functional>
#include <optional>

#include "app/pages/device_page.h"
#include "core/base/json.h"

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace ssdk::app {

class HelperCaller;

// Firmware: the running revision, the NVMe slot table, known problems of the model and
// revision (with their public sources), the update paths with the reason each one is not
// offered, and an "Update from image…" flow (checks, confirmation, progress). Everything goes
// through the helper (firmware.info/plan/update) on a pool thread. Object names "firmware.*".
class FirmwarePage : public DevicePage {
    Q_OBJECT
public:
    explicit FirmwarePage(QWidget* parent = nullptr);

    void setDevice(const device::Device* device) override;

    // Shows a firmware.info answer (public so tests and screenshots can feed one).
    void showInfo(const Json& info);
    // Starts the update flow: firmware.plan, the confirmation, then firmware.update.
    void startUpdate();
    // Decides the confirmation; the default asks with a message box. Tests replace it.
    void setConfirmHandler(std::function<bool(const Json& plan)> handler);

    HelperCaller* runner() const { return m_runner; }

signals:
    // After a helper answer was shown ("firmware.info", "firmware.plan", "firmware.update").
    void resultShown(const QString& verb);

private:
    QGroupBox* buildSlotsBox();
    QGroupBox* buildIssuesBox();
    QGroupBox* buildPathsBox();
    QGroupBox* buildUpdateBox();
    void refresh();
    void helperFinished(const QString& verb, bool ok, const QString& error, const Json& result);
    void showPlanAndMaybeUpdate(const Json& plan);
    Json updateArgs() const;
    void updateButtons();

    HelperCaller* m_runner = nullptr;
    std::optional<device::Device> m_device;
    bool m_refreshPending = false;
    bool m_imagePathOffered = false;
    std::function<bool(const Json&)> m_confirm;

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
};

} // namespace ssdk::app
