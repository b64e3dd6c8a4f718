#include <catch2/catch.hpp>

#include "core/maintenance/transport/ata_device.h"

#include "fake_scsi_transport.h"
#include "identify_builder.h"

using namespace ssdk;
using namespace ssdk::maintenance::transport;
using ssdk::test::cdb;
using ssdk::test::FakeScsiTransport;
using ssdk::test::ScriptStep;

namespace {

// The CDBs of ATA PASS-THROUGH (16), spelled out byte by byte (SAT-4 table 205):
// 85h, protocol<<1|extend, CK_COND|T_DIR|BYTE_BLOCK|T_LENGTH, features, count, LBA, device,
// command.
const auto kIdentifyCdb = cdb({0x85, 0x08, 0x0E, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0xEC, 0});
const auto kSetPasswordCdb = cdb({0x85, 0x0A, 0x26, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0xF1, 0});
const auto kErasePrepareCdb = cdb({0x85, 0x06, 0x20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xF3, 0});
const auto kEraseUnitCdb = cdb({0x85, 0x0A, 0x26, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0xF4, 0});
const auto kDisablePasswordCdb = cdb({0x85, 0x0A, 0x26, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0xF6, 0});

std::vector<std::uint8_t> passwordBlock(std::uint16_t control, const std::string& password) {
    std::vector<std::uint8_t> block(512, 0);
    block[0] = static_cast<std::uint8_t>(control & 0xFF);
    block[1] = static_cast<std::uint8_t>(control >> 8);
    for (std::size_t i = 0; i < password.size(); ++i) {
        block[2 + i] = static_cast<std::uint8_t>(password[i]);
    }
    return block;
}

ScriptStep step(std::string name, std::array<std::uint8_t, 16> bytes, DataDirection direction,
                std::vector<std::uint8_t> out = {}) {
    ScriptStep s;
    s.name = std::move(name);
    s.cdb = bytes;
    s.direction = direction;
    s.expectedOut = std::move(out);
    return s;
}

ScriptStep aborted(ScriptStep s) {
    s.ataStatus = 0x51; // DRDY | ERR
    s.ataError = 0x04;  // ABRT
    return s;
}

} // namespace

TEST_CASE("IDENTIFY DEVICE goes out as PIO data-in and its data is parsed") {
    FakeScsiTransport fake;
    auto s = step("identify", kIdentifyCdb, DataDirection::FromDevice);
    const auto data = test::AtaIdentifyBuilder().model("Lab SSD 1").word(128, 0x0021).build();
    s.dataIn.assign(data.begin(), data.end());
    fake.expect(s);
    AtaDevice ata(fake);
    auto id = ata.identify();
    REQUIRE(id);
    CHECK(id->model == "Lab SSD 1");
    CHECK(id->security.supported);
    CHECK(id->security.enhancedEraseSupported);
    CHECK(fake.finished());
}

TEST_CASE("security erase sends SET PASSWORD, ERASE PREPARE, ERASE UNIT in that order") {
    FakeScsiTransport fake;
    fake.expect(step("set password", kSetPasswordCdb, DataDirection::ToDevice,
                     passwordBlock(0x0000, "SSDKtest")));
    fake.expect(step("erase prepare", kErasePrepareCdb, DataDirection::None));
    SECTION("enhanced") {
        fake.expect(step("erase unit", kEraseUnitCdb, DataDirection::ToDevice,
                         passwordBlock(0x0002, "SSDKtest")));
        AtaDevice ata(fake);
        REQUIRE(ata.securityErase("SSDKtest", true, std::chrono::minutes(10)));
    }
    SECTION("normal") {
        fake.expect(step("erase unit", kEraseUnitCdb, DataDirection::ToDevice,
                         passwordBlock(0x0000, "SSDKtest")));
        AtaDevice ata(fake);
        REQUIRE(ata.securityErase("SSDKtest", false, std::chrono::minutes(10)));
    }
    CHECK(fake.sent() == std::vector<std::string>{"set password", "erase prepare", "erase unit"});
    CHECK(fake.finished());
}

TEST_CASE("an aborted ERASE UNIT removes the temporary password again") {
    FakeScsiTransport fake;
    fake.expect(
        step("set password", kSetPasswordCdb, DataDirection::ToDevice, passwordBlock(0, "pw")));
    fake.expect(step("erase prepare", kErasePrepareCdb, DataDirection::None));
    fake.expect(aborted(
        step("erase unit", kEraseUnitCdb, DataDirection::ToDevice, passwordBlock(0, "pw"))));
    fake.expect(step("disable password", kDisablePasswordCdb, DataDirection::ToDevice,
                     passwordBlock(0, "pw")));
    AtaDevice ata(fake);
    auto erased = ata.securityErase("pw", false, std::chrono::minutes(1));
    REQUIRE_FALSE(erased);
    CHECK(erased.error().code() == ErrorCode::Unsupported);
    CHECK_THAT(erased.error().describe(),
               Catch::Contains("SECURITY ERASE UNIT failed") && Catch::Contains("aborted"));
    CHECK(fake.finished());
}

TEST_CASE("an aborted ERASE PREPARE removes the password and never sends ERASE UNIT") {
    FakeScsiTransport fake;
    fake.expect(
        step("set password", kSetPasswordCdb, DataDirection::ToDevice, passwordBlock(0, "pw")));
    fake.expect(aborted(step("erase prepare", kErasePrepareCdb, DataDirection::None)));
    fake.expect(step("disable password", kDisablePasswordCdb, DataDirection::ToDevice,
                     passwordBlock(0, "pw")));
    AtaDevice ata(fake);
    REQUIRE_FALSE(ata.securityErase("pw", false, std::chrono::minutes(1)));
    CHECK(fake.sent() ==
          std::vector<std::string>{"set password", "erase prepare", "disable password"});
}

TEST_CASE("a failing password removal is reported with the password") {
    FakeScsiTransport fake;
    fake.expect(
        step("set password", kSetPasswordCdb, DataDirection::ToDevice, passwordBlock(0, "pw")));
    fake.expect(aborted(step("erase prepare", kErasePrepareCdb, DataDirection::None)));
    fake.expect(aborted(step("disable password", kDisablePasswordCdb, DataDirection::ToDevice,
                             passwordBlock(0, "pw"))));
    AtaDevice ata(fake);
    auto erased = ata.securityErase("pw", false, std::chrono::minutes(1));
    REQUIRE_FALSE(erased);
    CHECK_THAT(erased.error().describe(), Catch::Contains("still has user password 'pw'"));
}

TEST_CASE("a refused SET PASSWORD stops the sequence at once") {
    FakeScsiTransport fake;
    fake.expect(aborted(
        step("set password", kSetPasswordCdb, DataDirection::ToDevice, passwordBlock(0, "pw"))));
    AtaDevice ata(fake);
    REQUIRE_FALSE(ata.securityErase("pw", false, std::chrono::minutes(1)));
    CHECK(fake.sent() == std::vector<std::string>{"set password"});
}

TEST_CASE("a USB bridge that refuses ATA PASS-THROUGH is named") {
    FakeScsiTransport fake;
    auto s = step("identify", kIdentifyCdb, DataDirection::FromDevice);
    s.dataIn.assign(512, 0);
    s.scsiSense = std::make_pair(std::uint8_t{0x05}, std::uint8_t{0x20});
    fake.expect(s);
    AtaDevice ata(fake);
    auto id = ata.identify();
    REQUIRE_FALSE(id);
    CHECK(id.error().code() == ErrorCode::Unsupported);
    CHECK_THAT(id.error().message(), Catch::Contains("USB bridge"));
}

TEST_CASE("an adapter error (host status) is not mistaken for success") {
    FakeScsiTransport fake;
    auto s = step("identify", kIdentifyCdb, DataDirection::FromDevice);
    s.dataIn.assign(512, 0);
    s.hostStatus = 0x07;
    fake.expect(s);
    AtaDevice ata(fake);
    REQUIRE_FALSE(ata.identify());
}

TEST_CASE("passwords outside 1..32 bytes are refused before anything is sent") {
    FakeScsiTransport fake;
    AtaDevice ata(fake);
    CHECK_FALSE(ata.securityErase(std::string(33, 'x'), false, std::chrono::minutes(1)));
    CHECK(fake.sent().empty());
}

TEST_CASE("SANITIZE CRYPTO SCRAMBLE EXT and STATUS EXT carry their keys and flags") {
    FakeScsiTransport fake;
    // LBA 43727970h ("Cryp") spread over the SAT byte order 31:24, 7:0, 39:32, 15:8, 47:40, 23:16.
    fake.expect(
        step("crypto scramble",
             cdb({0x85, 0x07, 0x20, 0x00, 0x11, 0, 0, 0x43, 0x70, 0, 0x79, 0, 0x72, 0, 0xB4, 0}),
             DataDirection::None));
    auto status = step("status", cdb({0x85, 0x07, 0x20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xB4, 0}),
                       DataDirection::None);
    status.count = 0x4000; // in progress
    status.lba = 0x8000;   // half way
    fake.expect(status);
    AtaDevice ata(fake);
    REQUIRE(ata.sanitizeStart(SanitizeAction::CryptoScramble));
    auto progress = ata.sanitizeStatus();
    REQUIRE(progress);
    CHECK(progress->inProgress);
    CHECK_FALSE(progress->completedOk);
    CHECK(progress->fraction == Approx(0.5));
}

TEST_CASE("SANITIZE BLOCK ERASE EXT carries the BkEr key") {
    FakeScsiTransport fake;
    fake.expect(
        step("block erase",
             cdb({0x85, 0x07, 0x20, 0x00, 0x12, 0, 0, 0x42, 0x72, 0, 0x45, 0, 0x6B, 0, 0xB4, 0}),
             DataDirection::None));
    AtaDevice ata(fake);
    REQUIRE(ata.sanitizeStart(SanitizeAction::BlockErase));
}

TEST_CASE("ATA registers are read from fixed-format sense too") {
    std::vector<std::uint8_t> sense(18, 0);
    sense[0] = 0x70;
    sense[3] = 0x04; // error
    sense[4] = 0x51; // status
    sense[6] = 0x02; // count
    sense[9] = 0x10;
    sense[10] = 0x20;
    sense[11] = 0x30;
    sense[12] = 0x00;
    sense[13] = 0x1D;
    auto result = parseAtaSense(sense);
    REQUIRE(result);
    CHECK(result->aborted());
    CHECK(result->count == 2);
    CHECK(result->lba == 0x302010);
    CHECK_FALSE(parseAtaSense(std::vector<std::uint8_t>{0x70, 0, 5}));
}

// Recorded in the QEMU lab (Debian 12's 6.1 kernel, AHCI): SECURITY SET PASSWORD and SANITIZE
// STATUS EXT aborted by a drive without those feature sets, in pre-6.10 libata's layout.
TEST_CASE("ATA registers are read from the fixed-format sense of older Linux kernels") {
    const std::vector<std::uint8_t> setPassword{0x70, 0x00, 0x0b, 0x00, 0x00, 0x00,
                                                0x00, 0x0a, 0x04, 0x41, 0x00, 0x01,
                                                0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
    auto aborted = parseAtaSense(setPassword);
    REQUIRE(aborted);
    CHECK(aborted->status == 0x41);
    CHECK(aborted->error == 0x04);
    CHECK(aborted->count == 1);
    CHECK(aborted->aborted());
    const std::vector<std::uint8_t> sanitize{0x70, 0x00, 0x0b, 0x00, 0x00, 0x00, 0x00, 0x0a, 0x04,
                                             0x41, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x00};
    auto status = parseAtaSense(sanitize);
    REQUIRE(status);
    CHECK(status->aborted());
    // Without a plausible status byte (DRDY set, BSY clear) it is not guessed at.
    auto garbage = setPassword;
    garbage[9] = 0x00;
    CHECK_FALSE(parseAtaSense(garbage));
}
