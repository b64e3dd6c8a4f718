// "Compare with and without cache" on the RAM Cache page, for real on a lab drive as root: an
// ext4 partition of a loop device mounted in a scratch directory, the real cache verbs served in
// this process (cache_verbs_host.h) over a CacheManager on the live machine (real umount and
// mount, the journal in the scratch directory), and fio on a test file in the filesystem. No RAM
// cache backend can run on this host (no device-mapper, nbd or bcache module): the backend is a
// fake one that caches in place (the partition stays the cached device), so the page's whole
// sequence runs — measure, unmount, "enable", mount, measure, unmount, "disable", mount back —
// but both columns measure the same drive. The lab VM runs it with zram-writecache
// (tests/lab/checks/ram_cache_benefit.sh).
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include <QComboBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSlider>
#include <QTableWidget>
#include <QTest>
#include <QTimer>

#include "app/pages/ram_cache/benefit_panel.h"
#include "app/pages/ram_cache_page.h"
#include "core/base/system_process_runner.h"
#include "core/cachectl/backend_fake.h"
#include "core/cachectl/cache_manager.h"
#include "core/perf/cache_benefit.h"
#include "tests/gui/cache_verbs_host.h"
#include "tests/gui/gui_support.h"
#include "tests/integration/maintenance/maintenance_scratch.h"
#include "tests/support/skip.h"

using namespace ssdk;
namespace fs = std::filesystem;

namespace {

constexpr const char* kBackend = "in-place";

template <typename T> T* child(QWidget& parent, const char* name) {
    return app::test::namedChild<T>(parent, "ramcache", name);
}

// What is mounted at mountPoint ("" when nothing is).
std::string mountSource(const std::string& mountPoint) {
    SystemProcessRunner runner;
    auto found =
        runner.run({.argv = {"findmnt", "-n", "-o", "SOURCE", "--mountpoint", mountPoint}});
    if (!found || !found->succeeded()) {
        return {};
    }
    std::string source = found->standardOutput;
    while (!source.empty() && source.back() == '\n') {
        source.pop_back();
    }
    return source;
}

// A CacheManager on the live machine over one fake backend that caches in place; its journal
// under stateDir. Kept alive by the page's calls as long as one may still run.
struct LiveManager {
    explicit LiveManager(const fs::path& stateDir)
        : env(cachectl::HostEnv::live(runner)) {
        cachectl::Capabilities capabilities;
        capabilities.writeBack = true;
        capabilities.compression = true;
        capabilities.compressions = {cachectl::Compression::Lz4, cachectl::Compression::Zstd};
        auto fake = std::make_unique<cachectl::FakeBackend>(
            kBackend, cachectl::ProbeResult{true, {}}, capabilities);
        fake->setCachesInPlace(true);
        backend = fake.get();
        registry.add(std::move(fake));
        manager.emplace(registry, env, stateDir);
    }

    SystemProcessRunner runner;
    cachectl::HostEnv env;
    cachectl::BackendRegistry registry;
    cachectl::FakeBackend* backend = nullptr;
    std::optional<cachectl::CacheManager> manager;
};

// Waits for the panel's finished() (a comparison ended) and returns the status line.
QString waitForComparison(QSignalSpy& finished, QLabel& status, int ms) {
    REQUIRE(finished.wait(ms));
    return status.text();
}

} // namespace

TEST_CASE("Compare with and without cache measures both sides on the mounted partition, puts "
          "the cache back, saves the figures and shows them again",
          "[gui][ramcache][benefit]") {
    if (::geteuid() != 0) {
        ssdk::test::skipTest("needs root for lab drives, mounts and the cache verbs");
    }
    if (!ssdk::test::haveProgram("fio")) {
        ssdk::test::skipTest("fio is not installed");
    }
    app::test::application();
    const ssdk::test::MaintenanceScratch scratch; // XDG_STATE_HOME: the saved comparison
    const auto drive = ssdk::test::makeLabDrive("ramcache-benefit", Bytes::mib(320), "gpt-ext4");
    const std::string partition = drive.devicePath + "p1";
    const fs::path mnt = scratch.dir() / "mnt";
    fs::create_directories(mnt);
    SystemProcessRunner runner;
    auto mounted = runner.run({.argv = {"mount", "-o", "noatime", partition, mnt.string()}});
    REQUIRE(mounted);
    REQUIRE(mounted->succeeded());
    const device::Device device = app::test::discoverLive(drive.devicePath);

    auto live = std::make_shared<LiveManager>(scratch.dir() / "cache-state");
    app::RamCachePage page(app::test::cacheVerbCaller(*live->manager, live));
    page.resize(1000, 1500);
    page.setDevice(&device);
    page.show();
    auto* backend = child<QComboBox>(page, "backend");
    REQUIRE(QTest::qWaitFor([&] { return backend->count() == 1; }, 10000));
    auto* partitionBox = child<QComboBox>(page, "partition");
    partitionBox->setCurrentIndex(partitionBox->findData(QString::fromStdString(partition)));
    REQUIRE(page.findChild<app::ramcache::BenefitPanel*>() != nullptr);
    auto& panel = *page.findChild<app::ramcache::BenefitPanel*>();
    // The form's settings: 96 MiB, zstd, write-back.
    child<QSlider>(page, "size")->setValue(96);
    child<QComboBox>(page, "compression")->setCurrentText(QStringLiteral("zstd"));
    child<QRadioButton>(page, "writeBack")->click();
    auto* compare = child<QPushButton>(page, "compare");
    auto* cancel = child<QPushButton>(page, "compareCancel");
    auto* status = child<QLabel>(page, "compareStatus");
    auto* table = child<QTableWidget>(page, "compareTable");
    auto* measuredWith = child<QLabel>(page, "compareSettings");
    REQUIRE(compare->isEnabled());
    CHECK_FALSE(table->isVisible());
    CHECK(measuredWith->text() == QStringLiteral("Not compared yet on this partition."));
    QSignalSpy finished(&panel, &app::ramcache::BenefitPanel::finished);
    const fs::path saved = app::ramcache::BenefitPanel::savedPath(
        QString::fromStdString(device.serial.empty() ? device.name : device.serial),
        QString::fromStdString(partition));
    REQUIRE(saved.string().starts_with(scratch.dir().string()));

    SECTION("measured for real, the cache back off, the figures saved and shown again") {
        // The GUI thread keeps running meanwhile: the longest gap between two ticks.
        QElapsedTimer sinceTick;
        qint64 longestGap = 0;
        QString gapAt;
        QTimer ticker;
        ticker.setInterval(50);
        QObject::connect(&ticker, &QTimer::timeout, [&] {
            if (sinceTick.isValid() && sinceTick.elapsed() > longestGap) {
                longestGap = sinceTick.elapsed();
                gapAt = status->text();
            }
            sinceTick.restart();
        });
        ticker.start();
        compare->click();
        CHECK(cancel->isEnabled());
        CHECK(child<QProgressBar>(page, "compareProgress")->isVisible());
        CHECK_FALSE(child<QComboBox>(page, "compression")->isEnabled()); // the form waits
        const QString done = waitForComparison(finished, *status, 60000);
        ticker.stop();
        INFO("status: " << done.toStdString());
        REQUIRE(done.startsWith(QStringLiteral("Done; saved in ")));
        INFO("longest GUI gap " << longestGap << " ms, ending at: " << gapAt.toStdString());
        CHECK(longestGap < 1000);
        // The sequence went through the verbs: the cache on with the form's settings, then off.
        const auto calls = live->backend->calls();
        INFO("backend calls: " << calls.size());
        REQUIRE(calls.size() >= 2);
        CHECK(calls.front() == "enable " + partition);
        CHECK(calls.back().starts_with("disable"));
        CHECK(mountSource(mnt.string()) == partition);
        CHECK_FALSE(child<QPushButton>(page, "compareCancel")->isEnabled());
        for (const auto& entry : fs::directory_iterator(mnt)) {
            CHECK_FALSE(entry.path().filename().string().starts_with("ssdkeeper-bench-"));
        }

        static const QRegularExpression figure(
            QStringLiteral("^[0-9]+(\\.[0-9]{1,2})? (MB/s|IOPS)$"));
        REQUIRE(table->isVisible());
        for (int row = 0; row < 4; ++row) {
            for (int column = 0; column < 2; ++column) {
                const QString text = table->item(row, column)->text();
                INFO("row " << row << " column " << column << ": " << text.toStdString());
                CHECK(figure.match(text).hasMatch());
                CHECK(text.section(QLatin1Char(' '), 0, 0).toDouble() > 0);
            }
        }
        std::ifstream in(saved);
        std::stringstream text;
        text << in.rdbuf();
        INFO("saved: " << text.str());
        auto json = parseJson(text.str(), saved.string());
        REQUIRE(json.has_value());
        const auto benefit = perf::cacheBenefitFromJson(*json);
        REQUIRE(benefit.has_value());
        CHECK(benefit->partition == partition);
        CHECK(benefit->mountPoint == mnt.string());
        CHECK(benefit->settings == perf::BenefitSettings{kBackend, 96ULL << 20, "zstd",
                                                         std::string(cachectl::toString(
                                                             cachectl::CacheMode::WriteBack))});
        CHECK(benefit->without.complete());
        CHECK(benefit->with.complete());
        CHECK(benefit->testFileBytes == app::ramcache::BenefitPanel::kTestFileBytes);
        CHECK(
            measuredWith->text().contains(QStringLiteral("in-place, 96.0 MiB, compression zstd")));
        CHECK_FALSE(measuredWith->text().contains(QStringLiteral("differ")));

        // The page opened again shows it, and says so when the form's settings differ.
        app::RamCachePage reopened(app::test::cacheVerbCaller(*live->manager, live));
        reopened.setDevice(&device);
        auto* again = child<QComboBox>(reopened, "backend");
        REQUIRE(QTest::qWaitFor([&] { return again->count() == 1; }, 10000));
        auto* reopenedBox = child<QComboBox>(reopened, "partition");
        reopenedBox->setCurrentIndex(reopenedBox->findData(QString::fromStdString(partition)));
        auto* shownAgain = child<QTableWidget>(reopened, "compareTable");
        CHECK(shownAgain->item(0, 0)->text() == table->item(0, 0)->text());
        CHECK(shownAgain->item(3, 1)->text() == table->item(3, 1)->text());
        child<QSlider>(reopened, "size")->setValue(96);
        child<QComboBox>(reopened, "compression")->setCurrentText(QStringLiteral("zstd"));
        child<QRadioButton>(reopened, "writeBack")->click();
        auto* reopenedNote = child<QLabel>(reopened, "compareSettings");
        CHECK_FALSE(reopenedNote->text().contains(QStringLiteral("differ")));
        child<QComboBox>(reopened, "compression")->setCurrentText(QStringLiteral("lz4"));
        CHECK(reopenedNote->text().contains(
            QStringLiteral("The settings above differ (in-place, 96.0 MiB, compression lz4")));
    }

    SECTION("cancelled while measuring: nothing saved, the cache as it was") {
        compare->click();
        REQUIRE(QTest::qWaitFor(
            [&] { return status->text().startsWith(QStringLiteral("Measuring without")); }, 5000));
        QTest::qWait(500);
        cancel->click();
        const QString stopped = waitForComparison(finished, *status, 30000);
        INFO("status: " << stopped.toStdString());
        CHECK(stopped.startsWith(QStringLiteral("Cancelled.")));
        CHECK(stopped.contains(QStringLiteral("The cache is as it was before.")));
        CHECK(live->backend->calls().empty());
        CHECK_FALSE(fs::exists(saved));
        CHECK(mountSource(mnt.string()) == partition);
        CHECK(compare->isEnabled());
    }

    SECTION("refused when the partition is not mounted, or its filesystem has no room") {
        device::Device unmounted = device;
        for (auto& part : unmounted.partitions) {
            part.mounts.clear();
        }
        page.setDevice(&unmounted);
        compare->click();
        CHECK(status->text() == QString::fromStdString(partition) +
                                    QStringLiteral(" is not mounted: the comparison writes a "
                                                   "test file in its filesystem. Mount it first."));
        // A 48 MiB filesystem: less than the test file and the margin beside it.
        const fs::path small = scratch.dir() / "small";
        fs::create_directories(small);
        auto tmpfs = runner.run(
            {.argv = {"mount", "-t", "tmpfs", "-o", "size=48m", "tmpfs", small.string()}});
        REQUIRE(tmpfs);
        REQUIRE(tmpfs->succeeded());
        device::Device full = device;
        for (auto& part : full.partitions) {
            for (auto& mount : part.mounts) {
                mount.mountPoint = small.string();
            }
        }
        page.setDevice(&full);
        compare->click();
        const QString refused = status->text();
        (void)runner.run({.argv = {"umount", small.string()}});
        CHECK(
            refused.startsWith(QString::fromStdString(small.string()) +
                               QStringLiteral(" has 48.0 MiB free: the comparison needs 128 MiB")));
        CHECK(live->backend->calls().empty());
        CHECK(finished.isEmpty());
    }
    (void)runner.run({.argv = {"umount", mnt.string()}});
}
