// Update paths: each says whether it is offered and why not. fwupd is probed through a
// replayed fwupdmgr; the NVMe path from identify and slot-log facts.
#include <catch2/catch.hpp>

#include "core/base/replay_process_runner.h"
#include "core/firmware/info.h"
#include "core/firmware/update_paths.h"
#include "tests/unit/firmware/fake_nvme_admin.h"
#include "tests/unit/firmware/firmware_test_support.h"

using namespace ssdk;
using namespace ssdk::firmware;
using namespace ssdk::firmware::test;

namespace {

device::Device nvmeDevice() {
    device::Device d;
    d.name = "nvme0n1";
    d.path = "/dev/nvme0n1";
    d.bus = device::Bus::Nvme;
    d.model = "QEMU NVMe Ctrl";
    d.serial = "SN0001";
    d.firmware = "1.0";
    return d;
}

DriveFirmwareFacts nvmeFacts(const device::Device& d, std::uint8_t frmw, bool fwCommands = true) {
    DriveFirmwareFacts facts;
    facts.device = &d;
    facts.model = d.model;
    facts.serial = d.serial;
    facts.nvme = *parseFirmwareCaps(identifyController(fwCommands, frmw, 0));
    facts.slots = *parseFirmwareSlotLog(slotLog(0x01, {"1.0"}));
    return facts;
}

const std::vector<std::string> kGetDevices{"fwupdmgr", "get-devices", "--json"};

} // namespace

TEST_CASE("the NVMe image path is offered only when the controller can do it") {
    const auto d = nvmeDevice();
    auto offered = NvmeImagePath().probe(nvmeFacts(d, 0x17));
    CHECK(offered.available);
    CHECK_THAT(offered.reason, Catch::Contains("3 slots (slot 1 read-only)"));
    CHECK_THAT(offered.reason, Catch::Contains("without reset is supported"));

    auto noCommands = NvmeImagePath().probe(nvmeFacts(d, 0x17, false));
    CHECK_FALSE(noCommands.available);
    CHECK_THAT(noCommands.reason, Catch::Contains("OACS"));

    auto onlyReadOnly = NvmeImagePath().probe(nvmeFacts(d, 0x03));
    CHECK_FALSE(onlyReadOnly.available);
    CHECK_THAT(onlyReadOnly.reason, Catch::Contains("read-only"));

    auto noLog = nvmeFacts(d, 0x17);
    noLog.slots.reset();
    noLog.nvmeError = "the firmware slot log could not be read: Invalid Field in Command";
    CHECK_FALSE(NvmeImagePath().probe(noLog).available);

    device::Device sata = d;
    sata.bus = device::Bus::Sata;
    DriveFirmwareFacts sataFacts;
    sataFacts.device = &sata;
    auto notNvme = NvmeImagePath().probe(sataFacts);
    CHECK_FALSE(notNvme.available);
    CHECK_THAT(notNvme.reason, Catch::Contains("only NVMe"));
}

TEST_CASE("ATA DOWNLOAD MICROCODE is reported but never offered") {
    const auto d = nvmeDevice();
    DriveFirmwareFacts facts;
    facts.device = &d;
    facts.ata = *parseAtaMicrocode(ataIdentify({{83, 0x4001}}));
    auto status = AtaMicrocodePath().probe(facts);
    CHECK_FALSE(status.available);
    CHECK_THAT(status.reason, Catch::Contains("not offered"));
}

TEST_CASE("fwupd: not installed, daemon down, drive unknown, drive updatable") {
    const auto d = nvmeDevice();
    const auto facts = nvmeFacts(d, 0x17);

    ReplayProcessRunner missing; // no recording: ToolMissing, as when fwupdmgr is absent
    auto notInstalled = FwupdPath(missing).probe(facts);
    CHECK_FALSE(notInstalled.available);
    CHECK(notInstalled.reason == "fwupd is not installed (no fwupdmgr)");

    ReplayProcessRunner down;
    down.expect(kGetDevices, ProcessResult{1, "",
                                           "Failed to connect to daemon: Error calling "
                                           "StartServiceByName for org.freedesktop.fwupd\n"});
    auto daemonDown = FwupdPath(down).probe(facts);
    CHECK_FALSE(daemonDown.available);
    CHECK_THAT(daemonDown.reason, Catch::StartsWith("the fwupd daemon is not available: Failed "
                                                    "to connect to daemon"));

    ReplayProcessRunner other;
    other.expect(kGetDevices,
                 ProcessResult{0, R"({"Devices": [{"Name": "System Firmware", "DeviceId": "a4",
                                     "Flags": ["internal", "updatable"]}]})",
                               ""});
    auto unknown = FwupdPath(other).probe(facts);
    CHECK_FALSE(unknown.available);
    CHECK_THAT(unknown.reason, Catch::Contains("does not list this drive"));

    ReplayProcessRunner listed;
    listed.expect(kGetDevices,
                  ProcessResult{0, R"({"Devices": [{"Name": "QEMU NVMe Ctrl", "DeviceId": "d1",
                                      "Serial": "SN0001", "Plugin": "nvme",
                                      "Flags": ["internal", "updatable", "require-ac"]}]})",
                                ""});
    listed.expect({"fwupdmgr", "get-releases", "d1", "--json"},
                  ProcessResult{0, R"({"Releases": [{"Version": "2.0", "Summary": "Fixes",
                                      "Locations": ["https://fwupd.org/x.cab"]}]})",
                                ""});
    auto updatable = FwupdPath(listed).probe(facts);
    CHECK(updatable.available);
    CHECK(updatable.fwupdDeviceId == "d1");
    REQUIRE(updatable.releases.size() == 1);
    CHECK(updatable.releases[0].version == "2.0");
    CHECK(updatable.releases[0].uri == "https://fwupd.org/x.cab");
}

TEST_CASE("firmware info of an NVMe drive through a scripted controller") {
    const auto d = nvmeDevice();
    auto catalog = KnownIssueCatalog::load(SSDK_FIRMWARE_CATALOG_FILE);
    REQUIRE(catalog);
    ReplayProcessRunner runner;
    InfoSources sources;
    sources.runner = &runner;
    sources.catalog = &*catalog;
    sources.nvme = [](const std::string& path) -> Expected<std::unique_ptr<NvmeAdmin>> {
        CHECK(path == "/dev/nvme0n1");
        auto admin = std::make_unique<FakeNvmeAdmin>();
        admin->expectIdentify(identifyController(true, 0x17, 0, "2.1"));
        admin->expectSlotLog(slotLog(0x21, {"2.0", "2.1", ""}));
        return std::unique_ptr<NvmeAdmin>(std::move(admin));
    };
    const auto info = readFirmwareInfo(d, SysfsRoot("/nonexistent"), sources);
    const Json json = toJson(info);
    CHECK(json["revision"] == "2.1");
    CHECK(json["nvme"]["slots"] == 3);
    CHECK(json["slot_log"]["active_slot"] == 1);
    CHECK(json["slot_log"]["next_reset_slot"] == 2);
    REQUIRE(json["slot_log"]["slots"].size() == 3);
    CHECK(json["slot_log"]["slots"][0]["read_only"] == true);
    CHECK(json["slot_log"]["slots"][1]["revision"] == "2.1");
    CHECK(json["known_issues"].empty());
    REQUIRE(json["update_paths"].size() == 3);
    CHECK(json["update_paths"][0]["id"] == "nvme-image");
    CHECK(json["update_paths"][0]["available"] == true);
    CHECK(json["update_paths"][1]["id"] == "fwupd");
    CHECK(json["update_paths"][1]["available"] == false);
}

TEST_CASE("an NVMe drive whose controller cannot be opened says why") {
    const auto d = nvmeDevice();
    InfoSources sources;
    sources.nvme = [](const std::string&) -> Expected<std::unique_ptr<NvmeAdmin>> {
        return fail(ErrorCode::PermissionDenied, "opening /dev/nvme0n1: Permission denied");
    };
    const auto info = readFirmwareInfo(d, SysfsRoot("/nonexistent"), sources);
    CHECK_THAT(info.facts.nvmeError, Catch::Contains("Permission denied"));
    CHECK(info.facts.revision == "1.0"); // from sysfs
    CHECK_FALSE(info.paths.front().available);
    CHECK_THAT(info.paths.front().reason, Catch::Contains("Permission denied"));
}
