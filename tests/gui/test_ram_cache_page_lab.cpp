// The RAM Cache page for real, inside the QEMU lab VM (tests/lab/checks/ram_cache_gui.sh
// prepares the drive and runs this): the whole main window on live discovery, the page's own
// helper (started directly, as root), the zram-writecache backend over the mounted ext4
// partition of the lab HDD. Ticks the checkbox with "apply now", reads and rewrites files on
// the cached mount while the page polls, checks the statistics move, presses Flush, unticks,
// and checks the filesystem is mounted from the partition again. Outside the VM it skips.
#define CATCH_CONFIG_RUNNER
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <memory>
#include <sstream>
#include <unistd.h>

#include <QAbstractButton>
#include <QApplication>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineSeries>
#include <QMessageBox>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSlider>
#include <QStandardItemModel>
#include <QTest>
#include <QTimer>
#include <QtConcurrent>

#include "app/main_window.h"
#include "app/pages/ram_cache_page.h"
#include "core/base/system_process_runner.h"
#include "core/cachectl/backends/registry.h"
#include "core/device/discovery.h"
#include "core/device/mountinfo.h"
#include "tests/gui/gui_support.h"

using namespace ssdk;
using namespace ssdk::app;
namespace fs = std::filesystem;

namespace {

constexpr const char* kMountEnv = "SSDK_RAMCACHE_LAB_MOUNT";
constexpr const char* kBackend = "zram-writecache";
constexpr std::size_t kChunk = 1024 * 1024;

// Waits (running the event loop) until done() holds; false after ms. QTRY_* cannot be used:
// outside a QTest function their failure is a silent return, which Catch counts as a pass.
template <typename Done> bool waitUntil(Done done, int ms) {
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > ms) {
            return false;
        }
        QTest::qWait(50);
    }
    return true;
}

template <typename T> T* child(QWidget& parent, const char* name) {
    return app::test::namedChild<T>(parent, "ramcache", name);
}

// The source of the filesystem mounted at mountPoint ("" when nothing is).
std::string mountSource(const std::string& mountPoint) {
    std::ifstream in("/proc/self/mountinfo");
    std::stringstream text;
    text << in.rdbuf();
    std::string source;
    for (const auto& entry : device::parseMountInfo(text.str())) {
        if (entry.mountPoint == mountPoint) {
            source = entry.source; // the last one is the one on top
        }
    }
    return source;
}

struct AlignedBuffer {
    AlignedBuffer()
        : data(static_cast<char*>(std::aligned_alloc(4096, kChunk))) {}
    ~AlignedBuffer() { std::free(data); }
    AlignedBuffer(const AlignedBuffer&) = delete;
    AlignedBuffer& operator=(const AlignedBuffer&) = delete;
    char* data;
};

// Reads a whole file with O_DIRECT (past the page cache, so every read reaches the cache
// device); the bytes read, or -1.
long long readDirect(const fs::path& file) {
    const int fd = ::open(file.c_str(), O_RDONLY | O_DIRECT);
    if (fd < 0) {
        return -1;
    }
    AlignedBuffer buffer;
    long long total = 0;
    for (;;) {
        const ssize_t got = ::read(fd, buffer.data, kChunk);
        if (got <= 0) {
            total = got < 0 ? -1 : total;
            break;
        }
        total += got;
    }
    ::close(fd);
    return total;
}

// Rewrites the first `bytes` of a file in place with the bytes it already holds (O_DIRECT,
// then fdatasync): in write-back these become dirty cache blocks, and the content, so the
// checksums the lab check compares, stays the same. False on an I/O error.
bool rewriteInPlace(const fs::path& file, std::size_t bytes) {
    const int fd = ::open(file.c_str(), O_RDWR | O_DIRECT);
    if (fd < 0) {
        return false;
    }
    AlignedBuffer buffer;
    bool ok = true;
    for (std::size_t offset = 0; ok && offset < bytes; offset += kChunk) {
        const auto at = static_cast<off_t>(offset);
        ok = ::pread(fd, buffer.data, kChunk, at) == static_cast<ssize_t>(kChunk) &&
             ::pwrite(fd, buffer.data, kChunk, at) == static_cast<ssize_t>(kChunk);
    }
    ok = ok && ::fdatasync(fd) == 0;
    ::close(fd);
    return ok;
}

// What the page's statistics line says: "Hit ratio 42.0 % (120 hits, 80 misses) · dirty …".
struct Shown {
    long long hits = -1;
    long long misses = -1;
};

Shown shownStats(const QLabel& label) {
    static const QRegularExpression pattern(QStringLiteral("\\((\\d+) hits, (\\d+) misses\\)"));
    const auto match = pattern.match(label.text());
    if (!match.hasMatch()) {
        return {};
    }
    return {match.captured(1).toLongLong(), match.captured(2).toLongLong()};
}

QLineSeries* seriesNamed(QChartView& view, const QString& prefix) {
    for (auto* series : view.chart()->series()) {
        if (series->name().startsWith(prefix)) {
            return qobject_cast<QLineSeries*>(series);
        }
    }
    return nullptr;
}

// Where the time goes (TCG is slow): "[12.3 s] step" on stderr.
void phase(const char* step) {
    static const auto start = std::chrono::steady_clock::now();
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    std::fprintf(stderr, "[%5.1f s] %s\n", elapsed.count(), step);
}

// The largest value among the samples from index `from` on.
double maxY(const QLineSeries& series, int from = 0) {
    double top = 0;
    for (int i = from; i < series.count(); ++i) {
        top = std::max(top, series.at(i).y());
    }
    return top;
}

} // namespace

TEST_CASE("in the lab VM the RAM Cache page caches a mounted partition, shows it working, "
          "flushes and turns it off",
          "[lab][ramcache]") {
    phase("start");
    test::application();
    phase("application");
    const std::string mountPoint = std::getenv(kMountEnv);
    const std::string partition = mountSource(mountPoint);
    REQUIRE(partition.rfind("/dev/", 0) == 0);
    const std::string disk = fs::canonical("/dev/lab/hdd").filename().string();
    INFO("partition " << partition << " of " << disk << " mounted at " << mountPoint);

    // Confirmation dialogs are answered as a user who means it would.
    QStringList dialogs;
    QTimer answer;
    answer.setInterval(100);
    QObject::connect(&answer, &QTimer::timeout, [&dialogs] {
        if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
            dialogs << box->text();
            auto* yes = box->button(QMessageBox::Yes);
            (yes != nullptr ? yes : box->defaultButton())->click();
        }
    });
    answer.start();

    MainWindow window{AppServices()};
    phase("window");
    window.resize(1180, 1120);
    window.selectWhenAvailable(QString::fromStdString(disk));
    window.show();
    REQUIRE(window.showPage(QStringLiteral("RAM Cache")));
    phase("shown");
    REQUIRE(waitUntil([&] { return window.isSelected(QString::fromStdString(disk)); }, 30000));
    phase("drive selected");
    auto* page = window.findChild<RamCachePage*>();
    REQUIRE(page != nullptr);

    // The user's choices: the mounted partition, zram-writecache, 128 MiB, lz4, write-back,
    // apply now.
    auto* partitionBox = child<QComboBox>(*page, "partition");
    const int partitionIndex = partitionBox->findData(QString::fromStdString(partition));
    REQUIRE(partitionIndex >= 0);
    partitionBox->setCurrentIndex(partitionIndex);
    auto* backend = child<QComboBox>(*page, "backend");
    REQUIRE(waitUntil([&] { return backend->findData(QLatin1String(kBackend)) >= 0; }, 30000));
    const int backendIndex = backend->findData(QLatin1String(kBackend));
    auto* model = qobject_cast<QStandardItemModel*>(backend->model());
    REQUIRE(model != nullptr);
    INFO("backend reason: "
         << backend->itemData(backendIndex, Qt::ToolTipRole).toString().toStdString());
    REQUIRE(model->item(backendIndex)->isEnabled());
    backend->setCurrentIndex(backendIndex);
    phase("backends probed");
    child<QSlider>(*page, "size")->setValue(128);
    auto* compression = child<QComboBox>(*page, "compression");
    REQUIRE(compression->findText(QStringLiteral("lz4")) >= 0);
    compression->setCurrentText(QStringLiteral("lz4"));
    child<QRadioButton>(*page, "writeBack")->click();
    CHECK(child<QLabel>(*page, "writeBackWarning")->isVisible());
    auto* applyNow = child<QCheckBox>(*page, "applyNow");
    REQUIRE(applyNow->isVisible());
    applyNow->setChecked(true);

    auto* enable = child<QCheckBox>(*page, "enable");
    auto* message = child<QLabel>(*page, "message");
    auto* stats = child<QLabel>(*page, "stats");
    auto* flush = child<QPushButton>(*page, "flush");
    REQUIRE(enable->isEnabled());
    const auto enabling = std::chrono::steady_clock::now();
    enable->click();
    REQUIRE(waitUntil(
        [&] {
            return message->text().startsWith(QStringLiteral("The cache is on")) ||
                   message->text().contains(QStringLiteral("failed"));
        },
        60000));
    INFO("message: " << message->text().toStdString());
    REQUIRE(message->text().startsWith(QStringLiteral("The cache is on")));
    const auto cached = mountSource(mountPoint);
    CHECK(cached.rfind("/dev/mapper/ssdk-", 0) == 0);
    WARN("cache on in " << std::chrono::duration_cast<std::chrono::milliseconds>(
                               std::chrono::steady_clock::now() - enabling)
                               .count()
                        << " ms; mounted from " << cached);
    REQUIRE(waitUntil([&] { return shownStats(*stats).hits >= 0; }, 10000));
    CHECK(enable->isChecked());
    CHECK_FALSE(backend->isEnabled());
    REQUIRE(waitUntil([&] { return flush->isEnabled(); }, 10000));
    const Shown before = shownStats(*stats);
    phase("cache on");

    // Reads twice (the second one hits), then rewrites in place until the page shows dirty
    // data — off the GUI thread, so the page keeps polling meanwhile.
    auto* chart = child<QChartView>(*page, "chart");
    auto* hitSeries = seriesNamed(*chart, QStringLiteral("Hit ratio"));
    auto* dirtySeries = seriesNamed(*chart, QStringLiteral("Dirty"));
    auto* ramSeries = seriesNamed(*chart, QStringLiteral("RAM used"));
    REQUIRE((hitSeries != nullptr && dirtySeries != nullptr && ramSeries != nullptr));
    const fs::path dir(mountPoint);
    auto stop = std::make_shared<std::atomic<bool>>(false);
    auto rewriting = std::make_shared<std::atomic<bool>>(false);
    QFuture<QString> io = QtConcurrent::run([dir, stop, rewriting]() -> QString {
        for (int pass = 0; pass < 2; ++pass) {
            for (const char* name : {"random.bin", "numbers.txt"}) {
                if (readDirect(dir / name) <= 0) {
                    return QStringLiteral("reading %1 failed").arg(QLatin1String(name));
                }
            }
        }
        *rewriting = true;
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (!*stop && std::chrono::steady_clock::now() < until) {
            if (!rewriteInPlace(dir / "numbers.txt", 4 * kChunk)) {
                return QStringLiteral("rewriting numbers.txt failed");
            }
        }
        // ext4 commits the inode times of the rewrites on its own a few seconds later: that
        // would dirty a block again after the flush.
        ::sync();
        return QString();
    });
    // Samples taken once both read passes are done: more hits, and dirty data from the
    // rewrites (not from the mount itself).
    REQUIRE(waitUntil([&] { return rewriting->load() || io.isFinished(); }, 40000));
    const int readsDoneAt = hitSeries->count();
    REQUIRE(waitUntil(
        [&] {
            return hitSeries->count() > readsDoneAt && shownStats(*stats).hits > before.hits &&
                   maxY(*hitSeries, readsDoneAt) > 0 && maxY(*dirtySeries, readsDoneAt) > 0;
        },
        40000));
    phase("statistics moved");
    *stop = true;
    io.waitForFinished();
    REQUIRE(io.result().isEmpty());
    const Shown after = shownStats(*stats);
    WARN("statistics: " << stats->text().toStdString() << " (" << hitSeries->count()
                        << " samples)");
    CHECK(after.misses >= before.misses);
    CHECK(ramSeries->at(ramSeries->count() - 1).y() > 0);
    CHECK(hitSeries->count() >= 2);
    CHECK(child<QLabel>(*page, "ratio")->text().startsWith(QStringLiteral("live ratio")));
    app::test::screenshot(window, "ram-cache-lab-active.png");
    app::test::screenshot(*chart, "ram-cache-lab-chart.png");

    phase("screenshots taken");
    flush->click();
    REQUIRE(waitUntil(
        [&] {
            return message->text().startsWith(QStringLiteral("Flushed")) ||
                   message->text().contains(QStringLiteral("failed"));
        },
        60000));
    INFO("message: " << message->text().toStdString());
    REQUIRE(message->text().startsWith(QStringLiteral("Flushed")));
    // A sample taken after the flush shows nothing dirty. ext4 may still commit its journal
    // right after the flush (a run saw 32 KiB dirty in the first sample), so the next few
    // samples count too.
    const int flushedAt = dirtySeries->count();
    REQUIRE(waitUntil(
        [&] {
            return dirtySeries->count() > flushedAt &&
                   dirtySeries->at(dirtySeries->count() - 1).y() == 0 &&
                   stats->text().contains(QStringLiteral("dirty 0 B"));
        },
        15000));
    app::test::screenshot(window, "ram-cache-lab-flushed.png");

    phase("flushed");
    enable->click();
    REQUIRE(waitUntil(
        [&] {
            return message->text().startsWith(QStringLiteral("The cache is off")) ||
                   message->text().contains(QStringLiteral("failed"));
        },
        60000));
    INFO("message: " << message->text().toStdString());
    REQUIRE(message->text().startsWith(QStringLiteral("The cache is off")));
    CHECK(mountSource(mountPoint) == partition);
    REQUIRE(waitUntil(
        [&] { return stats->text().startsWith(QStringLiteral("No cache is active")); }, 10000));
    CHECK_FALSE(enable->isChecked());
    phase("cache off");
    CHECK(backend->isEnabled());
    if (!dialogs.isEmpty()) {
        WARN("confirmations answered: " << dialogs.join(QStringLiteral(" | ")).toStdString());
    }
}

// Skips (exit 77) unless this runs as root inside the lab VM with the drive prepared and a
// usable zram-writecache backend.
int main(int argc, char* argv[]) {
    auto skip = [](const std::string& why) {
        std::fprintf(stderr, "SKIPPED: %s\n", why.c_str());
        return 77;
    };
    if (::geteuid() != 0) {
        return skip("the RAM cache lab GUI test runs as root inside the lab VM");
    }
    if (::access("/dev/lab/hdd", F_OK) != 0) {
        return skip("not inside the lab VM (no /dev/lab/hdd); tests/lab/checks/ram_cache_gui.sh "
                    "runs this there");
    }
    const char* mountPoint = std::getenv(kMountEnv);
    if (mountPoint == nullptr || mountSource(mountPoint).empty()) {
        return skip(std::string(kMountEnv) + " does not name a mounted filesystem on the lab "
                                             "HDD (tests/lab/checks/ram_cache_gui.sh prepares it)");
    }
    SystemProcessRunner runner;
    cachectl::BackendRegistry registry;
    cachectl::addSystemBackends(registry, cachectl::HostEnv::live(runner));
    const auto* zram = registry.find(kBackend);
    if (zram == nullptr) {
        return skip(std::string("no ") + kBackend + " backend in this build");
    }
    if (const auto probe = zram->probe(); !probe.available) {
        return skip(std::string(kBackend) + " cannot run here: " + probe.reasonText());
    }
    return Catch::Session().run(argc, argv);
}
