// The Spare Area page through the real op verbs of a HelperService in this process
// (tests/gui/op_verbs_host.h): every button's typed request passes the verb's own argument
// checks and only then meets the device check, whose refusal the page shows. The drive is
// /dev/null, which every verb refuses as "not a block device" before any tool runs or any
// journal is written. (Applying to a real drive: test_spare_area_live.cpp.)
#include <catch2/catch.hpp>

#include <QApplication>
#include <QFrame>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QTimer>

#include "app/pages/spare_area_page.h"
#include "core/overprovision/journal.h"
#include "core/overprovision/verbs.h"
#include "tests/gui/gui_support.h"
#include "tests/gui/op_verbs_host.h"
#include "tests/support/spare_area.h"

using namespace ssdk;
using namespace ssdk::app;

namespace {

constexpr const char* kRefusal = "not a block device";

// A 512 MiB GPT drive with one ext4 partition nearly filling it, at /dev/null.
device::Device nullDrive() {
    device::Device device = app::test::labDrive();
    device.path = "/dev/null";
    return ssdk::test::withSpareAreaLayout(std::move(device),
                                           device::Filesystem{"ext4", "data", ""});
}

// What op.inspect would answer for nullDrive() with `used` bytes in use.
Json inspection(Bytes used, std::optional<overprovision::Journal> journal = std::nullopt) {
    overprovision::InspectReply reply;
    reply.usage = overprovision::FilesystemUsage{.type = "ext4",
                                                 .size = Bytes::mib(510),
                                                 .used = used,
                                                 .minimumSize = used,
                                                 .source = "test"};
    reply.journal = std::move(journal);
    return overprovision::toJson(reply);
}

// Answers every message box: Yes to a question, OK to anything else; keeps their texts.
class DialogAnswerer {
public:
    DialogAnswerer() {
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            for (QWidget* widget : QApplication::topLevelWidgets()) {
                auto* box = qobject_cast<QMessageBox*>(widget);
                if (box == nullptr || !box->isVisible()) {
                    continue;
                }
                texts.push_back(box->text());
                QAbstractButton* button = box->button(QMessageBox::Yes);
                if (button == nullptr) {
                    button = box->button(QMessageBox::Ok);
                }
                button->click();
                return;
            }
        });
        m_timer.start(20);
    }
    QStringList texts;

private:
    QTimer m_timer;
};

// Takes the spy's signals in order until `verb` finished; whether it succeeded.
std::optional<bool> finishedVerb(QSignalSpy& spy, const char* verb) {
    for (int waited = 0; waited < 20000; waited += 50) {
        while (!spy.isEmpty()) {
            const auto args = spy.takeFirst();
            if (args.at(0).toString() == QString::fromLatin1(verb)) {
                return args.at(1).toBool();
            }
        }
        spy.wait(50);
    }
    return std::nullopt;
}

QString statusText(const SpareAreaPage& page) {
    return page.findChild<QLabel*>(QStringLiteral("spare.status"))->text();
}

// The page, live, on nullDrive(), after its first op.inspect was refused.
struct LivePage {
    app::test::OpVerbHost host;
    SpareAreaPage page{true, host.transport()};
    QSignalSpy finished{&page, &SpareAreaPage::verbFinished};
    device::Device drive = nullDrive();

    LivePage() {
        REQUIRE_FALSE(host.stateDir().empty());
        page.resize(900, 700);
        page.show();
        page.setDevice(&drive);
    }
};

} // namespace

TEST_CASE("the spare area page shows op.inspect's refusal of the drive") {
    app::test::application();
    LivePage live;
    REQUIRE(finishedVerb(live.finished, overprovision::kVerbOpInspect) ==
            std::optional<bool>(false));
    CHECK(statusText(live.page).startsWith(QStringLiteral("Could not read the drive:")));
    CHECK(statusText(live.page).contains(QString::fromLatin1(kRefusal)));
    CHECK(live.host.commands().empty());
    CHECK(std::filesystem::is_empty(live.host.stateDir()));
}

TEST_CASE("Apply on the spare area page sends op.apply a request the verb accepts") {
    app::test::application();
    LivePage live;
    REQUIRE(finishedVerb(live.finished, overprovision::kVerbOpInspect));
    live.page.showInspection(inspection(Bytes::mib(200)));
    live.page.slider()->setValue(20);
    REQUIRE(live.page.currentPlan());
    REQUIRE(live.page.currentPlan()->possible);
    auto* apply = live.page.findChild<QPushButton*>(QStringLiteral("spare.apply"));
    REQUIRE(apply->isEnabled());

    QSignalSpy changed(&live.page, &SpareAreaPage::driveChanged);
    DialogAnswerer answerer;
    apply->click();
    REQUIRE(finishedVerb(live.finished, overprovision::kVerbOpApply) == std::optional<bool>(false));
    // A change that ended, even refused, makes the window read the drive again.
    REQUIRE(changed.count() == 1);
    CHECK(changed.at(0).at(0).toString() == QStringLiteral("/dev/null"));
    // The question named the partition; the refusal is the device check's, which comes after
    // every argument was read: the verb took device, spare_percent and partition as sent.
    REQUIRE(answerer.texts.size() == 2);
    CHECK(answerer.texts[0].contains(QStringLiteral("/dev/nullp1")));
    CHECK(answerer.texts[1].contains(QString::fromLatin1(kRefusal)));
    CHECK_FALSE(answerer.texts[1].contains(QStringLiteral("argument")));
    CHECK(statusText(live.page).contains(QString::fromLatin1(kRefusal)));
    // The drive is read again after a change, successful or not.
    CHECK(finishedVerb(live.finished, overprovision::kVerbOpInspect) == std::optional<bool>(false));
    CHECK(live.host.commands().empty());
    CHECK(std::filesystem::is_empty(live.host.stateDir()));
}

TEST_CASE("Finish and Roll back on the spare area page send op.recover their action") {
    app::test::application();
    LivePage live;
    REQUIRE(finishedVerb(live.finished, overprovision::kVerbOpInspect));
    auto journal = ssdk::test::shrinkJournal("null", "/dev/null", "/dev/nullp1");
    journal.steps[0].state = overprovision::StepState::Done;
    live.page.showInspection(inspection(Bytes::mib(200), journal));
    REQUIRE(
        live.page.findChild<QFrame*>(QStringLiteral("spare.recovery"))->isVisibleTo(&live.page));

    DialogAnswerer answerer;
    for (const char* button : {"spare.finish", "spare.rollback"}) {
        INFO(button);
        live.page.findChild<QPushButton*>(QString::fromLatin1(button))->click();
        REQUIRE(finishedVerb(live.finished, overprovision::kVerbOpRecover) ==
                std::optional<bool>(false));
        REQUIRE_FALSE(answerer.texts.isEmpty());
        CHECK(answerer.texts.back().contains(QString::fromLatin1(kRefusal)));
        CHECK_FALSE(answerer.texts.back().contains(QStringLiteral("argument")));
        // The drive is read again; the journal stays shown.
        REQUIRE(finishedVerb(live.finished, overprovision::kVerbOpInspect));
    }
    CHECK(live.host.commands().empty());
    CHECK(std::filesystem::is_empty(live.host.stateDir()));
}

// Issue 28 §4: "Cannot: the used space … could not be read" stood beside "Reading…".
TEST_CASE("the spare area page gives no verdict while it reads the used space") {
    app::test::application();
    LivePage live; // op.inspect has started; its answer waits for the event loop
    const auto* plan = live.page.findChild<QLabel*>(QStringLiteral("spare.plan"));
    REQUIRE(plan != nullptr);
    CHECK(statusText(live.page) == QStringLiteral("Reading the filesystem's used space…"));
    CHECK(plan->text().contains(QStringLiteral("shrinks from")));
    CHECK_FALSE(plan->text().contains(QStringLiteral("Cannot")));
    CHECK_FALSE(plan->text().contains(QStringLiteral("could not be read")));
    CHECK_FALSE(live.page.findChild<QPushButton*>(QStringLiteral("spare.apply"))->isEnabled());

    REQUIRE(finishedVerb(live.finished, overprovision::kVerbOpInspect) ==
            std::optional<bool>(false));
    CHECK(plan->text().contains(QStringLiteral("Cannot: the used space of")));
}
