// libFuzzer target: smartctl JSON parser, then everything downstream of a parsed report
// (derived values, assessment). Any crash, sanitizer report or broken invariant is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/smart/health.h"
#include "core/smart/health_json.h"
#include "core/smart/smartctl_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto report = ssdk::smart::parseSmartctlJson(text);
    if (!report) {
        if (report.error().message().empty()) {
            std::abort();
        }
        return 0;
    }
    const auto derived = ssdk::smart::deriveValues(*report);
    const auto assessment = ssdk::smart::assessHealth(*report);
    if (assessment.verdict != ssdk::smart::Verdict::Unknown && assessment.reasons.empty() &&
        assessment.verdict != ssdk::smart::Verdict::Good) {
        std::abort(); // a caution or bad verdict always has a reason
    }
    if (derived.temperatureC && *derived.temperatureC <= 0) {
        std::abort(); // no temperature of 0 or below is ever reported
    }
    // What the CLI prints must serialise (valid UTF-8, no exception).
    (void)ssdk::smart::toJson(ssdk::smart::makeDriveHealth("fuzz", *report)).dump();
    return 0;
}
