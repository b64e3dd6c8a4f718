// The Performance page's whole-device benchmark through the real ssdkeeper-helper (root, so
// no pkexec) on a lab drive: offered only while the drive is unmounted, a typed confirmation,
// a short CDM run whose result fills the grid, and a run cancelled from the page. Offscreen;
// with SSDK_SCREENSHOT_DIR set the confirmation and the result are saved as PNGs.
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include "app/pages/performance_page.h"
#include "core/base/system_process_runner.h"
#include "core/lab/lab.h"
#include "tests/integration/lab/lab_scratch.h"
#include "tests/integration/perf/gui_support.h"

using namespace ssdk;
using namespace ssdk::test;
namespace fs = std::filesystem;

namespace {

device::Device fresh(const std::string& path) {
    const SysfsRoot root;
    const device::Discovery discovery(root, device::makeSystemFsProber(root));
    auto device = discovery.find(path);
    REQUIRE(device);
    return *device;
}

bool fioRunsOn(const std::string& device) {
    for (const auto& entry : fs::directory_iterator("/proc")) {
        std::ifstream in(entry.path() / "cmdline");
        std::stringstream content;
        content << in.rdbuf();
        const std::string cmdline = content.str();
        if (fs::path(cmdline.substr(0, cmdline.find('\0'))).filename() == "fio" &&
            cmdline.find("--filename=" + device) != std::string::npos) {
            return true;
        }
    }
    return false;
}

// Opens the confirmation from the Run button and confirms with `typed`.
void confirmWith(app::PerformancePage& page, const QString& typed, const char* shot = nullptr) {
    page.runBenchmark();
    auto* dialog = page.findChild<QDialog*>(QStringLiteral("performance.confirmDialog"));
    REQUIRE(dialog);
    auto* input = dialog->findChild<QLineEdit*>(QStringLiteral("performance.confirmInput"));
    auto* ok = dialog->findChild<QPushButton*>(QStringLiteral("performance.confirmOk"));
    REQUIRE(input);
    REQUIRE(ok);
    input->setText(QStringLiteral("not it"));
    CHECK_FALSE(ok->isEnabled());
    input->setText(typed);
    REQUIRE(ok->isEnabled());
    if (shot != nullptr) {
        dialog->resize(520, dialog->sizeHint().height());
        saveShot(*dialog, shot);
    }
    ok->click();
}

} // namespace

TEST_CASE_METHOD(LabBench, "the page benchmarks a whole unmounted lab drive through the helper",
                 "[perf]") {
    if (findExecutable("fio").empty()) {
        FAIL("fio is not installed (scripts/setup installs it)");
    }
    offscreenApplication();
    ::setenv("SSDK_HELPER", SSDK_BINARY_DIR "/bin/ssdkeeper-helper", 1);
    const auto drive = createLabDrive(manager, "perf-raw", Bytes::mib(64), "gpt-ext4");
    {
        app::PerformancePage page;
        page.resize(1000, 860);
        page.show();
        auto* kind = page.findChild<QComboBox*>(QStringLiteral("performance.targetKind"));
        auto* note = page.findChild<QLabel*>(QStringLiteral("performance.targetNote"));
        REQUIRE(kind);
        REQUIRE(note);
        {
            MountGuard mount(drive.devicePath + "p1", scratch.dir() / "mnt");
            const auto mounted = fresh(drive.devicePath);
            page.setDevice(&mounted);
            CHECK_FALSE(page.wholeDeviceAvailable());
            kind->setCurrentIndex(app::PerformancePage::WholeDevice);
            CHECK(kind->currentIndex() == app::PerformancePage::TestFile);
            CHECK(note->text().contains(QStringLiteral("in use")));
            CHECK(note->text().contains(QString::fromStdString((scratch.dir() / "mnt").string())));
            mount.unmount();
        }
        const auto idle = fresh(drive.devicePath);
        page.setDevice(&idle);
        REQUIRE(page.wholeDeviceAvailable());
        kind->setCurrentIndex(app::PerformancePage::WholeDevice);
        REQUIRE(kind->currentIndex() == app::PerformancePage::WholeDevice);
        page.findChild<QComboBox*>(QStringLiteral("performance.seconds"))->setCurrentIndex(0);
        page.findChild<QComboBox*>(QStringLiteral("performance.size"))->setCurrentIndex(0);
        const QString word = QString::fromStdString(idle.model.empty() ? idle.name : idle.model);

        QSignalSpy finished(&page, &app::PerformancePage::benchmarkFinished);
        confirmWith(page, word, "performance-raw-confirm.png");
        REQUIRE(finished.wait(30000));
        INFO(finished.at(0).at(1).toString().toStdString());
        REQUIRE(finished.at(0).at(0).toBool());
        REQUIRE(page.result());
        CHECK(page.result()->target == drive.devicePath);
        CHECK(page.result()->device["path"] == drive.devicePath);
        for (int row = 0; row < 4; ++row) {
            CHECK(page.resultText(row, 0).toDouble() > 0);
            CHECK(page.resultText(row, 1).toDouble() > 0);
        }
        QTest::qWait(300);
        saveShot(page, "performance-raw-result.png");

        // A longer run, cancelled from the page once fio writes.
        page.findChild<QComboBox*>(QStringLiteral("performance.seconds"))->setCurrentIndex(3);
        confirmWith(page, word);
        for (int i = 0; i < 100 && !fioRunsOn(drive.devicePath); ++i) {
            QTest::qWait(100);
        }
        REQUIRE(fioRunsOn(drive.devicePath));
        page.findChild<QPushButton*>(QStringLiteral("performance.cancel"))->click();
        REQUIRE(finished.wait(15000));
        CHECK_FALSE(finished.at(1).at(0).toBool());
        CHECK(finished.at(1).at(1).toString().contains(QStringLiteral("cancelled")));
        CHECK_FALSE(fioRunsOn(drive.devicePath));
    }
    ::unsetenv("SSDK_HELPER");
    REQUIRE(manager.destroy("perf-raw"));
}
