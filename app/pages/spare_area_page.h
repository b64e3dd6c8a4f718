#pragma once

#include <functional>
#include <optional>

#include "app/helper_caller.h"
#include "app/pages/device_page.h"
#include "core/overprovision/journal.h"
#include "core/overprovision/planner.h"
#include "core/overprovision/spare_area.h"

class QLabel;
class QProgressBar;
class QPushButton;
class QSlider;
class QFrame;

namespace ssdk::app {

class SpareAreaBar;

// Spare area (over-provisioning): factory and user spare, a 0–50 % slider, the drive to scale
// before and after, the plan in words, Apply (confirmed, naming the partition) with progress,
// Undo, and the offer to finish or roll back an interrupted change. Filesystem usage and the
// journal come from the helper's op.inspect; plans are computed here for every slider value.
// Widgets have object names "spare.<name>" for tests.
class SpareAreaPage : public DevicePage {
    Q_OBJECT
public:
    // live: the devices are this machine's (the helper can be asked); false for recorded trees.
    // helper: the helper session (AppServices::helper); nullptr = a helper process of its own.
    explicit SpareAreaPage(bool live, std::shared_ptr<rpc::Transport> helper = nullptr,
                           QWidget* parent = nullptr);

    // Reads one drive as discovery sees it now (device::Discovery::find), called on a pool
    // thread. With one, the page re-reads its drive the moment op.apply, op.undo or
    // op.recover ends and shows the new sizes and plan before it reports the verb finished;
    // without one (recorded trees), it waits for setDevice.
    using DriveReader = std::function<Expected<device::Device>(const std::string& path)>;
    void setDriveReader(DriveReader reader);

    void setDevice(const device::Device* device) override;
    bool isLoading() const override;
    // What op.inspect answered for the shown device (overprovision::InspectReply's JSON); an
    // answer that cannot be read is shown as the reason the used space is unknown.
    void showInspection(const Json& status);

    QSlider* slider() const { return m_slider; }
    const std::optional<overprovision::Plan>& currentPlan() const { return m_plan; }
    // The question Apply asks, naming the partition.
    QString confirmationText() const;
    // The plan "Unmount, shrink and remount" would carry out, when offered (a mounted ext
    // filesystem that shrinks only unmounted).
    const std::optional<overprovision::Plan>& unmountPlan() const { return m_unmountPlan; }
    QString unmountConfirmationText() const;

signals:
    // A helper verb (op.inspect, op.apply, op.undo, op.recover) answered and was shown; for
    // the three that change the drive, after the drive was read again (setDriveReader).
    void verbFinished(const QString& verb, bool ok);
    // op.apply, op.undo or op.recover ended, done or not: the partitions of the drive at
    // devicePath may have changed. The window rescans, so every page and the drive list
    // show the new sizes (MainWindow::rescan).
    void driveChanged(const QString& devicePath);

private:
    QWidget* buildContent();
    void inspect();
    void updatePlan();
    void apply();
    void applyWithUnmount();
    void startApply(const overprovision::Plan& plan, bool unmount);
    void undo();
    void recover(overprovision::Recovery action);
    void helperFinished(const QString& verb, const HelperCaller::Outcome& outcome);
    void helperProgress(const QString& verb, double fraction, const QString& text);
    // After a change: reads the drive again (m_driveReader), shows it, reads its usage and
    // journal again, then emits driveChanged and verbFinished(verb, ok).
    void rereadDrive(const QString& verb, bool ok);
    void setBusy(bool busy, const QString& text = {});
    HelperCaller* helper();

    bool m_live;
    std::shared_ptr<rpc::Transport> m_session; // what m_helper runs on
    HelperCaller* m_helper = nullptr;
    DriveReader m_driveReader;
    bool m_rereading = false;  // a change ended and the drive is being read again
    bool m_inspecting = false; // op.inspect runs: the plan is shown without a verdict meanwhile
    std::optional<device::Device> m_device;
    std::string m_inspectedToken; // what the last inspection was for (path, sizes, mounts)
    std::optional<overprovision::FilesystemUsage> m_usage;
    QString m_usageError;
    std::optional<overprovision::Journal> m_journal;
    std::optional<overprovision::Plan> m_plan;
    std::optional<overprovision::Plan> m_unmountPlan;
    std::vector<std::string> m_mountUsers;

    QLabel* m_title = nullptr;
    QLabel* m_empty = nullptr;
    QWidget* m_content = nullptr;
    QFrame* m_recoveryBanner = nullptr;
    QLabel* m_recoveryText = nullptr;
    QLabel* m_factory = nullptr;
    QLabel* m_current = nullptr;
    QSlider* m_slider = nullptr;
    QLabel* m_sliderValue = nullptr;
    SpareAreaBar* m_before = nullptr;
    SpareAreaBar* m_after = nullptr;
    QLabel* m_legend = nullptr;
    QLabel* m_planText = nullptr;
    QPushButton* m_apply = nullptr;
    QPushButton* m_unmountApply = nullptr;
    QPushButton* m_undo = nullptr;
    QPushButton* m_finish = nullptr;
    QPushButton* m_rollback = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
};

} // namespace ssdk::app
