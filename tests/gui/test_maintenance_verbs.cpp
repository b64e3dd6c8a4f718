// The Maintenance page and the erase wizard against the REAL maintenance verbs, served in this
// process (maintenance_verbs_host.h) over a lab drive: a loop device over a sparse file. The
// page's typed requests and the verbs' answers make the helper protocol's JSON round trip, so
// a change of either side's JSON fails here. Root only (loop devices, mounts, mkfs).
#include <catch2/catch.hpp>
#include <unistd.h>

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QWizard>

#include "app/pages/erase_wizard.h"
#include "app/pages/maintenance_page.h"
#include "core/device/discovery.h"
#include "core/maintenance/verbs.h"
#include "tests/gui/gui_support.h"
#include "tests/gui/maintenance_verbs_host.h"
#include "tests/integration/maintenance/maintenance_scratch.h"
#include "tests/support/skip.h"

using namespace ssdk;
using namespace ssdk::app;

namespace {

template <typename T> T* pageChild(QWidget& parent, const char* name) {
    return app::test::namedChild<T>(parent, "maintenance", name);
}

} // namespace

TEST_CASE("the maintenance page runs the real verbs on a lab drive") {
    if (::geteuid() != 0) {
        ssdk::test::skipTest("needs root for lab drives, mounts and mkfs");
    }
    ssdk::app::test::application();
    const ssdk::test::MaintenanceScratch scratch;
    const auto transport = app::test::maintenanceVerbTransport(scratch.privilegedDir() / "erase");
    const auto drive = ssdk::test::makeLabDrive("maint-verbs", Bytes::mib(256), "gpt-ext4");
    const std::string partition = drive.devicePath + "p1";
    {
        ssdk::test::MountGuard mount(partition, scratch.dir() / "mnt");
        const device::Device device = app::test::discoverLive(drive.devicePath);
        MaintenancePage page(transport);
        QSignalSpy shown(&page, &MaintenancePage::resultShown);
        // Selecting the drive audits its mounted filesystem.
        page.setDevice(&device);
        REQUIRE(app::test::waitForResult(shown, maintenance::kVerbTrimAudit));
        auto* layers = pageChild<QTableWidget>(page, "layers");
        REQUIRE(layers->rowCount() >= 3);
        CHECK(layers->item(0, 0)->text() == QLatin1String(maintenance::kAuditFilesystemLayer));
        CHECK(pageChild<QLabel>(page, "verdict")->text().contains(QStringLiteral("reach")));

        shown.clear();
        page.runVerify();
        REQUIRE(app::test::waitForResult(shown, maintenance::kVerbTrimVerify));
        const QString verified = pageChild<QLabel>(page, "verifyResult")->text();
        INFO(verified.toStdString());
        CHECK(verified.contains(QStringLiteral("TRIM reached the drive")));
        // A lab drive's image file is the ground truth: the trimmed markers are holes now.
        CHECK(verified.contains(QStringLiteral("Lab drive image:")));

        shown.clear();
        page.runFstrim();
        REQUIRE(app::test::waitForResult(shown, maintenance::kVerbTrimFstrim));
        const QString trimmed = pageChild<QLabel>(page, "verifyResult")->text();
        INFO(trimmed.toStdString());
        CHECK(trimmed.startsWith(QStringLiteral("fstrim ") +
                                 QString::fromStdString((scratch.dir() / "mnt").string())));
        CHECK(trimmed.endsWith(QStringLiteral(" trimmed")));
        page.runner()->disconnect();
        // Data for the format's verification to sample.
        ssdk::test::writeRandomFiles(scratch.dir() / "mnt", 4, 1 << 20);
    }

    // Unmounted, the partition can be formatted: quick format with TRIM verification.
    const device::Device unmounted = app::test::discoverLive(drive.devicePath);
    {
        MaintenancePage page(transport);
        QSignalSpy shown(&page, &MaintenancePage::resultShown);
        page.setDevice(&unmounted);
        REQUIRE(app::test::waitForResult(shown, maintenance::kVerbTrimAudit));
        auto* partitions = pageChild<QComboBox>(page, "partition");
        REQUIRE(partitions->findText(QString::fromStdString(partition)) >= 0);
        partitions->setCurrentText(QString::fromStdString(partition));
        pageChild<QComboBox>(page, "fsType")->setCurrentText(QStringLiteral("ext4"));
        shown.clear();
        page.runFormat(true);
        REQUIRE(app::test::waitForResult(shown, maintenance::kVerbFormatRun, 120000));
        const QString formatted = pageChild<QLabel>(page, "formatResult")->text();
        INFO(formatted.toStdString());
        CHECK(formatted.startsWith(QStringLiteral("Formatted ") +
                                   QString::fromStdString(partition) + QStringLiteral(" as ext4")));
        CHECK(formatted.contains(QStringLiteral("Sampled ")));
        page.runner()->disconnect();
    }

    // The erase wizard over the same verbs: probe, confirm, erase, certificate.
    EraseWizard wizard(unmounted, transport);
    QSignalSpy probed(&wizard, &EraseWizard::probed);
    REQUIRE(probed.wait(20000));
    // A loop device discards: the strongest method it offers.
    CHECK(wizard.chosenMethod() ==
          QLatin1String(maintenance::erase::toString(maintenance::erase::Method::BlkDiscard)));
    wizard.show();
    REQUIRE(wizard.button(QWizard::NextButton)->isEnabled());
    wizard.next();
    REQUIRE(wizard.currentId() == EraseWizard::ConfirmPage);
    wizard.confirmationEdit()->setText(QStringLiteral("not the model"));
    CHECK_FALSE(wizard.button(QWizard::NextButton)->isEnabled());
    wizard.confirmationEdit()->setText(QString::fromStdString(unmounted.model));
    REQUIRE(wizard.button(QWizard::NextButton)->isEnabled());
    QSignalSpy finished(&wizard, &EraseWizard::eraseFinished);
    wizard.next();
    REQUIRE(finished.wait(120000));
    REQUIRE(finished.at(0).at(0).toBool());
    auto certificate = maintenance::eraseReplyFromJson(wizard.certificate());
    REQUIRE(certificate);
    CHECK(certificate->certificate.devicePath == drive.devicePath);
    CHECK(certificate->certificate.verification.passed);
    CHECK_FALSE(certificate->text.empty());
    wizard.next();
    CHECK(wizard.currentId() == EraseWizard::CertificatePage);
    CHECK(pageChild<QLabel>(wizard, "eraseVerdict")->text().contains(QStringLiteral("verified")));
    wizard.runner()->disconnect();
}
