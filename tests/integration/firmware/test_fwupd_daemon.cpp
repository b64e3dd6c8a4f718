// The fwupd path against the real fwupd daemon (Debian's fwupd 2.0 with fwupd-tests) on a
// private D-Bus: why fwupd is unreachable, the test plugin's device and its releases through
// libfwupd, installs with progress, and what fwupd refuses. Skips (77) when fwupd cannot start.
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>

#include "core/firmware/fwupd.h"
#include "core/firmware/update_paths.h"
#include "tests/integration/firmware/fwupd_fixture.h"

using namespace ssdk;
using namespace ssdk::firmware;
using namespace ssdk::firmware::test;

namespace {

void requireStarted(const FwupdFixture& fixture) {
    INFO(fixture.failure());
    REQUIRE(fixture.started());
}

std::optional<FwupdDevice> testDevice(FwupdService& service) {
    auto devices = service.devices();
    REQUIRE(devices);
    for (const auto& d : *devices) {
        if (d.id == FwupdFixture::kTestDeviceId) {
            return d;
        }
    }
    return std::nullopt;
}

} // namespace

TEST_CASE("fwupd unreachable: no system bus") {
    ::setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/ssdk-no-bus", 1);
    auto noBus = systemFwupdService()->devices();
    REQUIRE_FALSE(noBus);
    CHECK(noBus.error().code() == ErrorCode::Unsupported);
    CHECK_THAT(noBus.error().message(), Catch::StartsWith("the system D-Bus is not reachable"));

    DriveFirmwareFacts facts;
    facts.model = "Samsung SSD 980 PRO 1TB";
    facts.serial = "S5GXNF0R123456";
    const auto service = systemFwupdService();
    auto status = FwupdPath(*service).probe(facts);
    CHECK_FALSE(status.available);
    CHECK_THAT(status.reason, Catch::StartsWith("the system D-Bus is not reachable"));
}

TEST_CASE("fwupd lists its test device and releases, and installs them with progress") {
    FwupdFixture fixture;
    requireStarted(fixture);
    const auto service = systemFwupdService();

    auto version = service->daemonVersion();
    REQUIRE(version);
    CHECK_THAT(*version, Catch::StartsWith("2."));

    auto device = testDevice(*service);
    if (!device) {
        FAIL("fwupd does not list its test device; its log:\n" << fixture.log());
    }
    CHECK(device->plugin == "test");
    CHECK(device->version == "1.2.2");
    CHECK(device->hasFlag("updatable"));

    auto releases = service->releases(device->id);
    REQUIRE(releases);
    const auto offered = offeredReleases(*releases);
    REQUIRE(offered.size() == 2);
    CHECK(offered[0].version == "1.2.4");
    CHECK(offered[0].remoteId == "fwupd-tests");
    CHECK(offered[1].version == "1.2.3");

    // LVFS is enabled but has no metadata (no network here): named as the reason.
    auto remotes = service->remotes();
    REQUIRE(remotes);
    CHECK_THAT(noReleaseReason(*remotes), Catch::Contains("fwupd-tests"));
    const auto lvfs = std::find_if(remotes->begin(), remotes->end(),
                                   [](const FwupdRemote& r) { return r.id == "lvfs"; });
    REQUIRE(lvfs != remotes->end());
    CHECK(lvfs->enabled);
    CHECK(lvfs->kind == "download");
    CHECK_FALSE(lvfs->hasMetadata);
    CHECK_THAT(noReleaseReason({*lvfs}), Catch::Contains("lvfs has never been refreshed"));

    // A drive fwupd does not list is not matched to the webcam or anything else.
    DriveFirmwareFacts facts;
    facts.model = "Samsung SSD 980 PRO 1TB";
    facts.serial = "S5GXNF0R123456";
    auto drive = FwupdPath(*service).probe(facts);
    CHECK_FALSE(drive.available);
    CHECK_THAT(drive.reason, Catch::Contains("does not manage this drive"));

    SECTION("cancelled before the daemon starts: nothing changes") {
        std::atomic<bool> cancel{true};
        auto cancelled = installWithFwupd(
            *service, {device->id, "1.2.3", ""}, [](const FwupdProgress&) {}, &cancel);
        REQUIRE_FALSE(cancelled);
        CHECK(cancelled.error().code() == ErrorCode::Cancelled);
        // The same through libfwupd's GCancellable, without SSD Keeper's check in front.
        auto direct = service->installRelease(device->id, "1.2.3", {}, &cancel);
        REQUIRE_FALSE(direct);
        CHECK(direct.error().code() == ErrorCode::Cancelled);
        CHECK(testDevice(*service)->version == "1.2.2");
    }

    SECTION("a release, then a cabinet; older and same versions are refused") {
        std::vector<FwupdProgress> progress;
        std::atomic<bool> cancel{false};
        auto installed = installWithFwupd(
            *service, {device->id, "1.2.3", ""},
            [&progress](const FwupdProgress& p) { progress.push_back(p); }, &cancel);
        REQUIRE(installed);
        CHECK(installed->versionBefore == "1.2.2");
        CHECK(installed->versionAfter == "1.2.3");
        REQUIRE_FALSE(progress.empty());
        const bool wrote =
            std::any_of(progress.begin(), progress.end(),
                        [](const FwupdProgress& p) { return p.status == "device-write"; });
        CHECK(wrote);
        const bool moved = std::any_of(progress.begin(), progress.end(),
                                       [](const FwupdProgress& p) { return p.percent > 0; });
        CHECK(moved);

        // fwupd now flags 1.2.3 as no upgrade: SSD Keeper refuses before asking fwupd.
        auto again = installWithFwupd(*service, {device->id, "1.2.3", ""}, {}, nullptr);
        REQUIRE_FALSE(again);
        CHECK(again.error().code() == ErrorCode::InvalidArgument);
        CHECK_THAT(again.error().message(), Catch::Contains("it offers: 1.2.4"));

        const std::string cab124 = std::string(FwupdFixture::kTestsDir) + "/fakedevice124.cab";
        auto cab = installWithFwupd(*service, {device->id, "", cab124}, {}, nullptr);
        REQUIRE(cab);
        CHECK(cab->versionAfter == "1.2.4");

        // An older cabinet is fwupd's to refuse.
        const std::string cab123 = std::string(FwupdFixture::kTestsDir) + "/fakedevice123.cab";
        auto older = installWithFwupd(*service, {device->id, "", cab123}, {}, nullptr);
        REQUIRE_FALSE(older);
        INFO(older.error().describe());
        CHECK(testDevice(*service)->version == "1.2.4");
    }
}
