// libFuzzer target: libatasmart blob loading (our section check, then libatasmart's own
// loader and parsers), then derived values and assessment.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "core/smart/atasmart_parser.h"
#include "core/smart/health.h"
#include "core/smart/health_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto report = ssdk::smart::parseAtasmartBlob(std::span<const std::uint8_t>(data, size));
    if (!report) {
        if (report.error().message().empty()) {
            std::abort();
        }
        return 0;
    }
    if (report->protocol != ssdk::smart::Protocol::Ata) {
        std::abort();
    }
    const auto assessment = ssdk::smart::assessHealth(*report);
    (void)ssdk::smart::deriveValues(*report);
    if (assessment.verdict == ssdk::smart::Verdict::Bad && assessment.reasons.empty()) {
        std::abort();
    }
    // What the CLI prints must serialise (valid UTF-8, no exception).
    (void)ssdk::smart::toJson(ssdk::smart::makeDriveHealth("fuzz", *report)).dump();
    return 0;
}
