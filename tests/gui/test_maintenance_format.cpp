// Quick format + verify TRIM as a user does it on the Maintenance page, against the REAL
// maintenance verbs served in this process (maintenance_verbs_host.h) over a lab drive: choose
// the unmounted partition, tick Verify TRIM, press Format…, confirm the warning, read the verdict.
// Then follow the page's advice (discard the whole partition first) and read it again. Root only
// (loop devices, mounts, mkfs).
#include <catch2/catch.hpp>
#include <fcntl.h>
#include <random>
#include <unistd.h>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include "app/helper_caller.h"
#include "app/pages/maintenance_page.h"
#include "app/theme.h"
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

QCheckBox* checkBoxLabelled(QWidget& page, const QString& text) {
    for (auto* box : page.findChildren<QCheckBox*>()) {
        if (box->text() == text) {
            return box;
        }
    }
    return nullptr;
}

// Confirms every warning box as a user who means it: the destructive button, else OK.
class Confirmer {
public:
    Confirmer() {
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (box == nullptr) {
                return;
            }
            texts << box->text();
            QAbstractButton* button = box->button(QMessageBox::Discard);
            (button != nullptr ? button : box->button(QMessageBox::Ok))->click();
        });
        m_timer.start(50);
    }
    QStringList texts;

private:
    QTimer m_timer;
};

// The page's "Lab drive image agrees on A of J judged blocks": {A, J}, or {-1, -1}.
std::pair<int, int> imageAgreement(const QString& shown) {
    const auto match =
        QRegularExpression(QStringLiteral("Lab drive image agrees on (\\d+) of (\\d+) judged"))
            .match(shown);
    if (!match.hasMatch()) {
        return {-1, -1};
    }
    return {match.captured(1).toInt(), match.captured(2).toInt()};
}

// The number before `text` in the page's verdict ("3 now used by …"), or -1.
int countBefore(const QString& shown, const QString& text) {
    const auto match =
        QRegularExpression(QStringLiteral("(\\d+) ") + QRegularExpression::escape(text))
            .match(shown);
    return match.hasMatch() ? match.captured(1).toInt() : -1;
}

// Chooses the partition and filesystem, ticks Verify TRIM (and Discard first when asked),
// presses Format… and confirms; returns what the page shows when the format finished.
QString formatAsUser(MaintenancePage& page, const std::string& partition, const QString& fs,
                     bool discardFirst, Confirmer& confirmer) {
    auto* partitions = pageChild<QComboBox>(page, "partition");
    const int index = partitions->findText(QString::fromStdString(partition));
    REQUIRE(index >= 0);
    partitions->setCurrentIndex(index);
    pageChild<QComboBox>(page, "fsType")->setCurrentText(fs);
    auto* verify = checkBoxLabelled(page, QStringLiteral("Verify TRIM"));
    REQUIRE(verify != nullptr);
    if (!verify->isChecked()) {
        QTest::mouseClick(verify, Qt::LeftButton);
    }
    REQUIRE(verify->isChecked());
    auto* discard = checkBoxLabelled(page, QStringLiteral("Discard the whole partition first"));
    REQUIRE(discard != nullptr);
    if (discard->isChecked() != discardFirst) {
        QTest::mouseClick(discard, Qt::LeftButton);
    }
    REQUIRE(discard->isChecked() == discardFirst);
    auto* format = pageChild<QPushButton>(page, "formatButton");
    REQUIRE(format->isEnabled());
    QSignalSpy shown(&page, &MaintenancePage::resultShown);
    const auto asked = confirmer.texts.size();
    QTest::mouseClick(format, Qt::LeftButton); // the warning box runs (and is confirmed) in here
    CHECK(confirmer.texts.size() == asked + 1);
    REQUIRE(app::test::waitForResult(shown, maintenance::kVerbFormatRun, 180000));
    return pageChild<QLabel>(page, "formatResult")->text();
}

} // namespace

TEST_CASE("a user formats an unmounted lab partition with Verify TRIM and reads the verdict") {
    if (::geteuid() != 0) {
        ssdk::test::skipTest("needs root for lab drives, mounts and mkfs");
    }
    ssdk::app::test::application();
    const ssdk::test::MaintenanceScratch scratch;
    const auto transport = app::test::maintenanceVerbTransport(scratch.privilegedDir() / "erase");
    const auto drive = ssdk::test::makeLabDrive("maint-gui-format", Bytes::mib(160), "gpt-ext4");
    const std::string partition = drive.devicePath + "p1";
    ssdk::test::fillWithRandomBytes(partition,
                                    28); // the case: old data everywhere, no filesystem
    const device::Device device = app::test::discoverLive(drive.devicePath);
    MaintenancePage page(transport);
    page.resize(1024, 700);
    page.show();
    QSignalSpy shown(&page, &MaintenancePage::resultShown);
    page.setDevice(&device);
    REQUIRE(app::test::waitForResult(shown, maintenance::kVerbTrimAudit));
    Confirmer confirmer;

    // mkfs.vfat writes its metadata (zeros in its FAT among them) and discards nothing: what it
    // writes is not judged, the old data it leaves free is still there, and the lab image agrees
    // on every judged block.
    const QString vfat =
        formatAsUser(page, partition, QStringLiteral("vfat"), /*discardFirst=*/false, confirmer);
    INFO(vfat.toStdString());
    CHECK(confirmer.texts.last().contains(QStringLiteral("destroys everything")));
    CHECK(vfat.startsWith(QStringLiteral("Formatted ") + QString::fromStdString(partition) +
                          QStringLiteral(" as vfat")));
    CHECK(vfat.contains(QStringLiteral("TRIM did NOT reach the drive")));
    CHECK(vfat.contains(QStringLiteral("mkfs.vfat did not discard")));
    CHECK(vfat.contains(QStringLiteral("the new vfat leaves free (read from the FAT)")));
    // The first block (the boot sector now) was sampled: it held data, and vfat uses it.
    CHECK(countBefore(vfat, QStringLiteral("now used by the new vfat, not judged")) >= 1);
    CHECK(vfat.contains(QStringLiteral("now used by the new vfat and w")));
    const auto [agreed, judged] = imageAgreement(vfat);
    CHECK(judged > 0);
    CHECK(agreed == judged);
    CHECK_FALSE(vfat.contains(QStringLiteral("BUG")));
    CHECK(vfat.contains(QStringLiteral("Discard the whole partition first")));
    CHECK(ssdk::test::probeType(partition) == "vfat");

    // The page's advice: discard the whole partition first, then format.
    const QString discarded =
        formatAsUser(page, partition, QStringLiteral("vfat"), /*discardFirst=*/true, confirmer);
    INFO(discarded.toStdString());
    CHECK(discarded.contains(QStringLiteral("TRIM reached the drive")));
    CHECK(discarded.contains(QStringLiteral("were discarded")));
    const auto [agreedAfter, judgedAfter] = imageAgreement(discarded);
    CHECK(judgedAfter > 0);
    CHECK(agreedAfter == judgedAfter);
    CHECK_FALSE(discarded.contains(QStringLiteral("BUG")));
    CHECK_FALSE(discarded.contains(QStringLiteral("The formatter did not discard")));
    page.runner()->disconnect();
}

// A verdict the lab image contradicts can only come from a bug; the page must not show it as
// an ordinary answer. The helper's answer is handed to the page as the helper would.
TEST_CASE("the page shows a format verdict the lab image contradicts as a bug, in red") {
    ssdk::app::test::application();
    MaintenancePage page;
    maintenance::trim::FormatResult result;
    result.device = "/dev/loop9p1";
    result.fsType = "vfat";
    result.formatterCommand = "mkfs.vfat /dev/loop9p1";
    result.sampleSource = "non-empty-scan";
    result.freeMapSource = "the FAT";
    result.sampled = 255;
    result.counts = {3, 250, 0, 2};
    maintenance::trim::decideFormat(result, "mkfs.vfat");
    maintenance::trim::compareWithImage(result, 0, 250); // the 3 "discarded" are not holes
    REQUIRE(result.groundTruthDisagrees);
    QSignalSpy shown(&page, &MaintenancePage::resultShown);
    emit page.runner()->finished(
        QString::fromLatin1(maintenance::kVerbFormatRun),
        HelperCaller::Outcome{true, {}, maintenance::trim::toJson(result)});
    REQUIRE(shown.count() == 1);
    const QString text = pageChild<QLabel>(page, "formatResult")->text();
    INFO(text.toStdString());
    CHECK(text.contains(QStringLiteral("Inconclusive")));
    CHECK(text.contains(QStringLiteral("2 now used by the new vfat, not judged")));
    CHECK(text.contains(QStringLiteral("Lab drive image agrees on 250 of 253 judged blocks")));
    CHECK(text.contains(QStringLiteral("<b style='color:%1'>BUG: the lab drive's image "
                                       "contradicts this verdict on 3 of 253 judged blocks")
                            .arg(theme::kError.name())));
    page.runner()->disconnect();
}
