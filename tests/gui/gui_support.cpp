#include "tests/gui/gui_support.h"

#include <cstdlib>

#include <QThreadPool>

#include "app/theme.h"
#include "core/base/log.h"

namespace ssdk::app::test {

using namespace device;

namespace {

QtMessageHandler previousHandler = nullptr;

// The offscreen platform warns about window features it lacks; that is not the test's business.
void quietMessageHandler(QtMsgType type, const QMessageLogContext& context, const QString& text) {
    if (text.contains(QStringLiteral("This plugin does not support"))) {
        return;
    }
    if (previousHandler != nullptr) {
        previousHandler(type, context, text);
    }
}

// Partition `number` of a made-up disk, /dev/`name`, from `start` for `size`: `filesystem`
// mounted once, with `mount`.
Partition mountedPartition(const std::string& name, std::uint32_t number, Bytes start, Bytes size,
                           Filesystem filesystem, Mount mount) {
    Partition partition;
    partition.name = name;
    partition.path = "/dev/" + name;
    partition.number = number;
    partition.start = start;
    partition.size = size;
    partition.filesystem = std::move(filesystem);
    partition.mounts = {std::move(mount)};
    return partition;
}

} // namespace

QApplication& application() {
    static int argc = 1;
    static char name[] = "test_gui";
    static char* argv[] = {name, nullptr};
    static QApplication* app = [] {
        log::setup("error");
        previousHandler = qInstallMessageHandler(quietMessageHandler);
        auto* created = new QApplication(argc, argv);
        applyTheme(*created);
        // The application is never destroyed, so Qt does not wait for its pool threads: a
        // helper call still running at exit would use spdlog and Qt after their statics are
        // gone. Registered after log::setup, this runs before those destructors.
        std::atexit([] { QThreadPool::globalInstance()->waitForDone(); });
        return created;
    }();
    return *app;
}

Device nvmeSystemDisk() {
    Device device;
    device.name = "nvme0n1";
    device.path = "/dev/nvme0n1";
    device.devno = "259:0";
    device.bus = Bus::Nvme;
    device.model = "Samsung SSD 970 EVO Plus 500GB";
    device.serial = "S4EVNX0R612345A";
    device.firmware = "2B2QEXM7";
    device.wwn = "eui.0025385891b0a1b2";
    device.size = Bytes::sectors512(976773168);
    device.discardGranularity = Bytes(512);
    device.discardMaxBytes = Bytes(2199023255040);
    device.partitionTableType = "gpt";

    Partition efi = mountedPartition(
        "nvme0n1p1", 1, Bytes::sectors512(2048), Bytes::sectors512(1048576),
        Filesystem{"vfat", "EFI", "4A1C-2B3D"}, Mount{"/boot/efi", "vfat", "rw,relatime"});
    efi.partitionLabel = "EFI system partition";
    const Partition root =
        mountedPartition("nvme0n1p2", 2, Bytes::sectors512(1050624), Bytes::sectors512(975720448),
                         Filesystem{"ext4", "root", "9f6c1f0e-1a2b-4c3d-8e9f-0a1b2c3d4e5f"},
                         Mount{"/", "ext4", "rw,relatime"});
    device.partitions = {efi, root};
    return device;
}

Device labDrive() {
    Device device;
    device.name = "loop0";
    device.path = "/dev/loop0";
    device.devno = "7:0";
    device.bus = Bus::Loop;
    device.size = Bytes::gib(8);
    device.discardGranularity = Bytes(4096);
    device.discardMaxBytes = Bytes(4294966784);
    device.loopBackingFile = "/home/ada/.local/state/ssdkeeper/lab/demo.img";
    device.labName = "demo";
    return device;
}

Device usbStick() {
    Device device;
    device.name = "sdb";
    device.path = "/dev/sdb";
    device.devno = "8:16";
    device.bus = Bus::Usb;
    device.vendor = "SanDisk";
    device.model = "Ultra";
    device.size = Bytes::sectors512(60062500);
    device.rotational = true;
    device.removable = true;
    device.partitionTableType = "dos";
    device.partitions = {mountedPartition(
        "sdb1", 1, Bytes::sectors512(2048), Bytes::sectors512(60060452),
        Filesystem{"exfat", "My Stick", "1A2B-3C4D"}, Mount{"/media/ada/My Stick", "exfat", "rw"})};
    return device;
}

std::filesystem::path recordedTree(const char* name) {
    return std::filesystem::path(SSDK_TEST_DATA_DIR) / "sysfs" / name;
}

Discovery recordedDiscovery(const char* name) {
    SysfsRoot root(recordedTree(name));
    auto prober = makeSystemFsProber(root);
    return Discovery(std::move(root), std::move(prober));
}

app::AppServices recordedServices(const char* name) {
    return app::AppServices(SysfsRoot(recordedTree(name)));
}

void screenshot(QWidget& widget, const char* file) {
    if (const char* dir = std::getenv("SSDK_SCREENSHOT_DIR")) {
        // Widgets added to a shown window appear after the event loop ran a few times.
        for (int i = 0; i < 5; ++i) {
            QApplication::processEvents();
        }
        REQUIRE(
            widget.grab().save(QString::fromUtf8(dir) + QLatin1Char('/') + QLatin1String(file)));
    }
}

bool waitForResult(QSignalSpy& spy, const QString& verb, int ms) {
    for (int waited = 0; waited < ms; waited += 200) {
        for (const auto& args : spy) {
            if (args.at(0).toString() == verb) {
                return true;
            }
        }
        spy.wait(200);
    }
    return false;
}

device::Device discoverLive(const std::string& path) {
    const SysfsRoot root;
    const device::Discovery discovery(root, device::makeSystemFsProber(root));
    auto device = discovery.find(path);
    REQUIRE(device);
    return *device;
}

} // namespace ssdk::app::test
