#include "core/smart/atasmart_source.h"

#include "core/base/platform/replay/unavailable.h"

namespace ssdk::smart {

// The replay platform sends no ATA command; smartctl's recorded output replays instead.
Availability AtasmartSource::availability() {
    return {false, "libatasmart is not available on the replay platform"};
}

Expected<RawReport> AtasmartSource::capture(const std::string& devicePath,
                                            const ReadOptions& /*options*/) {
    return std::unexpected(replay::unavailable("libatasmart (" + devicePath + ")"));
}

} // namespace ssdk::smart
