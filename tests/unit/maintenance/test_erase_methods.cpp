#include <catch2/catch.hpp>

#include "core/maintenance/erase/eraser.h"
#include "core/maintenance/erase/guards.h"
#include "core/maintenance/erase/methods.h"

#include "identify_builder.h"

using namespace ssdk;
using namespace ssdk::maintenance;
using namespace ssdk::maintenance::erase;

namespace {

AtaIdentify ataWithSecurity(std::uint16_t word128, std::uint16_t word59 = 0) {
    auto id = parseAtaIdentify(test::AtaIdentifyBuilder()
                                   .model("Lab SATA")
                                   .word(128, word128)
                                   .word(59, word59)
                                   .word(89, 5)
                                   .build());
    REQUIRE(id);
    return *id;
}

const MethodOption& option(const std::vector<MethodOption>& options, Method method) {
    for (const auto& o : options) {
        if (o.method == method) {
            return o;
        }
    }
    FAIL("method missing");
    return options.front();
}

device::Device labDisk() {
    device::Device d;
    d.name = "loop9";
    d.path = "/dev/loop9";
    d.size = Bytes::gib(1);
    return d;
}

} // namespace

TEST_CASE("methods are listed strongest first and auto picks the strongest available") {
    EraseCapabilities caps;
    caps.bus = "sata";
    caps.discard = true;
    caps.size = Bytes::gib(1);
    caps.ata = ataWithSecurity(0x0021, (1U << 12) | (1U << 15));
    const auto options = listMethods(caps);
    REQUIRE(options.front().method == Method::NvmeSanitizeCrypto);
    CHECK(options.back().method == Method::BlkZeroOut);
    CHECK(option(options, Method::AtaSanitizeBlock).available);
    CHECK_FALSE(option(options, Method::AtaSanitizeCrypto).available);
    CHECK(option(options, Method::AtaSecurityEraseEnhanced).available);
    CHECK(option(options, Method::AtaSecurityErase).estimate == std::chrono::minutes(10));
    CHECK(chooseMethod(caps, "auto") == Method::AtaSanitizeBlock);
    CHECK(chooseMethod(caps, "ata-security-erase") == Method::AtaSecurityErase);
}

TEST_CASE("a frozen ATA drive is explained with the suspend/resume way out") {
    EraseCapabilities caps;
    caps.bus = "sata";
    caps.size = Bytes::gib(1);
    caps.ata = ataWithSecurity(0x0001 | 0x0008 | 0x0020);
    auto chosen = chooseMethod(caps, "ata-security-erase-enhanced");
    REQUIRE_FALSE(chosen);
    CHECK(chosen.error().code() == ErrorCode::Unsupported);
    CHECK_THAT(chosen.error().message(), Catch::Contains("frozen") && Catch::Contains("suspend"));
    // auto falls through to the block-layer methods.
    CHECK(chooseMethod(caps, "auto") == Method::BlkZeroOut);
}

TEST_CASE("a locked drive or one with a password is not erased") {
    EraseCapabilities caps;
    caps.bus = "sata";
    caps.size = Bytes::gib(1);
    caps.ata = ataWithSecurity(0x0001 | 0x0002 | 0x0004);
    CHECK_THAT(option(listMethods(caps), Method::AtaSecurityErase).reason,
               Catch::Contains("locked"));
    caps.ata = ataWithSecurity(0x0001 | 0x0002);
    CHECK_THAT(option(listMethods(caps), Method::AtaSecurityErase).reason,
               Catch::Contains("password is already set"));
}

TEST_CASE("a USB bridge that blocks pass-through leaves only block-layer methods") {
    EraseCapabilities caps;
    caps.bus = "usb";
    caps.size = Bytes::gib(1);
    caps.ataUnavailableReason = "IDENTIFY DEVICE: the device does not accept ATA PASS-THROUGH";
    CHECK_THAT(option(listMethods(caps), Method::AtaSecurityErase).reason,
               Catch::Contains("PASS-THROUGH"));
    CHECK(chooseMethod(caps, "auto") == Method::BlkZeroOut);
}

TEST_CASE("NVMe methods follow SANICAP, OACS and FNA") {
    EraseCapabilities caps;
    caps.bus = "nvme";
    caps.discard = true;
    caps.size = Bytes::gib(1);
    NvmeController ctrl;
    ctrl.formatSupported = true;
    caps.nvme = ctrl;
    CHECK(chooseMethod(caps, "auto") == Method::NvmeFormatUserData);
    caps.nvme->cryptoEraseSupported = true;
    CHECK(chooseMethod(caps, "auto") == Method::NvmeFormatCrypto);
    caps.nvme->sanitizeBlock = true;
    CHECK(chooseMethod(caps, "auto") == Method::NvmeSanitizeBlock);
    CHECK_FALSE(chooseMethod(caps, "nvme-sanitize-crypto"));
    CHECK_FALSE(chooseMethod(caps, "no-such-method"));
}

TEST_CASE("a lab drive gets discard and zero-out") {
    EraseCapabilities caps;
    caps.bus = "loop";
    caps.discard = true;
    caps.size = Bytes::gib(1);
    CHECK(chooseMethod(caps, "auto") == Method::BlkDiscard);
    CHECK_FALSE(chooseMethod(caps, "secdiscard"));
    for (const auto& o : listMethods(caps)) {
        CHECK(methodFromString(toString(o.method)) == o.method);
    }
}

TEST_CASE("erase guards: system disk, mounted, held, read-only, typed model") {
    device::Device disk = labDisk();
    disk.model = "Lab SSD";
    CHECK(checkEraseGuards(disk, "Lab SSD"));
    SECTION("wrong model") {
        auto refused = checkEraseGuards(disk, "lab ssd");
        REQUIRE_FALSE(refused);
        CHECK(refused.error().code() == ErrorCode::InvalidArgument);
    }
    SECTION("system disk") {
        device::Partition root;
        root.name = "loop9p1";
        root.mounts.push_back({"/", "ext4", "rw"});
        disk.partitions.push_back(root);
        auto refused = checkEraseGuards(disk, "Lab SSD");
        REQUIRE_FALSE(refused);
        CHECK(refused.error().code() == ErrorCode::PermissionDenied);
    }
    SECTION("mounted partition") {
        device::Partition data;
        data.name = "loop9p1";
        data.mounts.push_back({"/mnt/data", "ext4", "rw"});
        disk.partitions.push_back(data);
        auto refused = checkEraseGuards(disk, "Lab SSD");
        REQUIRE_FALSE(refused);
        CHECK(refused.error().code() == ErrorCode::Busy);
        CHECK_THAT(refused.error().message(), Catch::Contains("/mnt/data"));
    }
    SECTION("holders") {
        disk.holders.push_back({device::Holder::Kind::DeviceMapper, "dm-0", "luks-x"});
        auto refused = checkEraseGuards(disk, "Lab SSD");
        REQUIRE_FALSE(refused);
        CHECK_THAT(refused.error().message(), Catch::Contains("luks-x"));
    }
    SECTION("read-only") {
        disk.readOnly = true;
        CHECK_FALSE(checkEraseGuards(disk, "Lab SSD"));
    }
}

TEST_CASE("a device without a model is confirmed by its kernel name") {
    CHECK(confirmationWord(labDisk()) == "loop9");
}

TEST_CASE("verification fails when a sampled block still holds its old data") {
    std::vector<SpreadSample> before{{0, 111, false}, {4096, 222, false}, {8192, 0, true}};
    std::vector<SpreadSample> after = before;
    auto v = judge(before, after, Method::BlkDiscard);
    CHECK_FALSE(v.passed);
    CHECK(v.unchangedData == 2);
    after[0].checksum = 999;
    after[1].checksum = 998;
    v = judge(before, after, Method::BlkDiscard);
    CHECK(v.passed);
    // A zero-out must leave zeros, not just different data.
    CHECK_FALSE(judge(before, after, Method::BlkZeroOut).passed);
}

TEST_CASE("the certificate names the device, the method and the verification") {
    EraseCertificate c;
    c.method = "zeroout";
    c.devicePath = "/dev/loop9";
    c.model = "Lab SSD";
    c.serial = "123";
    c.verification.passed = true;
    c.verification.summary = "fine";
    const Json json = toJson(c);
    CHECK(json["device"]["serial"] == "123");
    CHECK(json["verification"]["passed"] == true);
    CHECK_THAT(toText(c), Catch::Contains("PASSED") && Catch::Contains("Lab SSD"));
}
