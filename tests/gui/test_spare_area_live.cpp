// The Spare Area page against a real lab drive through the real helper (root only): Apply with
// its confirmation accepted, the result checked on the drive itself, then Undo. The page reads
// the drive again by itself when each change ends (a DriveReader, as MainWindow gives it): the
// new size, plan and buttons are on screen when the change is reported finished, with no
// setDevice from the test and no rescan timer.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <QApplication>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QTimer>

#include "app/pages/spare_area_page.h"
#include "tests/gui/gui_support.h"
#include "tests/integration/overprovision/op_lab.h"
#include "tests/support/skip.h"

using namespace ssdk;
using namespace ssdk::app;

namespace {

// Answers every message box: Yes to a question, OK to anything else; keeps what they said.
class DialogAnswerer {
public:
    DialogAnswerer() {
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            QMessageBox* box = nullptr;
            for (QWidget* widget : QApplication::topLevelWidgets()) {
                if (auto* found = qobject_cast<QMessageBox*>(widget);
                    found != nullptr && found->isVisible()) {
                    box = found;
                }
            }
            if (box == nullptr) {
                return;
            }
            texts.push_back(box->text());
            // A click, not done(): the static functions answer with the clicked button.
            QAbstractButton* button = box->button(QMessageBox::Yes);
            if (button == nullptr) {
                button = box->button(QMessageBox::Ok);
            }
            if (button != nullptr) {
                button->click();
            } else {
                box->reject();
            }
        });
        m_timer.start(50);
    }
    QStringList texts;

private:
    QTimer m_timer;
};

// Takes the spy's signals in order until `verb` finished; its success goes to *ok.
bool waitForVerb(QSignalSpy& spy, const QString& verb, bool* ok, int ms = 120000) {
    for (int waited = 0; waited < ms; waited += 100) {
        while (!spy.isEmpty()) {
            const auto args = spy.takeFirst();
            if (args.at(0).toString() == verb) {
                *ok = args.at(1).toBool();
                return true;
            }
        }
        spy.wait(100);
    }
    return false;
}

} // namespace

TEST_CASE("Apply and Undo on the spare area page change a lab drive through the helper") {
    if (::geteuid() != 0) {
        ssdk::test::skipTest("lab drives need root");
    }
    // test_gui depends on the helper target: a missing helper is a broken build.
    const auto helper = std::filesystem::path(SSDK_BINARY_DIR) / "bin" / "ssdkeeper-helper";
    REQUIRE(std::filesystem::exists(helper));
    ssdk::app::test::application();
    qputenv("SSDK_HELPER", QByteArray::fromStdString(helper.string()));
    const ssdk::test::OpScratch scratch;
    const auto lab = ssdk::test::makeOpLab("op-gui", Bytes::mib(256), "gpt", "ext4");
    const auto mnt = scratch.dir() / "mnt";
    std::map<std::string, std::uint64_t> files;
    {
        ssdk::test::MountGuard mount(lab.partition, mnt);
        files = ssdk::test::fillTo(mnt, 0.60);
    }
    const std::uint64_t oldSize = ssdk::test::kernelPartitionSize(lab.device);

    SpareAreaPage page(true);
    page.resize(900, 720);
    page.show();
    page.setDriveReader([](const std::string& path) {
        const SysfsRoot root;
        return device::Discovery(root, device::makeSystemFsProber(root)).find(path);
    });
    QSignalSpy finished(&page, &SpareAreaPage::verbFinished);
    QSignalSpy changed(&page, &SpareAreaPage::driveChanged);
    const device::Device before = ssdk::test::discover(lab.device);
    page.setDevice(&before);
    bool ok = false;
    REQUIRE(waitForVerb(finished, QStringLiteral("op.inspect"), &ok));
    REQUIRE(ok);
    page.slider()->setValue(20);
    REQUIRE(page.currentPlan());
    INFO(page.currentPlan()->describe());
    REQUIRE(page.currentPlan()->possible);
    const auto planned = *page.currentPlan();
    auto* apply = page.findChild<QPushButton*>(QStringLiteral("spare.apply"));
    REQUIRE(apply != nullptr);
    REQUIRE(apply->isEnabled());
    app::test::screenshot(page, "spare-area-before.png");

    DialogAnswerer answerer;
    apply->click();
    const bool applied = waitForVerb(finished, QStringLiteral("op.apply"), &ok);
    INFO(answerer.texts.join(QStringLiteral(" | ")).toStdString());
    INFO(page.findChild<QLabel*>(QStringLiteral("spare.status"))->text().toStdString());
    REQUIRE(applied);
    REQUIRE(ok);
    REQUIRE(answerer.texts.size() == 1);
    CHECK(answerer.texts[0].contains(QString::fromStdString(lab.partition)));
    auto* undo = page.findChild<QPushButton*>(QStringLiteral("spare.undo"));
    auto* current = page.findChild<QLabel*>(QStringLiteral("spare.current"));
    REQUIRE(undo != nullptr);
    REQUIRE(current != nullptr);
    const QString newSpare = QString::fromStdString(formatIec(planned.newSpare));
    // Right when op.apply is reported finished, before any other event: the page shows the
    // drive as it is now, the plan for 20 % is "nothing to change" and Apply is off.
    REQUIRE(page.currentPlan());
    INFO(page.currentPlan()->describe());
    CHECK(page.currentPlan()->oldPartitionSize == planned.newPartitionSize);
    CHECK(page.currentPlan()->currentSpare == planned.newSpare);
    CHECK(page.currentPlan()->direction == overprovision::Direction::None);
    CHECK_FALSE(page.currentPlan()->possible);
    CHECK_FALSE(apply->isEnabled());
    CHECK(current->text().contains(newSpare));
    CHECK(changed.count() == 1);
    // Then usage and journal come again: Undo is offered, Apply stays off.
    REQUIRE(waitForVerb(finished, QStringLiteral("op.inspect"), &ok));
    CHECK(ok);
    CHECK_FALSE(apply->isEnabled());
    CHECK(undo->isEnabled());
    CHECK(current->text().contains(newSpare));

    // The drive itself: partition shrunk as planned, the freed range a hole in the image,
    // the filesystem clean and every file intact.
    CHECK(ssdk::test::kernelPartitionSize(lab.device) == planned.newPartitionSize.value);
    CHECK(ssdk::test::allocatedInRange(lab.drive.image, planned.changedStart.value,
                                       planned.changedStart.value + planned.changedLength.value) ==
          0);
    CHECK(ssdk::test::fsckExit(lab.partition) == 0);
    {
        ssdk::test::MountGuard mount(lab.partition, mnt);
        ssdk::test::checkFiles(mnt, files);
    }
    app::test::screenshot(page, "spare-area-after.png");
    REQUIRE(undo->isEnabled());
    undo->click();
    REQUIRE(waitForVerb(finished, QStringLiteral("op.undo"), &ok));
    CHECK(ok);
    // At once again: the old size, 20 % planned as a shrink again.
    REQUIRE(page.currentPlan());
    CHECK(page.currentPlan()->oldPartitionSize.value == oldSize);
    CHECK(page.currentPlan()->direction == overprovision::Direction::Shrink);
    CHECK(changed.count() == 2);
    REQUIRE(waitForVerb(finished, QStringLiteral("op.inspect"), &ok));
    CHECK(ok);
    CHECK(apply->isEnabled());
    CHECK_FALSE(undo->isEnabled());
    CHECK(ssdk::test::kernelPartitionSize(lab.device) == oldSize);
    CHECK(ssdk::test::fsckExit(lab.partition) == 0);
    {
        ssdk::test::MountGuard mount(lab.partition, mnt);
        ssdk::test::checkFiles(mnt, files);
    }
    qunsetenv("SSDK_HELPER");
}
