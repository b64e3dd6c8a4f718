// "At next boot" (fstab change, boot unit attach/detach, exact undo) and power safety
// (battery, suspend, shutdown) of the cache manager, on a scratch root with fake backends.
#include <catch2/catch.hpp>

#include "core/cachectl/backend_fake.h"
#include "core/cachectl/cache_manager.h"
#include "core/cachectl/fstab.h"
#include "core/cachectl/power.h"
#include "tests/unit/cachectl/cache_backend_fixture.h"

using namespace ssdk;
using namespace ssdk::cachectl;
using namespace ssdk::cachectl::testing;

namespace {

const std::string kFstab = "# /etc/fstab: static file system information.\n"
                           "UUID=0a0b-root  /               ext4    errors=remount-ro 0       1\n"
                           "UUID=5e1f-data  /mnt/lab\\040data  ext4    noatime,nofail    0  2\n"
                           "/dev/sr0        /media/cdrom0   udf     user,noauto       0       0\n";
const std::string kMountedNoatime =
    "36 25 7:1 / /mnt/lab\\040data rw,noatime shared:1 - ext4 /dev/labx1 rw,errors=remount-ro\n";
const std::string kCachedMountedNoatime =
    "36 25 253:0 / /mnt/lab\\040data rw,noatime shared:1 - ext4 "
    "/dev/mapper/ssdk-labx1 rw,errors=remount-ro\n";
const std::string kUnit = "ssdkeeper-cache@dev-disk-by\\x2dpartuuid-4c1d\\x2d01.service";
const std::string kNewLine = "/dev/mapper/ssdk-labx1  /mnt/lab\\040data  ext4    "
                             "noatime,nofail,x-systemd.requires=" +
                             kUnit + "    0  2";

struct BootSetup {
    ScratchHost host{"boot"};
    BackendRegistry registry;
    FakeBackend* fake = nullptr;
    std::filesystem::path state = host.dir / "var/lib/ssdkeeper/cache";

    BootSetup() {
        Capabilities capabilities;
        capabilities.writeBack = true;
        capabilities.compressions = {Compression::None, Compression::Lz4};
        auto backend = std::make_unique<FakeBackend>("fake", ProbeResult{true, {}}, capabilities);
        fake = backend.get();
        registry.add(std::move(backend));
        registry.add(std::make_unique<FakeBackend>("engine", ProbeResult{true, {}}, capabilities));
        host.file("/etc/fstab", kFstab);
        host.file("/proc/self/mountinfo", kMountedNoatime);
        link("/dev/disk/by-uuid/5e1f-data", "../../labx1");
        link("/dev/disk/by-partuuid/4c1d-01", "../../labx1");
        link("/dev/disk/by-id/ata-QEMU_HARDDISK_QM1-part1", "../../labx1");
    }
    void link(const std::string& absolute, const std::string& target) const {
        const auto path = host.dir / std::filesystem::path(absolute).relative_path();
        std::filesystem::create_directories(path.parent_path());
        std::filesystem::remove(path);
        std::filesystem::create_symlink(target, path);
    }
    CacheManager manager() { return CacheManager(registry, host.env, state); }
};

} // namespace

TEST_CASE("fstab lines are found, rewritten in place and put back exactly", "[cache-boot]") {
    const auto entries = parseFstab(kFstab);
    REQUIRE(entries.size() == 3);
    CHECK(entries[1].line == 2);
    CHECK(entries[1].spec == "UUID=5e1f-data");
    CHECK(entries[1].mountPoint == "/mnt/lab data");
    CHECK(entries[1].options == "noatime,nofail");
    CHECK(unescapeFstab("a\\040b\\134c\\011") == "a b\\c\t");
    CHECK(unescapeFstab("tail\\04") == "tail\\04");

    auto change =
        planFstabChange(kFstab, "/etc/fstab", entries[1], "/dev/mapper/ssdk-labx1", kUnit);
    REQUIRE(change);
    CHECK(change->after == kNewLine);
    CHECK(change->diff() == "--- /etc/fstab\n+++ /etc/fstab (SSD Keeper: at next boot)\n"
                            "@@ -3 +3 @@\n-UUID=5e1f-data  /mnt/lab\\040data  ext4    "
                            "noatime,nofail    0  2\n+" +
                                kNewLine + "\n");
    auto changed = replaceFstabLine(kFstab, change->before, change->after);
    REQUIRE(changed);
    auto restored = replaceFstabLine(*changed, change->after, change->before);
    REQUIRE(restored);
    CHECK(*restored == kFstab);
    CHECK(replaceFstabLine(kFstab, "nothing like it", "x").error().code() == ErrorCode::NotFound);
    CHECK(replaceFstabLine("a\na\n", "a", "b").error().code() == ErrorCode::Busy);
    CHECK(*replaceFstabLine("a\nb", "b", "c") == "a\nc"); // no newline added at the end

    auto stale = entries[1];
    stale.line = 1;
    CHECK(planFstabChange(kFstab, "/etc/fstab", stale, "/dev/x", kUnit).error().code() ==
          ErrorCode::Busy);
}

TEST_CASE("boot unit names are systemd-escape --path names", "[cache-boot]") {
    // Outputs of systemd-escape --path (systemd 252).
    CHECK(systemdEscapePath("/dev/disk/by-partuuid/1a2b3c4d-01") ==
          "dev-disk-by\\x2dpartuuid-1a2b3c4d\\x2d01");
    CHECK(systemdEscapePath("/dev/sdb1") == "dev-sdb1");
    CHECK(systemdEscapePath("/dev/disk/by-id/ata-QEMU_HARDDISK_QM00003-part1") ==
          "dev-disk-by\\x2did-ata\\x2dQEMU_HARDDISK_QM00003\\x2dpart1");
    CHECK(systemdEscapePath("/dev/disk/by-id/a.b") == "dev-disk-by\\x2did-a.b");
    CHECK(bootUnitName("/dev/sdb1") == "ssdkeeper-cache@dev-sdb1.service");
}

TEST_CASE("power events: flush always, write-through when asked, back on mains or resume",
          "[cache-power]") {
    const PowerPolicy safe{true, ""};
    const PowerPolicy plain{false, ""};
    const auto wb = CacheMode::WriteBack;
    const auto wt = CacheMode::WriteThrough;

    auto battery = decidePower(wb, safe, PowerEvent::Battery, true);
    CHECK(battery.flush);
    CHECK(battery.mode == wt);
    CHECK(battery.switchedBy == "battery");
    auto batteryPlain = decidePower(wb, plain, PowerEvent::Battery, true);
    CHECK(batteryPlain.flush);
    CHECK_FALSE(batteryPlain.mode);
    CHECK(batteryPlain.switchedBy.empty());
    CHECK_FALSE(decidePower(wt, safe, PowerEvent::Battery, true).acts()); // nothing dirty

    auto suspend = decidePower(wb, safe, PowerEvent::Suspend, false);
    CHECK(suspend.mode == wt);
    CHECK(suspend.switchedBy == "suspend");
    // Shutdown: the RAM is lost, so write-through whatever the policy.
    auto shutdown = decidePower(wb, plain, PowerEvent::Shutdown, false);
    CHECK(shutdown.flush);
    CHECK(shutdown.mode == wt);
    CHECK(shutdown.switchedBy == "shutdown");

    // Back: only what a power event switched, never the user's own write-through.
    auto ac = decidePower(wt, PowerPolicy{true, "battery"}, PowerEvent::Ac, false);
    CHECK(ac.mode == wb);
    CHECK(ac.switchedBy.empty());
    CHECK_FALSE(decidePower(wt, safe, PowerEvent::Ac, false).acts());
    auto resumed = decidePower(wt, PowerPolicy{true, "suspend"}, PowerEvent::Resume, false);
    CHECK(resumed.mode == wb);
    // Resumed on battery: stays write-through, now held by the battery until mains returns.
    auto resumedOnBattery = decidePower(wt, PowerPolicy{true, "suspend"}, PowerEvent::Resume, true);
    CHECK_FALSE(resumedOnBattery.acts());
    CHECK(resumedOnBattery.switchedBy == "battery");

    CHECK(*parsePowerEvent("shutdown") == PowerEvent::Shutdown);
    CHECK(parsePowerEvent("lunch").error().code() == ErrorCode::InvalidArgument);
    CHECK(powerPolicyFromJson(toJson(PowerPolicy{true, "suspend"})).switchedBy == "suspend");
}

TEST_CASE("at next boot: fstab shown, changed with a backup, stacked by the unit, undone exactly",
          "[cache-boot]") {
    BootSetup setup;
    auto manager = setup.manager();

    auto preview = manager.previewAtBoot("fake", labPlan());
    REQUIRE(preview);
    CHECK(preview->after == kNewLine);
    CHECK(setup.host.contents("/etc/fstab") == kFstab); // a preview changes nothing

    // What the user saw must still be what is written.
    CHECK(manager.enableAtBoot("fake", labPlan(), PowerPolicy{true, ""}, "something else")
              .error()
              .code() == ErrorCode::Busy);
    auto record = manager.enableAtBoot("fake", labPlan(), PowerPolicy{true, ""}, preview->after);
    REQUIRE(record);
    CHECK(record->phase == CachePhase::Scheduled);
    REQUIRE(record->boot);
    CHECK(record->boot->device == "/dev/disk/by-partuuid/4c1d-01");
    CHECK(record->boot->unit == kUnit);
    REQUIRE(record->mount);
    CHECK(record->mount->options == "rw,noatime,errors=remount-ro");
    CHECK(setup.host.contents("/etc/fstab") ==
          "# /etc/fstab: static file system information.\n"
          "UUID=0a0b-root  /               ext4    errors=remount-ro 0       1\n" +
              kNewLine + "\n/dev/sr0        /media/cdrom0   udf     user,noauto       0       0\n");
    CHECK(setup.host.contents("/etc/fstab.ssdkeeper.bak") == kFstab);
    CHECK(setup.fake->calls().empty()); // nothing stacked before the reboot
    CHECK(manager.previewAtBoot("fake", labPlan()).error().code() == ErrorCode::Busy);

    // Not before the reboot: the filesystem is still mounted from the partition.
    CHECK(manager.attach("/dev/disk/by-partuuid/4c1d-01", false).error().code() == ErrorCode::Busy);
    // Next boot: the kernel calls the partition labx3 now; the unit names it by PARTUUID.
    setup.link("/dev/disk/by-partuuid/4c1d-01", "../../labx3");
    setup.host.file("/proc/self/mountinfo", "");
    auto attached = setup.manager().attach("/dev/disk/by-partuuid/4c1d-01", false);
    REQUIRE(attached);
    CHECK(attached->phase == CachePhase::Active);
    CHECK(attached->active.plan.origin == "/dev/labx3");
    CHECK(attached->active.cachedDevice == "/dev/mapper/ssdk-labx1");
    CHECK(setup.fake->calls() == std::vector<std::string>{"enable /dev/labx3"});

    // Shutdown: the mount is gone first, then the unit stops: flushed, torn down, scheduled.
    auto detached = setup.manager().detach("/dev/disk/by-partuuid/4c1d-01");
    REQUIRE(detached);
    CHECK(detached->phase == CachePhase::Scheduled);
    CHECK(setup.fake->calls().back() == "disable /dev/labx3");

    // Booted again, mounted from the cache by fstab; the user turns it off.
    REQUIRE(setup.manager().attach("/dev/disk/by-partuuid/4c1d-01", false));
    setup.host.file("/proc/self/mountinfo", kCachedMountedNoatime);
    setup.host.runner.expect({"umount", "/mnt/lab data"}, ok());
    setup.host.runner.expect({"mount", "-t", "ext4", "-o",
                              "rw,noatime,errors=remount-ro,nosuid,nodev", "/dev/labx3",
                              "/mnt/lab data"},
                             ok());
    REQUIRE(setup.manager().disable("/dev/labx3"));
    CHECK(setup.host.contents("/etc/fstab") == kFstab);
    CHECK_FALSE(std::filesystem::exists(setup.state / "ssdk-labx1.json"));
    CHECK(setup.fake->calls().back() == "disable /dev/labx3");
    CHECK(setup.host.runner.requests().size() == 2);
}

TEST_CASE("at next boot refuses what it cannot undo or name", "[cache-boot]") {
    BootSetup setup;
    auto manager = setup.manager();
    auto engine = manager.previewAtBoot("engine", labPlan());
    REQUIRE_FALSE(engine);
    CHECK(engine.error().message().starts_with("engine names its device only when it starts"));

    auto record = manager.enableAtBoot("fake", labPlan(), {}, "");
    REQUIRE(record);
    // Someone edits the changed line: disabling stops and says how to repair, touching nothing.
    setup.host.file("/etc/fstab", kFstab + "# edited\n");
    setup.host.file("/etc/fstab", "UUID=5e1f-data /mnt/lab\\040data ext4 defaults 0 2\n");
    auto refused = manager.disable("/dev/labx1");
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message().find("Put back 'UUID=5e1f-data  /mnt/lab\\040data") !=
          std::string::npos);
    CHECK(std::filesystem::exists(setup.state / "ssdk-labx1.json"));
    // Put back by hand: disabling a scheduled cache just forgets it.
    setup.host.file("/etc/fstab", kFstab);
    REQUIRE(manager.disable("/dev/labx1"));
    CHECK(setup.host.contents("/etc/fstab") == kFstab);
    CHECK(setup.fake->calls().empty());

    // No fstab line for the partition: nothing to change at boot.
    setup.host.file("/etc/fstab", "UUID=0a0b-root / ext4 defaults 0 1\n");
    setup.host.file("/proc/self/mountinfo", "");
    CHECK(manager.previewAtBoot("fake", labPlan()).error().code() == ErrorCode::NotFound);
    // The filesystem holding the journal (and the unit's program) cannot wait for the unit.
    setup.host.file("/etc/fstab", "UUID=5e1f-data /var ext4 defaults 0 2\n");
    CHECK(manager.previewAtBoot("fake", labPlan()).error().code() == ErrorCode::Unsupported);
}

TEST_CASE("power events flush and switch the journaled caches, and switch them back",
          "[cache-power]") {
    BootSetup setup;
    setup.host.file("/proc/self/mountinfo", "");
    auto manager = setup.manager();
    REQUIRE(manager.enable("fake", labPlan(), false, PowerPolicy{true, ""}));
    setup.host.runner.expect({"blockdev", "--flushbufs", "/dev/mapper/ssdk-labx1"}, ok());
    // Applied now, not at boot: the boot unit's attach and detach leave it alone.
    for (const auto& refused :
         {manager.attach("/dev/labx1", false), manager.detach("/dev/labx1")}) {
        REQUIRE_FALSE(refused);
        CHECK(refused.error().code() == ErrorCode::InvalidArgument);
        CHECK(refused.error().message() == "/dev/labx1 is not cached at boot (it was applied now)");
    }

    auto onBattery = manager.powerEvent(PowerEvent::Battery, true);
    REQUIRE(onBattery.size() == 1);
    CHECK(onBattery[0].action == "flushed and switched to write-through (battery)");
    CHECK(onBattery[0].error.empty());
    auto record = setup.manager().find("/dev/labx1");
    CHECK(record->active.plan.mode == CacheMode::WriteThrough);
    CHECK(record->power.switchedBy == "battery");
    // Suspend on battery: nothing is dirty in write-through, the battery keeps holding it.
    CHECK(manager.powerEvent(PowerEvent::Suspend, true)[0].action.empty());

    auto back = manager.powerEvent(PowerEvent::Ac, false);
    CHECK(back[0].action == "back to write-back (ac)");
    record = setup.manager().find("/dev/labx1");
    CHECK(record->active.plan.mode == CacheMode::WriteBack);
    CHECK(record->power.switchedBy.empty());
    // The switch to write-through drains the cache itself (Backend::setMode); no separate
    // flush chases writes that keep coming before it.
    CHECK(setup.fake->calls() ==
          std::vector<std::string>{"enable /dev/labx1", "mode write-through", "mode write-back"});

    // Policy off while on battery: flushed, stays write-back. Turned on: applies at once.
    REQUIRE(manager.setPowerPolicy("/dev/labx1", false, true));
    CHECK(manager.powerEvent(PowerEvent::Battery, true)[0].action ==
          "flushed; stays write-back (battery)");
    auto turnedOn = manager.setPowerPolicy("/dev/labx1", true, true);
    REQUIRE(turnedOn);
    CHECK(turnedOn->active.plan.mode == CacheMode::WriteThrough);
    CHECK(turnedOn->power.switchedBy == "battery");
    auto turnedOff = manager.setPowerPolicy("/dev/labx1", false, true);
    CHECK(turnedOff->active.plan.mode == CacheMode::WriteBack);
    // The user's own mode choice is never undone by a power event.
    REQUIRE(manager.setMode("/dev/labx1", CacheMode::WriteThrough));
    CHECK_FALSE(manager.powerEvent(PowerEvent::Ac, false)[0].action.size() > 0);
    CHECK(setup.manager().find("/dev/labx1")->active.plan.mode == CacheMode::WriteThrough);
}
