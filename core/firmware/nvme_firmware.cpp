#include "core/firmware/nvme_firmware.h"

#include <fmt/format.h>

#include "core/maintenance/transport/nvme_commands.h"

namespace ssdk::firmware {

namespace transport = maintenance::transport;
using transport::NvmeAdminCommand;

namespace {

std::string trimmedAscii(std::span<const std::uint8_t> data, std::size_t offset,
                         std::size_t length) {
    std::string text(reinterpret_cast<const char*>(data.data() + offset), length);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\0')) {
        text.pop_back();
    }
    const auto first = text.find_first_not_of(' ');
    return first == std::string::npos ? std::string() : text.substr(first);
}

bool fieldBit(std::uint32_t value, unsigned position) {
    return ((value >> position) & 1U) != 0;
}

} // namespace

std::uint32_t NvmeFirmwareCaps::chunkBytes() const {
    return granularityStated() ? std::uint32_t{fwugRaw} * kDefaultChunkBytes : kDefaultChunkBytes;
}

Expected<NvmeFirmwareCaps> parseFirmwareCaps(std::span<const std::uint8_t> data) {
    if (data.size() != 4096) {
        return fail(ErrorCode::Parse, "NVMe Identify Controller data must be 4096 bytes, got " +
                                          std::to_string(data.size()));
    }
    NvmeFirmwareCaps caps;
    caps.serial = trimmedAscii(data, 4, 20);
    caps.model = trimmedAscii(data, 24, 40);
    caps.firmware = trimmedAscii(data, 64, 8);
    const std::uint32_t oacs = data[256] | (std::uint32_t{data[257]} << 8);
    const std::uint8_t frmw = data[260];
    caps.downloadCommitSupported = fieldBit(oacs, 2);
    caps.slot1ReadOnly = fieldBit(frmw, 0);
    caps.slotCount = static_cast<std::uint8_t>((frmw >> 1) & 0x07);
    caps.activationWithoutReset = fieldBit(frmw, 4);
    caps.maxActivationTime100ms = static_cast<std::uint16_t>(data[258] | (data[259] << 8));
    caps.fwugRaw = data[319];
    return caps;
}

Expected<NvmeSlotLog> parseFirmwareSlotLog(std::span<const std::uint8_t> data) {
    if (data.size() < 64) {
        return fail(ErrorCode::Parse,
                    "the firmware slot log needs 64 bytes, got " + std::to_string(data.size()));
    }
    NvmeSlotLog log;
    const std::uint8_t afi = data[0];
    log.activeSlot = afi & 0x07;
    if (log.activeSlot == 0) {
        return fail(ErrorCode::Parse, "the firmware slot log names no active slot (AFI 0)");
    }
    const std::uint8_t next = (afi >> 4) & 0x07;
    if (next != 0) {
        log.nextResetSlot = next;
    }
    for (std::size_t slot = 0; slot < 7; ++slot) {
        log.revisions.push_back(trimmedAscii(data, 8 + slot * 8, 8));
    }
    return log;
}

std::string_view toString(CommitAction action) {
    switch (action) {
    case CommitAction::Replace:
        return "replace";
    case CommitAction::ReplaceActivate:
        return "replace-activate";
    case CommitAction::Activate:
        return "activate";
    case CommitAction::ReplaceActivateImmediate:
        return "activate-now";
    }
    return "replace";
}

std::optional<CommitAction> commitActionFromString(std::string_view text) {
    for (auto action : {CommitAction::Replace, CommitAction::ReplaceActivate,
                        CommitAction::Activate, CommitAction::ReplaceActivateImmediate}) {
        if (toString(action) == text) {
            return action;
        }
    }
    return std::nullopt;
}

bool replacesImage(CommitAction action) {
    return action != CommitAction::Activate;
}

Expected<NvmeAdminCommand> downloadCommand(std::uint64_t offsetBytes, std::uint32_t lengthBytes) {
    if (lengthBytes == 0 || lengthBytes % 4 != 0 || offsetBytes % 4 != 0) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("a firmware download needs dword-aligned offset and length "
                                "(offset {}, length {})",
                                offsetBytes, lengthBytes));
    }
    if (offsetBytes / 4 > 0xFFFFFFFFULL) {
        return fail(ErrorCode::InvalidArgument, "firmware download offset is out of range");
    }
    NvmeAdminCommand command;
    command.opcode = kOpcodeFirmwareDownload;
    command.cdw10 = lengthBytes / 4 - 1;
    command.cdw11 = static_cast<std::uint32_t>(offsetBytes / 4);
    command.direction = transport::NvmeDataDirection::ToDevice;
    command.timeout = kFirmwareCommandTimeout;
    return command;
}

NvmeAdminCommand commitCommand(std::uint8_t slot, CommitAction action) {
    NvmeAdminCommand command;
    command.opcode = kOpcodeFirmwareCommit;
    command.cdw10 = (slot & 0x07U) | (static_cast<std::uint32_t>(action) << 3);
    command.timeout = kFirmwareCommandTimeout;
    return command;
}

NvmeAdminCommand slotLogCommand() {
    NvmeAdminCommand command =
        transport::getLogPageCommand(kLogFirmwareSlot, transport::kNvmeNsidAll, kSlotLogBytes);
    command.timeout = kFirmwareCommandTimeout;
    return command;
}

NvmeAdminCommand identifyControllerCommand() {
    NvmeAdminCommand command = transport::identifyControllerCommand();
    command.timeout = kFirmwareCommandTimeout;
    return command;
}

std::string describeStatus(std::uint16_t status) {
    switch (statusCode(status)) {
    case 0x000:
        return "success";
    case 0x001:
        return "Invalid Command Opcode (the controller does not implement the command)";
    case 0x002:
        return "Invalid Field in Command";
    case 0x106:
        return "Invalid Firmware Slot";
    case 0x107:
        return "Invalid Firmware Image (the controller rejected the downloaded image)";
    case 0x10B:
        return "Firmware Activation Requires Conventional Reset";
    case 0x110:
        return "Firmware Activation Requires NVM Subsystem Reset";
    case 0x111:
        return "Firmware Activation Requires Controller Level Reset";
    case 0x112:
        return "Firmware Activation Requires Maximum Time Violation";
    case 0x113:
        return "Firmware Activation Prohibited";
    case 0x114:
        return "Overlapping Range (a download overlapped an earlier one)";
    default:
        return fmt::format("NVMe status {:#05x}", statusCode(status));
    }
}

StatusMeaning describeCommitStatus(std::uint16_t status) {
    const std::uint16_t code = statusCode(status);
    StatusMeaning meaning;
    meaning.text = describeStatus(code);
    switch (code) {
    case 0x000:
        meaning.outcome = CommitOutcome::Done;
        break;
    case 0x10B:
        meaning.outcome = CommitOutcome::NeedsConventionalReset;
        meaning.text += ": the image is committed and runs after the next power cycle or reboot";
        break;
    case 0x110:
        meaning.outcome = CommitOutcome::NeedsSubsystemReset;
        meaning.text += ": the image is committed and runs after an NVM subsystem reset";
        break;
    case 0x111:
        meaning.outcome = CommitOutcome::NeedsControllerReset;
        meaning.text += ": the image is committed and runs after a controller reset";
        break;
    default:
        meaning.outcome = CommitOutcome::Failed;
        break;
    }
    return meaning;
}

} // namespace ssdk::firmware
