#include "core/firmware/ata_microcode.h"

#include <fmt/format.h>

namespace ssdk::firmware {

namespace {

std::uint16_t word(std::span<const std::uint8_t> data, std::size_t index) {
    return static_cast<std::uint16_t>(data[index * 2] | (data[index * 2 + 1] << 8));
}

bool wordBit(std::uint16_t value, unsigned position) {
    return ((value >> position) & 1U) != 0;
}

// Words 83, 84, 119 and 120 are valid only when bits 15:14 are 01b.
bool validWord(std::uint16_t value) {
    return (value & 0xC000) == 0x4000;
}

std::optional<std::uint16_t> blockCount(std::uint16_t value) {
    if (value == 0 || value == 0xFFFF) {
        return std::nullopt;
    }
    return value;
}

} // namespace

std::vector<std::string> AtaMicrocode::modes() const {
    std::vector<std::string> out;
    if (!supported) {
        return out;
    }
    out.emplace_back("07h: download the whole image in one command and activate it");
    if (segmentedSupported) {
        std::string limits;
        if (minBlocks || maxBlocks) {
            limits = fmt::format(" ({}-{} blocks of 512 bytes per command)",
                                 minBlocks ? std::to_string(*minBlocks) : "?",
                                 maxBlocks ? std::to_string(*maxBlocks) : "?");
        }
        out.push_back("03h: segmented download, activated after the last segment" + limits);
    }
    if (dmaSupported) {
        out.emplace_back("DOWNLOAD MICROCODE DMA (93h) is available for the modes above");
    }
    return out;
}

Expected<AtaMicrocode> parseAtaMicrocode(std::span<const std::uint8_t> data) {
    if (data.size() != 512) {
        return fail(ErrorCode::Parse,
                    "ATA IDENTIFY data must be 512 bytes, got " + std::to_string(data.size()));
    }
    AtaMicrocode mc;
    const std::uint16_t w83 = word(data, 83);
    const std::uint16_t w86 = word(data, 86);
    const std::uint16_t w119 = word(data, 119);
    const std::uint16_t w120 = word(data, 120);
    mc.supported = validWord(w83) && wordBit(w83, 0);
    mc.enabled = mc.supported && wordBit(w86, 0);
    mc.dmaSupported = mc.supported && wordBit(word(data, 69), 8);
    mc.segmentedSupported = mc.supported && validWord(w119) && wordBit(w119, 4);
    mc.segmentedEnabled = mc.segmentedSupported && validWord(w120) && wordBit(w120, 4);
    if (mc.segmentedSupported) {
        mc.minBlocks = blockCount(word(data, 234));
        mc.maxBlocks = blockCount(word(data, 235));
    }
    return mc;
}

} // namespace ssdk::firmware
