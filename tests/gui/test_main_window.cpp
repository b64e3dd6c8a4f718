#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <thread>
#include <unistd.h>

#include <QAction>
#include <QElapsedTimer>
#include <QLabel>
#include <QListView>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "app/main_window.h"
#include "app/models/drive_list_model.h"
#include "app/pages/overview_page.h"
#include "app/startup_screenshot.h"
#include "tests/gui/gui_support.h"
#include "tests/integration/maintenance/maintenance_scratch.h"
#include "tests/support/skip.h"

using namespace ssdk;
using namespace ssdk::app;
using namespace std::chrono_literals;

namespace {

QString overviewField(const MainWindow& window, const char* name) {
    const auto* label =
        window.overviewPage()->findChild<QLabel*>(QStringLiteral("overview.") + name);
    REQUIRE(label != nullptr);
    return label->text();
}

// A helper session that answers every call late, and with a refusal.
class SlowTransport : public rpc::Transport {
public:
    explicit SlowTransport(std::chrono::milliseconds delay)
        : m_delay(delay) {}

protected:
    Expected<Json> send(const std::string&, const Json&, const EventHandler&) override {
        std::this_thread::sleep_for(m_delay);
        return fail(ErrorCode::Unsupported, "not on this test machine");
    }
    void cancelRunning() override {}

private:
    std::chrono::milliseconds m_delay;
};

AppServices slowServices(std::chrono::milliseconds delay) {
    return AppServices(SysfsRoot(app::test::recordedTree("workstation")),
                       std::make_shared<SlowTransport>(delay));
}

} // namespace

TEST_CASE("the main window lists a recorded tree and selects the requested drive") {
    app::test::application();
    MainWindow window(app::test::recordedServices("workstation"));
    QSignalSpy shown(&window, &MainWindow::devicesShown);
    window.selectWhenAvailable(QStringLiteral("sda"));
    window.show();
    REQUIRE(shown.wait(5000));

    CHECK(window.windowTitle() == "SSD Keeper");
    CHECK(window.driveModel()->rowCount() >= 4);
    CHECK(window.selectedDeviceName() == "sda");
    CHECK(overviewField(window, "model") == "CT1000MX500SSD1");
    CHECK(overviewField(window, "path") == "/dev/sda");

    // A recorded tree is not this machine: no lab drive changes.
    CHECK_FALSE(window.createLabAction()->isEnabled());
    CHECK_FALSE(window.destroyLabAction()->isEnabled());
}

TEST_CASE("pages are shown by their title") {
    app::test::application();
    MainWindow window(app::test::recordedServices("workstation"));
    CHECK(window.showPage(QStringLiteral("overview")));
    CHECK_FALSE(window.showPage(QStringLiteral("No such page")));
}

TEST_CASE("the main window keeps the selection across rescans") {
    app::test::application();
    MainWindow window(app::test::recordedServices("workstation"));
    QSignalSpy shown(&window, &MainWindow::devicesShown);
    window.show();
    REQUIRE(shown.wait(5000));
    // Without a request the first drive is selected.
    CHECK(window.selectedDeviceName() ==
          window.driveModel()->index(0).data(DriveListModel::NameRole).toString());

    REQUIRE(window.selectDevice(QStringLiteral("demo"))); // a lab drive by its lab name
    CHECK(window.selectedDeviceName() == "loop0");
    CHECK(window.isSelected(QStringLiteral("demo")));
    CHECK(window.isSelected(QStringLiteral("loop0")));
    REQUIRE(window.selectDevice(QStringLiteral("loop0")));
    CHECK(overviewField(window, "lab") == "demo");
    CHECK_FALSE(window.selectDevice(QStringLiteral("nope")));
    CHECK(window.selectedDeviceName() == "loop0");

    window.rescan();
    REQUIRE(shown.wait(5000));
    CHECK(window.selectedDeviceName() == "loop0");
    CHECK(overviewField(window, "lab") == "demo");
}

TEST_CASE("the startup screenshot is written once the selected drive is shown") {
    app::test::application();
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString file = dir.filePath(QStringLiteral("shot.png"));
    MainWindow window(app::test::recordedServices("workstation"));
    window.selectWhenAvailable(QStringLiteral("nvme0n1"));
    StartupScreenshot shot(window, file, QStringLiteral("nvme0n1"));
    QSignalSpy finished(&shot, &StartupScreenshot::finished);
    window.show();
    REQUIRE(finished.wait(10000));
    CHECK(finished.first().at(0).toInt() == 0);
    const QImage image(file);
    REQUIRE_FALSE(image.isNull());
    CHECK(image.size() == window.size() * window.devicePixelRatio());
}

TEST_CASE("the startup screenshot gives up when the drive never appears") {
    app::test::application();
    QTemporaryDir dir;
    MainWindow window(app::test::recordedServices("workstation"));
    window.selectWhenAvailable(QStringLiteral("nvme9n9"));
    StartupScreenshot shot(window, dir.filePath(QStringLiteral("shot.png")),
                           QStringLiteral("nvme9n9"), 800ms);
    QSignalSpy finished(&shot, &StartupScreenshot::finished);
    window.show();
    REQUIRE(finished.wait(5000));
    CHECK(finished.first().at(0).toInt() == 1);
    CHECK(finished.first().at(1).toString().contains("nvme9n9"));
    CHECK_FALSE(QFileInfo::exists(dir.filePath(QStringLiteral("shot.png"))));
}

TEST_CASE("the startup screenshot waits until the page shown has read what it shows") {
    app::test::application();
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("shot.png"));
    MainWindow window(slowServices(1500ms));
    window.selectWhenAvailable(QStringLiteral("nvme0n1"));
    REQUIRE(window.showPage(QStringLiteral("Firmware")));
    StartupScreenshot shot(window, file, QStringLiteral("nvme0n1"));
    QSignalSpy finished(&shot, &StartupScreenshot::finished);
    QElapsedTimer clock;
    clock.start();
    window.show();
    REQUIRE(finished.wait(10000));
    CHECK(finished.first().at(0).toInt() == 0);
    CHECK(clock.elapsed() >= 1500); // the firmware page's answer came first
    CHECK_FALSE(window.currentPageLoading());
    CHECK(QFileInfo::exists(file));
}

TEST_CASE("a page that is still loading at the time limit is captured as it is, and said") {
    app::test::application();
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("shot.png"));
    MainWindow window(slowServices(4000ms));
    window.selectWhenAvailable(QStringLiteral("nvme0n1"));
    REQUIRE(window.showPage(QStringLiteral("Firmware")));
    StartupScreenshot shot(window, file, QStringLiteral("nvme0n1"), 1500ms);
    QSignalSpy finished(&shot, &StartupScreenshot::finished);
    window.show();
    REQUIRE(finished.wait(10000));
    CHECK(finished.first().at(0).toInt() == 1);
    CHECK(finished.first().at(1).toString().contains(
        QStringLiteral("the Firmware page was still loading")));
    CHECK(QFileInfo::exists(file));
    CHECK(window.currentPageLoading());
}

// The one helper session (issue: visiting every page starts at most one helper process). As
// root the session starts ssdkeeper-helper itself, here through a wrapper that notes each
// start; a lab drive is selected so every page reads something real.
TEST_CASE("opening the window and visiting every page starts one helper process") {
    if (::geteuid() != 0) {
        ssdk::test::skipTest("needs root: only root starts the helper without pkexec");
    }
    app::test::application();
    const ssdk::test::MaintenanceScratch scratch;
    const auto drive = ssdk::test::makeLabDrive("gui-one-session", Bytes::mib(160), "gpt-ext4");
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const std::string starts = dir.filePath(QStringLiteral("starts")).toStdString();
    const std::string wrapper = dir.filePath(QStringLiteral("helper")).toStdString();
    {
        std::ofstream script(wrapper);
        script << "#!/bin/sh\necho $$ >> '" << starts << "'\nexec '" << SSDK_BINARY_DIR
               << "/bin/ssdkeeper-helper' \"$@\"\n";
    }
    std::filesystem::permissions(wrapper, std::filesystem::perms::owner_all);
    const QByteArray previous = qgetenv("SSDK_HELPER");
    qputenv("SSDK_HELPER", QByteArray::fromStdString(wrapper));

    {
        const QString name =
            QString::fromStdString(std::filesystem::path(drive.devicePath).filename().string());
        MainWindow window(AppServices{});
        QSignalSpy shown(&window, &MainWindow::devicesShown);
        window.selectWhenAvailable(name);
        window.show();
        for (int i = 0; i < 50 && !window.isSelected(name); ++i) {
            shown.wait(200);
        }
        REQUIRE(window.isSelected(name));
        for (const char* title : {"Overview", "Health", "Performance", "RAM Cache", "Spare Area",
                                  "Maintenance", "Firmware"}) {
            INFO(title);
            REQUIRE(window.showPage(QString::fromLatin1(title)));
            int idle = 0;
            for (int i = 0; i < 300 && idle < 3; ++i) {
                QTest::qWait(100);
                idle = window.currentPageLoading() ? 0 : idle + 1;
            }
            CHECK(idle >= 3);
        }
    }
    qputenv("SSDK_HELPER", previous);
    std::ifstream log(starts);
    int started = 0;
    for (std::string line; std::getline(log, line);) {
        ++started;
    }
    CHECK(started == 1);
}
