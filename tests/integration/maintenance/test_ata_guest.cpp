// The real ATA path (SG_IO → libata → AHCI) against the lab VM's emulated SATA SSD: hidden
// from normal runs ("[.lab-guest]"); tests/lab/checks/erase_sata.sh runs it inside the guest
// with SSDK_LAB_ATA_DEVICE set to the SSD's kernel node. It sends the security erase sequence
// to a drive that does not implement it (QEMU's ide-hd) and checks that the drive's abort comes
// back as a clear error and that the drive is left as it was.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>

#include "core/maintenance/erase/eraser.h"
#include "core/maintenance/transport/ata_device.h"
#include "core/maintenance/transport/platform/linux/sg_io_transport.h"

using namespace ssdk;
using namespace ssdk::maintenance;

TEST_CASE("ATA pass-through reaches the emulated SATA SSD and its security abort is reported",
          "[.lab-guest]") {
    const char* path = std::getenv("SSDK_LAB_ATA_DEVICE");
    REQUIRE(path != nullptr);
    auto opened = transport::SgIoTransport::open(path);
    REQUIRE(opened);
    transport::AtaDevice ata(*opened);

    // IDENTIFY DEVICE over ATA PASS-THROUGH(16): QEMU's identify data with the lab's strings.
    auto id = ata.identify();
    if (!id) {
        FAIL(id.error().describe());
    }
    CHECK(id->model == "SSDK Lab SATA SSD");
    CHECK(id->serial == "SSDKLABSATA0001");
    CHECK(id->trimSupported);
    CHECK_FALSE(id->security.supported);
    WARN("IDENTIFY word 128 (security): supported=" << id->security.supported << " sanitize block="
                                                    << id->sanitizeBlockErase);

    // SECURITY SET PASSWORD: QEMU aborts commands it does not implement (ERR + ABRT).
    auto erased = ata.securityErase("SSDKlabtest", false, std::chrono::seconds(30));
    REQUIRE_FALSE(erased);
    CHECK(erased.error().code() == ErrorCode::Unsupported);
    CHECK_THAT(erased.error().describe(), Catch::Contains("SECURITY SET PASSWORD failed") &&
                                              Catch::Contains("command aborted by the drive"));
    WARN("SECURITY SET PASSWORD: " << erased.error().describe());

    // SANITIZE STATUS EXT: aborted the same way.
    auto sanitize = ata.sanitizeStatus();
    REQUIRE_FALSE(sanitize);
    CHECK_THAT(sanitize.error().describe(), Catch::Contains("command aborted by the drive"));
    WARN("SANITIZE STATUS EXT: " << sanitize.error().describe());

    // Nothing changed: still no security, no password.
    auto after = ata.identify();
    REQUIRE(after);
    CHECK_FALSE(after->security.enabled);
    CHECK_FALSE(after->security.locked);
}
