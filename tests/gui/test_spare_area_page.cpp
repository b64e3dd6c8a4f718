#include <catch2/catch.hpp>

#include <QFrame>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>

#include "app/pages/spare_area_page.h"
#include "app/widgets/spare_area_bar.h"
#include "core/overprovision/journal.h"
#include "tests/gui/gui_support.h"
#include "tests/support/spare_area.h"

using namespace ssdk;
using namespace ssdk::app;

namespace {

// A 512 MiB GPT drive with one ext4 partition nearly filling it, discard-capable, not mounted.
device::Device spareDrive() {
    return ssdk::test::withSpareAreaLayout(app::test::labDrive(),
                                           device::Filesystem{"ext4", "data", ""});
}

Json inspection(Bytes used) {
    return Json{{"usage", Json{{"type", "ext4"},
                               {"size", Bytes::mib(510).value},
                               {"used", used.value},
                               {"minimum_size", used.value},
                               {"source", "test"}}},
                {"usage_error", ""},
                {"journal", nullptr}};
}

template <typename T> T* child(const QWidget& page, const char* name) {
    auto* widget = page.findChild<T*>(QStringLiteral("spare.") + name);
    REQUIRE(widget != nullptr);
    return widget;
}

} // namespace

TEST_CASE("the spare area page plans with the slider and names the partition") {
    app::test::application();
    SpareAreaPage page(false);
    page.resize(900, 700);
    page.show();
    const auto drive = spareDrive();
    page.setDevice(&drive);
    page.showInspection(inspection(Bytes::mib(200)));

    REQUIRE(page.currentPlan());
    CHECK(page.currentPlan()->possible);
    CHECK(child<QLabel>(page, "sliderValue")->text() == "20 %");
    CHECK(child<QLabel>(page, "plan")->text().contains("shrinks from 510 MiB to 408 MiB"));
    CHECK(child<QLabel>(page, "factory")->text().contains("unknown"));
    CHECK(page.confirmationText().contains("/dev/loop0p1"));
    CHECK(page.confirmationText().startsWith("Shrink"));
    // No change runs: no idle progress bar beside the buttons.
    CHECK(child<QProgressBar>(page, "progress")->isHidden());
    // Not the live system: nothing can be sent to the helper.
    CHECK_FALSE(child<QPushButton>(page, "apply")->isEnabled());
    CHECK_FALSE(child<QFrame>(page, "recovery")->isVisibleTo(&page));

    // Before: the partition (the last MiB is alignment, not spare); after: spare at the end.
    const auto& before = child<SpareAreaBar>(page, "before")->model();
    const auto& after = child<SpareAreaBar>(page, "after")->model();
    REQUIRE(before.segments.size() == 1);
    REQUIRE(after.segments.size() == 2);
    CHECK(after.segments[0].size == Bytes::mib(408));
    CHECK(after.segments[0].usedFraction == Approx(200.0 / 408.0));
    CHECK(after.segments[1].kind == SpareBarSegment::Kind::UserSpare);
    CHECK(after.segments[1].size == Bytes::mib(103));

    page.slider()->setValue(40);
    CHECK(child<QLabel>(page, "sliderValue")->text() == "40 %");
    CHECK(child<SpareAreaBar>(page, "after")->model().segments[0].size == Bytes::mib(306));

    // Too full for 40 %: the plan says why.
    page.showInspection(inspection(Bytes::mib(300)));
    CHECK_FALSE(page.currentPlan()->possible);
    CHECK(child<QLabel>(page, "plan")->text().contains("too full"));
}

TEST_CASE("the spare area page refuses the system disk and shows factory spare") {
    app::test::application();
    SpareAreaPage page(false);
    page.show();
    const auto nvme = app::test::nvmeSystemDisk();
    page.setDevice(&nvme);
    REQUIRE(page.currentPlan());
    CHECK_FALSE(page.currentPlan()->possible);
    CHECK(child<QLabel>(page, "plan")->text().contains("running system"));
    CHECK(child<QLabel>(page, "factory")->text().contains("Factory spare: "));
    const auto& before = child<SpareAreaBar>(page, "before")->model();
    REQUIRE_FALSE(before.segments.empty());
    CHECK(before.segments.back().kind == SpareBarSegment::Kind::FactorySpare);
    CHECK(before.total > nvme.size);
}

TEST_CASE("the spare area page offers to finish or roll back an interrupted change") {
    app::test::application();
    SpareAreaPage page(false);
    page.show();
    const auto drive = spareDrive();
    page.setDevice(&drive);
    auto journal = ssdk::test::shrinkJournal("lab-demo", drive.path, "/dev/loop0p1");
    journal.steps[0].state = overprovision::StepState::Done;
    journal.steps[1].state = overprovision::StepState::Started;
    Json status = inspection(Bytes::mib(200));
    status["journal"] = overprovision::toJson(journal);
    page.showInspection(status);
    CHECK(child<QFrame>(page, "recovery")->isVisibleTo(&page));
    CHECK(child<QLabel>(page, "recoveryText")->text().contains("/dev/loop0p1"));
    CHECK(child<QPushButton>(page, "finish") != nullptr);
    CHECK_FALSE(child<QPushButton>(page, "apply")->isEnabled());
}

TEST_CASE("the spare area page offers to unmount a mounted ext4 for the shrink") {
    app::test::application();
    SpareAreaPage page(false);
    page.show();
    auto drive = spareDrive();
    drive.partitions[0].mounts.push_back({"/mnt/data", "ext4", "rw,relatime"});
    page.setDevice(&drive);
    page.showInspection(inspection(Bytes::mib(200)));
    REQUIRE(page.currentPlan());
    CHECK_FALSE(page.currentPlan()->possible);
    REQUIRE(page.unmountPlan());
    CHECK(page.unmountPlan()->possible);
    CHECK_FALSE(child<QPushButton>(page, "apply")->isVisibleTo(&page));
    CHECK(child<QPushButton>(page, "unmountApply")->isVisibleTo(&page));
    CHECK(child<QLabel>(page, "plan")->text().contains("can do it: nothing holds /mnt/data open"));
    CHECK(page.unmountConfirmationText().contains("Unmount /dev/loop0p1 from /mnt/data"));
    CHECK(page.unmountConfirmationText().contains("same options"));

    // In use: refused with who holds it.
    Json busy = inspection(Bytes::mib(200));
    busy["mount_users"] = Json::array({"4242 (bash)"});
    page.showInspection(busy);
    REQUIRE(page.unmountPlan());
    CHECK_FALSE(page.unmountPlan()->possible);
    CHECK_FALSE(child<QPushButton>(page, "unmountApply")->isEnabled());
    CHECK(child<QLabel>(page, "plan")->text().contains("4242 (bash)"));

    // The system disk: no offer at all.
    const auto nvme = app::test::nvmeSystemDisk();
    page.setDevice(&nvme);
    CHECK_FALSE(page.unmountPlan());
    CHECK_FALSE(child<QPushButton>(page, "unmountApply")->isVisibleTo(&page));
}
