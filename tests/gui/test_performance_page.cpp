// The Performance page offscreen: the live graph's windows and pause, and a saved CDM result
// (recorded with `ssdkeeperctl bench … --preset cdm --output`) re-opened into the grid.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <QComboBox>
#include <QImage>
#include <QPushButton>
#include <QTableWidget>

#include "app/pages/performance_page.h"
#include "app/widgets/analysis_chart.h"
#include "app/widgets/throughput_chart.h"
#include "core/perf/bench_result.h"
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

namespace {
std::string readText(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::stringstream content;
    content << in.rdbuf();
    return content.str();
}
} // namespace

TEST_CASE("performance page: CSV and PNG export, and compare with another result", "[perf]") {
    test::application();
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / "ssdk-perf-export-test";
    fs::remove_all(dir);
    fs::create_directories(dir);
    PerformancePage page;
    page.resize(1000, 700);
    const QString csvFile = QString::fromStdString((dir / "a.csv").string());
    CHECK_FALSE(page.exportResultCsv(csvFile).isEmpty()); // nothing to export yet
    auto* compareButton = page.findChild<QPushButton*>(QStringLiteral("performance.compareWith"));
    REQUIRE(compareButton);
    CHECK_FALSE(compareButton->isEnabled());

    REQUIRE(
        page.openResultFile(QStringLiteral(SSDK_TEST_DATA_DIR "/perf/cdm-result.json")).isEmpty());
    CHECK(compareButton->isEnabled());
    CHECK(page.exportResultCsv(csvFile).isEmpty());
    const std::string csv = readText(dir / "a.csv");
    CHECK(csv.starts_with("test,read_bytes_per_s,"));
    CHECK(csv.find("SEQ1M Q8T1,2919") != std::string::npos);

    const QString png = QString::fromStdString((dir / "cdm.png").string());
    CHECK(page.exportBenchPng(png).isEmpty());
    const QImage image(png);
    REQUIRE_FALSE(image.isNull());
    CHECK(image.width() > 300);
    const QString livePng = QString::fromStdString((dir / "live.png").string());
    CHECK(page.exportLivePng(livePng).isEmpty());
    CHECK_FALSE(QImage(livePng).isNull());

    // B: the same run with SEQ1M Q8T1 read 20% faster.
    auto json = parseJson(readText(SSDK_TEST_DATA_DIR "/perf/cdm-result.json"), "cdm");
    REQUIRE(json);
    auto b = perf::benchResultFromJson(*json);
    REQUIRE(b);
    for (auto& job : b->run.output.jobs) {
        if (job.name.starts_with("SEQ1MQ8T1-read")) {
            job.read.bwBytesPerS *= 1.2;
        }
    }
    {
        std::ofstream out(dir / "b.json");
        out << perf::toJson(*b).dump();
    }
    CHECK(page.compareWithFile(QString::fromStdString((dir / "b.json").string())).isEmpty());
    QTableWidget* table = page.compareTable();
    REQUIRE(table->rowCount() == 16);
    CHECK(table->item(0, 0)->text() == QStringLiteral("SEQ1M Q8T1"));
    CHECK(table->item(0, 1)->text() == QStringLiteral("read_bytes_per_s"));
    CHECK(table->item(0, 2)->text() == QStringLiteral("2919.69 MB/s"));
    CHECK(table->item(0, 4)->text() == QStringLiteral("+20.0%"));
    CHECK(table->item(1, 4)->text() == QStringLiteral("+0.0%"));
    // A result of another preset is refused with a reason.
    b->preset = "slc";
    {
        std::ofstream out(dir / "slc.json");
        out << perf::toJson(*b).dump();
    }
    CHECK(page.compareWithFile(QString::fromStdString((dir / "slc.json").string()))
              .contains(QStringLiteral("same preset")));
    fs::remove_all(dir);
}

TEST_CASE("performance page: consistency runs judged in SNIA one-minute rounds", "[perf]") {
    test::application();
    PerformancePage page;
    perf::BenchResult run;
    run.preset = "consistency";
    auto& log = run.run.logs["consistency-steady_iops"];
    for (std::uint64_t s = 1; s <= 360; ++s) { // 6 rounds
        log.push_back({s * 1000, s <= 60 ? 40000U : 9000U + (s % 3) * 100, 1});
    }
    page.analysisChart()->addResult(run, QStringLiteral("default"));
    CHECK(page.analysisChart()->verdictText().contains(
        QStringLiteral("default: steady state reached (last 5 rounds of 60 s")));
    run.parameters = {{"round_s", 120}};
    page.analysisChart()->addResult(run, QStringLiteral("long rounds"));
    CHECK(page.analysisChart()->runCount() == 2);
    CHECK(page.analysisChart()->verdictText().contains(
        QStringLiteral("long rounds: steady state not judged")));
}
