// An empty table shows a short line saying what will fill it, not an empty grid (issue 28 §4).
#include <catch2/catch.hpp>

#include <QLabel>
#include <QTableWidget>

#include "app/pages/firmware_page.h"
#include "app/pages/maintenance_page.h"
#include "app/pages/performance_page.h"
#include "tests/gui/gui_support.h"

using namespace ssdk;
using namespace ssdk::app;

namespace {

// The table named name below page and its "No … yet" line: the line is shown exactly when the
// table has no rows.
void checkEmptyLine(QWidget& page, const QString& name) {
    INFO(name.toStdString());
    auto* table = page.findChild<QTableWidget*>(name);
    REQUIRE(table != nullptr);
    const auto* empty = page.findChild<QLabel*>(name + QStringLiteral(".empty"));
    REQUIRE(empty != nullptr);
    table->setRowCount(0);
    CHECK_FALSE(empty->isHidden());
    CHECK(table->isHidden());
    CHECK(empty->text().startsWith(QStringLiteral("No ")));
    table->setRowCount(1);
    CHECK(empty->isHidden());
    CHECK_FALSE(table->isHidden());
    table->setRowCount(0);
    CHECK_FALSE(empty->isHidden());
}

} // namespace

TEST_CASE("the pages' empty tables say what will fill them") {
    app::test::application();
    MaintenancePage maintenance;
    checkEmptyLine(maintenance, QStringLiteral("maintenance.layers"));
    FirmwarePage firmware;
    for (const char* name : {"firmware.slots", "firmware.paths", "firmware.fwupdReleases"}) {
        checkEmptyLine(firmware, QString::fromLatin1(name));
    }
    PerformancePage performance;
    checkEmptyLine(performance, QStringLiteral("performance.compare"));
}
