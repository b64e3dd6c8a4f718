#include <catch2/catch.hpp>
#include <unistd.h>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QWizard>

#include "app/helper_caller.h"
#include "app/pages/erase_wizard.h"
#include "app/pages/maintenance_page.h"
#include "core/device/discovery.h"
#include "core/lab/lab.h"
#include "core/maintenance/erase/journal.h"
#include "core/maintenance/verbs.h"
#include "tests/gui/gui_support.h"
#include "tests/integration/maintenance/maintenance_scratch.h"
#include "tests/support/skip.h"

using namespace ssdk;
using namespace ssdk::app;

namespace {

template <typename T> T* child(QWidget& parent, const char* name) {
    return app::test::namedChild<T>(parent, "maintenance", name);
}

} // namespace

TEST_CASE("the maintenance page offers what the selected drive allows") {
    ssdk::app::test::application();
    MaintenancePage page;
    page.setDevice(nullptr);
    CHECK_FALSE(child<QPushButton>(page, "eraseButton")->isEnabled());
    const device::Device disk = ssdk::app::test::nvmeSystemDisk();
    page.setDevice(&disk);
    auto* targets = child<QComboBox>(page, "auditTarget");
    CHECK(targets->findText(QStringLiteral("/")) >= 0);
    CHECK(targets->findText(QStringLiteral("/boot/efi")) >= 0);
    CHECK(child<QComboBox>(page, "mountPoint")->count() == 2);
    // Every partition of the system disk is mounted: nothing to format.
    CHECK(child<QComboBox>(page, "partition")->count() == 0);
    // Nor to erase: the guards refuse the running system's disk, and the button says so.
    auto* erase = child<QPushButton>(page, "eraseButton");
    CHECK_FALSE(erase->isEnabled());
    CHECK(erase->toolTip().contains(QStringLiteral("root filesystem")));
    // The same disk taken out of the running system, nothing mounted: no reason is shown.
    device::Device spare = disk;
    spare.systemDisk = false;
    spare.mounts.clear();
    for (auto& partition : spare.partitions) {
        partition.mounts.clear();
    }
    page.setDevice(&spare);
    CHECK(erase->toolTip().isEmpty());
    auto* fs = child<QComboBox>(page, "fsType");
    fs->setCurrentText(QStringLiteral("ntfs"));
    page.runner()->disconnect();
}

TEST_CASE("the erase wizard offers a short suspend for a frozen ATA drive") {
    ssdk::app::test::application();
    device::Device drive = ssdk::app::test::usbStick();
    drive.path = "/dev/ssdk-gui-test-no-such-drive";
    EraseWizard wizard(drive);
    auto* unfreeze = wizard.findChild<QPushButton*>(QStringLiteral("maintenance.unfreeze"));
    REQUIRE(unfreeze != nullptr);
    CHECK(unfreeze->isHidden());
    const auto probe = [&](bool frozen) {
        Json result{{"device", drive.path},
                    {"identity", "Test SSD (serial S1, 256 GB)"},
                    {"confirmation", "Test SSD"},
                    {"auto", "discard"},
                    {"refused", nullptr},
                    {"interrupted", nullptr},
                    {"methods", Json::array({Json{{"method", "ata-security-erase"},
                                                  {"description", "ATA SECURITY ERASE UNIT"},
                                                  {"available", !frozen},
                                                  {"reason", frozen ? "frozen" : ""}},
                                             Json{{"method", "discard"},
                                                  {"description", "BLKDISCARD"},
                                                  {"available", true}}})},
                    {"ata_security", Json{{"supported", true}, {"frozen", frozen}}}};
        emit wizard.runner()->finished(QStringLiteral("erase.probe"),
                                       HelperCaller::Outcome{true, {}, result});
    };
    probe(true);
    CHECK_FALSE(unfreeze->isHidden());
    // A second probe (after an unfreeze) replaces the method list instead of adding to it.
    probe(false);
    CHECK(unfreeze->isHidden());
    CHECK(wizard.findChildren<QRadioButton*>().size() == 2);
    wizard.runner()->disconnect();
}

// The whole page against a real lab drive through the real helper (root only).
TEST_CASE("audit, verify TRIM and erase a lab drive from the page") {
    if (::geteuid() != 0) {
        ssdk::test::skipTest("lab drives need root");
    }
    ssdk::app::test::application();
    const ssdk::test::MaintenanceScratch scratch;
    SystemProcessRunner runner;
    lab::LabManager manager(lab::userStateDirectory(), SysfsRoot(), runner);
    lab::LabCreateRequest request;
    request.name = "maint-gui";
    request.size = Bytes::gib(1);
    request.layout = "gpt-ext4";
    auto drive = manager.create(request);
    REQUIRE(drive);
    {
        ssdk::test::MountGuard mount(drive->devicePath + "p1", scratch.dir() / "mnt");
        const device::Device device = app::test::discoverLive(drive->devicePath);
        MaintenancePage page;
        page.resize(820, 900);
        QSignalSpy shown(&page, &MaintenancePage::resultShown);
        page.setDevice(&device);
        REQUIRE(app::test::waitForResult(shown, maintenance::kVerbTrimAudit));
        CHECK(child<QTableWidget>(page, "layers")->rowCount() >= 4);
        CHECK(child<QLabel>(page, "verdict")->text().contains(QStringLiteral("reach")));
        page.show();
        app::test::screenshot(page, "maintenance-trim-audit.png");
        page.runVerify();
        REQUIRE(app::test::waitForResult(shown, maintenance::kVerbTrimVerify));
        const QString verified = child<QLabel>(page, "verifyResult")->text();
        INFO(verified.toStdString());
        CHECK(verified.contains(QStringLiteral("TRIM reached the drive")));
        app::test::screenshot(page, "maintenance-verify-trim.png");
    }
    const device::Device unmounted = app::test::discoverLive(drive->devicePath);
    EraseWizard wizard(unmounted);
    QSignalSpy probed(&wizard, &EraseWizard::probed);
    wizard.show();
    REQUIRE(probed.wait(20000));
    CHECK(wizard.chosenMethod() == QStringLiteral("discard"));
    CHECK(wizard.button(QWizard::NextButton)->isEnabled());
    app::test::screenshot(wizard, "maintenance-erase-methods.png");
    wizard.next();
    CHECK(wizard.currentId() == EraseWizard::ConfirmPage);
    wizard.confirmationEdit()->setText(QStringLiteral("wrong model"));
    CHECK_FALSE(wizard.button(QWizard::NextButton)->isEnabled());
    wizard.confirmationEdit()->setText(QString::fromStdString(unmounted.model));
    CHECK(wizard.button(QWizard::NextButton)->isEnabled());
    app::test::screenshot(wizard, "maintenance-erase-confirm.png");
    QSignalSpy finished(&wizard, &EraseWizard::eraseFinished);
    wizard.next();
    REQUIRE(finished.wait(60000));
    CHECK(finished.at(0).at(0).toBool());
    wizard.next();
    CHECK(wizard.currentId() == EraseWizard::CertificatePage);
    CHECK(wizard.certificate()["verification"]["passed"] == true);
    CHECK(child<QLabel>(wizard, "eraseVerdict")->text().contains(QStringLiteral("verified")));
    app::test::screenshot(wizard, "maintenance-erase-certificate.png");
}

// A journal left "running" with nobody holding its lock is what a helper killed mid-erase
// leaves behind: the wizard says so before anything else.
TEST_CASE("the erase wizard shows an interrupted erase") {
    if (::geteuid() != 0) {
        ssdk::test::skipTest("lab drives need root");
    }
    ssdk::app::test::application();
    const ssdk::test::MaintenanceScratch scratch;
    const auto drive = ssdk::test::makeLabDrive("maint-gui-int", Bytes::mib(256), "gpt-ext4");
    const device::Device device = app::test::discoverLive(drive.devicePath);
    {
        // Where the helper the wizard starts keeps its journals ($SSDK_PRIVILEGED_STATE_DIR).
        const maintenance::erase::EraseJournalStore store(
            StateStore::open(scratch.privilegedDir() / "erase").value());
        auto journal = maintenance::erase::newJournal(device, "zeroout", "2026-11-23T13:40:02Z");
        journal.fraction = 0.42;
        journal.step = "BLKZEROOUT: 108 MiB of 256 MiB";
        REQUIRE(store.begin(journal));
    }
    EraseWizard wizard(device);
    QSignalSpy probed(&wizard, &EraseWizard::probed);
    wizard.show();
    REQUIRE(probed.wait(20000));
    auto* interrupted = child<QLabel>(wizard, "eraseInterrupted");
    CHECK(interrupted->isVisible());
    const QString text = interrupted->text();
    INFO(text.toStdString());
    CHECK(text.startsWith(QStringLiteral("An erase of")));
    CHECK(
        text.contains(QStringLiteral("with zeroout was interrupted at 2026-11-23T13:40:02Z (42%")));
    CHECK(text.contains(QStringLiteral("run the erase again")));
    // Running it again is what the user is told to do: the methods stay available.
    CHECK(wizard.button(QWizard::NextButton)->isEnabled());
    app::test::screenshot(wizard, "maintenance-erase-interrupted.png");
}
