#include <algorithm>
#include <catch2/catch.hpp>

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QThread>

#include "app/device_watcher.h"
#include "tests/gui/gui_support.h"

using namespace ssdk;
using namespace ssdk::app;
using namespace std::chrono_literals;

namespace {

// A watcher on its own thread, as the main window runs it.
struct ThreadedWatcher {
    explicit ThreadedWatcher(device::Discovery discovery)
        : watcher(new DeviceWatcher(std::move(discovery), 100ms)) {
        watcher->moveToThread(&thread);
        QObject::connect(&thread, &QThread::started, watcher, &DeviceWatcher::start);
        QObject::connect(&thread, &QThread::finished, watcher, &QObject::deleteLater);
    }
    ~ThreadedWatcher() {
        thread.quit();
        thread.wait();
    }
    QThread thread;
    DeviceWatcher* watcher;
};

const device::Device* byName(const DeviceList& devices, const std::string& name) {
    const auto it = std::ranges::find(devices, name, &device::Device::name);
    return it == devices.end() ? nullptr : &*it;
}

// Waits until the spy has seen `count` signals. The watcher emits from its own thread, so a
// signal can arrive before QSignalSpy::wait() starts waiting for the next one.
bool waitForCount(QSignalSpy& spy, qsizetype count, int timeoutMs = 5000) {
    QElapsedTimer timer;
    timer.start();
    while (spy.count() < count && timer.elapsed() < timeoutMs) {
        spy.wait(50);
    }
    return spy.count() >= count;
}

} // namespace

TEST_CASE("the device watcher delivers the drives of a recorded tree from its thread") {
    test::application();
    ThreadedWatcher threaded(test::recordedDiscovery("workstation"));
    QSignalSpy discovered(threaded.watcher, &DeviceWatcher::devicesDiscovered);
    QSignalSpy failed(threaded.watcher, &DeviceWatcher::discoveryFailed);
    threaded.thread.start();
    REQUIRE(waitForCount(discovered, 1));
    CHECK(failed.isEmpty());

    const auto devices = discovered.first().first().value<DeviceList>();
    const auto* nvme = byName(devices, "nvme0n1");
    REQUIRE(nvme != nullptr);
    CHECK(nvme->model == "Samsung SSD 970 EVO Plus 500GB");
    CHECK(nvme->holdsRootFilesystem());
    CHECK(nvme->partitions.size() == 2);
    CHECK(byName(devices, "sda") != nullptr);
    CHECK(byName(devices, "sdb") != nullptr);
    const auto* lab = byName(devices, "loop0");
    REQUIRE(lab != nullptr);
    CHECK(lab->labName == "demo");
    CHECK(byName(devices, "ram0") == nullptr);
    CHECK(byName(devices, "loop1") == nullptr);
}

TEST_CASE("the device watcher stays quiet while nothing changes and rescans on demand") {
    test::application();
    ThreadedWatcher threaded(test::recordedDiscovery("workstation"));
    QSignalSpy discovered(threaded.watcher, &DeviceWatcher::devicesDiscovered);
    QSignalSpy unchanged(threaded.watcher, &DeviceWatcher::polledUnchanged);
    threaded.thread.start();
    REQUIRE(waitForCount(discovered, 1));
    // Five polls of an unchanging tree (counted, not timed: a loaded machine may delay them):
    // no new result.
    REQUIRE(waitForCount(unchanged, 5));
    CHECK(discovered.count() == 1);

    QMetaObject::invokeMethod(threaded.watcher, &DeviceWatcher::rescan, Qt::QueuedConnection);
    REQUIRE(waitForCount(discovered, 2));
    CHECK(discovered.count() == 2);
}

TEST_CASE("the device watcher reports a tree it cannot read instead of a list") {
    test::application();
    const auto missing = std::filesystem::temp_directory_path() / "ssdk-gui-no-such-tree";
    SysfsRoot root(missing);
    auto prober = device::makeSystemFsProber(root);
    DeviceWatcher watcher(device::Discovery(std::move(root), std::move(prober)), 100ms);
    QSignalSpy discovered(&watcher, &DeviceWatcher::devicesDiscovered);
    QSignalSpy failed(&watcher, &DeviceWatcher::discoveryFailed);
    watcher.rescan();
    // Either an error or an empty list is an honest answer for a missing tree; never both.
    CHECK(discovered.count() + failed.count() == 1);
    if (!discovered.isEmpty()) {
        CHECK(discovered.first().first().value<DeviceList>().empty());
    } else {
        CHECK_FALSE(failed.first().first().toString().isEmpty());
    }
}
