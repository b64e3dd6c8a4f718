#include "core/maintenance/identify.h"

#include <algorithm>
#include <charconv>

namespace ssdk::maintenance {

namespace {

std::uint16_t word(std::span<const std::uint8_t> data, std::size_t index) {
    return static_cast<std::uint16_t>(data[index * 2] | (data[index * 2 + 1] << 8));
}

bool bit(std::uint32_t value, unsigned position) {
    return ((value >> position) & 1U) != 0;
}

std::string trimmed(std::string text) {
    while (!text.empty() && (text.back() == ' ' || text.back() == '\0')) {
        text.pop_back();
    }
    const auto first = text.find_first_not_of(' ');
    return first == std::string::npos ? std::string() : text.substr(first);
}

// ATA strings store two characters per word, the first in the high byte.
std::string ataString(std::span<const std::uint8_t> data, std::size_t firstWord,
                      std::size_t words) {
    std::string text;
    for (std::size_t i = 0; i < words; ++i) {
        const std::uint16_t value = word(data, firstWord + i);
        text.push_back(static_cast<char>(value >> 8));
        text.push_back(static_cast<char>(value & 0xFF));
    }
    return trimmed(std::move(text));
}

std::string asciiField(std::span<const std::uint8_t> data, std::size_t offset, std::size_t length) {
    return trimmed(std::string(reinterpret_cast<const char*>(data.data() + offset), length));
}

std::uint64_t littleEndian(std::span<const std::uint8_t> data, std::size_t offset,
                           std::size_t length) {
    std::uint64_t value = 0;
    for (std::size_t i = length; i > 0; --i) {
        value = (value << 8) | data[offset + i - 1];
    }
    return value;
}

std::optional<std::uint32_t> eraseMinutes(std::uint16_t value) {
    if (bit(value, 15)) {
        const std::uint32_t units = value & 0x7FFFU;
        return units == 0 ? std::nullopt : std::optional<std::uint32_t>(units * 2);
    }
    const std::uint32_t units = value & 0xFFU;
    if (units == 0) {
        return std::nullopt;
    }
    return units == 255 ? 508 : units * 2;
}

} // namespace

Expected<AtaIdentify> parseAtaIdentify(std::span<const std::uint8_t> data) {
    if (data.size() != 512) {
        return fail(ErrorCode::Parse,
                    "ATA IDENTIFY data must be 512 bytes, got " + std::to_string(data.size()));
    }
    if (data[510] == 0xA5) {
        std::uint8_t sum = 0;
        for (const std::uint8_t byte : data) {
            sum = static_cast<std::uint8_t>(sum + byte);
        }
        if (sum != 0) {
            return fail(ErrorCode::Parse, "ATA IDENTIFY checksum (word 255) does not match");
        }
    }
    AtaIdentify id;
    id.serial = ataString(data, 10, 10);
    id.firmware = ataString(data, 23, 4);
    id.model = ataString(data, 27, 20);
    if (bit(word(data, 83), 10)) {
        id.sectors = littleEndian(data, 200, 8);
    } else {
        id.sectors = littleEndian(data, 120, 4);
    }
    id.trimSupported = bit(word(data, 169), 0);
    const std::uint16_t w69 = word(data, 69);
    id.deterministicTrim = bit(w69, 14);
    id.zeroAfterTrim = bit(w69, 5);
    const std::uint16_t w59 = word(data, 59);
    id.sanitizeSupported = bit(w59, 12);
    id.sanitizeCryptoScramble = id.sanitizeSupported && bit(w59, 13);
    id.sanitizeOverwrite = id.sanitizeSupported && bit(w59, 14);
    id.sanitizeBlockErase = id.sanitizeSupported && bit(w59, 15);
    const std::uint16_t w128 = word(data, 128);
    AtaSecurity& security = id.security;
    security.supported = bit(w128, 0);
    if (security.supported) {
        security.enabled = bit(w128, 1);
        security.locked = bit(w128, 2);
        security.frozen = bit(w128, 3);
        security.countExpired = bit(w128, 4);
        security.enhancedEraseSupported = bit(w128, 5);
        security.normalEraseMinutes = eraseMinutes(word(data, 89));
        if (security.enhancedEraseSupported) {
            security.enhancedEraseMinutes = eraseMinutes(word(data, 90));
        }
    }
    return id;
}

Expected<std::array<std::uint8_t, 512>> parseAtaIdHexText(std::string_view text) {
    std::array<std::uint8_t, 512> bytes{};
    std::size_t words = 0;
    std::size_t pos = 0;
    while (pos < text.size()) {
        if (text[pos] == ' ' || text[pos] == '\n') {
            ++pos;
            continue;
        }
        if (words == 256) {
            return fail(ErrorCode::Parse, "ATA id text has more than 256 words");
        }
        std::uint16_t value = 0;
        const auto end = std::min(text.size(), pos + 4);
        auto [next, ec] = std::from_chars(text.data() + pos, text.data() + end, value, 16);
        if (ec != std::errc() || next != text.data() + end || end - pos != 4) {
            return fail(ErrorCode::Parse, "ATA id text: word " + std::to_string(words) +
                                              " is not 4 hexadecimal digits");
        }
        bytes[words * 2] = static_cast<std::uint8_t>(value & 0xFF);
        bytes[words * 2 + 1] = static_cast<std::uint8_t>(value >> 8);
        ++words;
        pos = end;
    }
    if (words != 256) {
        return fail(ErrorCode::Parse,
                    "ATA id text has " + std::to_string(words) + " words, expected 256");
    }
    return bytes;
}

Expected<NvmeController> parseNvmeIdentifyController(std::span<const std::uint8_t> data) {
    if (data.size() != 4096) {
        return fail(ErrorCode::Parse, "NVMe Identify Controller data must be 4096 bytes");
    }
    NvmeController ctrl;
    ctrl.serial = asciiField(data, 4, 20);
    ctrl.model = asciiField(data, 24, 40);
    ctrl.firmware = asciiField(data, 64, 8);
    const auto oacs = static_cast<std::uint32_t>(littleEndian(data, 256, 2));
    const auto sanicap = static_cast<std::uint32_t>(littleEndian(data, 328, 4));
    const auto oncs = static_cast<std::uint32_t>(littleEndian(data, 520, 2));
    const std::uint32_t fna = data[524];
    ctrl.formatSupported = bit(oacs, 1);
    ctrl.sanitizeCrypto = bit(sanicap, 0);
    ctrl.sanitizeBlock = bit(sanicap, 1);
    ctrl.sanitizeOverwrite = bit(sanicap, 2);
    ctrl.dsmSupported = bit(oncs, 2);
    ctrl.writeZeroesSupported = bit(oncs, 3);
    ctrl.formatAppliesToAll = bit(fna, 0);
    ctrl.secureEraseAllNamespaces = bit(fna, 1);
    ctrl.cryptoEraseSupported = bit(fna, 2);
    return ctrl;
}

Expected<NvmeNamespace> parseNvmeIdentifyNamespace(std::span<const std::uint8_t> data) {
    if (data.size() != 4096) {
        return fail(ErrorCode::Parse, "NVMe Identify Namespace data must be 4096 bytes");
    }
    NvmeNamespace ns;
    ns.sizeBlocks = littleEndian(data, 0, 8);
    const std::uint8_t flbas = data[26];
    ns.formatIndex = static_cast<std::uint8_t>((flbas & 0x0F) | ((flbas & 0x60) >> 1));
    ns.deallocateReads = static_cast<std::uint8_t>(data[33] & 0x07);
    const std::size_t lbaf = 128 + std::size_t{ns.formatIndex} * 4;
    const std::uint8_t lbads = data[lbaf + 2];
    if (lbads < 9 || lbads > 16) {
        return fail(ErrorCode::Parse,
                    "NVMe namespace LBA data size 2^" + std::to_string(lbads) + " is out of range");
    }
    ns.blockSize = 1U << lbads;
    return ns;
}

Expected<ScsiProvisioning> parseScsiProvisioningVpd(std::span<const std::uint8_t> data) {
    if (data.size() < 8 || data[1] != 0xB2) {
        return fail(ErrorCode::Parse, "not a Logical Block Provisioning VPD page (B2h)");
    }
    ScsiProvisioning page;
    page.unmap = bit(data[5], 7);
    page.writeSame16 = bit(data[5], 6);
    page.writeSame10 = bit(data[5], 5);
    page.readZeroes = static_cast<std::uint8_t>((data[5] >> 2) & 0x07);
    return page;
}

} // namespace ssdk::maintenance
