// Quick format + verify TRIM for every installed formatter, on a lab drive whose partition
// held ext4 files: the verdict must agree with the image's holes block for block.
#include "core/maintenance/trim/format_verify.h"
#include "tests/integration/maintenance/maintenance_scratch.h"

using namespace ssdk;
using namespace ssdk::maintenance::trim;
using namespace ssdk::test;
namespace fs = std::filesystem;

namespace {

// Fresh ext4 (4 KiB blocks, so each sampled block covers whole blocks of the image on the
// host) holding 24 MiB of random files, unmounted again.
void fillPartition(const std::string& partition, const fs::path& mountPoint) {
    SystemProcessRunner runner;
    REQUIRE(runChecked(
        runner, {.argv = {"mkfs.ext4", "-F", "-q", "-b", "4096", "-E", "nodiscard", partition}}));
    MountGuard mount(partition, mountPoint);
    writeRandomFiles(mountPoint, 6, 4 << 20);
}

} // namespace

TEST_CASE("quick format + verify agrees with the image's allocation for every formatter",
          "[maintenance]") {
    const MaintenanceScratch scratch;
    const auto drive = makeLabDrive("maint-format", Bytes::mib(512), "gpt-ext4");
    const std::string partition = drive.devicePath + "p1";
    SystemProcessRunner runner;
    int tested = 0;
    for (const Formatter& formatter : formatters()) {
        if (!haveProgram(formatter.program)) {
            WARN(formatter.program << " is not installed; not tested");
            continue;
        }
        DYNAMIC_SECTION("formatter " << formatter.fsType) {
            fillPartition(partition, scratch.dir() / "mnt");
            FormatOptions options;
            options.fsType = formatter.fsType;
            options.sampleBlocks = 128;
            auto result = quickFormat(partition, options, SysfsRoot(), runner);
            REQUIRE(result);
            INFO(toJson(*result).dump());
            CHECK(result->sampleSource == "old-filesystem-extents");
            CHECK(result->sampled >= 100);
            REQUIRE(result->groundTruthAgreements);
            CHECK(*result->groundTruthAgreements == result->sampled);
            REQUIRE(result->outcome);
            // What the formatter's documentation says is what the lab drive shows.
            CHECK(*result->outcome == (formatter.discardsByDefault ? VerifyOutcome::Reached
                                                                   : VerifyOutcome::NotReached));
            CHECK(result->offerBlkdiscard == !formatter.discardsByDefault);
            CHECK(probeType(partition) == formatter.fsType);
        }
        ++tested;
    }
    CHECK(tested >= 1);
}

TEST_CASE("discard first, then a formatter that does not discard", "[maintenance]") {
    if (!haveProgram("mkfs.vfat")) {
        WARN("mkfs.vfat is not installed; skipping");
        return;
    }
    const MaintenanceScratch scratch;
    const auto drive = makeLabDrive("maint-discard1st", Bytes::mib(256), "gpt-ext4");
    const std::string partition = drive.devicePath + "p1";
    fillPartition(partition, scratch.dir() / "mnt");
    SystemProcessRunner runner;
    FormatOptions options;
    options.fsType = "vfat";
    options.discardFirst = true;
    auto result = quickFormat(partition, options, SysfsRoot(), runner);
    REQUIRE(result);
    INFO(toJson(*result).dump());
    CHECK(result->discardedFirst);
    REQUIRE(result->outcome);
    CHECK(*result->outcome == VerifyOutcome::Reached);
    CHECK(*result->groundTruthAgreements == result->sampled);
}

TEST_CASE("quick format refuses a mounted partition and an unknown filesystem", "[maintenance]") {
    const MaintenanceScratch scratch;
    const auto drive = makeLabDrive("maint-fmtrefuse", Bytes::mib(128), "gpt-ext4");
    const std::string partition = drive.devicePath + "p1";
    SystemProcessRunner runner;
    FormatOptions options;
    options.fsType = "zfs";
    auto unknown = quickFormat(partition, options, SysfsRoot(), runner);
    REQUIRE_FALSE(unknown);
    CHECK(unknown.error().code() == ErrorCode::InvalidArgument);
    MountGuard mount(partition, scratch.dir() / "mnt");
    options.fsType = "ext4";
    auto busy = quickFormat(partition, options, SysfsRoot(), runner);
    REQUIRE_FALSE(busy);
    CHECK(busy.error().code() == ErrorCode::Busy);
    CHECK(probeType(partition) == "ext4");
}
