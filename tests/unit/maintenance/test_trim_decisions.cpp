#include <catch2/catch.hpp>

#include "core/maintenance/block_io.h"
#include "core/maintenance/trim/format_verify.h"
#include "core/maintenance/trim/fstrim.h"
#include "core/maintenance/trim/verify.h"

using namespace ssdk;
using namespace ssdk::maintenance;
using namespace ssdk::maintenance::trim;

TEST_CASE("verify decision: markers gone, kept, partly gone") {
    std::string reason, returned;
    BlockCounts gone{0, 256, 0, 0};
    CHECK(decide(gone, false, false, reason, returned) == VerifyOutcome::Reached);
    CHECK(returned == "zeros");
    BlockCounts ones{0, 0, 256, 0};
    CHECK(decide(ones, false, false, reason, returned) == VerifyOutcome::Reached);
    CHECK(returned == "ones");

    BlockCounts kept{256, 0, 0, 0};
    CHECK(decide(kept, true, false, reason, returned) == VerifyOutcome::NotReached);
    CHECK(returned == "old data");
    CHECK(decide(kept, false, true, reason, returned) == VerifyOutcome::NotReached);
    // A non-deterministic drive may trim and still return the old data.
    CHECK(decide(kept, false, false, reason, returned) == VerifyOutcome::Inconclusive);
    CHECK_THAT(reason, Catch::Contains("deterministic"));

    BlockCounts partly{100, 156, 0, 0};
    CHECK(decide(partly, true, false, reason, returned) == VerifyOutcome::Inconclusive);
    CHECK(decide(BlockCounts{}, true, false, reason, returned) == VerifyOutcome::Inconclusive);
}

TEST_CASE("block classification") {
    std::vector<std::uint8_t> block(4096, 0);
    CHECK(classifyBlock(block) == BlockContent::Zeros);
    std::fill(block.begin(), block.end(), 0xFF);
    CHECK(classifyBlock(block) == BlockContent::Ones);
    block[17] = 3;
    CHECK(classifyBlock(block) == BlockContent::Other);
}

TEST_CASE("fstrim.timer status from systemctl show") {
    auto timer = parseTimerShow("UnitFileState=enabled\nActiveState=active\n"
                                "LastTriggerUSec=@1763800000\n");
    CHECK(timer.available);
    CHECK(timer.enabled);
    CHECK(timer.active);
    CHECK(timer.lastTriggerEpochSeconds == 1763800000);
    timer = parseTimerShow("UnitFileState=disabled\nActiveState=inactive\nLastTriggerUSec=n/a\n");
    CHECK_FALSE(timer.enabled);
    CHECK_FALSE(timer.lastTriggerEpochSeconds);
    timer = parseTimerShow("UnitFileState=\nActiveState=inactive\n");
    CHECK_FALSE(timer.available);
}

TEST_CASE("timer status without systemd says why") {
    const auto recorded = std::filesystem::path(SSDK_TEST_DATA_DIR) / "sysfs" / "workstation";
    class NoRunner : public ProcessRunner {
    public:
        Expected<ProcessResult> run(const ProcessRequest&) override {
            FAIL("systemctl must not run without systemd");
            return ProcessResult{};
        }
    } runner;
    const auto timer = readTimer(runner, SysfsRoot(recorded));
    CHECK_FALSE(timer.available);
    CHECK_THAT(timer.unavailableReason, Catch::Contains("systemd is not the init system"));
}

TEST_CASE("the formatters table says which ones discard") {
    REQUIRE(findFormatter("ext4"));
    CHECK(findFormatter("ext4")->discardsByDefault);
    CHECK_FALSE(findFormatter("ntfs")->discardsByDefault);
    CHECK(findFormatter("ntfs")->quickArgs.front() == "-Q");
    CHECK_FALSE(findFormatter("zfs"));
}
