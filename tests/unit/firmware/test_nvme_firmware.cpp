// NVMe firmware parsers and command encodings against hand-built bytes (NVMe 2.0 layouts).
#include <catch2/catch.hpp>

#include "core/firmware/nvme_firmware.h"
#include "tests/unit/firmware/firmware_test_support.h"

using namespace ssdk::firmware;
using namespace ssdk::firmware::test;

TEST_CASE("Identify Controller firmware fields: OACS, FRMW, FWUG, MTFA") {
    // FRMW 0x17: slot 1 read-only, 3 slots (bits 3:1 = 011), activation without reset.
    auto caps = parseFirmwareCaps(identifyController(true, 0x17, 2, "GDC5302Q"));
    REQUIRE(caps);
    CHECK(caps->downloadCommitSupported);
    CHECK(caps->slot1ReadOnly);
    CHECK(caps->slotCount == 3);
    CHECK(caps->activationWithoutReset);
    CHECK(caps->fwugRaw == 2);
    CHECK(caps->granularityStated());
    CHECK(caps->chunkBytes() == 8192);
    CHECK(caps->maxActivationTime100ms == 50);
    CHECK(caps->firmware == "GDC5302Q");
    CHECK(caps->model == "QEMU NVMe Ctrl");
    CHECK(caps->serial == "SN0001");

    auto plain = parseFirmwareCaps(identifyController(false, 0x02, 0, "1.0"));
    REQUIRE(plain);
    CHECK_FALSE(plain->downloadCommitSupported);
    CHECK_FALSE(plain->slot1ReadOnly);
    CHECK(plain->slotCount == 1);
    CHECK_FALSE(plain->activationWithoutReset);
}

TEST_CASE("FWUG 0 (not reported) and FFh (no restriction) download in 4 KiB chunks") {
    auto none = parseFirmwareCaps(identifyController(true, 0x02, 0));
    auto unrestricted = parseFirmwareCaps(identifyController(true, 0x02, 0xFF));
    REQUIRE(none);
    REQUIRE(unrestricted);
    CHECK(none->chunkBytes() == 4096);
    CHECK_FALSE(none->granularityStated());
    CHECK(unrestricted->chunkBytes() == 4096);
    CHECK_FALSE(unrestricted->granularityStated());
}

TEST_CASE("Identify Controller must be 4096 bytes") {
    std::vector<std::uint8_t> small(512, 0);
    CHECK_FALSE(parseFirmwareCaps(small));
}

TEST_CASE("firmware slot log: active slot, next-reset slot, revisions") {
    auto log = parseFirmwareSlotLog(slotLog(0x21, {"1.0", "2.0 ", ""}));
    REQUIRE(log);
    CHECK(log->activeSlot == 1);
    REQUIRE(log->nextResetSlot);
    CHECK(*log->nextResetSlot == 2);
    REQUIRE(log->revisions.size() == 7);
    CHECK(log->revisions[0] == "1.0");
    CHECK(log->revisions[1] == "2.0");
    CHECK(log->revisions[2].empty());

    auto noNext = parseFirmwareSlotLog(slotLog(0x03, {"a", "b", "c"}));
    REQUIRE(noNext);
    CHECK(noNext->activeSlot == 3);
    CHECK_FALSE(noNext->nextResetSlot);

    CHECK_FALSE(parseFirmwareSlotLog(slotLog(0x00, {"a"})));
    CHECK_FALSE(parseFirmwareSlotLog(std::vector<std::uint8_t>(32, 0)));
}

TEST_CASE("download and commit dwords") {
    auto first = downloadCommand(0, 4096);
    REQUIRE(first);
    CHECK(first->opcode == 0x11);
    CHECK(first->cdw10 == 1023); // NUMD is zero-based
    CHECK(first->cdw11 == 0);
    auto later = downloadCommand(8192, 16);
    REQUIRE(later);
    CHECK(later->cdw10 == 3);
    CHECK(later->cdw11 == 2048); // OFST in dwords
    CHECK_FALSE(downloadCommand(0, 6));
    CHECK_FALSE(downloadCommand(2, 4));
    CHECK_FALSE(downloadCommand(0, 0));

    const auto commit = commitCommand(2, CommitAction::ReplaceActivate);
    CHECK(commit.opcode == 0x10);
    CHECK(commit.cdw10 == (2U | (1U << 3)));
    CHECK(commitCommand(3, CommitAction::ReplaceActivateImmediate).cdw10 == (3U | (3U << 3)));
    CHECK(commitCommand(1, CommitAction::Activate).cdw10 == (1U | (2U << 3)));
    CHECK(commitCommand(4, CommitAction::Replace).cdw10 == 4U);

    const auto log = slotLogCommand();
    CHECK(log.opcode == 0x02);
    CHECK(log.nsid == 0xFFFFFFFF);
    CHECK(log.cdw10 == (0x03U | (127U << 16)));

    // Data direction and the firmware timeout of every command.
    using ssdk::maintenance::transport::NvmeDataDirection;
    const auto identify = identifyControllerCommand();
    CHECK(identify.opcode == 0x06);
    CHECK(identify.nsid == 0);
    CHECK(identify.cdw10 == 0x01);
    CHECK(identify.direction == NvmeDataDirection::FromDevice);
    CHECK(log.direction == NvmeDataDirection::FromDevice);
    CHECK(first->direction == NvmeDataDirection::ToDevice);
    CHECK(commit.direction == NvmeDataDirection::None);
    for (const auto& command : {*first, commit, log, identify}) {
        CHECK(command.timeout == std::chrono::seconds(120));
    }
}

TEST_CASE("commit statuses: reset needed is committed, the rest failed") {
    CHECK(describeCommitStatus(0).outcome == CommitOutcome::Done);
    CHECK(describeCommitStatus(0x10B).outcome == CommitOutcome::NeedsConventionalReset);
    CHECK(describeCommitStatus(0x110).outcome == CommitOutcome::NeedsSubsystemReset);
    CHECK(describeCommitStatus(0x111).outcome == CommitOutcome::NeedsControllerReset);
    // DNR (bit 14) does not change the meaning.
    CHECK(describeCommitStatus(0x4111).outcome == CommitOutcome::NeedsControllerReset);
    CHECK(describeCommitStatus(0x106).outcome == CommitOutcome::Failed);
    CHECK(describeCommitStatus(0x107).outcome == CommitOutcome::Failed);
    CHECK(describeCommitStatus(0x113).outcome == CommitOutcome::Failed);
    CHECK(describeStatus(0x106) == "Invalid Firmware Slot");
    CHECK(describeStatus(0x2AB).find("0x2ab") != std::string::npos);
}

TEST_CASE("commit action names round-trip") {
    for (auto action : {CommitAction::Replace, CommitAction::ReplaceActivate,
                        CommitAction::Activate, CommitAction::ReplaceActivateImmediate}) {
        CHECK(commitActionFromString(toString(action)) == action);
    }
    CHECK_FALSE(commitActionFromString("flash"));
}
