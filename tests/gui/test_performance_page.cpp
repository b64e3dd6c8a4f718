// The Performance page offscreen: the live graph's windows and pause, a saved CDM result
// (recorded with `ssdkeeperctl bench … --preset cdm --output`) re-opened into the grid, and
// the CDM best/average choice reaching the plan, the helper request and a real fio run.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <QChartView>
#include <QComboBox>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QValueAxis>

#include "app/pages/performance_page.h"
#include "app/widgets/analysis_chart.h"
#include "app/widgets/chart_axes.h"
#include "app/widgets/throughput_chart.h"
#include "core/base/system_process_runner.h"
#include "core/perf/bench_plan.h"
#include "core/perf/bench_result.h"
#include "core/perf/report.h"
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
    // Nothing to export and no benchmark running: no export of a chart, no idle 0 % bar.
    auto* pngButton = page.findChild<QPushButton*>(QStringLiteral("performance.exportPng"));
    REQUIRE(pngButton);
    CHECK_FALSE(pngButton->isEnabled());
    auto* progress = page.findChild<QProgressBar*>(QStringLiteral("performance.progress"));
    REQUIRE(progress);
    CHECK(progress->isHidden());

    REQUIRE(
        page.openResultFile(QStringLiteral(SSDK_TEST_DATA_DIR "/perf/cdm-result.json")).isEmpty());
    CHECK(compareButton->isEnabled());
    CHECK(pngButton->isEnabled());
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
    // One tick per one-minute round on the time axis.
    auto* view = page.findChild<QChartView*>(QStringLiteral("performance.analysisChart"));
    REQUIRE(view);
    auto* time = qobject_cast<QValueAxis*>(view->chart()->axes(Qt::Horizontal).value(0));
    REQUIRE(time);
    CHECK(time->tickType() == QValueAxis::TicksDynamic);
    CHECK(time->tickInterval() == 60);
    CHECK(time->max() == 360);
    run.parameters = {{"round_s", 120}};
    page.analysisChart()->addResult(run, QStringLiteral("long rounds"));
    CHECK(page.analysisChart()->runCount() == 2);
    CHECK(page.analysisChart()->verdictText().contains(
        QStringLiteral("long rounds: steady state not judged")));
}

namespace {
// Two loops of each CDM test whose read and write rates differ by loop (1: 100 MB/s and
// 2: 300 MB/s, scaled per test), as a two-loop run saves them.
perf::BenchResult twoLoopCdm(const Json& parameters) {
    perf::BenchResult result;
    result.preset = "cdm";
    result.target = "/tmp/ssdkeeper-bench.tmp";
    result.parameters = parameters;
    const auto jobs = perf::cdmJobs(Bytes::mib(16), 2, 1);
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        perf::FioJobResult job;
        job.name = jobs[i].name;
        const auto key = perf::cdmKeyOf(jobs[i].name);
        const int test = key->test == "SEQ1M Q8T1" ? 0 : key->test == "SEQ1M Q1T1" ? 1 : 2;
        const double rate = (jobs[i].name.ends_with("#1") ? 100e6 : 300e6) / (1 + test);
        auto& direction = jobs[i].rw.find("write") != std::string::npos ? job.write : job.read;
        direction.bwBytesPerS = rate;
        direction.ioBytes = 1;
        result.run.output.jobs.push_back(job);
    }
    return result;
}
} // namespace

TEST_CASE("performance page: best or average of the loops reaches the plan, the helper "
          "request and the saved result",
          "[perf]") {
    test::application();
    PerformancePage page;
    auto* loops = test::namedChild<QComboBox>(page, "performance", "loops");
    auto* pick = test::namedChild<QComboBox>(page, "performance", "pick");
    CHECK(page.cdmOptions().pick == perf::CdmPick::Best);
    loops->setCurrentIndex(1); // 2 loops
    pick->setCurrentIndex(pick->findText(QStringLiteral("Average")));
    const auto options = page.cdmOptions();
    CHECK(options.preset == "cdm");
    CHECK(options.loops == 2);
    CHECK(options.pick == perf::CdmPick::Average);
    const auto plan = perf::planBench(options, false);
    REQUIRE(plan);
    CHECK(plan->parameters["pick"] == "average");
    CHECK(plan->parameters["loops"] == 2);
    CHECK(plan->jobs.size() == 16);

    CHECK(page.deviceBenchRequest(QStringLiteral("demo")).empty()); // no drive selected
    const auto drive = test::labDrive();
    page.setDevice(&drive);
    const Json request = page.deviceBenchRequest(QStringLiteral("demo"));
    CHECK(request["pick"] == "average");
    CHECK(request["loops"] == 2);
    CHECK(request["device"] == drive.path);
    pick->setCurrentIndex(pick->findText(QStringLiteral("Best")));
    CHECK(page.deviceBenchRequest(QStringLiteral("demo"))["pick"] == "best");

    // A saved two-loop result shows the pick it was run with, also after re-opening.
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / "ssdk-perf-pick-test";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const auto average = twoLoopCdm(Json{{"loops", 2}, {"pick", "average"}});
    {
        std::ofstream out(dir / "average.json");
        out << perf::resultDocument(average).dump();
    }
    loops->setCurrentIndex(loops->findData(1));
    REQUIRE(page.openResultFile(QString::fromStdString((dir / "average.json").string())).isEmpty());
    // The controls beside the numbers are set to the result's own, and it is marked as opened.
    CHECK(pick->currentText() == QStringLiteral("Average"));
    CHECK(loops->currentData().toInt() == 2);
    CHECK(test::namedChild<QLabel>(page, "performance", "benchStatus")
              ->text()
              .startsWith(QStringLiteral("Opened average.json (not run now): ")));
    CHECK(page.resultText(0, 0) == QStringLiteral("200.00")); // (100 + 300) / 2
    CHECK(page.resultText(0, 1) == QStringLiteral("200.00"));
    CHECK(page.resultText(1, 0) == QStringLiteral("100.00")); // (50 + 150) / 2
    auto* status = test::namedChild<QLabel>(page, "performance", "benchStatus");
    CHECK(status->text().contains(QStringLiteral("average of 2 loops")));
    page.showResult(twoLoopCdm(Json{{"loops", 2}, {"pick", "best"}}));
    CHECK(page.resultText(0, 0) == QStringLiteral("300.00"));
    CHECK(status->text().contains(QStringLiteral("best of 2 loops")));
    fs::remove_all(dir);
}

TEST_CASE("performance page: a real fio CDM run on a test file records the average pick",
          "[perf][fio]") {
    REQUIRE_FALSE(findExecutable("fio").empty()); // scripts/setup installs fio
    test::application();
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / "ssdk-perf-pick-run";
    fs::remove_all(dir);
    fs::create_directories(dir);
    PerformancePage page;
    test::namedChild<QLineEdit>(page, "performance", "target")
        ->setText(QString::fromStdString(dir.string()));
    test::namedChild<QComboBox>(page, "performance", "size")->setCurrentIndex(0);    // 16 MiB
    test::namedChild<QComboBox>(page, "performance", "seconds")->setCurrentIndex(0); // 1 s
    test::namedChild<QComboBox>(page, "performance", "loops")->setCurrentIndex(1);   // 2 loops
    auto* pick = test::namedChild<QComboBox>(page, "performance", "pick");
    pick->setCurrentIndex(pick->findText(QStringLiteral("Average")));
    QSignalSpy finished(&page, &PerformancePage::benchmarkFinished);
    test::namedChild<QPushButton>(page, "performance", "run")->click();
    REQUIRE(finished.wait(120'000));
    INFO(finished.at(0).at(1).toString().toStdString());
    REQUIRE(finished.at(0).at(0).toBool());
    REQUIRE(page.result());
    const auto& result = *page.result();
    CHECK(result.parameters["pick"] == "average");
    CHECK(result.parameters["loops"] == 2);
    CHECK(result.run.output.jobs.size() == 16);
    const auto rows = perf::summarizeCdm(result.run.output, perf::CdmPick::Average);
    REQUIRE(rows.size() == 4);
    CHECK(page.resultText(0, 0) == QString::number(rows[0].readBytesPerS / 1e6, 'f', 2));
    CHECK(perf::analysisJson(result)["cdm_pick"] == "average");
    CHECK(fs::is_empty(dir)); // the test file is removed
    fs::remove_all(dir);
}

TEST_CASE("chart axes tick at 1, 2 or 5 times a power of ten", "[perf]") {
    CHECK(niceTickStep(51, 5) == 20); // not 12.75: 0, 20, 40, 60
    CHECK(niceTickStep(10, 5) == 2);
    CHECK(niceTickStep(0.199, 5) == Approx(0.05));
    CHECK(niceTickStep(600, 6) == 100);
    CHECK(niceTickStep(60, 6) == 10);
    QValueAxis axis;
    setNiceRange(axis, 0, 46.2);
    CHECK(axis.min() == 0);
    CHECK(axis.max() == 50);
    CHECK(axis.tickInterval() == 10);
    CHECK(axis.labelFormat() == QStringLiteral("%.0f"));
    setNiceRange(axis, 0, 0.199);
    CHECK(axis.max() == Approx(0.2));
    CHECK(axis.labelFormat() == QStringLiteral("%.2f"));
}
