// fwupd's path without a daemon: matching a drive to fwupd's devices, the reasons when it
// offers nothing, only upgrades offered, and the checks before an install.
#include <catch2/catch.hpp>

#include "core/firmware/fwupd.h"
#include "core/firmware/update_paths.h"
#include "tests/unit/firmware/fake_fwupd_service.h"

using namespace ssdk;
using namespace ssdk::firmware;
using namespace ssdk::firmware::test;

namespace {

DriveFirmwareFacts drive(const std::string& model, const std::string& serial) {
    DriveFirmwareFacts facts;
    facts.model = model;
    facts.serial = serial;
    return facts;
}

// What fwupd's nvme plugin reports for a drive it can update.
FwupdDevice nvmeDevice() {
    FwupdDevice d;
    d.id = "a1b2";
    d.name = "Samsung SSD 980 PRO 1TB";
    d.vendor = "Samsung";
    d.serial = "S5GXNF0R123456";
    d.plugin = "nvme";
    d.version = "3B2QGXA7";
    d.flags = {"internal", "updatable", "require-ac", "needs-reboot"};
    return d;
}

FwupdRelease release(const std::string& version, bool upgrade) {
    FwupdRelease r;
    r.version = version;
    r.remoteId = "lvfs";
    r.isUpgrade = upgrade;
    r.isDowngrade = !upgrade;
    return r;
}

} // namespace

TEST_CASE("a drive matches an fwupd device only by serial, from a storage plugin, same model") {
    const auto device = nvmeDevice();
    const auto facts = drive("Samsung SSD 980 PRO 1TB", "S5GXNF0R123456  ");

    auto match = matchFwupdDevice({device}, facts);
    REQUIRE(match.device.has_value());
    CHECK(match.device->id == "a1b2");

    SECTION("no serial: no match, however similar the model") {
        auto none = matchFwupdDevice({device}, drive("Samsung SSD 980 PRO 1TB", ""));
        CHECK(none.device.has_value() == false);
        CHECK_THAT(none.reason, Catch::Contains("no serial number"));
    }
    SECTION("same model, other serial: not this drive") {
        auto none = matchFwupdDevice({device}, drive("Samsung SSD 980 PRO 1TB", "S5GXNF0R999999"));
        CHECK(none.device.has_value() == false);
        CHECK_THAT(none.reason, Catch::Contains("does not manage this drive"));
    }
    SECTION("same serial, other model: refused") {
        auto none = matchFwupdDevice({device}, drive("WDC WDS100T1X0E", "S5GXNF0R123456"));
        CHECK(none.device.has_value() == false);
        CHECK_THAT(none.reason, Catch::Contains("not the same drive"));
    }
    SECTION("same serial from a plugin that does not read drives: ignored") {
        auto usb = device;
        usb.plugin = "test";
        CHECK(matchFwupdDevice({usb}, facts).device.has_value() == false);
    }
    SECTION("two candidates: SSD Keeper does not pick one") {
        auto twin = device;
        twin.id = "c3d4";
        auto none = matchFwupdDevice({device, twin}, facts);
        CHECK(none.device.has_value() == false);
        CHECK_THAT(none.reason, Catch::Contains("does not pick one"));
    }
    SECTION("fwupd's ata plugin moves the vendor out of the model") {
        FwupdDevice ata;
        ata.id = "e5";
        ata.name = "SSD 870 EVO 2TB";
        ata.vendor = "Samsung";
        ata.serial = "S6PNNS0W100200";
        ata.plugin = "ata";
        auto found = matchFwupdDevice({ata}, drive("Samsung SSD 870 EVO 2TB", "S6PNNS0W100200"));
        CHECK(found.device.has_value());
    }
}

TEST_CASE("the fwupd path says exactly why it is not offered") {
    const auto facts = drive("Samsung SSD 980 PRO 1TB", "S5GXNF0R123456");
    FakeFwupdService fwupd;

    SECTION("the daemon's error is the reason") {
        fwupd.failure = Error(ErrorCode::Unsupported,
                              "the system D-Bus is not reachable, so neither is fwupd: no socket");
        auto status = FwupdPath(fwupd).probe(facts);
        CHECK_FALSE(status.available);
        CHECK_THAT(status.reason, Catch::StartsWith("the system D-Bus is not reachable"));
    }
    SECTION("listed but not updatable, with fwupd's own reason") {
        auto device = nvmeDevice();
        device.flags = {"internal"};
        device.updateError = "Device does not support firmware updates";
        fwupd.deviceList = {device};
        auto status = FwupdPath(fwupd).probe(facts);
        CHECK_FALSE(status.available);
        CHECK(status.fwupdDeviceId == "a1b2");
        CHECK_THAT(status.reason, Catch::Contains("cannot update it: Device does not support"));
    }
    SECTION("no release: the remotes say why") {
        fwupd.deviceList = {nvmeDevice()};
        fwupd.remoteList = {{"lvfs", "LVFS", "download", false, false}};
        CHECK_THAT(FwupdPath(fwupd).probe(facts).reason,
                   Catch::Contains("no fwupd remote is enabled"));
        fwupd.remoteList = {{"lvfs", "LVFS", "download", true, false}};
        auto stale = FwupdPath(fwupd).probe(facts);
        CHECK_FALSE(stale.available);
        CHECK_THAT(stale.reason, Catch::Contains("no metadata: the enabled remote lvfs has never "
                                                 "been refreshed"));
        fwupd.remoteList = {{"lvfs", "LVFS", "download", true, true},
                            {"vendor-directory", "Vendor", "directory", true, true}};
        CHECK_THAT(
            FwupdPath(fwupd).probe(facts).reason,
            Catch::Contains("the enabled remotes (lvfs, vendor-directory) have no firmware"));
    }
    SECTION("only older releases: nothing offered") {
        fwupd.deviceList = {nvmeDevice()};
        fwupd.releaseLists["a1b2"] = {release("2B2QGXA7", false)};
        auto status = FwupdPath(fwupd).probe(facts);
        CHECK_FALSE(status.available);
        CHECK(status.releases.empty());
        CHECK_THAT(status.reason, Catch::Contains("none of its 1 release is newer than 3B2QGXA7"));
    }
    SECTION("upgrades: offered, and only they are listed") {
        fwupd.deviceList = {nvmeDevice()};
        fwupd.releaseLists["a1b2"] = {release("5B2QGXA7", true), release("4B2QGXA7", true),
                                      release("2B2QGXA7", false)};
        auto status = FwupdPath(fwupd).probe(facts);
        CHECK(status.available);
        REQUIRE(status.releases.size() == 2);
        CHECK(status.releases[0].version == "5B2QGXA7");
        CHECK(status.fwupdVersion == "3B2QGXA7");
        CHECK(status.reason == "fwupd offers 2 upgrades for this drive (it runs 3B2QGXA7)");
        const Json json = toJson(status);
        CHECK(json["releases"][1]["version"] == "4B2QGXA7");
        CHECK(json["releases"][1]["is_upgrade"] == true);
    }
}

TEST_CASE("installing through fwupd: only an offered upgrade, with progress") {
    FakeFwupdService fwupd;
    fwupd.deviceList = {nvmeDevice()};
    fwupd.releaseLists["a1b2"] = {release("5B2QGXA7", true), release("4B2QGXA7", true),
                                  release("2B2QGXA7", false)};
    fwupd.progressToReport = {{0, "downloading"}, {40, "writing"}, {100, "idle"}};
    fwupd.versionAfterInstall = "5B2QGXA7";
    std::vector<FwupdProgress> seen;
    const FwupdProgressFn record = [&seen](const FwupdProgress& p) { seen.push_back(p); };

    SECTION("no version: the newest upgrade") {
        auto outcome = installWithFwupd(fwupd, {"a1b2", "", ""}, record, nullptr);
        REQUIRE(outcome);
        CHECK(fwupd.installed == std::vector<std::string>{"a1b2 5B2QGXA7"});
        CHECK(outcome->versionBefore == "3B2QGXA7");
        CHECK(outcome->versionAfter == "5B2QGXA7");
        REQUIRE(seen.size() == 3);
        CHECK(seen[1].percent == 40);
        CHECK(seen[1].status == "writing");
    }
    SECTION("a version fwupd does not flag as an upgrade is refused before anything runs") {
        auto refused = installWithFwupd(fwupd, {"a1b2", "2B2QGXA7", ""}, record, nullptr);
        REQUIRE_FALSE(refused);
        CHECK(refused.error().code() == ErrorCode::InvalidArgument);
        CHECK_THAT(refused.error().message(), Catch::Contains("it offers: 5B2QGXA7, 4B2QGXA7"));
        CHECK(fwupd.installed.empty());
    }
    SECTION("a chosen upgrade") {
        REQUIRE(installWithFwupd(fwupd, {"a1b2", "4B2QGXA7", ""}, record, nullptr));
        CHECK(fwupd.installed == std::vector<std::string>{"a1b2 4B2QGXA7"});
    }
    SECTION("a cabinet file goes to fwupd, which checks it") {
        REQUIRE(installWithFwupd(fwupd, {"a1b2", "", "/tmp/fw.cab"}, record, nullptr));
        CHECK(fwupd.installed == std::vector<std::string>{"a1b2 /tmp/fw.cab"});
    }
    SECTION("a device that is not updatable, or gone, is refused") {
        fwupd.deviceList[0].flags = {"internal"};
        auto refused = installWithFwupd(fwupd, {"a1b2", "", ""}, record, nullptr);
        REQUIRE_FALSE(refused);
        CHECK(refused.error().code() == ErrorCode::Unsupported);
        auto gone = installWithFwupd(fwupd, {"ffff", "", ""}, record, nullptr);
        REQUIRE_FALSE(gone);
        CHECK(gone.error().code() == ErrorCode::NotFound);
        CHECK(fwupd.installed.empty());
    }
}
