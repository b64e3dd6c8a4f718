#pragma once
// The NVMe admin commands erasure needs (NVMe 2.0 base specification): builders that give
// each command's opcode and dwords, pure and tested on their bits, and the functions that send
// them through an NvmeAdmin and judge the completion; and the data-transfer rule every
// NvmeAdmin enforces. The firmware commands are in
// core/firmware/nvme_firmware.h and use identifyControllerCommand and getLogPageCommand.

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/base/error.h"
#include "core/maintenance/transport/nvme_admin.h"

namespace ssdk::maintenance::transport {

inline constexpr std::uint8_t kNvmeOpcodeGetLogPage = 0x02;
inline constexpr std::uint8_t kNvmeOpcodeIdentify = 0x06;
inline constexpr std::uint8_t kNvmeOpcodeFormatNvm = 0x80;
inline constexpr std::uint8_t kNvmeOpcodeSanitize = 0x84;
// NSID FFFFFFFFh: every namespace, or the controller's own log pages.
inline constexpr std::uint32_t kNvmeNsidAll = 0xFFFFFFFF;
inline constexpr std::uint8_t kNvmeLogSanitizeStatus = 0x81;
inline constexpr std::uint32_t kNvmeSanitizeLogBytes = 512;
inline constexpr std::size_t kNvmeIdentifyBytes = 4096;

using NvmeIdentifyData = std::array<std::uint8_t, kNvmeIdentifyBytes>;

// NVMe Format NVM Secure Erase Settings (SES).
enum class NvmeSecureErase : std::uint8_t { None = 0, UserData = 1, Cryptographic = 2 };
// NVMe Sanitize actions (SANACT) SSD Keeper uses.
enum class NvmeSanitizeAction : std::uint8_t { BlockErase = 2, CryptoErase = 4 };

// The sanitize status log (log page 81h), the fields used here.
struct NvmeSanitizeLog {
    std::uint16_t progress = 0;  // SPROG: fraction × 65536 of the running sanitize
    std::uint8_t lastStatus = 0; // SSTAT bits 2:0: 0 never, 1 completed, 2 in progress, 3 failed
};

// Whether dataBytes of data fit command: none for None, some for FromDevice and ToDevice, and
// the opcode's data-transfer bits agreeing with direction. Linux moves the data the way the
// opcode's bits say whatever the caller meant, so every NvmeAdmin refuses a disagreeing
// command before sending it. Errors: InvalidArgument naming the opcode.
Expected<void> checkDataTransfer(const NvmeAdminCommand& command, std::size_t dataBytes);

// Identify Controller (CNS 01h in CDW10, NSID 0): 4096 bytes from the controller.
NvmeAdminCommand identifyControllerCommand();
// Identify Namespace (CNS 00h) of nsid: 4096 bytes.
NvmeAdminCommand identifyNamespaceCommand(std::uint32_t nsid);
// Get Log Page logId of nsid (kNvmeNsidAll: the controller's), bytes from offset 0 (bytes a
// multiple of 4, at most 4096: one transfer): LID in CDW10 7:0, NUMDL (dwords - 1) in
// CDW10 31:16; RAE, LSP, NUMDU, the offset, UUID index and CSI (NVM) all 0.
NvmeAdminCommand getLogPageCommand(std::uint8_t logId, std::uint32_t nsid, std::uint32_t bytes);
// Format NVM of nsid with LBA format lbaFormat (the 6-bit FLBAS index) and ses, metadata
// separate and no protection information: CDW10 = LBAF (index bits 3:0) | MSET << 4 | PI << 5
// | PIL << 8 | SES << 9 | LBAFU (index bits 5:4) << 12. timeout: a format of a large drive
// takes as long as the drive needs, so the caller gives it.
NvmeAdminCommand formatNvmCommand(std::uint32_t nsid, std::uint8_t lbaFormat, NvmeSecureErase ses,
                                  std::chrono::milliseconds timeout);
// Sanitize of the whole NVM subsystem (NSID 0): SANACT in CDW10 2:0, no AUSE, no overwrite
// pattern. It completes once the sanitize has started; the sanitize log reports the rest.
NvmeAdminCommand sanitizeCommand(NvmeSanitizeAction action);

// SPROG (bytes 1:0) and SSTAT bits 2:0 (bytes 3:2), little-endian. Errors: Parse when the
// log is shorter than 4 bytes.
Expected<NvmeSanitizeLog> parseSanitizeLog(std::span<const std::uint8_t> log);

// Erasure's commands over admin. A completion with any status but 0 (judged unmasked) is
// ErrorCode::Unsupported, "<command>: the controller returned NVMe status 0x…"; a command that
// could not be sent keeps submit's error with "<command>" as context.
Expected<NvmeIdentifyData> identifyController(NvmeAdmin& admin);
// Needs a namespace node: the namespace id comes from admin.namespaceId().
Expected<NvmeIdentifyData> identifyNamespace(NvmeAdmin& admin);
Expected<void> formatNvm(NvmeAdmin& admin, std::uint8_t lbaFormat, NvmeSecureErase ses,
                         std::chrono::milliseconds timeout);
Expected<void> sanitize(NvmeAdmin& admin, NvmeSanitizeAction action);
Expected<NvmeSanitizeLog> readSanitizeLog(NvmeAdmin& admin);

} // namespace ssdk::maintenance::transport
