// The Health page on recorded reports: a fake backend answers with the shared fixtures, so
// the real widgets show real data. With SSDK_SCREENSHOT_DIR set, each state is also saved
// as a PNG there (docs/screenshots/health-*.png were made so).
#include <catch2/catch.hpp>
#include <mutex>

#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

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

    Expected<smart::DriveHealth> read(const device::Device& device) override {
        if (device.isLab()) {
            return smart::makeNoSmartHealth(device.path, device.path + " is a loop device");
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
        return smart::makeDriveHealth(device.path, *report);
    }
    Expected<smart::DriveHealth> load(const std::filesystem::path& file) override {
        auto report = smart::loadSavedReport(file);
        if (!report) {
            return std::unexpected(report.error());
        }
        return smart::makeDriveHealth(file.filename().string(), *report);
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
    CHECK(child<QLabel>(page, "health.writes")->text() == "75.5 TB");
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
