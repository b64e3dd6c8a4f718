#include "core/maintenance/transport/ata_device.h"

#include <array>
#include <fmt/format.h>

namespace ssdk::maintenance::transport {

namespace {

constexpr std::chrono::milliseconds kShortTimeout{std::chrono::seconds(15)};

} // namespace

Expected<AtaResult> AtaDevice::send(const AtaPassThrough& command, DataDirection direction,
                                    std::span<std::uint8_t> buffer,
                                    std::chrono::milliseconds timeout, const char* name) {
    const auto cdb = buildAtaPassThrough16(command);
    auto reply = m_transport.execute(cdb, direction, buffer, timeout);
    if (!reply) {
        return std::unexpected(Error(reply.error()).addContext(name));
    }
    if (reply->hostStatus != 0 || reply->driverStatus != 0) {
        return fail(ErrorCode::Unsupported,
                    fmt::format("{}: the host adapter or USB bridge rejected ATA PASS-THROUGH "
                                "(host status {:#x}, driver status {:#x})",
                                name, reply->hostStatus, reply->driverStatus));
    }
    if (reply->sense.empty()) {
        if (reply->status == 0) {
            return AtaResult{};
        }
        return fail(ErrorCode::Io,
                    fmt::format("{}: SCSI status {:#x} without sense data", name, reply->status));
    }
    // Sense key ILLEGAL REQUEST (5) with INVALID COMMAND OPERATION CODE (20h) or INVALID FIELD
    // IN CDB (24h): a SCSI device or a bridge without SAT pass-through.
    const auto& sense = reply->sense;
    const bool descriptor = (sense[0] & 0x7F) == 0x72;
    const std::uint8_t key = descriptor ? (sense.size() > 1 ? sense[1] & 0x0F : 0)
                                        : (sense.size() > 2 ? sense[2] & 0x0F : 0);
    const std::uint8_t asc =
        descriptor ? (sense.size() > 2 ? sense[2] : 0) : (sense.size() > 12 ? sense[12] : 0);
    if (key == 0x05 && (asc == 0x20 || asc == 0x24)) {
        return fail(ErrorCode::Unsupported,
                    fmt::format("{}: the device does not accept ATA PASS-THROUGH (a SCSI/SAS "
                                "drive or a USB bridge that blocks it)",
                                name));
    }
    auto result = parseAtaSense(sense);
    if (!result) {
        std::string bytes;
        for (const std::uint8_t byte : sense) {
            bytes += fmt::format("{}{:02x}", bytes.empty() ? "" : " ", byte);
        }
        return std::unexpected(
            Error(result.error())
                .addContext(fmt::format("SCSI status {:#x}, sense [{}]", reply->status, bytes))
                .addContext(name));
    }
    if (result->failed()) {
        return fail(result->aborted() ? ErrorCode::Unsupported : ErrorCode::Io,
                    fmt::format("{} failed: ATA status {:#04x}, error {:#04x}{}", name,
                                result->status, result->error,
                                result->aborted() ? " (command aborted by the drive)" : ""));
    }
    return result;
}

Expected<AtaIdentify> AtaDevice::identify() {
    std::array<std::uint8_t, 512> data{};
    AtaPassThrough command;
    command.taskfile.command = ata::kIdentifyDevice;
    command.taskfile.count = 1;
    command.protocol = AtaProtocol::PioDataIn;
    command.blocks = 1;
    command.checkCondition = false; // the answer is the data block, not the registers
    if (auto sent =
            send(command, DataDirection::FromDevice, data, kShortTimeout, "IDENTIFY DEVICE");
        !sent) {
        return std::unexpected(sent.error());
    }
    return parseAtaIdentify(data);
}

Expected<void> AtaDevice::securityPasswordCommand(std::uint8_t commandCode,
                                                  const std::string& password,
                                                  std::uint16_t control,
                                                  std::chrono::milliseconds timeout,
                                                  const char* name) {
    if (password.empty() || password.size() > 32) {
        return fail(ErrorCode::InvalidArgument, "ATA passwords are 1 to 32 bytes");
    }
    // Word 0: control bits (bit 0 identifier: 0 user; bit 1 enhanced erase for ERASE UNIT;
    // bit 8 security level for SET PASSWORD: 0 high). Words 1–16: the password.
    std::array<std::uint8_t, 512> block{};
    block[0] = static_cast<std::uint8_t>(control & 0xFF);
    block[1] = static_cast<std::uint8_t>(control >> 8);
    for (std::size_t i = 0; i < password.size(); ++i) {
        block[2 + i] = static_cast<std::uint8_t>(password[i]);
    }
    AtaPassThrough command;
    command.taskfile.command = commandCode;
    command.taskfile.count = 1;
    command.protocol = AtaProtocol::PioDataOut;
    command.blocks = 1;
    auto sent = send(command, DataDirection::ToDevice, block, timeout, name);
    if (!sent) {
        return std::unexpected(sent.error());
    }
    return {};
}

Expected<void> AtaDevice::securityErase(const std::string& password, bool enhanced,
                                        std::chrono::milliseconds eraseTimeout, bool passwordSet) {
    if (!passwordSet) {
        if (auto set = securityPasswordCommand(ata::kSecuritySetPassword, password, 0x0000,
                                               kShortTimeout, "SECURITY SET PASSWORD");
            !set) {
            return set;
        }
    }
    auto undoPassword = [&](Error error) -> Expected<void> {
        auto disabled = securityPasswordCommand(ata::kSecurityDisablePassword, password, 0x0000,
                                                kShortTimeout, "SECURITY DISABLE PASSWORD");
        if (!disabled) {
            error.addContext("and removing the temporary password failed too (" +
                             disabled.error().describe() +
                             "): the drive still has user "
                             "password '" +
                             password + "'");
        }
        return std::unexpected(std::move(error));
    };
    AtaPassThrough prepare;
    prepare.taskfile.command = ata::kSecurityErasePrepare;
    if (auto prepared =
            send(prepare, DataDirection::None, {}, kShortTimeout, "SECURITY ERASE PREPARE");
        !prepared) {
        return undoPassword(prepared.error());
    }
    const std::uint16_t control = enhanced ? 0x0002 : 0x0000;
    if (auto erased = securityPasswordCommand(ata::kSecurityEraseUnit, password, control,
                                              eraseTimeout, "SECURITY ERASE UNIT");
        !erased) {
        return undoPassword(erased.error());
    }
    return {};
}

Expected<void> AtaDevice::sanitizeStart(SanitizeAction action) {
    AtaPassThrough command;
    command.taskfile.command = ata::kSanitizeDevice;
    command.extend = true;
    if (action == SanitizeAction::CryptoScramble) {
        command.taskfile.features = ata::kSanitizeCryptoScrambleExt;
        command.taskfile.lba = ata::kCryptoScrambleKey;
    } else {
        command.taskfile.features = ata::kSanitizeBlockEraseExt;
        command.taskfile.lba = ata::kBlockEraseKey;
    }
    auto sent = send(command, DataDirection::None, {}, kShortTimeout,
                     action == SanitizeAction::CryptoScramble ? "SANITIZE CRYPTO SCRAMBLE EXT"
                                                              : "SANITIZE BLOCK ERASE EXT");
    if (!sent) {
        return std::unexpected(sent.error());
    }
    return {};
}

Expected<SanitizeStatus> AtaDevice::sanitizeStatus() {
    AtaPassThrough command;
    command.taskfile.command = ata::kSanitizeDevice;
    command.taskfile.features = ata::kSanitizeStatusExt;
    command.extend = true;
    auto result = send(command, DataDirection::None, {}, kShortTimeout, "SANITIZE STATUS EXT");
    if (!result) {
        return std::unexpected(result.error());
    }
    // COUNT bit 15: completed without error; bit 14: in progress. LBA(15:0): progress/65536.
    SanitizeStatus status;
    status.completedOk = (result->count & 0x8000) != 0;
    status.inProgress = (result->count & 0x4000) != 0;
    status.fraction = static_cast<double>(result->lba & 0xFFFF) / 65536.0;
    return status;
}

} // namespace ssdk::maintenance::transport
