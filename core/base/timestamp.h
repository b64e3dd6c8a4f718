#pragma once

#include <string>

namespace ssdk {

// Now, in UTC, as ISO 8601 to the second: "2026-11-26T07:19:07Z" (journals, certificates,
// trace headers).
std::string utcTimestampNow();

} // namespace ssdk
