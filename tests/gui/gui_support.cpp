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

    Partition efi;
    efi.name = "nvme0n1p1";
    efi.path = "/dev/nvme0n1p1";
    efi.number = 1;
    efi.start = Bytes::sectors512(2048);
    efi.size = Bytes::sectors512(1048576);
    efi.filesystem = Filesystem{"vfat", "EFI", "4A1C-2B3D"};
    efi.partitionLabel = "EFI system partition";
    efi.mounts = {Mount{"/boot/efi", "vfat", "rw,relatime"}};

    Partition root;
    root.name = "nvme0n1p2";
    root.path = "/dev/nvme0n1p2";
    root.number = 2;
    root.start = Bytes::sectors512(1050624);
    root.size = Bytes::sectors512(975720448);
    root.filesystem = Filesystem{"ext4", "root", "9f6c1f0e-1a2b-4c3d-8e9f-0a1b2c3d4e5f"};
    root.mounts = {Mount{"/", "ext4", "rw,relatime"}};

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
    Partition part;
    part.name = "sdb1";
    part.path = "/dev/sdb1";
    part.number = 1;
    part.start = Bytes::sectors512(2048);
    part.size = Bytes::sectors512(60060452);
    part.filesystem = Filesystem{"exfat", "My Stick", "1A2B-3C4D"};
    part.mounts = {Mount{"/media/ada/My Stick", "exfat", "rw"}};
    device.partitions = {part};
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
