#include <catch2/catch.hpp>

#include <QLabel>
#include <QStackedWidget>
#include <QTableWidget>

#include "app/pages/overview_page.h"
#include "app/widgets/partition_bar.h"
#include "tests/gui/gui_support.h"

using namespace ssdk;
using namespace ssdk::app;

namespace {

QString field(const OverviewPage& page, const char* name) {
    const auto* label = page.findChild<QLabel*>(QStringLiteral("overview.") + name);
    REQUIRE(label != nullptr);
    return label->text();
}

bool fieldShown(const OverviewPage& page, const char* name) {
    const auto* label = page.findChild<QLabel*>(QStringLiteral("overview.") + name);
    REQUIRE(label != nullptr);
    return label->isVisibleTo(&page);
}

} // namespace

TEST_CASE("the overview page shows the identity of the selected drive") {
    test::application();
    OverviewPage page;
    page.resize(900, 700);
    page.show();
    const auto nvme = test::nvmeSystemDisk();
    page.setDevice(&nvme);

    CHECK(field(page, "title") == "Samsung SSD 970 EVO Plus 500GB");
    CHECK(field(page, "subtitle").startsWith("/dev/nvme0n1 · NVMe · "));
    CHECK(field(page, "model") == "Samsung SSD 970 EVO Plus 500GB");
    CHECK(field(page, "serial") == "S4EVNX0R612345A");
    CHECK(field(page, "firmware") == "2B2QEXM7");
    CHECK(field(page, "vendor") == "—");
    CHECK(field(page, "wwn") == "eui.0025385891b0a1b2");
    CHECK(field(page, "bus") == "NVMe");
    CHECK(field(page, "path") == "/dev/nvme0n1");
    CHECK(field(page, "devno") == "259:0");
    CHECK(field(page, "capacity").contains("466 GiB"));
    CHECK(field(page, "capacity").contains("bytes"));
    CHECK(field(page, "sectors") == "512 B logical · 512 B physical");
    CHECK(field(page, "media").startsWith("Non-rotational"));
    CHECK(field(page, "removable") == "No");
    CHECK(field(page, "readOnly") == "No");
    CHECK(field(page, "discard").startsWith("Supported"));
    CHECK(field(page, "table") == "GPT");
    CHECK(field(page, "holders") == "None");
    CHECK_FALSE(fieldShown(page, "lab"));
    CHECK_FALSE(fieldShown(page, "backing"));

    const auto* table = page.partitionTable();
    REQUIRE(table->rowCount() == 2);
    CHECK(table->item(0, 1)->text() == "nvme0n1p1");
    CHECK(table->item(0, 4)->text() == "vfat");
    CHECK(table->item(0, 5)->text() == "EFI");
    CHECK(table->item(0, 6)->text() == "/boot/efi");
    CHECK(table->item(1, 1)->text() == "nvme0n1p2");
    CHECK(table->item(1, 6)->text() == "/");
    CHECK(table->isVisibleTo(&page));
    CHECK_FALSE(fieldShown(page, "partitionsEmpty"));
    CHECK(page.partitionBar()->segments().size() == 2);
}

TEST_CASE("the overview page shows lab drives and says when there are no partitions") {
    test::application();
    OverviewPage page;
    page.resize(900, 700);
    page.show();
    const auto lab = test::labDrive();
    page.setDevice(&lab);

    CHECK(field(page, "title") == "loop0");
    CHECK(field(page, "model") == "—");
    CHECK(field(page, "lab") == "demo");
    CHECK(fieldShown(page, "lab"));
    CHECK(field(page, "backing") == "/home/ada/.local/state/ssdkeeper/lab/demo.img");
    CHECK(fieldShown(page, "backing"));
    CHECK(field(page, "table") == "None");
    CHECK(field(page, "partitionsEmpty") == "No partitions — the whole device is unallocated.");
    CHECK(fieldShown(page, "partitionsEmpty"));
    CHECK_FALSE(page.partitionTable()->isVisibleTo(&page));
}

TEST_CASE("the overview page follows a new selection and clears without one") {
    test::application();
    OverviewPage page;
    page.show();
    const auto usb = test::usbStick();
    page.setDevice(&usb);
    CHECK(field(page, "title") == "Ultra");
    CHECK(field(page, "vendor") == "SanDisk");
    CHECK(field(page, "removable") == "Yes");
    CHECK(field(page, "media").startsWith("Rotational"));
    CHECK(field(page, "discard") == "Not supported");
    CHECK(field(page, "table") == "MBR (DOS)");
    CHECK(page.partitionTable()->item(0, 6)->text() == "/media/ada/My Stick");

    page.setDevice(nullptr);
    const auto* stack = page.findChild<QStackedWidget*>();
    REQUIRE(stack != nullptr);
    CHECK(stack->currentWidget()->objectName() == "overview.empty");
    CHECK(page.partitionBar()->segments().empty());
}

TEST_CASE("clicking a partition on the bar selects its table row") {
    test::application();
    OverviewPage page;
    page.resize(1000, 700);
    page.show();
    const auto nvme = test::nvmeSystemDisk();
    page.setDevice(&nvme);
    emit page.partitionBar()->partitionClicked(1);
    const auto rows = page.partitionTable()->selectionModel()->selectedRows();
    REQUIRE(rows.size() == 1);
    CHECK(rows.first().row() == 1);
}
