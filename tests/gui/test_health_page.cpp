// The Health page on recorded reports: a fake backend answers with the shared fixtures, so
// the real widgets show real data. With SSDK_SCREENSHOT_DIR set, each state is also saved
// as a PNG there (docs/screenshots/health-*.png were made so).
#include <catch2/catch.hpp>
#include <fstream>
#include <mutex>

#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include "app/device_text.h"
#include "app/health_backend.h"
#include "app/pages/health_page.h"
#include "core/smart/report_loader.h"
#include "tests/gui/gui_support.h"

using namespace ssdk;
using namespace ssdk::app;

namespace {

std::filesystem::path fixture(const char* relative) {
    return std::filesystem::path(SSDK_SHARED_FIXTURES_DIR) / relative;
}

// Answers read() with a saved report per device path; records self-test requests.
class FakeHealthBackend final : public HealthBackend {
public:
    std::map<std::string, std::filesystem::path> reports;
    std::optional<smart::SelfTestState> selfTestOverride;
    std::vector<smart::SelfTestAction> selfTests;

    Expected<HealthReading> read(const device::Device& device) override {
        const auto now = std::chrono::system_clock::now();
        if (device.isLab()) {
            return HealthReading{
                smart::makeNoSmartHealth(device.path, device.path + " is a loop device"),
                std::nullopt, now};
        }
        auto it = reports.find(device.path);
        if (it == reports.end()) {
            return fail(ErrorCode::NotFound, "no recording for " + device.path);
        }
        auto report = smart::loadSavedReport(it->second);
        if (!report) {
            return std::unexpected(report.error());
        }
        if (selfTestOverride) {
            report->selfTest = selfTestOverride;
        }
        // The raw bytes as the drive gave them: the recording itself.
        std::ifstream stream(it->second, std::ios::binary);
        smart::RawReport raw;
        raw.format = it->second.extension() == ".json" ? smart::RawReport::Format::SmartctlJson
                                                       : smart::RawReport::Format::AtasmartBlob;
        raw.bytes.assign(std::istreambuf_iterator<char>(stream), {});
        return HealthReading{smart::makeDriveHealth(device.path, *report), std::move(raw), now};
    }
    Expected<HealthReading> load(const std::filesystem::path& file) override {
        auto report = smart::loadSavedReport(file);
        if (!report) {
            return std::unexpected(report.error());
        }
        return HealthReading{smart::makeDriveHealth(file.filename().string(), *report),
                             std::nullopt, reportTime(file)};
    }
    Expected<void> selfTest(const device::Device&, smart::SelfTestAction action) override {
        selfTests.push_back(action);
        return {};
    }
};

template <typename T> T* child(const HealthPage& page, const char* name) {
    auto* widget = page.findChild<T*>(QString::fromLatin1(name));
    REQUIRE(widget != nullptr);
    return widget;
}

void waitShown(HealthPage& page, QSignalSpy& spy, int count = 1) {
    while (spy.count() < count) {
        REQUIRE(spy.wait(10000));
    }
    (void)page;
}

void saveScreenshot(HealthPage& page, const char* name) {
    const QByteArray directory = qgetenv("SSDK_SCREENSHOT_DIR");
    QTest::qWait(100); // let the layout follow the new texts before grabbing
    const QPixmap pixmap = page.grab();
    CHECK_FALSE(pixmap.isNull());
    if (!directory.isEmpty()) {
        CHECK(pixmap.save(QString::fromLocal8Bit(directory) + QLatin1Char('/') +
                          QString::fromLatin1(name)));
    }
}

// A health page on a FakeHealthBackend, shown at the screenshots' size, with a spy on what it
// shows.
struct ShownHealthPage {
    QApplication& application = test::application();
    std::shared_ptr<FakeHealthBackend> backend = std::make_shared<FakeHealthBackend>();
    HealthPage page{backend};
    QSignalSpy shown{&page, &HealthPage::healthShown};

    ShownHealthPage() {
        page.resize(1100, 760);
        page.show();
    }
};

} // namespace

TEST_CASE_METHOD(ShownHealthPage,
                 "the health page shows a failing NVMe drive with its reasons and health log") {
    const auto nvme = test::nvmeSystemDisk();
    backend->reports[nvme.path] =
        fixture("smartctl/nvme-null-SAMSUNG_MZWLL3T2HAJQ-00005-nvme0.json");
    page.setDevice(&nvme);
    waitShown(page, shown);

    CHECK(child<QLabel>(page, "health.verdict")->text() == "BAD");
    const QString reasons = child<QLabel>(page, "health.reasons")->text();
    CHECK(reasons.contains("SMART self-assessment says it is FAILING"));
    CHECK(reasons.contains("volatile memory backup device has failed"));
    CHECK(child<QLabel>(page, "health.temperature")->text() == "40 °C");
    CHECK(child<QLabel>(page, "health.life")->text() == "100 %");
    CHECK(child<QLabel>(page, "health.writes")->text() == "68.7 TiB"); // 75.5 TB
    CHECK(child<QLabel>(page, "health.powerOn")->text() == "18376 h");
    auto* nvmeTable = child<QTableWidget>(page, "health.nvme");
    REQUIRE(nvmeTable->rowCount() > 10);
    CHECK(nvmeTable->item(0, 1)->text().contains("volatile memory backup"));
    CHECK(nvmeTable->item(5, 1)->text() == "147556750"); // data units written
    auto* tabs = page.findChild<QTabWidget*>();
    REQUIRE(tabs != nullptr);
    CHECK(tabs->currentIndex() == 1);
    CHECK_FALSE(tabs->isTabVisible(0));
    saveScreenshot(page, "health-nvme-failing.png");
}

TEST_CASE_METHOD(ShownHealthPage,
                 "an opened report shows the sortable attribute table with failing rows marked") {
    page.openReport(QString::fromStdString(fixture("atasmart/ST9100821AS--3.CME").string()));
    waitShown(page, shown);

    CHECK(child<QLabel>(page, "health.verdict")->text() == "BAD");
    CHECK(child<QLabel>(page, "health.reasons")->text().contains("4 start-stop-count"));
    auto* table = child<QTableView>(page, "health.attributes");
    auto* model = table->model();
    REQUIRE(model->rowCount() == static_cast<int>(page.shown()->report->attributes.size()));
    int failing = -1;
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, 7).data().toString() == "FAILING NOW") {
            failing = row;
        }
    }
    REQUIRE(failing >= 0);
    CHECK(model->index(failing, 1).data().toString() == "start-stop-count");
    CHECK(model->index(failing, 1).data(Qt::BackgroundRole).value<QBrush>().color() ==
          QColor(0xfe, 0xe2, 0xe2));
    // Sorting by value is numeric: the failing attribute (value 1) comes first.
    table->sortByColumn(2, Qt::AscendingOrder);
    CHECK(model->index(0, 1).data().toString() == "start-stop-count");
    // A replay cannot run self-tests.
    CHECK_FALSE(child<QPushButton>(page, "health.shortTest")->isEnabled());
    CHECK(child<QPushButton>(page, "health.openReport")->isEnabled());
    saveScreenshot(page, "health-ata-report.png");
}

TEST_CASE_METHOD(ShownHealthPage, "a healthy SSD shows wear, host writes and a good verdict") {
    page.openReport(QString::fromStdString(
        fixture("smartctl/sat-Dell_Certified_Intel_S3520_Series_SSDs-SSDSCKJB240G7R-sdm.json")
            .string()));
    waitShown(page, shown);
    const auto& health = *page.shown();
    INFO(health.assessment.reasons.size());
    CHECK(child<QLabel>(page, "health.verdict")->text() ==
          (health.assessment.verdict == smart::Verdict::Good ? "GOOD" : "CAUTION"));
    CHECK(child<QLabel>(page, "health.writes")->text() != "—");
    CHECK(child<QLabel>(page, "health.life")->text() != "—");
    saveScreenshot(page, "health-ata-ssd.png");
}

TEST_CASE_METHOD(ShownHealthPage,
                 "a lab drive has no SMART: the page says so and offers no self-test") {
    const auto lab = test::labDrive();
    page.setDevice(&lab);
    waitShown(page, shown);
    CHECK(child<QLabel>(page, "health.verdict")->text() == "UNKNOWN");
    CHECK(child<QLabel>(page, "health.reasons")->text().contains("loop device"));
    CHECK_FALSE(child<QPushButton>(page, "health.shortTest")->isEnabled());
    CHECK_FALSE(child<QPushButton>(page, "health.abortTest")->isEnabled());
    CHECK(child<QLabel>(page, "health.temperature")->text() == "—");
    saveScreenshot(page, "health-lab-no-smart.png");
}

TEST_CASE_METHOD(ShownHealthPage,
                 "self-test buttons start tests and a running test shows its progress") {
    const auto nvme = test::nvmeSystemDisk();
    backend->reports[nvme.path] = fixture("smartctl/nvme-null-CT250P2SSD8-nvme0.json");
    page.setDevice(&nvme);
    waitShown(page, shown);
    auto* shortTest = child<QPushButton>(page, "health.shortTest");
    REQUIRE(shortTest->isEnabled());
    CHECK_FALSE(child<QPushButton>(page, "health.abortTest")->isEnabled());

    smart::SelfTestState running;
    running.running = true;
    running.percentRemaining = 70;
    running.statusText = "Short self-test in progress";
    running.log.push_back({"Short", "Completed without error", true, 1200});
    backend->selfTestOverride = running;
    shortTest->click();
    waitShown(page, shown, 2);
    REQUIRE(backend->selfTests.size() == 1);
    CHECK(backend->selfTests.front() == smart::SelfTestAction::Short);
    auto* progress = child<QProgressBar>(page, "health.selfTestProgress");
    CHECK(progress->isVisible());
    CHECK(progress->value() == 30);
    CHECK(child<QPushButton>(page, "health.abortTest")->isEnabled());
    CHECK_FALSE(shortTest->isEnabled());
    CHECK(child<QTableWidget>(page, "health.selfTestLog")->rowCount() == 1);

    child<QPushButton>(page, "health.abortTest")->click();
    waitShown(page, shown, 3);
    CHECK(backend->selfTests.back() == smart::SelfTestAction::Abort);
}

TEST_CASE_METHOD(ShownHealthPage,
                 "an opened report is shown under a banner until Close returns to the drive") {
    const auto nvme = test::nvmeSystemDisk();
    backend->reports[nvme.path] = fixture("smartctl/nvme-null-CT250P2SSD8-nvme0.json");
    page.setDevice(&nvme);
    waitShown(page, shown);
    auto* banner = child<QWidget>(page, "health.reportBanner");
    CHECK_FALSE(banner->isVisible());
    CHECK(child<QLabel>(page, "health.readTime")->text().startsWith("Read "));
    const auto driveModel = page.shown()->report->model;

    const auto file = fixture("atasmart/ST9100821AS--3.CME");
    page.openReport(QString::fromStdString(file.string()));
    waitShown(page, shown, 2);
    CHECK(page.showingReport());
    REQUIRE(banner->isVisible());
    const QString text = child<QLabel>(page, "health.reportBannerText")->text();
    CHECK(text.contains("ST9100821AS--3.CME"));
    CHECK(text.contains("not the selected drive"));
    CHECK(text.contains(readingTimeText(
        QDateTime::fromMSecsSinceEpoch(std::chrono::duration_cast<std::chrono::milliseconds>(
                                           reportTime(file).time_since_epoch())
                                           .count()),
        QDateTime::currentDateTime())));
    CHECK(page.shown()->report->model != driveModel);
    // The report is not the drive: no self-tests, nothing of it to save as the drive's.
    CHECK_FALSE(child<QPushButton>(page, "health.shortTest")->isEnabled());
    CHECK_FALSE(child<QPushButton>(page, "health.saveReport")->isEnabled());
    // A rescan of the same drive leaves the report up.
    page.setDevice(&nvme);
    CHECK(page.showingReport());
    saveScreenshot(page, "health-report-banner.png");

    child<QPushButton>(page, "health.closeReport")->click();
    waitShown(page, shown, 3);
    CHECK_FALSE(page.showingReport());
    CHECK_FALSE(banner->isVisible());
    CHECK(page.shown()->report->model == driveModel);
    CHECK(child<QPushButton>(page, "health.shortTest")->isEnabled());
}

TEST_CASE_METHOD(ShownHealthPage,
                 "Save report writes the drive's reading so that opening it shows the same") {
    const auto nvme = test::nvmeSystemDisk();
    backend->reports[nvme.path] =
        fixture("smartctl/nvme-null-SAMSUNG_MZWLL3T2HAJQ-00005-nvme0.json");
    page.setDevice(&nvme);
    waitShown(page, shown);
    REQUIRE(page.canSaveReport());
    CHECK(child<QPushButton>(page, "health.saveReport")->isEnabled());
    const auto live = *page.shown();

    QTemporaryDir directory;
    REQUIRE(directory.isValid());
    const QString file = directory.filePath("saved.json");
    QSignalSpy saved(&page, &HealthPage::reportSaved);
    page.saveReport(file);
    REQUIRE(saved.wait(10000));
    CHECK(saved.front().at(0).toString() == file);
    CHECK(saved.front().at(1).toString().isEmpty());

    page.openReport(file);
    waitShown(page, shown, 2);
    REQUIRE(page.showingReport());
    const auto& reopened = *page.shown();
    REQUIRE(reopened.report);
    CHECK(reopened.report->model == live.report->model);
    CHECK(reopened.report->serial == live.report->serial);
    REQUIRE(reopened.report->nvme);
    CHECK(reopened.report->nvme->dataUnitsWritten == live.report->nvme->dataUnitsWritten);
    CHECK(reopened.report->nvme->powerOnHours == live.report->nvme->powerOnHours);
    CHECK(reopened.assessment.verdict == live.assessment.verdict);
    CHECK(smart::toJson(reopened)["derived"] == smart::toJson(live)["derived"]);
    CHECK(child<QLabel>(page, "health.powerOn")->text() == "18376 h");

    // An ATA drive's attributes come back the same too.
    auto sata = test::nvmeSystemDisk();
    sata.name = "sdm";
    sata.path = "/dev/sdm";
    sata.bus = device::Bus::Sata;
    backend->reports[sata.path] =
        fixture("smartctl/sat-Dell_Certified_Intel_S3520_Series_SSDs-SSDSCKJB240G7R-sdm.json");
    page.setDevice(&sata);
    waitShown(page, shown, 3);
    const auto ata = *page.shown();
    REQUIRE_FALSE(ata.report->attributes.empty());
    const QString ataFile = directory.filePath("ata.json");
    page.saveReport(ataFile);
    REQUIRE(saved.wait(10000));
    CHECK(saved.back().at(1).toString().isEmpty());
    page.openReport(ataFile);
    waitShown(page, shown, 4);
    const auto& ataReopened = *page.shown();
    REQUIRE(ataReopened.report->attributes.size() == ata.report->attributes.size());
    for (std::size_t i = 0; i < ata.report->attributes.size(); ++i) {
        CHECK(ataReopened.report->attributes[i].id == ata.report->attributes[i].id);
        CHECK(ataReopened.report->attributes[i].raw == ata.report->attributes[i].raw);
        CHECK(ataReopened.report->attributes[i].value == ata.report->attributes[i].value);
    }
    // A report shown is not the drive's reading: saving it is refused.
    page.saveReport(directory.filePath("refused.json"));
    REQUIRE(saved.count() == 3);
    CHECK_FALSE(saved.back().at(1).toString().isEmpty());
    CHECK_FALSE(QFile::exists(directory.filePath("refused.json")));
}

TEST_CASE_METHOD(ShownHealthPage, "power-on time and life left use one unit, as the CLI does") {
    const auto nvme = test::nvmeSystemDisk();
    backend->reports[nvme.path] =
        fixture("smartctl/nvme-null-SAMSUNG_MZWLL3T2HAJQ-00005-nvme0.json");
    page.setDevice(&nvme);
    waitShown(page, shown);
    // 18376 h = 765.7 days = 2.1 years: shown as years, not as days.
    CHECK(child<QLabel>(page, "health.powerOnNote")->text().startsWith("2.1 years"));
    CHECK(durationText(18376) == "2.1 years");
    CHECK(durationText(30) == "30 hours");
    CHECK(durationText(1) == "1 hour");
    CHECK(durationText(47.4) == "47 hours");
    CHECK(durationText(48) == "2 days");
    CHECK(durationText(1347 * 24) == "3.7 years");
    CHECK(durationText(364 * 24) == "364 days");
    CHECK(durationText(365 * 24) == "1.0 years");
}

TEST_CASE("the reading time shows the clock today and the date on other days") {
    const QDateTime now(QDate(2026, 11, 28), QTime(15, 0, 0));
    CHECK(readingTimeText(QDateTime(QDate(2026, 11, 28), QTime(14, 3, 22)), now) == "14:03:22");
    CHECK(readingTimeText(QDateTime(QDate(2026, 11, 27), QTime(14, 3, 22)), now) ==
          "2026-11-27 14:03");
}
