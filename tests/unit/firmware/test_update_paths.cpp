// Update paths: each says whether it is offered and why not. The NVMe path from identify and
// slot-log facts; fwupd's path is tested in test_fwupd.cpp.
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <map>

#include "core/firmware/info.h"
#include "core/firmware/update_paths.h"
#include "tests/unit/firmware/fake_fwupd_service.h"
#include "tests/unit/firmware/firmware_test_support.h"
#include "tests/unit/maintenance/fake_nvme_admin.h"

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
    facts.slotLog = *parseFirmwareSlotLog(slotLog(0x01, {"1.0"}));
    return facts;
}

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
    noLog.slotLog.reset();
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

TEST_CASE("firmware info of an NVMe drive through a scripted controller") {
    const auto d = nvmeDevice();
    auto catalog = KnownIssueCatalog::load(SSDK_FIRMWARE_CATALOG_FILE);
    REQUIRE(catalog);
    FakeFwupdService fwupd;
    fwupd.failure = Error(ErrorCode::ToolMissing, "fwupd is not installed");
    InfoSources sources;
    sources.fwupd = &fwupd;
    sources.catalog = &*catalog;
    sources.nvme = [](const std::string& path)
        -> Expected<std::unique_ptr<maintenance::transport::NvmeAdmin>> {
        CHECK(path == "/dev/nvme0n1");
        auto admin = std::make_unique<ssdk::test::FakeNvmeAdmin>();
        expectIdentify(*admin, identifyController(true, 0x17, 0, "2.1"));
        expectSlotLog(*admin, slotLog(0x21, {"2.0", "2.1", ""}));
        return admin;
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
    CHECK(json["update_paths"][1]["reason"] == "fwupd is not installed");
}

TEST_CASE("an NVMe drive whose controller cannot be opened says why") {
    const auto d = nvmeDevice();
    InfoSources sources;
    sources.nvme =
        [](const std::string&) -> Expected<std::unique_ptr<maintenance::transport::NvmeAdmin>> {
        return fail(ErrorCode::PermissionDenied, "opening /dev/nvme0n1: Permission denied");
    };
    const auto info = readFirmwareInfo(d, SysfsRoot("/nonexistent"), sources);
    CHECK_THAT(info.facts.nvmeError, Catch::Contains("Permission denied"));
    CHECK(info.facts.revision == "1.0"); // from sysfs
    CHECK_FALSE(info.paths.front().available);
    CHECK_THAT(info.paths.front().reason, Catch::Contains("Permission denied"));
}

namespace {

// IDENTIFY words with an ATA string (two characters per word, the first in the high byte).
void putAtaString(std::map<std::size_t, std::uint16_t>& words, std::size_t first, std::size_t count,
                  const std::string& text) {
    std::string padded = text;
    padded.resize(count * 2, ' ');
    for (std::size_t i = 0; i < count; ++i) {
        words[first + i] =
            static_cast<std::uint16_t>((static_cast<unsigned char>(padded[i * 2]) << 8) |
                                       static_cast<unsigned char>(padded[i * 2 + 1]));
    }
}

// libata's sysfs "id" text: 256 words as 4 hex digits, 8 per line.
std::string idText(const std::vector<std::uint8_t>& bytes) {
    std::string text;
    for (std::size_t w = 0; w < 256; ++w) {
        const unsigned value = bytes[w * 2] | (bytes[w * 2 + 1] << 8);
        char digits[8];
        std::snprintf(digits, sizeof digits, "%04x", value);
        text += digits;
        text += (w % 8 == 7) ? '\n' : ' ';
    }
    return text;
}

} // namespace

TEST_CASE("a SATA drive is matched by its whole IDENTIFY model, not sysfs's 16 characters") {
    TempDir dir;
    const std::string devicePath = "sys/devices/pci0000:00/0000:00:1f.2/ata3/host2/"
                                   "target2:0:0/2:0:0:0/block/sda";
    std::filesystem::create_directories(dir.path() / devicePath);
    std::filesystem::create_directories(dir.path() / "sys/block");
    std::filesystem::create_symlink(dir.path() / devicePath, dir.path() / "sys/block/sda");
    std::map<std::size_t, std::uint16_t> words{{83, 0x4001}, {86, 0x0001}, {119, 0x4010}};
    putAtaString(words, 10, 10, "S1DBNSAF123456");
    putAtaString(words, 23, 4, "EXT0BB6Q");
    putAtaString(words, 27, 20, "Samsung SSD 840 EVO 250GB");
    dir.write("sys/class/ata_device/dev3.0/id", idText(ataIdentify(words)));

    device::Device d;
    d.name = "sda";
    d.path = "/dev/sda";
    d.bus = device::Bus::Sata;
    d.model = "Samsung SSD 840"; // what /sys/block/sda/device/model holds
    d.firmware = "BB6Q";         // and .../rev
    auto catalog = KnownIssueCatalog::load(SSDK_FIRMWARE_CATALOG_FILE);
    REQUIRE(catalog);
    InfoSources sources;
    sources.catalog = &*catalog;
    const auto info = readFirmwareInfo(d, SysfsRoot(dir.path()), sources);
    CHECK(info.facts.model == "Samsung SSD 840 EVO 250GB");
    CHECK(info.facts.revision == "EXT0BB6Q");
    CHECK(info.facts.serial == "S1DBNSAF123456");
    REQUIRE(info.facts.ata);
    CHECK(info.facts.ata->supported);
    CHECK(info.facts.ata->segmentedSupported);
    REQUIRE(info.knownIssues.size() == 1);
    CHECK(info.knownIssues[0].fixedRevision == "EXT0DB6Q");
    const Json json = toJson(info);
    REQUIRE(json["health_reasons"].size() == 1);
    CHECK_THAT(json["health_reasons"][0].get<std::string>(), Catch::Contains("EXT0DB6Q"));
}
