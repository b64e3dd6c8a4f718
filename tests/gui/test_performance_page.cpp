// The Performance page offscreen: the live graph's windows and pause, and a saved CDM result
// (recorded with `ssdkeeperctl bench … --preset cdm --output`) re-opened into the grid.
#include <QComboBox>
#include <QPushButton>

#include "app/pages/performance_page.h"
#include "app/widgets/throughput_chart.h"
#include "tests/gui/gui_support.h"

using namespace ssdk;
using namespace ssdk::app;

TEST_CASE("performance page: window choice, pause, and points kept for 10 minutes", "[perf]") {
    test::application();
    PerformancePage page;
    auto* window = page.findChild<QComboBox*>(QStringLiteral("performance.window"));
    REQUIRE(window);
    CHECK(page.chart()->windowSeconds() == 60);
    window->setCurrentIndex(1);
    CHECK(page.chart()->windowSeconds() == 600);

    for (int i = 0; i < 700; ++i) {
        page.chart()->addPoint(i, 1e6, 2e6, 100);
    }
    // Older than the longest window (10 min) is dropped.
    CHECK(page.chart()->pointCount() == 601);

    auto* pause = page.findChild<QPushButton*>(QStringLiteral("performance.pause"));
    REQUIRE(pause);
    pause->click();
    CHECK(page.paused());
    CHECK(pause->text() == QStringLiteral("Resume"));
    pause->click();
    CHECK_FALSE(page.paused());
}

TEST_CASE("performance page: a saved CDM result re-opens into the grid", "[perf]") {
    test::application();
    PerformancePage page;
    CHECK(page.resultText(0, 0) == QStringLiteral("—"));
    const QString file = QStringLiteral(SSDK_TEST_DATA_DIR "/perf/cdm-result.json");
    CHECK(page.openResultFile(file).isEmpty());
    CHECK(page.resultText(0, 0) == QStringLiteral("2919.69"));
    CHECK(page.resultText(0, 1) == QStringLiteral("3105.92"));
    CHECK(page.resultText(3, 0) == QStringLiteral("96.94"));
    CHECK_FALSE(
        page.openResultFile(QStringLiteral(SSDK_TEST_DATA_DIR "/perf/burst_bw.1.log")).isEmpty());
}
