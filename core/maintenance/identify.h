#pragma once
// Pure parsers for the identify data drives report about TRIM/discard and erasure:
// ATA IDENTIFY DEVICE (512 bytes, 256 little-endian words; ACS-4), NVMe Identify Controller
// and Identify Namespace (4096 bytes each; NVMe 2.0 base spec) and the SCSI Logical Block
// Provisioning VPD page (B2h; SBC-4). Each takes the raw bytes and never touches a device.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/base/error.h"

namespace ssdk::maintenance {

// ATA security state (IDENTIFY word 128).
struct AtaSecurity {
    bool supported = false;
    bool enabled = false; // a user password is set
    bool locked = false;
    bool frozen = false; // SECURITY FREEZE LOCK was issued (usually by the BIOS): no erase
    bool countExpired = false;
    bool enhancedEraseSupported = false;
    // Word 89/90: the time the drive estimates for SECURITY ERASE UNIT, in minutes; empty when
    // the drive does not say. ACS-3: bits 14:0 × 2 minutes when bit 15 is set (extended
    // format), else bits 7:0 × 2 minutes with 255 meaning "more than 508 minutes".
    std::optional<std::uint32_t> normalEraseMinutes;
    std::optional<std::uint32_t> enhancedEraseMinutes;
};

struct AtaIdentify {
    std::string model, serial, firmware;
    std::uint64_t sectors = 0;           // user-addressable sectors (48-bit when supported)
    bool trimSupported = false;          // word 169 bit 0: DATA SET MANAGEMENT TRIM
    bool deterministicTrim = false;      // word 69 bit 14 (DRAT): reads after TRIM do not change
    bool zeroAfterTrim = false;          // word 69 bit 5 (RZAT): reads after TRIM return zeros
    bool sanitizeSupported = false;      // word 59 bit 12
    bool sanitizeCryptoScramble = false; // word 59 bit 13
    bool sanitizeBlockErase = false;     // word 59 bit 15
    bool sanitizeOverwrite = false;      // word 59 bit 14
    AtaSecurity security;
};

// Errors: Parse when the buffer is not 512 bytes or the signature/checksum (word 255) is wrong.
Expected<AtaIdentify> parseAtaIdentify(std::span<const std::uint8_t> data);

// The 512-byte IDENTIFY block from libata's sysfs attribute /sys/class/ata_device/*/id
// (the words as hexadecimal text, 8 per line).
Expected<std::array<std::uint8_t, 512>> parseAtaIdHexText(std::string_view text);

struct NvmeController {
    std::string model, serial, firmware;
    bool dsmSupported = false;             // ONCS bit 2: Dataset Management (deallocate = TRIM)
    bool writeZeroesSupported = false;     // ONCS bit 3
    bool formatSupported = false;          // OACS bit 1
    bool sanitizeCrypto = false;           // SANICAP bit 0
    bool sanitizeBlock = false;            // SANICAP bit 1
    bool sanitizeOverwrite = false;        // SANICAP bit 2
    bool formatAppliesToAll = false;       // FNA bit 0: format/erase acts on every namespace
    bool secureEraseAllNamespaces = false; // FNA bit 1
    bool cryptoEraseSupported = false;     // FNA bit 2: Format with SES=2
};

struct NvmeNamespace {
    std::uint64_t sizeBlocks = 0; // NSZE
    std::uint32_t blockSize = 512;
    std::uint8_t formatIndex = 0; // FLBAS bits 3:0 (+ 6:5 upper)
    // DLFEAT bits 2:0: what a read of deallocated blocks returns: 0 not reported, 1 zeros,
    // 2 ones (0xFF).
    std::uint8_t deallocateReads = 0;
};

Expected<NvmeController> parseNvmeIdentifyController(std::span<const std::uint8_t> data);
Expected<NvmeNamespace> parseNvmeIdentifyNamespace(std::span<const std::uint8_t> data);

// SBC-4 Logical Block Provisioning VPD page (B2h): which unmap commands the device takes.
struct ScsiProvisioning {
    bool unmap = false;          // LBPU: UNMAP command
    bool writeSame16 = false;    // LBPWS
    bool writeSame10 = false;    // LBPWS10
    std::uint8_t readZeroes = 0; // LBPRZ (3 bits): 1 = unmapped blocks read as zeros
};

Expected<ScsiProvisioning> parseScsiProvisioningVpd(std::span<const std::uint8_t> data);

} // namespace ssdk::maintenance
