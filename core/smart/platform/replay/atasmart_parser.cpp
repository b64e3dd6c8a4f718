#include "core/smart/atasmart_parser.h"

#include "core/base/platform/replay/unavailable.h"

namespace ssdk::smart {

// libatasmart's loader is what reads a blob, and the replay platform does not have it.
Expected<SmartReport> parseAtasmartBlob(std::span<const std::uint8_t> blob) {
    if (auto sections = splitAtasmartBlob(blob); !sections) {
        return std::unexpected(sections.error());
    }
    return std::unexpected(replay::unavailable("reading a libatasmart blob"));
}

} // namespace ssdk::smart
