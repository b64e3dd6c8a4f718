#include "core/smart/atasmart_parser.h"

#include <cstring>
#include <fmt/format.h>
#include <string>

namespace ssdk::smart {

namespace {

constexpr std::size_t kHeaderBytes = 8;
constexpr std::size_t kSectorBytes = 512;
constexpr std::size_t kStatusBytes = 4;

std::uint32_t bigEndian32(const std::uint8_t* bytes) {
    return (std::uint32_t{bytes[0]} << 24) | (std::uint32_t{bytes[1]} << 16) |
           (std::uint32_t{bytes[2]} << 8) | std::uint32_t{bytes[3]};
}

// IDENTIFY DEVICE words are little-endian 16-bit.
std::uint16_t identifyWord(std::span<const std::uint8_t> identify, std::size_t word) {
    return static_cast<std::uint16_t>(identify[2 * word] | (identify[2 * word + 1] << 8));
}

// A section tag for messages: printable ASCII quoted, anything else as hex.
std::string printable(const std::string& tag) {
    std::string text = "\"";
    for (const char c : tag) {
        if (c >= 0x20 && c < 0x7f) {
            text += c;
        } else {
            text += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
        }
    }
    return text + "\"";
}

} // namespace

void readIdentifyCapabilities(std::span<const std::uint8_t> identify, SmartReport& report) {
    // Word 217: nominal media rotation rate, 1 = non-rotating (solid state).
    const auto rotation = identifyWord(identify, 217);
    if (rotation == 1) {
        report.isSsd = true;
    } else if (rotation >= 0x0401 && rotation <= 0xfffe) {
        report.isSsd = false;
    }
    // Word 169 bit 0: DATA SET MANAGEMENT / TRIM supported.
    report.trimSupported = (identifyWord(identify, 169) & 0x1) != 0;
    // Logical sector size: word 106 valid (bits 15:14 = 01) with bit 12 → words 117-118 (words).
    std::uint32_t sectorBytes = kSectorBytes;
    const auto sectorInfo = identifyWord(identify, 106);
    if ((sectorInfo & 0xc000) == 0x4000 && (sectorInfo & 0x1000) != 0) {
        const std::uint32_t words =
            identifyWord(identify, 117) | (std::uint32_t{identifyWord(identify, 118)} << 16);
        if (words >= 256 && words <= (1u << 20)) {
            sectorBytes = words * 2;
        }
    }
    report.logicalBlockSize = sectorBytes;
    // Capacity: 48-bit LBA count (words 100-103) when supported (word 83 bit 10), else 60-61.
    std::uint64_t sectors = 0;
    if ((identifyWord(identify, 83) & 0x0400) != 0) {
        for (std::size_t word = 103; word >= 100; --word) {
            sectors = (sectors << 16) | identifyWord(identify, word);
        }
    } else {
        sectors = identifyWord(identify, 60) | (std::uint64_t{identifyWord(identify, 61)} << 16);
    }
    if (sectors > 0 && sectors < (std::uint64_t{1} << 48)) {
        report.capacityBytes = sectors * sectorBytes;
    }
}

bool looksLikeAtasmartBlob(std::span<const std::uint8_t> bytes) {
    return bytes.size() >= 4 && std::memcmp(bytes.data(), "IDFY", 4) == 0;
}

Expected<AtasmartSections> splitAtasmartBlob(std::span<const std::uint8_t> blob) {
    AtasmartSections sections;
    std::size_t offset = 0;
    while (offset < blob.size()) {
        if (blob.size() - offset < kHeaderBytes) {
            return fail(ErrorCode::Parse,
                        fmt::format("libatasmart blob is truncated: {} stray bytes at offset {}",
                                    blob.size() - offset, offset));
        }
        const std::string tag(reinterpret_cast<const char*>(blob.data() + offset), 4);
        const std::size_t length = bigEndian32(blob.data() + offset + 4);
        offset += kHeaderBytes;
        if (length > blob.size() - offset) {
            return fail(ErrorCode::Parse,
                        fmt::format("libatasmart blob is truncated: section {} needs {} bytes, "
                                    "{} left",
                                    printable(tag), length, blob.size() - offset));
        }
        const auto payload = blob.subspan(offset, length);
        offset += length;
        std::span<const std::uint8_t>* slot = nullptr;
        std::size_t expected = kSectorBytes;
        if (tag == "IDFY") {
            slot = &sections.identify;
        } else if (tag == "SMST") {
            slot = &sections.status;
            expected = kStatusBytes;
        } else if (tag == "SMDT") {
            slot = &sections.data;
        } else if (tag == "SMTH") {
            slot = &sections.thresholds;
        } else {
            return fail(ErrorCode::Parse,
                        fmt::format("libatasmart blob has an unknown section "
                                    "{} at offset {}",
                                    printable(tag), offset - length - kHeaderBytes));
        }
        if (!slot->empty()) {
            return fail(ErrorCode::Parse,
                        fmt::format("libatasmart blob has section {} twice", printable(tag)));
        }
        if (length != expected) {
            return fail(ErrorCode::Parse,
                        fmt::format("libatasmart blob section {} is {} bytes, expected {}",
                                    printable(tag), length, expected));
        }
        *slot = payload;
    }
    if (sections.identify.empty()) {
        return fail(ErrorCode::Parse, "libatasmart blob has no IDENTIFY (IDFY) section");
    }
    return sections;
}

} // namespace ssdk::smart
