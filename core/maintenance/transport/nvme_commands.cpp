#include "core/maintenance/transport/nvme_commands.h"

#include <fmt/format.h>

namespace ssdk::maintenance::transport {

namespace {

constexpr std::uint32_t kCnsNamespace = 0x00;
constexpr std::uint32_t kCnsController = 0x01;

NvmeAdminCommand identifyCommand(std::uint32_t cns, std::uint32_t nsid) {
    NvmeAdminCommand command;
    command.opcode = kNvmeOpcodeIdentify;
    command.nsid = nsid;
    command.cdw10 = cns;
    command.direction = NvmeDataDirection::FromDevice;
    return command;
}

// Sends command; an error status becomes an Unsupported error naming what and the status.
Expected<void> run(NvmeAdmin& admin, const NvmeAdminCommand& command, std::span<std::uint8_t> data,
                   const char* what) {
    auto completion = admin.submit(command, data);
    if (!completion) {
        return std::unexpected(completion.error().addContext(what));
    }
    if (completion->status != 0) {
        return fail(ErrorCode::Unsupported, fmt::format("{}: the controller returned NVMe status "
                                                        "{:#x}",
                                                        what, completion->status));
    }
    return {};
}

Expected<NvmeIdentifyData> identify(NvmeAdmin& admin, const NvmeAdminCommand& command,
                                    const char* what) {
    NvmeIdentifyData data{};
    if (auto done = run(admin, command, data, what); !done) {
        return std::unexpected(done.error());
    }
    return data;
}

} // namespace

Expected<void> checkDataTransfer(const NvmeAdminCommand& command, std::size_t dataBytes) {
    const unsigned transferBits = command.opcode & 0x03U;
    switch (command.direction) {
    case NvmeDataDirection::None:
        if (dataBytes != 0) {
            return fail(ErrorCode::InvalidArgument,
                        fmt::format("NVMe admin command {:#04x} transfers no data but was given "
                                    "{} bytes",
                                    command.opcode, dataBytes));
        }
        return {};
    case NvmeDataDirection::FromDevice:
    case NvmeDataDirection::ToDevice: {
        const bool toDevice = command.direction == NvmeDataDirection::ToDevice;
        if (transferBits != (toDevice ? 0x01U : 0x02U)) {
            return fail(ErrorCode::InvalidArgument,
                        fmt::format("NVMe admin command {:#04x} does not transfer data {} the "
                                    "controller",
                                    command.opcode, toDevice ? "to" : "from"));
        }
        if (dataBytes == 0 || dataBytes > 0xFFFFFFFFU) {
            return fail(ErrorCode::InvalidArgument,
                        fmt::format("NVMe admin command {:#04x} needs a data buffer of 1 byte to "
                                    "4 GiB, not {} bytes",
                                    command.opcode, dataBytes));
        }
        return {};
    }
    }
    return fail(ErrorCode::Internal, "unknown NVMe data direction");
}

NvmeAdminCommand identifyControllerCommand() {
    return identifyCommand(kCnsController, 0);
}

NvmeAdminCommand identifyNamespaceCommand(std::uint32_t nsid) {
    return identifyCommand(kCnsNamespace, nsid);
}

NvmeAdminCommand getLogPageCommand(std::uint8_t logId, std::uint32_t nsid, std::uint32_t bytes) {
    NvmeAdminCommand command;
    command.opcode = kNvmeOpcodeGetLogPage;
    command.nsid = nsid;
    const std::uint32_t numdl = bytes / 4 - 1;
    command.cdw10 = logId | (numdl << 16);
    command.direction = NvmeDataDirection::FromDevice;
    return command;
}

NvmeAdminCommand formatNvmCommand(std::uint32_t nsid, std::uint8_t lbaFormat, NvmeSecureErase ses,
                                  std::chrono::milliseconds timeout) {
    constexpr std::uint32_t mset = 0; // metadata in a separate buffer
    constexpr std::uint32_t pi = 0;   // no protection information
    constexpr std::uint32_t pil = 0;
    const std::uint32_t lbaf = lbaFormat & 0x0FU;
    const std::uint32_t lbafu = (lbaFormat >> 4) & 0x03U;
    NvmeAdminCommand command;
    command.opcode = kNvmeOpcodeFormatNvm;
    command.nsid = nsid;
    command.cdw10 = lbaf | (mset << 4) | (pi << 5) | (pil << 8) |
                    ((static_cast<std::uint32_t>(ses) & 0x07U) << 9) | (lbafu << 12);
    command.timeout = timeout;
    return command;
}

NvmeAdminCommand sanitizeCommand(NvmeSanitizeAction action) {
    NvmeAdminCommand command;
    command.opcode = kNvmeOpcodeSanitize;
    command.cdw10 = static_cast<std::uint32_t>(action) & 0x07U;
    return command;
}

Expected<NvmeSanitizeLog> parseSanitizeLog(std::span<const std::uint8_t> log) {
    if (log.size() < 4) {
        return fail(ErrorCode::Parse,
                    fmt::format("a sanitize status log has at least 4 bytes, not {}", log.size()));
    }
    NvmeSanitizeLog parsed;
    parsed.progress = static_cast<std::uint16_t>(log[0] | (log[1] << 8));
    parsed.lastStatus = static_cast<std::uint8_t>(log[2] & 0x07);
    return parsed;
}

Expected<NvmeIdentifyData> identifyController(NvmeAdmin& admin) {
    return identify(admin, identifyControllerCommand(), "Identify Controller");
}

Expected<NvmeIdentifyData> identifyNamespace(NvmeAdmin& admin) {
    auto nsid = admin.namespaceId();
    if (!nsid) {
        return std::unexpected(nsid.error());
    }
    return identify(admin, identifyNamespaceCommand(*nsid), "Identify Namespace");
}

Expected<void> formatNvm(NvmeAdmin& admin, std::uint8_t lbaFormat, NvmeSecureErase ses,
                         std::chrono::milliseconds timeout) {
    auto nsid = admin.namespaceId();
    if (!nsid) {
        return std::unexpected(nsid.error());
    }
    return run(admin, formatNvmCommand(*nsid, lbaFormat, ses, timeout), {}, "Format NVM");
}

Expected<void> sanitize(NvmeAdmin& admin, NvmeSanitizeAction action) {
    return run(admin, sanitizeCommand(action), {}, "Sanitize");
}

Expected<NvmeSanitizeLog> readSanitizeLog(NvmeAdmin& admin) {
    std::array<std::uint8_t, kNvmeSanitizeLogBytes> data{};
    if (auto done = run(
            admin, getLogPageCommand(kNvmeLogSanitizeStatus, kNvmeNsidAll, kNvmeSanitizeLogBytes),
            data, "Sanitize Status log");
        !done) {
        return std::unexpected(done.error());
    }
    return parseSanitizeLog(data);
}

} // namespace ssdk::maintenance::transport
