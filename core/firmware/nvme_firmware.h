#pragma once
// NVMe firmware facts as pure functions over bytes (NVMe 2.0 base specification): the
// firmware fields of Identify Controller (OACS, FRMW, FWUG, MTFA), the Firmware Slot
// Information log page (03h), the commands firmware sends (Firmware Image Download (11h),
// Firmware Commit (10h), Identify Controller, the slot log) and what a completion status of
// those commands means.

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"
#include "core/maintenance/transport/nvme_admin.h"

namespace ssdk::firmware {

inline constexpr std::uint8_t kOpcodeFirmwareCommit = 0x10;
inline constexpr std::uint8_t kOpcodeFirmwareDownload = 0x11;
inline constexpr std::uint8_t kLogFirmwareSlot = 0x03;
inline constexpr std::uint32_t kSlotLogBytes = 512;
inline constexpr std::uint32_t kDefaultChunkBytes = 4096;
// Every firmware command waits this long: a commit may take a while (MTFA allows up to
// 6553 s; drives take seconds).
inline constexpr std::chrono::milliseconds kFirmwareCommandTimeout{120'000};

struct NvmeFirmwareCaps {
    std::string model, serial, firmware;
    bool downloadCommitSupported = false; // OACS bit 2
    bool slot1ReadOnly = false;           // FRMW bit 0
    std::uint8_t slotCount = 0;           // FRMW bits 3:1 (1-7)
    bool activationWithoutReset = false;  // FRMW bit 4
    // FWUG byte: 0 = the controller gives no granularity, FFh = no restriction, else units
    // of 4 KiB.
    std::uint8_t fwugRaw = 0;
    std::uint16_t maxActivationTime100ms = 0; // MTFA; 0 = not reported

    // The size and offset granularity of each download command: FWUG × 4 KiB, or 4 KiB when
    // the controller reports none (0) or no restriction (FFh).
    std::uint32_t chunkBytes() const;
    // True when FWUG states an actual granularity the image must respect.
    bool granularityStated() const { return fwugRaw != 0 && fwugRaw != 0xFF; }
};

// Errors: Parse when the buffer is not 4096 bytes.
Expected<NvmeFirmwareCaps> parseFirmwareCaps(std::span<const std::uint8_t> identifyController);

struct NvmeSlotLog {
    std::uint8_t activeSlot = 0;               // AFI bits 2:0
    std::optional<std::uint8_t> nextResetSlot; // AFI bits 6:4; empty when 0
    std::vector<std::string> revisions;        // FRS1…FRS7; "" for an empty slot
};

// Errors: Parse when shorter than 64 bytes or the active slot is not 1-7.
Expected<NvmeSlotLog> parseFirmwareSlotLog(std::span<const std::uint8_t> log);

// Firmware Commit actions (CA field).
enum class CommitAction : std::uint8_t {
    Replace = 0,                 // store the downloaded image in the slot, do not activate
    ReplaceActivate = 1,         // store it and activate it at the next reset
    Activate = 2,                // activate the image already in the slot at the next reset
    ReplaceActivateImmediate = 3 // store it and activate it now, without a reset
};

std::string_view toString(CommitAction action); // "replace", "replace-activate", …
std::optional<CommitAction> commitActionFromString(std::string_view text);
bool replacesImage(CommitAction action);

// The firmware commands, each with kFirmwareCommandTimeout.
// Firmware Image Download, lengthBytes sent to the controller: NUMD (dwords - 1) in CDW10,
// OFST (dwords) in CDW11. Errors: InvalidArgument when offset or length is not a multiple of
// 4 or length is 0.
Expected<maintenance::transport::NvmeAdminCommand> downloadCommand(std::uint64_t offsetBytes,
                                                                   std::uint32_t lengthBytes);
// Firmware Commit: FS in CDW10 bits 2:0, CA in bits 5:3; no data.
maintenance::transport::NvmeAdminCommand commitCommand(std::uint8_t slot, CommitAction action);
// Get Log Page 03h, 512 bytes, for the whole controller.
maintenance::transport::NvmeAdminCommand slotLogCommand();
// Identify Controller (CNS 01h), 4096 bytes.
maintenance::transport::NvmeAdminCommand identifyControllerCommand();

// SCT << 8 | SC of a completion's status: firmware judges its commands on these bits alone,
// whatever CRD, More and DNR say.
constexpr std::uint16_t statusCode(std::uint16_t status) {
    return status & 0x7FF;
}

// What a Firmware Commit completion means, from statusCode(status).
enum class CommitOutcome {
    Done,                   // success
    NeedsConventionalReset, // 10Bh
    NeedsSubsystemReset,    // 110h
    NeedsControllerReset,   // 111h
    Failed                  // anything else
};

struct StatusMeaning {
    CommitOutcome outcome = CommitOutcome::Failed;
    std::string text;
};

StatusMeaning describeCommitStatus(std::uint16_t status);
// A readable name for a command-specific or generic status of the firmware commands
// (statusCode(status)).
std::string describeStatus(std::uint16_t status);

} // namespace ssdk::firmware
