#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "core/base/error.h"
#include "core/smart/report.h"

namespace ssdk::smart {

// The sections of a libatasmart blob (`skdump --save`, sk_disk_get_blob): a sequence of
// 4-byte tag, big-endian u32 length, payload. IDFY (IDENTIFY DEVICE, 512 bytes) is required;
// SMST (SMART RETURN STATUS, 4 bytes), SMDT (SMART READ DATA, 512) and SMTH (thresholds, 512)
// are optional. Each tag at most once.
struct AtasmartSections {
    std::span<const std::uint8_t> identify, status, data, thresholds; // empty when absent
};
Expected<AtasmartSections> splitAtasmartBlob(std::span<const std::uint8_t> blob);

// Reads a libatasmart blob with libatasmart's own loader (sk_disk_set_blob and its parsers),
// after checking the section layout above. A pure function over the bytes: no device, no I/O.
// Errors: Parse (truncated, unknown or duplicate section, wrong section size, libatasmart
// refused it). A blob without SMST loads with smartOverallPassed unknown and a warning.
// Implemented where libatasmart is (platform/linux/atasmart_parser.cpp); the rest of this
// header needs no library.
Expected<SmartReport> parseAtasmartBlob(std::span<const std::uint8_t> blob);

// Sets what libatasmart does not parse from IDENTIFY DEVICE data (`identify`: the 512 bytes of
// an IDFY section): isSsd (word 217, left unset for an unreported rate), trimSupported (169),
// logicalBlockSize (106, 117-118; 512 unless stated) and capacityBytes (60-61 or 100-103, left
// unset when zero or absurd). Pure.
void readIdentifyCapabilities(std::span<const std::uint8_t> identify, SmartReport& report);

// Whether bytes start like a libatasmart blob (an "IDFY" section first).
bool looksLikeAtasmartBlob(std::span<const std::uint8_t> bytes);

} // namespace ssdk::smart
