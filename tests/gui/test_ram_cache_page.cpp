// The RAM Cache page over fake backends, through the real cache verbs of a HelperService in
// this process (tests/gui/cache_verbs_host.h): an unavailable backend is
// greyed out with its exact reason, the size follows RAPID's rule, ticking the checkbox turns
// the cache on and the live statistics move, Flush flushes, unticking turns it off, and a
// recorded trace draws the what-if curve.
#include <catch2/catch.hpp>
#include <fstream>
#include <optional>
#include <unistd.h>

#include <QApplication>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTest>

#include "app/pages/ram_cache_page.h"
#include "core/base/replay_process_runner.h"
#include "core/cachectl/backend_fake.h"
#include "core/cachectl/cache_manager.h"
#include "tests/gui/cache_verbs_host.h"
#include "tests/gui/gui_support.h"

using namespace ssdk;
using namespace ssdk::app;
namespace fs = std::filesystem;

namespace {

const char* kNbdReason = "kernel module nbd is not available on kernel 6.1.0-test (modprobe: "
                         "FATAL: Module nbd not found in directory /lib/modules/6.1.0-test)";

template <typename T> T* child(QWidget& parent, const char* name) {
    return app::test::namedChild<T>(parent, "ramcache", name);
}

// A scratch root with no mounts, a CacheManager over `registry` journaling under
// scratch/state, and the calls a page makes to it (8 GiB RAM, 5 free, 2 suggested). The
// scratch directory is removed at the end (when the last call that may still run is done).
struct ManagerHost : std::enable_shared_from_this<ManagerHost> {
    ManagerHost(const std::string& name, cachectl::BackendRegistry backends)
        : scratch(fs::temp_directory_path() / (name + "-" + std::to_string(::getpid())))
        , registry(std::move(backends)) {
        fs::remove_all(scratch);
        fs::create_directories(scratch / "proc/self");
        std::ofstream(scratch / "proc/self/mountinfo") << "";
        runner.expect({"blockdev", "--flushbufs", "/dev/mapper/ssdk-loop0"}, ProcessResult{});
        env.root = scratch;
        env.runner = &runner;
        manager.emplace(registry, env, scratch / "state");
    }
    ~ManagerHost() { fs::remove_all(scratch); }
    ManagerHost(const ManagerHost&) = delete;
    ManagerHost& operator=(const ManagerHost&) = delete;

    // The real cache verbs over the manager; owned by the page it is given to.
    HelperCaller* calls() { return test::cacheVerbCaller(*manager, shared_from_this()); }

    fs::path scratch;
    cachectl::BackendRegistry registry;
    ReplayProcessRunner runner;
    cachectl::HostEnv env;
    std::optional<cachectl::CacheManager> manager;
};

} // namespace

TEST_CASE("the RAM Cache page turns a cache on and off and shows it working", "[gui][ramcache]") {
    test::application();
    cachectl::Capabilities ram;
    ram.writeBack = true;
    ram.compression = true;
    ram.resizeLive = true;
    ram.compressions = {cachectl::Compression::Lz4, cachectl::Compression::Zstd};
    cachectl::BackendRegistry registry;
    registry.add(std::make_unique<cachectl::FakeBackend>(
        "engine", cachectl::ProbeResult{false, {kNbdReason}}, ram));
    auto zram = std::make_unique<cachectl::FakeBackend>("zram-writecache",
                                                        cachectl::ProbeResult{true, {}}, ram);
    auto* fake = zram.get();
    registry.add(std::move(zram));
    auto host = std::make_shared<ManagerHost>("ssdk-ramcache-gui", std::move(registry));
    const fs::path scratch = host->scratch;
    auto* cacheCalls = host->calls();

    RamCachePage page(cacheCalls);
    page.resize(900, 1250);
    const device::Device drive = test::labDrive();
    page.setDevice(&drive);
    page.show();

    auto* backend = child<QComboBox>(page, "backend");
    // Until cache.probe answers, the list says it is being read instead of showing nothing.
    CHECK(backend->currentIndex() == -1);
    CHECK(backend->placeholderText() == QStringLiteral("Reading…"));
    REQUIRE(QTest::qWaitFor([&] { return backend->count() == 2; }));
    auto* model = qobject_cast<QStandardItemModel*>(backend->model());
    REQUIRE(model != nullptr);
    CHECK_FALSE(model->item(0)->isEnabled());
    CHECK(backend->itemData(0, Qt::ToolTipRole).toString() == QString::fromUtf8(kNbdReason));
    CHECK(backend->currentData().toString() == QStringLiteral("zram-writecache"));
    CHECK(child<QLabel>(page, "backendReason")->text().contains(QString::fromUtf8(kNbdReason)));
    CHECK(child<QSlider>(page, "size")->value() == 2048);
    CHECK(child<QLabel>(page, "sizeLabel")->text().contains(QStringLiteral("Suggested: 2")));
    CHECK(child<QComboBox>(page, "compression")->count() == 2);

    auto* writeBack = child<QRadioButton>(page, "writeBack");
    auto* warning = child<QLabel>(page, "writeBackWarning");
    CHECK_FALSE(warning->isVisible());
    writeBack->click();
    CHECK(warning->isVisible());
    CHECK(warning->text().contains(QStringLiteral("power loss")));

    auto* enable = child<QCheckBox>(page, "enable");
    REQUIRE(enable->isEnabled());
    enable->click();
    REQUIRE(QTest::qWaitFor([&] { return fake->calls().size() >= 1; }));
    CHECK(fake->calls().front() == "enable /dev/loop0");
    auto* stats = child<QLabel>(page, "stats");
    REQUIRE(QTest::qWaitFor([&] { return stats->text().startsWith(QStringLiteral("Hit ratio")); }));
    CHECK(enable->isChecked());
    CHECK_FALSE(backend->isEnabled());
    // Live statistics move: several samples, hits growing.
    auto* chart = child<QChartView>(page, "chart");
    auto* hitSeries = qobject_cast<QLineSeries*>(chart->chart()->series().at(0));
    REQUIRE(hitSeries != nullptr);
    REQUIRE(QTest::qWaitFor([&] { return hitSeries->count() >= 3; }, 8000));
    CHECK(hitSeries->at(hitSeries->count() - 1).y() > hitSeries->at(0).y());
    CHECK(child<QLabel>(page, "ratio")->text().contains(QStringLiteral("2.00")));

    auto* flush = child<QPushButton>(page, "flush");
    REQUIRE(QTest::qWaitFor([&] { return flush->isEnabled(); }));
    flush->click();
    REQUIRE(QTest::qWaitFor([&] {
        return child<QLabel>(page, "message")->text().startsWith(QStringLiteral("Flushed"));
    }));
    const auto calls = fake->calls();
    CHECK(std::count(calls.begin(), calls.end(), "flush") == 1);

    // The what-if curve from a recorded trace.
    const fs::path trace = scratch / "trace.blocks";
    {
        std::ofstream out(trace);
        for (int round = 0; round < 20; ++round) {
            for (int block = 0; block < 400; ++block) {
                out << (block * 7 + round % 3) % 500 << "\n";
            }
        }
    }
    QSignalSpy drawn(&page, &RamCachePage::whatIfReady);
    page.loadTrace(QString::fromStdString(trace.string()), QStringLiteral("blocks"));
    REQUIRE(drawn.wait(20000));
    auto* whatIf = child<QChartView>(page, "whatIf");
    auto* curve = qobject_cast<QLineSeries*>(whatIf->chart()->series().at(0));
    REQUIRE(curve != nullptr);
    CHECK(curve->count() >= 5);
    CHECK(curve->at(curve->count() - 1).y() > curve->at(0).y());
    CHECK(child<QLabel>(page, "whatIfLabel")->text().contains(QStringLiteral("LRU")));
    app::test::screenshot(page, "ram-cache-fake.png");

    enable->click();
    REQUIRE(QTest::qWaitFor([&] { return fake->calls().back() == "disable /dev/loop0"; }));
    // The answer arrives from the helper's thread after the backend was called.
    REQUIRE(QTest::qWaitFor(
        [&] { return child<QLabel>(page, "message")->text().contains(QStringLiteral("off")); }));
    // The system disk is never offered.
    const device::Device system = test::nvmeSystemDisk();
    page.setDevice(&system);
    CHECK_FALSE(enable->isEnabled());
    CHECK(child<QLabel>(page, "summary")->text().contains(QStringLiteral("running system")));
    page.setDevice(&drive);
    REQUIRE(QTest::qWaitFor([&] { return !enable->isChecked(); }));
    CHECK(child<QLabel>(page, "message")->text().contains(QStringLiteral("off")));
    CHECK_FALSE(fs::exists(scratch / "state" / "ssdk-loop0.json"));
}

TEST_CASE("the RAM Cache page sends the sequential cutoff and writeback percent a backend takes",
          "[gui][ramcache]") {
    test::application();
    cachectl::Capabilities tunable;
    tunable.writeBack = true;
    tunable.compressions = {cachectl::Compression::Lz4};
    tunable.sequentialCutoff = true;
    tunable.writebackPercent = true;
    cachectl::Capabilities fixed = tunable;
    fixed.sequentialCutoff = false;
    fixed.writebackPercent = false;
    fixed.noSequentialCutoffReason = "smq has no sequential cutoff";
    fixed.noWritebackPercentReason = "dm-cache writes back as its policy decides";
    cachectl::BackendRegistry registry;
    auto bcache =
        std::make_unique<cachectl::FakeBackend>("bcache", cachectl::ProbeResult{true, {}}, tunable);
    auto* fake = bcache.get();
    registry.add(std::make_unique<cachectl::FakeBackend>("zram-writecache",
                                                         cachectl::ProbeResult{true, {}}, fixed));
    registry.add(std::move(bcache));
    auto host = std::make_shared<ManagerHost>("ssdk-ramcache-tuning", std::move(registry));
    auto& manager = *host->manager;
    auto* cacheCalls = host->calls();
    RamCachePage page(cacheCalls);
    const device::Device drive = test::labDrive();
    page.setDevice(&drive);
    page.show();

    auto* backend = child<QComboBox>(page, "backend");
    REQUIRE(QTest::qWaitFor([&] { return backend->count() == 2; }));
    auto* cutoffSet = child<QCheckBox>(page, "sequentialCutoffSet");
    auto* cutoff = child<QSpinBox>(page, "sequentialCutoff");
    auto* percentSet = child<QCheckBox>(page, "writebackPercentSet");
    auto* percent = child<QSpinBox>(page, "writebackPercent");

    // zram-writecache has neither knob: both greyed out, the tooltip says why.
    backend->setCurrentIndex(backend->findData(QStringLiteral("zram-writecache")));
    CHECK_FALSE(cutoffSet->isEnabled());
    CHECK_FALSE(percentSet->isEnabled());
    CHECK(cutoffSet->toolTip().contains(QStringLiteral("smq has no sequential cutoff")));
    CHECK(percent->toolTip().contains(QStringLiteral("as its policy decides")));

    backend->setCurrentIndex(backend->findData(QStringLiteral("bcache")));
    REQUIRE(cutoffSet->isEnabled());
    REQUIRE(percentSet->isEnabled());
    CHECK(cutoffSet->toolTip().contains(QStringLiteral("bypass the cache")));
    CHECK(percentSet->toolTip().contains(QStringLiteral("keeps writing back")));
    CHECK_FALSE(cutoff->isEnabled()); // until its box is ticked
    cutoffSet->click();
    percentSet->click();
    REQUIRE(cutoff->isEnabled());
    cutoff->setValue(0);
    percent->setValue(20);
    CHECK(cutoff->text() == QStringLiteral("0 (never bypass)"));

    auto* enable = child<QCheckBox>(page, "enable");
    enable->click();
    REQUIRE(QTest::qWaitFor([&] { return fake->calls().size() >= 1; }));
    CHECK(fake->calls().front() == "enable /dev/loop0");
    const auto statuses = manager.status();
    REQUIRE(statuses.size() == 1);
    const auto& plan = statuses.front().record.active.plan;
    CHECK(plan.sequentialCutoff == std::optional<std::uint64_t>(0));
    CHECK(plan.writebackPercent == std::optional<unsigned>(20));
    auto* stats = child<QLabel>(page, "stats");
    REQUIRE(QTest::qWaitFor([&] { return stats->text().contains(QStringLiteral("writeback")); }));
    CHECK(stats->text().contains(QStringLiteral("sequential cutoff off")));
    CHECK(stats->text().contains(QStringLiteral("writeback percent 20")));
    CHECK_FALSE(cutoffSet->isEnabled()); // fixed while the cache runs

    // Off, then on again with only the cutoff: the percent is left to bcache.
    enable->click();
    REQUIRE(QTest::qWaitFor([&] { return fake->calls().back() == "disable /dev/loop0"; }));
    REQUIRE(QTest::qWaitFor([&] { return cutoffSet->isEnabled(); }));
    percentSet->click();
    CHECK_FALSE(percent->isEnabled());
    cutoff->setValue(8192);
    enable->click();
    REQUIRE(QTest::qWaitFor([&] { return fake->calls().back() == "enable /dev/loop0"; }));
    const auto again = manager.status();
    REQUIRE(again.size() == 1);
    CHECK(again.front().record.active.plan.sequentialCutoff ==
          std::optional<std::uint64_t>(8ULL << 20));
    CHECK_FALSE(again.front().record.active.plan.writebackPercent);
    REQUIRE(QTest::qWaitFor([&] { return !cutoffSet->isEnabled(); })); // the page saw it on
    CHECK(cutoffSet->isChecked());
    CHECK_FALSE(percentSet->isChecked());
    CHECK(cutoff->value() == 8192);
    enable->click();
    REQUIRE(QTest::qWaitFor([&] { return fake->calls().back() == "disable /dev/loop0"; }));
}
