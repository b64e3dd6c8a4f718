#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryFile>

#include "app/pages/firmware_page.h"
#include "core/firmware/verbs.h"
#include "tests/gui/gui_support.h"
#include "tests/integration/firmware/fwupd_fixture.h"
#include "tests/support/skip.h"

using namespace ssdk;
using namespace ssdk::app;

namespace {

template <typename T> T* child(QWidget& parent, const char* name) {
    return app::test::namedChild<T>(parent, "firmware", name);
}

Json readJson(const std::string& file) {
    std::ifstream in(file);
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    auto json = parseJson(text.str(), file);
    REQUIRE(json);
    return *json;
}

// What ssdkeeperctl --json firmware printed for the QEMU lab's emulated NVMe drive.
firmware::FirmwareInfo qemuNvmeInfo() {
    Json json = readJson(std::string(SSDK_TEST_DATA_DIR) + "/firmware/qemu-nvme-info.json");
    // Captured before firmware.info named the fwupd device and its version in every path.
    for (auto& path : json["update_paths"]) {
        path["fwupd_device_name"] = "";
        path["fwupd_version"] = "";
    }
    auto info = firmware::firmwareInfoFromJson(json);
    INFO((info ? std::string() : info.error().describe()));
    REQUIRE(info);
    return *info;
}

// Three slots, slot 2 active.
void setThreeSlots(firmware::FirmwareInfo& info) {
    REQUIRE(info.facts.nvme);
    REQUIRE(info.facts.slotLog);
    info.facts.nvme->slotCount = 3;
    info.facts.slotLog->revisions = {"1B2QGXA7", "3B2QGXA7", ""};
    info.facts.slotLog->activeSlot = 2;
}

} // namespace

TEST_CASE("the firmware page shows the QEMU NVMe slot log and why no update path is offered") {
    ssdk::app::test::application();
    FirmwarePage page;
    page.resize(900, 1000);
    page.show();
    page.showInfo(qemuNvmeInfo());
    auto* slotTable = child<QTableWidget>(page, "slots");
    REQUIRE(slotTable->rowCount() == 1);
    CHECK(slotTable->item(0, 1)->text() == QStringLiteral("1.0"));
    CHECK(slotTable->item(0, 2)->text().contains(QStringLiteral("active")));
    CHECK(slotTable->item(0, 2)->text().contains(QStringLiteral("read-only")));
    // QEMU's Identify Controller revision is its own version; the slot holds "1.0".
    CHECK(child<QLabel>(page, "identity")->text().contains(QStringLiteral("7.2.22")));
    CHECK(child<QLabel>(page, "issues")->text().contains(QStringLiteral("None known")));
    auto* paths = child<QTableWidget>(page, "paths");
    REQUIRE(paths->rowCount() == 3);
    CHECK(paths->item(0, 1)->text() == QStringLiteral("no"));
    CHECK(paths->item(0, 2)->text().contains(QStringLiteral("OACS")));
    child<QLineEdit>(page, "image")->setText(QStringLiteral("/tmp/fw.bin"));
    CHECK_FALSE(child<QPushButton>(page, "updateButton")->isEnabled());
    // The image path is not offered: its whole form is inactive, not only the button.
    CHECK_FALSE(child<QLineEdit>(page, "image")->isEnabled());
    CHECK_FALSE(child<QComboBox>(page, "action")->isEnabled());
    app::test::screenshot(page, "firmware-qemu-nvme.png");

    // A drive that reports no firmware revision: known problems cannot be looked up, which is
    // not "none known".
    firmware::FirmwareInfo unnamed = qemuNvmeInfo();
    unnamed.facts.revision.clear();
    page.showInfo(unnamed);
    const QString issues = child<QLabel>(page, "issues")->text();
    CHECK(issues.contains(QStringLiteral("Not looked up: the drive reports no firmware revision")));
    CHECK_FALSE(issues.contains(QStringLiteral("None known")));
}

TEST_CASE("a known firmware problem is shown with its source link and the image path offered") {
    ssdk::app::test::application();
    // The Samsung 980 PRO entry of the shipped catalog, as firmware.info reports a match.
    const Json catalog =
        readJson(std::string(SSDK_TEST_DATA_DIR) + "/../../resources/firmware/known-issues.json");
    Json entry;
    for (const auto& issue : catalog["issues"]) {
        if (issue["fixed"] == "5B2QGXA7") {
            entry = issue;
        }
    }
    REQUIRE(entry.is_object());
    firmware::FirmwareInfo info = qemuNvmeInfo();
    info.device.path = "/dev/nvme1n1";
    info.facts.model = "Samsung SSD 980 PRO 2TB";
    info.facts.revision = "3B2QGXA7";
    REQUIRE(info.facts.nvme);
    info.facts.nvme->downloadCommitSupported = true;
    info.facts.nvme->activationWithoutReset = true;
    setThreeSlots(info);
    info.knownIssues = {firmware::Finding{"catalog", entry["problem"].get<std::string>(),
                                          entry["fixed"].get<std::string>(),
                                          entry["source"].get<std::string>()}};
    info.paths[0].available = true;
    info.paths[0].reason =
        "3 slots (slot 1 read-only); downloads in chunks of 4 KiB (no granularity stated); "
        "activation without reset is supported";
    FirmwarePage page;
    page.resize(900, 1110);
    page.show();
    // The selected drive (the helper cannot read it here); then the answer to show.
    QSignalSpy shown(&page, &FirmwarePage::resultShown);
    device::Device disk = ssdk::app::test::nvmeSystemDisk();
    disk.name = "nvme1n1";
    disk.path = "/dev/nvme1n1";
    disk.model = "Samsung SSD 980 PRO 2TB";
    disk.partitions.clear();
    disk.mounts.clear();
    page.setDevice(&disk);
    REQUIRE(app::test::waitForResult(shown, firmware::kVerbInfo));
    CHECK_FALSE(child<QCheckBox>(page, "confirmSystemDisk")->isVisibleTo(&page));
    page.showInfo(info);
    const QString issues = child<QLabel>(page, "issues")->text();
    CHECK(issues.contains(QStringLiteral("5B2QGXA7")));
    CHECK(issues.contains(QStringLiteral("<a href=")));
    CHECK(child<QTableWidget>(page, "slots")->rowCount() == 3);
    auto* button = child<QPushButton>(page, "updateButton");
    CHECK_FALSE(button->isEnabled()); // no image chosen yet
    child<QLineEdit>(page, "image")->setText(QStringLiteral("/tmp/980pro-5B2QGXA7.bin"));
    CHECK(button->isEnabled());
    // "Activate" needs no image: the image field is disabled.
    auto* action = child<QComboBox>(page, "action");
    action->setCurrentIndex(action->findData(QStringLiteral("activate")));
    CHECK_FALSE(child<QLineEdit>(page, "image")->isEnabled());
    action->setCurrentIndex(action->findData(QStringLiteral("replace-activate")));
    app::test::screenshot(page, "firmware-known-issue.png");
}

TEST_CASE("the firmware page reads and checks through the real helper") {
    if (::geteuid() != 0) {
        ssdk::test::skipTest("the page starts ssdkeeper-helper, through pkexec without root");
    }
    ssdk::app::test::application();
    FirmwarePage page;
    QSignalSpy shown(&page, &FirmwarePage::resultShown);
    // A drive that does not exist on this machine: the helper refuses it, the page says why.
    const device::Device disk = ssdk::app::test::nvmeSystemDisk();
    page.setDevice(&disk);
    REQUIRE(app::test::waitForResult(shown, firmware::kVerbInfo));
    CHECK(child<QLabel>(page, "caps")->text().contains(QStringLiteral("could not be read")));
    CHECK(child<QCheckBox>(page, "confirmSystemDisk")->isVisibleTo(&page));
    // Force the flow as if the path were offered: the plan is refused by the helper, and the
    // confirmation is never asked.
    firmware::FirmwareInfo info = qemuNvmeInfo();
    info.paths[0].available = true;
    page.showInfo(info);
    bool asked = false;
    page.setConfirmHandler([&asked](const FirmwarePage::UpdateQuestion&) {
        asked = true;
        return false;
    });
    // A missing image is refused here, before the helper.
    child<QLineEdit>(page, "image")->setText(QStringLiteral("/nonexistent/fw.bin"));
    shown.clear();
    page.startUpdate();
    REQUIRE(app::test::waitForResult(shown, firmware::kVerbPlan));
    CHECK(child<QLabel>(page, "updateResult")->text().contains(QStringLiteral("not a readable")));
    // A real image goes to the helper's firmware.plan, which refuses the absent drive.
    QTemporaryFile image;
    REQUIRE(image.open());
    image.write(QByteArray(4096, '\x5a'));
    image.flush();
    child<QLineEdit>(page, "image")->setText(image.fileName());
    shown.clear();
    page.startUpdate();
    REQUIRE(app::test::waitForResult(shown, firmware::kVerbPlan));
    const QString text = child<QLabel>(page, "updateResult")->text();
    INFO(text.toStdString());
    CHECK(text.contains(QStringLiteral("Cannot check the update")));
    CHECK(text.contains(QStringLiteral("nvme0n1")));
    CHECK_FALSE(asked);
}

TEST_CASE("the firmware page lists fwupd's upgrades and installs one with progress") {
    if (::geteuid() != 0) {
        ssdk::test::skipTest("fwupd's daemon on a private bus needs root");
    }
    ssdk::app::test::application();
    // The real fwupd daemon on a private bus, with fwupd-tests' device ("Integrated Webcam™",
    // 1.2.2; releases 1.2.3 and 1.2.4): no drive on this machine is managed by fwupd, so the
    // page's fwupd section is fed what fwupd answers for that device.
    firmware::test::FwupdFixture fixture;
    INFO(fixture.failure());
    REQUIRE(fixture.started());
    const auto service = firmware::systemFwupdService();
    firmware::FirmwareInfo info = qemuNvmeInfo();
    REQUIRE(info.paths[1].id == "fwupd");
    info.paths[1] =
        firmware::probeFwupdDevice(*service, firmware::test::FwupdFixture::kTestDeviceId);
    REQUIRE(info.paths[1].available);

    FirmwarePage page;
    page.resize(900, 1180);
    page.show();
    page.showInfo(info);
    auto* releases = child<QTableWidget>(page, "fwupdReleases");
    REQUIRE(releases->rowCount() == 2);
    CHECK(releases->item(0, 0)->text() == QStringLiteral("1.2.4"));
    CHECK(releases->item(1, 0)->text() == QStringLiteral("1.2.3"));
    CHECK(child<QLabel>(page, "fwupdSummary")->text().contains(QStringLiteral("1.2.2")));
    auto* install = child<QPushButton>(page, "fwupdInstall");
    CHECK(install->isEnabled());

    bool asked = false;
    page.setConfirmHandler([&asked](const FirmwarePage::UpdateQuestion& question) {
        asked = true;
        CHECK(question.account.contains(QStringLiteral("1.2.3")));
        CHECK(question.reminders.size() == 2);
        return true;
    });
    std::vector<int> values;
    QObject::connect(child<QProgressBar>(page, "fwupdProgress"), &QProgressBar::valueChanged,
                     [&values](int value) { values.push_back(value); });
    QSignalSpy shown(&page, &FirmwarePage::resultShown);
    releases->selectRow(1);
    install->click();
    CHECK(asked);
    // The install runs on a pool thread: the GUI thread is free and the buttons say so.
    CHECK(page.fwupdBusy());
    CHECK_FALSE(install->isEnabled());
    CHECK(child<QPushButton>(page, "fwupdCancel")->isEnabled());
    REQUIRE(app::test::waitForResult(shown, QStringLiteral("fwupd.install"), 30000));
    const QString result = child<QLabel>(page, "fwupdResult")->text();
    INFO(result.toStdString());
    CHECK(result.contains(QStringLiteral("now runs 1.2.3 (was 1.2.2)")));
    // fwupd reported progress between 0 and 100 while it wrote.
    CHECK(std::any_of(values.begin(), values.end(), [](int v) { return v > 0 && v < 100; }));
    // Read again from fwupd: only 1.2.4 is still an upgrade.
    REQUIRE(releases->rowCount() == 1);
    CHECK(releases->item(0, 0)->text() == QStringLiteral("1.2.4"));
    CHECK(child<QLabel>(page, "fwupdSummary")->text().contains(QStringLiteral("1.2.3")));
    CHECK(child<QTableWidget>(page, "paths")
              ->item(1, 2)
              ->text()
              .contains(QStringLiteral("1 upgrade for this drive (it runs 1.2.3)")));
    app::test::screenshot(page, "firmware-fwupd.png");
}
