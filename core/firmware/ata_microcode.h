#pragma once
// The DOWNLOAD MICROCODE capabilities of an ATA drive from its IDENTIFY DEVICE words
// (ACS-3/ACS-4): word 83/86 bit 0 (the command), word 69 bit 8 (its DMA form), word 119/120
// bit 4 (mode 03h, segmented download) and words 234/235 (the minimum and maximum number of
// 512-byte blocks per mode 03h command). Pure: bytes in, facts out.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/base/error.h"

namespace ssdk::firmware {

struct AtaMicrocode {
    bool supported = false;                 // word 83 bit 0
    bool enabled = false;                   // word 86 bit 0
    bool dmaSupported = false;              // word 69 bit 8: DOWNLOAD MICROCODE DMA (93h)
    bool segmentedSupported = false;        // word 119 bit 4: mode 03h
    bool segmentedEnabled = false;          // word 120 bit 4
    std::optional<std::uint16_t> minBlocks; // word 234 (absent when 0 or FFFFh)
    std::optional<std::uint16_t> maxBlocks; // word 235

    // The modes this IDENTIFY data advertises, as "07h (download and activate)" lines.
    std::vector<std::string> modes() const;
};

// Errors: Parse when the buffer is not 512 bytes.
Expected<AtaMicrocode> parseAtaMicrocode(std::span<const std::uint8_t> identify);

} // namespace ssdk::firmware
