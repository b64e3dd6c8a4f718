#pragma once
// ATA commands wrapped in SCSI ATA PASS-THROUGH (16) (SAT-4, opcode 85h), the way libata and
// USB-SATA bridges that support SAT accept them. Building the CDB and reading the returned
// ATA registers from the sense data are pure functions; AtaDevice sends them.

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "core/base/error.h"
#include "core/maintenance/transport/scsi_transport.h"

namespace ssdk::maintenance::transport {

// SAT PROTOCOL field values used here.
enum class AtaProtocol : std::uint8_t { NonData = 3, PioDataIn = 4, PioDataOut = 5 };

// The ATA registers of one command (48-bit layout; 28-bit commands leave the high parts 0).
struct AtaTaskfile {
    std::uint16_t features = 0;
    std::uint16_t count = 0;
    std::uint64_t lba = 0; // 48 bits
    std::uint8_t device = 0;
    std::uint8_t command = 0;
};

struct AtaPassThrough {
    AtaTaskfile taskfile;
    AtaProtocol protocol = AtaProtocol::NonData;
    bool extend = false;      // a 48-bit command (…EXT)
    std::uint16_t blocks = 0; // 512-byte data blocks transferred (0 for non-data)
    // CK_COND: return the device's registers in the sense data even on success. Needed by
    // commands whose answer is in the registers (SANITIZE STATUS); left off for PIO data-in,
    // where libata + AHCI take the final status from the PIO Setup FIS and some controllers
    // (QEMU's AHCI among them) leave DRQ set there, which libata then reports as an error.
    bool checkCondition = true;
};

// The 16-byte CDB. T_LENGTH says the length is in the COUNT field, in 512-byte blocks.
std::array<std::uint8_t, 16> buildAtaPassThrough16(const AtaPassThrough& command);

// The ATA Status Return descriptor (descriptor sense, type 09h) of a completed command.
struct AtaResult {
    std::uint8_t status = 0; // ATA status register: bit 0 ERR, bit 3 DRQ, bit 5 DF
    std::uint8_t error = 0;  // ATA error register: bit 2 ABRT
    std::uint16_t count = 0;
    std::uint64_t lba = 0;

    bool failed() const { return (status & 0x21) != 0; } // ERR or DF
    bool aborted() const { return failed() && (error & 0x04) != 0; }
};

// Reads the ATA registers from sense data; also accepts fixed-format sense (70h/71h) with
// the ATA PASS-THROUGH INFORMATION AVAILABLE additional sense code (00h/1Dh).
// Errors: Protocol when the sense carries no ATA registers.
Expected<AtaResult> parseAtaSense(std::span<const std::uint8_t> sense);

} // namespace ssdk::maintenance::transport
