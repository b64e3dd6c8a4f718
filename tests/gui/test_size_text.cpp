// One number, one unit (issue 28 §4): every page writes sizes with sizeText(), binary units and
// three significant digits, the same text as ssdkeeperctl (formatIec).
#include <catch2/catch.hpp>

#include <QLabel>
#include <QTableWidget>

#include "app/device_text.h"
#include "app/pages/overview_page.h"
#include "app/pages/ram_cache/units.h"
#include "app/pages/spare_area_page.h"
#include "app/widgets/partition_bar.h"
#include "tests/gui/gui_support.h"
#include "tests/support/spare_area.h"

using namespace ssdk;
using namespace ssdk::app;

TEST_CASE("sizeText writes binary units with three significant digits") {
    CHECK(sizeText(Bytes(0)) == "0 B");
    CHECK(sizeText(Bytes(1023)) == "1023 B");
    CHECK(sizeText(Bytes::kib(1)) == "1.00 KiB");
    CHECK(sizeText(Bytes::kib(4)) == "4.00 KiB");
    CHECK(sizeText(Bytes::mib(2) + Bytes::kib(512)) == "2.50 MiB");
    CHECK(sizeText(Bytes::gib(2)) == "2.00 GiB");
    CHECK(sizeText(Bytes::gib(8)) == "8.00 GiB");
    CHECK(sizeText(Bytes::mib(28) + Bytes::kib(640)) == "28.6 MiB");
    // 409.4 MiB and 409.6 MiB: rounded to the nearest, not cut.
    CHECK(sizeText(Bytes::mib(409) + Bytes::kib(410)) == "409 MiB");
    CHECK(sizeText(Bytes::mib(409) + Bytes::kib(614)) == "410 MiB");
    CHECK(sizeText(Bytes::sectors512(976773168)) == "466 GiB"); // a "500 GB" drive
    CHECK(sizeText(Bytes::tib(2)) == "2.00 TiB");
    // The CLI writes the same text.
    for (const Bytes size : {Bytes(1), Bytes::mib(409) + Bytes::kib(614), Bytes::gib(931)}) {
        CHECK(sizeText(size) == QString::fromStdString(formatIec(size)));
    }
}

TEST_CASE("the other size texts of the app are sizeText") {
    CHECK(capacityText(Bytes::gib(8)) == sizeText(Bytes::gib(8)));
    CHECK(capacityDetailText(Bytes::gib(8)).startsWith(sizeText(Bytes::gib(8)) + " ("));
    CHECK(ramcache::iec(Bytes::mib(410).value) == sizeText(Bytes::mib(410)));
    CHECK(measuredSizeText(1.5 * 1024 * 1024 * 1024) == "1.50 GiB");
    CHECK(measuredSizeText(-3.0) == "0 B");
}

TEST_CASE("the Overview and Spare Area pages show one partition's size the same way") {
    app::test::application();
    // A 512 MiB GPT drive with one ext4 partition of 510 MiB ("535 MB" in decimal units).
    const device::Device drive = ssdk::test::withSpareAreaLayout(
        app::test::labDrive(), device::Filesystem{"ext4", "data", ""});
    REQUIRE(drive.partitions.size() == 1);
    const QString size = sizeText(drive.partitions.front().size);
    CHECK(size == "510 MiB");

    OverviewPage overview;
    overview.setDevice(&drive);
    const QTableWidget* table = overview.partitionTable();
    REQUIRE(table->rowCount() == 1);
    CHECK(table->item(0, 3)->text() == size);
    CHECK(table->item(0, 3)->toolTip().startsWith(size));
    const auto segments = overview.partitionBar()->segments();
    REQUIRE_FALSE(segments.empty());
    CHECK(overview.partitionBar()->toolTipFor(segments.front()).contains(size));

    SpareAreaPage spare(false);
    spare.setDevice(&drive);
    const auto* plan = spare.findChild<QLabel*>(QStringLiteral("spare.plan"));
    REQUIRE(plan != nullptr);
    CHECK(plan->text().contains(QStringLiteral("shrinks from %1 to").arg(size)));
}
