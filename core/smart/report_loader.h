#pragma once

#include <filesystem>
#include <span>
#include <string_view>

#include "core/base/error.h"
#include "core/smart/report.h"

namespace ssdk::smart {

// Parses a saved report of either kind: smartctl JSON (`smartctl --json ... > FILE`) or a
// libatasmart blob (`skdump --save=FILE`), told apart by their first bytes. Pure.
// Errors: Parse (neither format, or the parser's own errors).
Expected<SmartReport> parseSavedReport(std::span<const std::uint8_t> bytes);

// Reads a saved report file (at most 16 MiB) and parses it.
Expected<SmartReport> loadSavedReport(const std::filesystem::path& file);

} // namespace ssdk::smart
