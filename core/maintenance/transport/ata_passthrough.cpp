#include "core/maintenance/transport/ata_passthrough.h"

namespace ssdk::maintenance::transport {

namespace {

std::uint8_t byteOf(std::uint64_t value, unsigned index) {
    return static_cast<std::uint8_t>((value >> (index * 8)) & 0xFF);
}

} // namespace

std::array<std::uint8_t, 16> buildAtaPassThrough16(const AtaPassThrough& command) {
    std::array<std::uint8_t, 16> cdb{};
    const AtaTaskfile& tf = command.taskfile;
    cdb[0] = 0x85;
    cdb[1] = static_cast<std::uint8_t>((static_cast<unsigned>(command.protocol) << 1) |
                                       (command.extend ? 1U : 0U));
    // byte 2: OFF_LINE=0, CK_COND (bit 5); for data commands T_DIR (bit 3, 1 = from the
    // device), BYTE_BLOCK=1 (bit 2, count in blocks), T_LENGTH=2 (bits 1:0, the COUNT field).
    std::uint8_t flags = command.checkCondition ? 0x20 : 0x00;
    if (command.protocol == AtaProtocol::PioDataIn) {
        flags |= 0x08 | 0x04 | 0x02;
    } else if (command.protocol == AtaProtocol::PioDataOut) {
        flags |= 0x04 | 0x02;
    }
    cdb[2] = flags;
    cdb[3] = byteOf(tf.features, 1);
    cdb[4] = byteOf(tf.features, 0);
    cdb[5] = byteOf(tf.count, 1);
    cdb[6] = byteOf(tf.count, 0);
    // LBA bytes interleave as (47:40 is extended high) in SAT order: 31:24, 7:0, 39:32, 15:8,
    // 47:40, 23:16.
    cdb[7] = byteOf(tf.lba, 3);
    cdb[8] = byteOf(tf.lba, 0);
    cdb[9] = byteOf(tf.lba, 4);
    cdb[10] = byteOf(tf.lba, 1);
    cdb[11] = byteOf(tf.lba, 5);
    cdb[12] = byteOf(tf.lba, 2);
    cdb[13] = tf.device;
    cdb[14] = tf.command;
    cdb[15] = 0;
    return cdb;
}

Expected<AtaResult> parseAtaSense(std::span<const std::uint8_t> sense) {
    if (sense.size() >= 8 && (sense[0] & 0x7F) == 0x72) {
        const std::size_t length = std::min<std::size_t>(sense.size(), 8U + sense[7]);
        std::size_t pos = 8;
        while (pos + 2 <= length) {
            const std::uint8_t type = sense[pos];
            const std::size_t descriptorLength = 2U + sense[pos + 1];
            if (type == 0x09 && descriptorLength >= 14 && pos + 14 <= length) {
                const auto d = sense.subspan(pos, 14);
                AtaResult result;
                const bool extend = (d[2] & 0x01) != 0;
                result.error = d[3];
                result.count = static_cast<std::uint16_t>((extend ? d[4] << 8 : 0) | d[5]);
                result.lba =
                    std::uint64_t{d[7]} | (std::uint64_t{d[9]} << 8) | (std::uint64_t{d[11]} << 16);
                if (extend) {
                    result.lba |= (std::uint64_t{d[6]} << 24) | (std::uint64_t{d[8]} << 32) |
                                  (std::uint64_t{d[10]} << 40);
                }
                result.status = d[13];
                return result;
            }
            pos += descriptorLength;
        }
        return fail(ErrorCode::Protocol, "descriptor sense without an ATA Status Return");
    }
    if (sense.size() >= 14 && ((sense[0] & 0x7F) == 0x70 || (sense[0] & 0x7F) == 0x71) &&
        sense[12] == 0x00 && sense[13] == 0x1D) {
        // Fixed format (SAT-4): INFORMATION holds error, status, device, count(7:0); the
        // command-specific information holds flags, then LBA(7:0), (15:8), (23:16).
        AtaResult result;
        result.error = sense[3];
        result.status = sense[4];
        result.count = sense[6];
        result.lba = std::uint64_t{sense[9]} | (std::uint64_t{sense[10]} << 8) |
                     (std::uint64_t{sense[11]} << 16);
        return result;
    }
    // Linux before 6.10 wrote fixed-format ATA registers 5 bytes too far (error, status,
    // device, count at bytes 8-11, INFORMATION left zero) and, for a failed command, the
    // sense of the ATA error (ABORTED COMMAND, 00h/00h for ABRT) instead of 00h/1Dh. Seen
    // from Debian 12's 6.1 kernel on an AHCI drive: 70 00 0b 00 00 00 00 0a 04 41 00 01.
    if (sense.size() >= 12 && ((sense[0] & 0x7F) == 0x70 || (sense[0] & 0x7F) == 0x71) &&
        sense[3] == 0 && sense[4] == 0 && sense[5] == 0 && sense[6] == 0 &&
        (sense[9] & 0x40) != 0 && (sense[9] & 0x80) == 0) {
        AtaResult result;
        result.error = sense[8];
        result.status = sense[9];
        result.count = sense[11];
        return result;
    }
    return fail(ErrorCode::Protocol, "the device returned no ATA registers (is there a "
                                     "SCSI-ATA translation in the path?)");
}

} // namespace ssdk::maintenance::transport
