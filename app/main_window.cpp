#include "app/main_window.h"

#include <algorithm>

#include <QAction>
#include <QApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QListView>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTime>
#include <QToolBar>
#include <QVBoxLayout>

#include "app/device_text.h"
#include "app/health_backend.h"
#include "app/lab_drive_dialog.h"
#include "app/models/drive_activity.h"
#include "app/models/drive_list_model.h"
#include "app/pages/firmware_page.h"
#include "app/pages/health_page.h"
#include "app/pages/maintenance_page.h"
#include "app/pages/overview_page.h"
#include "app/pages/performance_page.h"
#include "app/pages/ram_cache_page.h"
#include "app/pages/spare_area_page.h"
#include "app/settings_store.h"
#include "app/theme.h"
#include "app/widgets/drive_delegate.h"
#include "app/widgets/drive_icons.h"
#include "core/lab/lab_client.h"

namespace ssdk::app {

using device::Device;

namespace {

enum ContentIndex { EmptyContent = 0, PagesContent = 1 };

} // namespace

MainWindow::MainWindow(AppServices services, QWidget* parent)
    : QMainWindow(parent)
    , m_live(services.isLive())
    , m_recordedRoot(services.recordedRoot()) {
    setWindowTitle(QStringLiteral("SSD Keeper"));
    setWindowIcon(QIcon(driveIcon(device::Bus::Nvme, false, 64)));
    resize(1280, 780);

    m_model = new DriveListModel(this);
    new DriveActivity(m_model, services.platform()->makeStatSource(services.root()), this);
    const auto& helper = services.helper();
    m_helper = new HelperCaller(helper, this);
    connect(m_helper, &HelperCaller::finished, this, &MainWindow::helperFinished);

    buildActions();

    auto* splitter = new QSplitter;
    splitter->setChildrenCollapsible(false);
    splitter->setHandleWidth(1);
    splitter->addWidget(buildDriveList());

    m_content = new QStackedWidget;
    m_content->addWidget(buildEmptyState());
    m_pages = new QTabWidget;
    m_pages->setDocumentMode(true);
    // All seven area tabs fit beside the drive list in a 1024-wide window, never cut or
    // scrolled: the theme's 18 px either side leaves "Fi" of Firmware.
    m_pages->tabBar()->setStyleSheet(QStringLiteral("QTabBar::tab { padding: 8px 10px; }"));
    m_pages->tabBar()->setElideMode(Qt::ElideNone);
    m_content->addWidget(m_pages);
    splitter->addWidget(m_content);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({340, 940});
    setCentralWidget(splitter);

    // The area pages; each later area adds its page here.
    m_overview = new OverviewPage;
    addPage(m_overview, QT_TR_NOOP("Overview"));
    const auto& platform = services.platform();
    addPage(new HealthPage(std::make_shared<SystemHealthBackend>(helper, platform)),
            QT_TR_NOOP("Health"));
    addPage(new PerformancePage(helper, m_recordedRoot, platform), QT_TR_NOOP("Performance"));
    addPage(new RamCachePage(new HelperCaller(helper)), QT_TR_NOOP("RAM Cache"));
    auto* spareArea = new SpareAreaPage(m_live, helper);
    // After a change the page reads its drive at once, and the window rescans for the others.
    spareArea->setDriveReader([discovery = services.makeDiscovery()](const std::string& path) {
        return discovery.find(path);
    });
    connect(spareArea, &SpareAreaPage::driveChanged, this, &MainWindow::rescan);
    addPage(spareArea, QT_TR_NOOP("Spare Area"));
    addPage(new MaintenancePage(helper, platform), QT_TR_NOOP("Maintenance"));
    addPage(new FirmwarePage(helper), QT_TR_NOOP("Firmware"));

    buildStatusBar();
    updateEmptyState();
    updateActions();

    m_watcher = new DeviceWatcher(services.makeDiscovery());
    m_watcher->moveToThread(&m_watcherThread);
    connect(&m_watcherThread, &QThread::started, m_watcher, &DeviceWatcher::start);
    connect(&m_watcherThread, &QThread::finished, m_watcher, &QObject::deleteLater);
    connect(m_watcher, &DeviceWatcher::devicesDiscovered, this, &MainWindow::showDevices);
    connect(m_watcher, &DeviceWatcher::discoveryFailed, this, &MainWindow::showDiscoveryError);
    m_watcherThread.setObjectName(QStringLiteral("device-watcher"));
    m_watcherThread.start();
}

MainWindow::~MainWindow() {
    m_watcherThread.quit();
    m_watcherThread.wait();
}

void MainWindow::buildActions() {
    m_rescanAction = new QAction(tr("&Rescan"), this);
    m_rescanAction->setShortcut(QKeySequence::Refresh);
    m_rescanAction->setToolTip(tr("Look for drives again (F5)"));
    connect(m_rescanAction, &QAction::triggered, this, &MainWindow::rescan);

    m_createLabAction = new QAction(tr("&Create lab drive…"), this);
    m_createLabAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_N));
    connect(m_createLabAction, &QAction::triggered, this, &MainWindow::createLabDrive);

    m_destroyLabAction = new QAction(tr("&Destroy lab drive…"), this);
    connect(m_destroyLabAction, &QAction::triggered, this, &MainWindow::destroyLabDrive);

    auto* quit = new QAction(tr("&Quit"), this);
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    auto* about = new QAction(tr("&About SSD Keeper"), this);
    connect(about, &QAction::triggered, this, &MainWindow::showAbout);

    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(quit);
    auto* drives = menuBar()->addMenu(tr("&Drives"));
    drives->addAction(m_rescanAction);
    drives->addSeparator();
    drives->addAction(m_createLabAction);
    drives->addAction(m_destroyLabAction);
    auto* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(about);

    auto* toolBar = addToolBar(tr("Drives"));
    toolBar->setObjectName(QStringLiteral("drivesToolBar"));
    toolBar->setMovable(false);
    toolBar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    toolBar->addAction(m_rescanAction);
    toolBar->addSeparator();
    toolBar->addAction(m_createLabAction);
    toolBar->addAction(m_destroyLabAction);
}

QWidget* MainWindow::buildDriveList() {
    auto* panel = new QWidget;
    auto* layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    auto* header = new QLabel(tr("DRIVES"));
    header->setObjectName(QStringLiteral("drivesHeader"));
    layout->addWidget(header);

    m_driveList = new QListView;
    m_driveList->setObjectName(QStringLiteral("driveList"));
    m_driveList->setAccessibleName(tr("Drives"));
    m_driveList->setModel(m_model);
    m_driveList->setItemDelegate(new DriveDelegate(m_driveList));
    m_driveList->setSelectionMode(QAbstractItemView::SingleSelection);
    m_driveList->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_driveList->setMouseTracking(true);
    m_driveList->setUniformItemSizes(true);
    m_driveList->setFocusPolicy(Qt::StrongFocus);
    layout->addWidget(m_driveList, 1);
    panel->setMinimumWidth(280);

    connect(m_driveList->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) {
                if (const Device* device = m_model->deviceAt(current.row())) {
                    m_selectedName = toQString(device->name);
                }
                if (!m_applyingDevices) {
                    showSelectedDevice();
                }
            });
    return panel;
}

QWidget* MainWindow::buildEmptyState() {
    auto* widget = new QWidget;
    auto* layout = new QVBoxLayout(widget);
    layout->addStretch(1);
    m_emptyTitle = new QLabel;
    m_emptyTitle->setObjectName(QStringLiteral("emptyTitle"));
    m_emptyTitle->setProperty("role", QStringLiteral("emptyTitle"));
    m_emptyTitle->setAlignment(Qt::AlignCenter);
    layout->addWidget(m_emptyTitle);
    m_emptyText = new QLabel;
    m_emptyText->setObjectName(QStringLiteral("emptyText"));
    m_emptyText->setProperty("role", QStringLiteral("empty"));
    m_emptyText->setAlignment(Qt::AlignCenter);
    m_emptyText->setWordWrap(true);
    layout->addWidget(m_emptyText);
    m_emptyCreate = new QPushButton(tr("Create lab drive…"));
    connect(m_emptyCreate, &QPushButton::clicked, this, &MainWindow::createLabDrive);
    auto* buttonRow = new QHBoxLayout;
    buttonRow->addStretch(1);
    buttonRow->addWidget(m_emptyCreate);
    buttonRow->addStretch(1);
    layout->addSpacing(8);
    layout->addLayout(buttonRow);
    layout->addStretch(2);
    return widget;
}

void MainWindow::buildStatusBar() {
    m_errorLabel = new QLabel;
    m_errorLabel->setObjectName(QStringLiteral("discoveryError"));
    m_errorLabel->setProperty("role", QStringLiteral("error"));
    statusBar()->addWidget(m_errorLabel, 1);

    m_busyLabel = new QLabel;
    m_busyBar = new QProgressBar;
    m_busyBar->setRange(0, 0);
    m_busyBar->setMaximumWidth(120);
    m_busyBar->setMaximumHeight(14);
    m_busyBar->setTextVisible(false);
    statusBar()->addPermanentWidget(m_busyLabel);
    statusBar()->addPermanentWidget(m_busyBar);
    m_busyLabel->hide();
    m_busyBar->hide();

    if (!m_live) {
        auto* replay = new QLabel(tr("Recorded tree: %1").arg(m_recordedRoot));
        replay->setProperty("role", QStringLiteral("muted"));
        replay->setToolTip(tr("Started with --sysfs-root: showing a recorded system, not this "
                              "machine."));
        statusBar()->addPermanentWidget(replay);
    }
    m_scanLabel = new QLabel(tr("Looking for drives…"));
    m_scanLabel->setObjectName(QStringLiteral("scanStatus"));
    m_scanLabel->setProperty("role", QStringLiteral("muted"));
    statusBar()->addPermanentWidget(m_scanLabel);
}

void MainWindow::addPage(DevicePage* page, const char* title) {
    const int index = m_pages->addTab(page, tr(title));
    // The English title too, which --page and the tests name whatever the language.
    m_pages->tabBar()->setTabData(index, QString::fromLatin1(title));
    m_devicePages.push_back(page);
}

bool MainWindow::currentPageLoading() const {
    const auto* page = qobject_cast<const DevicePage*>(m_pages->currentWidget());
    return page != nullptr && page->isLoading();
}

QString MainWindow::currentPageTitle() const {
    return m_pages->tabText(m_pages->currentIndex()).remove(QLatin1Char('&'));
}

bool MainWindow::showPage(const QString& title) {
    for (int index = 0; index < m_pages->count(); ++index) {
        const QString english = m_pages->tabBar()->tabData(index).toString();
        if (m_pages->tabText(index).remove(QLatin1Char('&')).compare(title, Qt::CaseInsensitive) ==
                0 ||
            english.compare(title, Qt::CaseInsensitive) == 0) {
            m_pages->setCurrentIndex(index);
            return true;
        }
    }
    return false;
}

void MainWindow::saveState(QSettings& settings) const {
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/page"), m_pages->currentIndex());
    if (!m_selectedName.isEmpty()) {
        settings.setValue(QStringLiteral("window/drive"), m_selectedName);
    }
    saveRemembered(*this, settings);
}

void MainWindow::restoreState(const QSettings& settings) {
    const QByteArray geometry = settings.value(QStringLiteral("window/geometry")).toByteArray();
    if (!geometry.isEmpty()) {
        restoreGeometry(geometry);
    }
    bool pageOk = false;
    const int page = settings.value(QStringLiteral("window/page")).toInt(&pageOk);
    if (pageOk && page >= 0 && page < m_pages->count()) {
        m_pages->setCurrentIndex(page);
    }
    const QString drive = settings.value(QStringLiteral("window/drive")).toString();
    if (!drive.isEmpty()) {
        selectWhenAvailable(drive);
    }
    restoreRemembered(*this, settings);
}

void MainWindow::selectWhenAvailable(const QString& name) {
    if (!selectDevice(name)) {
        m_pendingName = name;
    }
}

bool MainWindow::selectDevice(const QString& name) {
    const int row = m_model->rowOfName(name);
    if (row < 0) {
        return false;
    }
    m_pendingName.clear();
    m_selectedName = toQString(m_model->deviceAt(row)->name);
    m_driveList->setCurrentIndex(m_model->index(row));
    return true;
}

bool MainWindow::isSelected(const QString& name) const {
    const int row = m_model->rowOfName(name);
    return row >= 0 && row == m_driveList->currentIndex().row();
}

QString MainWindow::selectedDeviceName() const {
    const Device* device = selectedDevice();
    return device != nullptr ? toQString(device->name) : QString();
}

const Device* MainWindow::selectedDevice() const {
    return m_model->deviceAt(m_driveList->currentIndex().row());
}

void MainWindow::rescan() {
    QMetaObject::invokeMethod(m_watcher, &DeviceWatcher::rescan, Qt::QueuedConnection);
}

void MainWindow::showDevices(const DeviceList& devices) {
    const QString previous = m_selectedName;
    // The pages are updated once, below, not for every intermediate selection change.
    m_applyingDevices = true;
    m_model->setDevices(devices);

    QString target;
    if (!m_pendingName.isEmpty() && m_model->rowOfName(m_pendingName) >= 0) {
        target = m_pendingName;
    }
    if (target.isEmpty() && m_model->rowOfName(previous) >= 0) {
        target = previous;
    }
    if (target.isEmpty() && !devices.empty()) {
        target = toQString(devices.front().name);
    }
    if (!target.isEmpty()) {
        selectDevice(target);
    } else {
        m_selectedName.clear();
    }
    m_applyingDevices = false;
    showSelectedDevice();

    m_hasResult = true;
    m_errorLabel->clear();
    const QString count = devices.size() == 1 ? tr("1 drive") : tr("%1 drives").arg(devices.size());
    m_scanLabel->setText(
        tr("%1 · updated %2")
            .arg(count, QTime::currentTime().toString(QStringLiteral("HH:mm:ss"))));
    updateEmptyState();
    emit devicesShown();
}

void MainWindow::showDiscoveryError(const QString& message) {
    m_errorLabel->setText(tr("Discovery failed: %1").arg(message));
    m_errorLabel->setToolTip(message);
}

void MainWindow::showSelectedDevice() {
    const Device* device = selectedDevice();
    for (DevicePage* page : m_devicePages) {
        page->setDevice(device);
    }
    updateActions();
}

void MainWindow::updateEmptyState() {
    const bool empty = m_model->rowCount() == 0;
    m_content->setCurrentIndex(empty ? EmptyContent : PagesContent);
    if (!m_hasResult) {
        m_emptyTitle->setText(tr("Looking for drives…"));
        m_emptyText->clear();
        m_emptyCreate->hide();
        return;
    }
    m_emptyTitle->setText(tr("No drives found"));
    m_emptyText->setText(
        m_live ? tr("SSD Keeper found no block devices on this machine. Create "
                    "a lab drive to try its features without risking a disk.")
               : tr("The recorded tree %1 holds no block devices.").arg(m_recordedRoot));
    m_emptyCreate->setVisible(m_live);
}

void MainWindow::updateActions() {
    const bool busy = m_helper->isBusy();
    const Device* device = selectedDevice();
    m_createLabAction->setEnabled(m_live && !busy);
    m_emptyCreate->setEnabled(m_live && !busy);
    m_destroyLabAction->setEnabled(m_live && !busy && device != nullptr && device->isLab());
    if (!m_live) {
        const QString why = tr("Lab drives need the live system, not a recorded tree.");
        m_createLabAction->setToolTip(why);
        m_destroyLabAction->setToolTip(why);
    } else {
        m_createLabAction->setToolTip(tr("Create a loop device over a sparse image file"));
        m_destroyLabAction->setToolTip(tr("Detach the selected lab drive and delete its image"));
    }
}

void MainWindow::setBusy(const QString& text) {
    m_busyLabel->setText(text);
    m_busyLabel->setVisible(!text.isEmpty());
    m_busyBar->setVisible(!text.isEmpty());
    updateActions();
}

void MainWindow::runHelper(const char* verb, HelperCaller::Work work, const QString& busyText) {
    if (!m_helper->run(QString::fromLatin1(verb), std::move(work))) {
        return;
    }
    setBusy(busyText);
}

void MainWindow::createLabDrive() {
    if (!m_live || m_helper->isBusy()) {
        return;
    }
    QStringList existing;
    for (const Device& device : m_model->devices()) {
        if (device.labName) {
            existing << toQString(*device.labName);
        }
    }
    LabDriveDialog dialog(existing, this);
    if (dialog.exec() != QDialog::Accepted) {
        return;
    }
    const lab::LabCreateRequest request = dialog.request();
    m_helperSubject = toQString(request.name);
    runHelper(
        lab::kVerbLabCreate,
        [request](rpc::Transport& transport,
                  const rpc::Transport::EventHandler& onEvent) -> Expected<Json> {
            auto drive = lab::LabClient(transport).create(request, onEvent);
            if (!drive) {
                return std::unexpected(drive.error());
            }
            return lab::toJson(*drive);
        },
        tr("Creating lab drive “%1”…").arg(m_helperSubject));
}

void MainWindow::destroyLabDrive() {
    const Device* device = selectedDevice();
    if (!m_live || m_helper->isBusy() || device == nullptr || !device->isLab()) {
        return;
    }
    const QString name = toQString(*device->labName);
    QMessageBox confirm(QMessageBox::Warning, tr("Destroy lab drive"),
                        tr("Destroy the lab drive “%1”?").arg(name), QMessageBox::NoButton, this);
    confirm.setInformativeText(
        tr("%1 is detached and its image file deleted. Everything stored on it is lost.")
            .arg(toQString(device->path)));
    auto* destroy = confirm.addButton(tr("Destroy"), QMessageBox::DestructiveRole);
    confirm.addButton(QMessageBox::Cancel);
    confirm.setDefaultButton(QMessageBox::Cancel);
    confirm.exec();
    if (confirm.clickedButton() != destroy) {
        return;
    }
    m_helperSubject = name;
    runHelper(
        lab::kVerbLabDestroy,
        [request = lab::DestroyRequest{name.toStdString()}](
            rpc::Transport& transport, const rpc::Transport::EventHandler&) -> Expected<Json> {
            auto destroyed = lab::LabClient(transport).destroy(request);
            if (!destroyed) {
                return std::unexpected(destroyed.error());
            }
            return lab::toJson(*destroyed);
        },
        tr("Destroying lab drive “%1”…").arg(name));
}

void MainWindow::helperFinished(const QString& verb, const HelperCaller::Outcome& outcome) {
    setBusy({});
    const bool creating = verb == QString::fromLatin1(lab::kVerbLabCreate);
    if (!outcome.ok) {
        QMessageBox box(QMessageBox::Critical,
                        creating ? tr("Create lab drive") : tr("Destroy lab drive"),
                        creating ? tr("Could not create the lab drive “%1”.").arg(m_helperSubject)
                                 : tr("Could not destroy the lab drive “%1”.").arg(m_helperSubject),
                        QMessageBox::Ok, this);
        box.setInformativeText(outcome.error);
        box.exec();
        rescan();
        return;
    }
    if (creating) {
        m_pendingName = m_helperSubject;
        statusBar()->showMessage(tr("Created lab drive “%1”.").arg(m_helperSubject), 6000);
    } else {
        statusBar()->showMessage(tr("Destroyed lab drive “%1”.").arg(m_helperSubject), 6000);
    }
    rescan();
}

void MainWindow::showAbout() {
    QMessageBox::about(
        this, tr("About SSD Keeper"),
        tr("<h3>SSD Keeper %1</h3><p>An SSD manager for every vendor's drive: identity, health, "
           "performance, RAM cache, spare area, TRIM, secure erase and firmware.</p>")
            .arg(QApplication::applicationVersion()));
}

} // namespace ssdk::app
