// The RAM Cache page's "at next boot" and power safety, over fake backends on a scratch root,
// through the real cache verbs of a HelperService in this process (cache_verbs_host.h):
// the fstab change is shown in a dialog before anything is written, confirming writes it,
// unticking puts the file back exactly; the "on battery or before suspend" checkbox is saved
// with the cache and the page says when a power event holds it in write-through.
#include <catch2/catch.hpp>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <unistd.h>

#include <QCheckBox>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
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

const std::string kFstab = "UUID=0a0b / ext4 errors=remount-ro 0 1\n"
                           "/dev/loop0  /mnt/demo  ext4  noatime  0  2\n";

template <typename T> T* child(QWidget& parent, const char* name) {
    return app::test::namedChild<T>(parent, "ramcache", name);
}

std::string contents(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// Removed at the end (when the last call that may still run is done).
struct Scratch : std::enable_shared_from_this<Scratch> {
    fs::path dir = fs::temp_directory_path() / ("ssdk-ramsafe-gui-" + std::to_string(::getpid()));
    cachectl::BackendRegistry registry;
    ReplayProcessRunner runner;
    cachectl::HostEnv env;

    explicit Scratch(const std::string& mountinfo) {
        fs::remove_all(dir);
        fs::create_directories(dir / "proc/self");
        fs::create_directories(dir / "etc");
        std::ofstream(dir / "proc/self/mountinfo") << mountinfo;
        std::ofstream(dir / "etc/fstab") << kFstab;
        cachectl::Capabilities ram;
        ram.writeBack = true;
        ram.compressions = {cachectl::Compression::Lz4};
        registry.add(std::make_unique<cachectl::FakeBackend>("zram-writecache",
                                                             cachectl::ProbeResult{true, {}}, ram));
        env.root = dir;
        env.runner = &runner;
        manager.emplace(registry, env, dir / "state");
    }
    ~Scratch() { fs::remove_all(dir); }
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;

    // The real cache verbs over the manager; owned by the page it is given to.
    HelperCaller* calls() { return test::cacheVerbCaller(*manager, shared_from_this()); }

    std::optional<cachectl::CacheManager> manager;
};

} // namespace

TEST_CASE("at next boot shows the fstab change first and undoes it exactly", "[gui][ramcache]") {
    test::application();
    const auto host = std::make_shared<Scratch>(
        "36 25 7:0 / /mnt/demo rw,noatime shared:1 - ext4 /dev/loop0 rw\n");
    const Scratch& scratch = *host;
    cachectl::CacheManager& manager = *host->manager;
    RamCachePage page(host->calls());
    device::Device drive = test::labDrive();
    drive.mounts.push_back(device::Mount{"/mnt/demo", "ext4", "rw,noatime"});
    page.setDevice(&drive);
    page.show();

    auto* enable = child<QCheckBox>(page, "enable");
    REQUIRE(QTest::qWaitFor([&] { return enable->isEnabled(); }));
    auto* atNextBoot = child<QCheckBox>(page, "atNextBoot");
    auto* applyNow = child<QCheckBox>(page, "applyNow");
    applyNow->click();
    atNextBoot->click();
    CHECK_FALSE(applyNow->isChecked()); // one or the other
    child<QCheckBox>(page, "powerSafe")->click();
    enable->click();

    QMessageBox* dialog = nullptr;
    REQUIRE(QTest::qWaitFor([&] {
        return (dialog = page.findChild<QMessageBox*>(QStringLiteral("ramcache.bootConfirm")));
    }));
    CHECK(dialog->text().contains(QStringLiteral("/dev/mapper/ssdk-loop0  /mnt/demo  ext4  "
                                                 "noatime,x-systemd.requires=ssdkeeper-cache@"
                                                 "dev-loop0.service  0  2")));
    CHECK(contents(scratch.dir / "etc/fstab") == kFstab); // shown, not written
    dialog->button(QMessageBox::Ok)->click();

    auto* message = child<QLabel>(page, "message");
    REQUIRE(QTest::qWaitFor(
        [&] { return message->text().startsWith(QStringLiteral("At next boot")); }));
    CHECK(contents(scratch.dir / "etc/fstab") ==
          "UUID=0a0b / ext4 errors=remount-ro 0 1\n/dev/mapper/ssdk-loop0  /mnt/demo  ext4  "
          "noatime,x-systemd.requires=ssdkeeper-cache@dev-loop0.service  0  2\n");
    auto* state = child<QLabel>(page, "safetyState");
    REQUIRE(QTest::qWaitFor([&] { return state->text().contains(QStringLiteral("Scheduled")); }));
    CHECK(enable->isChecked());
    CHECK(manager.find("/dev/loop0")->power.safeOnBattery);

    enable->click();
    REQUIRE(
        QTest::qWaitFor([&] { return !fs::exists(scratch.dir / "state" / "ssdk-loop0.json"); }));
    CHECK(contents(scratch.dir / "etc/fstab") == kFstab);
}

TEST_CASE("the power checkbox is saved with the cache and shows a power event's switch",
          "[gui][ramcache]") {
    test::application();
    const auto host = std::make_shared<Scratch>("");
    Scratch& scratch = *host;
    scratch.runner.expect({"blockdev", "--flushbufs", "/dev/mapper/ssdk-loop0"}, ProcessResult{});
    cachectl::CacheManager& manager = *host->manager;
    REQUIRE(manager.enable("zram-writecache",
                           cachectl::CachePlan{"/dev/loop0", "ssdk-loop0", 64ULL << 20,
                                               cachectl::Compression::Lz4,
                                               cachectl::CacheMode::WriteBack, ""},
                           false));
    RamCachePage page(host->calls());
    const device::Device drive = test::labDrive();
    page.setDevice(&drive);
    page.show();
    auto* powerSafe = child<QCheckBox>(page, "powerSafe");
    REQUIRE(QTest::qWaitFor([&] { return child<QCheckBox>(page, "enable")->isChecked(); }));
    CHECK_FALSE(powerSafe->isChecked());
    powerSafe->click();
    REQUIRE(QTest::qWaitFor([&] {
        return child<QLabel>(page, "message")->text() == QStringLiteral("Power policy saved.");
    }));
    CHECK(manager.find("/dev/loop0")->power.safeOnBattery);

    // Unplugged: the power event switches it; the page says why it is write-through.
    REQUIRE(manager.powerEvent(cachectl::PowerEvent::Battery, true).at(0).error.empty());
    page.refresh();
    auto* state = child<QLabel>(page, "safetyState");
    REQUIRE(QTest::qWaitFor(
        [&] { return state->text().contains(QStringLiteral("because of battery")); }));
    CHECK(child<QWidget>(page, "writeThrough")->property("checked").toBool());
    CHECK(powerSafe->isChecked());
    REQUIRE(manager.disable("/dev/loop0"));
}
