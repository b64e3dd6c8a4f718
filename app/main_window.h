#pragma once

#include <vector>

#include <QMainWindow>
#include <QThread>

#include "app/app_services.h"
#include "app/device_watcher.h"
#include "app/helper_caller.h"

class QAction;
class QLabel;
class QListView;
class QProgressBar;
class QPushButton;
class QSettings;
class QStackedWidget;
class QTabWidget;

namespace ssdk::app {

class DevicePage;
class DriveListModel;
class OverviewPage;

// The drive list on the left, the area pages of the selected drive on the right, and the
// Drives menu (rescan, lab drives). Discovery runs on a DeviceWatcher on its own thread;
// helper verbs run through HelperCallers on the one helper session of `services`, which
// every page shares. Lab drive actions need the live system.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(AppServices services, QWidget* parent = nullptr);
    ~MainWindow() override;

    // A name is a kernel name (nvme0n1) or a lab drive's name (demo).
    // Selects the drive with this name as soon as a discovery lists it.
    void selectWhenAvailable(const QString& name);
    // Selects a listed drive; false when no listed drive has that name.
    bool selectDevice(const QString& name);
    // Whether the drive with this name is listed and selected.
    bool isSelected(const QString& name) const;
    // Shows the area page with this tab title (case-insensitive); false when there is none.
    bool showPage(const QString& title);
    // The page shown is still reading what it shows (DevicePage::isLoading).
    bool currentPageLoading() const;
    QString currentPageTitle() const;
    // Kernel name of the selected drive; empty when none.
    QString selectedDeviceName() const;
    // Null when none; valid until the next discovery result.
    const device::Device* selectedDevice() const;

    DriveListModel* driveModel() const { return m_model; }
    QListView* driveList() const { return m_driveList; }
    OverviewPage* overviewPage() const { return m_overview; }
    QAction* rescanAction() const { return m_rescanAction; }
    QAction* createLabAction() const { return m_createLabAction; }
    QAction* destroyLabAction() const { return m_destroyLabAction; }
    bool hasDiscoveryResult() const { return m_hasResult; }
    QTabWidget* pages() const { return m_pages; }

    // What the window remembers between runs (settings_store.h): geometry, the page shown, the
    // selected drive and the pages' remembered options. restoreState selects the saved drive
    // once it appears; a later selectWhenAvailable or showPage wins over what it restored.
    void saveState(QSettings& settings) const;
    void restoreState(const QSettings& settings);

signals:
    // A discovery result is on screen and the selection has been made.
    void devicesShown();

public slots:
    void rescan();
    void createLabDrive();
    void destroyLabDrive();

private:
    void buildActions();
    QWidget* buildDriveList();
    QWidget* buildEmptyState();
    void buildStatusBar();
    // title: the untranslated title (QT_TR_NOOP), shown translated.
    void addPage(DevicePage* page, const char* title);

    void showDevices(const ssdk::app::DeviceList& devices);
    void showDiscoveryError(const QString& message);
    void showSelectedDevice();
    void updateActions();
    void updateEmptyState();
    void setBusy(const QString& text);
    // Starts work on the helper, named verb (a lab verb constant) in helperFinished.
    void runHelper(const char* verb, HelperCaller::Work work, const QString& busyText);
    void helperFinished(const QString& verb, const HelperCaller::Outcome& outcome);
    void showAbout();

    bool m_live = true;
    QString m_recordedRoot;
    QThread m_watcherThread;
    DeviceWatcher* m_watcher = nullptr;
    HelperCaller* m_helper = nullptr;

    DriveListModel* m_model = nullptr;
    QListView* m_driveList = nullptr;
    QStackedWidget* m_content = nullptr;
    QLabel* m_emptyTitle = nullptr;
    QLabel* m_emptyText = nullptr;
    QPushButton* m_emptyCreate = nullptr;
    QTabWidget* m_pages = nullptr;
    std::vector<DevicePage*> m_devicePages;
    OverviewPage* m_overview = nullptr;

    QAction* m_rescanAction = nullptr;
    QAction* m_createLabAction = nullptr;
    QAction* m_destroyLabAction = nullptr;

    QLabel* m_errorLabel = nullptr;
    QLabel* m_scanLabel = nullptr;
    QLabel* m_busyLabel = nullptr;
    QProgressBar* m_busyBar = nullptr;

    bool m_hasResult = false;
    bool m_applyingDevices = false;
    QString m_selectedName;
    QString m_pendingName;   // select this kernel name when it appears
    QString m_helperSubject; // the lab drive the running helper call is about
};

} // namespace ssdk::app
