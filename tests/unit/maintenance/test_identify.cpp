#include <catch2/catch.hpp>

#include "core/maintenance/identify.h"

#include "identify_builder.h"

using namespace ssdk;
using namespace ssdk::maintenance;

TEST_CASE("ATA IDENTIFY: TRIM, DRAT/RZAT, sanitize, security state and erase times") {
    const auto bytes = test::AtaIdentifyBuilder()
                           .model("Samsung SSD 870 EVO 1TB")
                           .serial("S6PTNX0T123456")
                           .word(169, 0x0001)
                           .word(69, (1U << 14) | (1U << 5))
                           .word(59, (1U << 12) | (1U << 13) | (1U << 15))
                           .word(128, 0x0001 | 0x0008 | 0x0020)
                           .word(89, 0x8000 | 1)
                           .word(90, 4)
                           .build();
    auto id = parseAtaIdentify(bytes);
    REQUIRE(id);
    CHECK(id->model == "Samsung SSD 870 EVO 1TB");
    CHECK(id->serial == "S6PTNX0T123456");
    CHECK(id->sectors == 0x11000);
    CHECK(id->trimSupported);
    CHECK(id->deterministicTrim);
    CHECK(id->zeroAfterTrim);
    CHECK(id->sanitizeCryptoScramble);
    CHECK(id->sanitizeBlockErase);
    CHECK_FALSE(id->sanitizeOverwrite);
    CHECK(id->security.frozen);
    CHECK_FALSE(id->security.locked);
    CHECK(id->security.normalEraseMinutes == 2u);
    CHECK(id->security.enhancedEraseMinutes == 8u);
}

TEST_CASE("ATA IDENTIFY: 255 in the old format means more than 508 minutes") {
    const auto bytes = test::AtaIdentifyBuilder().word(128, 1).word(89, 255).build();
    auto id = parseAtaIdentify(bytes);
    REQUIRE(id);
    CHECK(id->security.normalEraseMinutes == 508u);
    CHECK_FALSE(id->security.enhancedEraseMinutes);
}

TEST_CASE("ATA IDENTIFY: a wrong checksum and a short buffer are refused") {
    auto bytes = test::AtaIdentifyBuilder().build();
    bytes[20] ^= 0xFF;
    CHECK_FALSE(parseAtaIdentify(bytes));
    CHECK_FALSE(parseAtaIdentify(std::span<const std::uint8_t>(bytes.data(), 100)));
}

TEST_CASE("libata's id text round-trips to the identify block") {
    const auto bytes = test::AtaIdentifyBuilder().model("X").word(169, 1).build();
    auto parsed = parseAtaIdHexText(test::ataIdHexText(bytes));
    REQUIRE(parsed);
    CHECK(*parsed == bytes);
    CHECK_FALSE(parseAtaIdHexText("0040 3fff"));
    CHECK_FALSE(parseAtaIdHexText("zzzz"));
}

TEST_CASE("NVMe identify controller and namespace fields") {
    std::array<std::uint8_t, 4096> ctrl{};
    const std::string model = "QEMU NVMe Ctrl";
    std::copy(model.begin(), model.end(), ctrl.begin() + 24);
    ctrl[256] = 0x02;        // OACS: format
    ctrl[328] = 0x03;        // SANICAP: crypto + block
    ctrl[520] = 0x04 | 0x08; // ONCS: DSM + write zeroes
    ctrl[524] = 0x04;        // FNA: crypto erase
    auto c = parseNvmeIdentifyController(ctrl);
    REQUIRE(c);
    CHECK(c->model == "QEMU NVMe Ctrl");
    CHECK(c->formatSupported);
    CHECK(c->sanitizeCrypto);
    CHECK(c->sanitizeBlock);
    CHECK_FALSE(c->sanitizeOverwrite);
    CHECK(c->dsmSupported);
    CHECK(c->cryptoEraseSupported);

    std::array<std::uint8_t, 4096> ns{};
    ns[0] = 0x00;
    ns[1] = 0x10; // 4096 blocks
    ns[26] = 1;   // format 1
    ns[33] = 1;   // DLFEAT: zeros
    ns[128 + 4 + 2] = 12;
    auto n = parseNvmeIdentifyNamespace(ns);
    REQUIRE(n);
    CHECK(n->sizeBlocks == 4096);
    CHECK(n->formatIndex == 1);
    CHECK(n->blockSize == 4096);
    CHECK(n->deallocateReads == 1);
    ns[128 + 4 + 2] = 3;
    CHECK_FALSE(parseNvmeIdentifyNamespace(ns));
}

TEST_CASE("SCSI logical block provisioning VPD") {
    std::vector<std::uint8_t> page{0, 0xB2, 0, 4, 0, 0x80 | 0x40 | 0x04, 0, 0};
    auto p = parseScsiProvisioningVpd(page);
    REQUIRE(p);
    CHECK(p->unmap);
    CHECK(p->writeSame16);
    CHECK_FALSE(p->writeSame10);
    CHECK(p->readZeroes == 1);
    page[1] = 0xB0;
    CHECK_FALSE(parseScsiProvisioningVpd(page));
}
