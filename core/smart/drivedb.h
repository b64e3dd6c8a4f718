#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"

namespace ssdk::smart {

// smartctl's drive database (drivedb.h, C source with one initializer per drive family):
// { "family", "model regex", "firmware regex", "warning message", "presets" }.
// Used here for the firmware warnings the smartmontools maintainers record for known-bad
// firmware. Regexes are POSIX extended and must match the whole model/firmware string.
struct DriveDbEntry {
    std::string family, modelRegex, firmwareRegex, warning, presets;
};

class DriveDatabase {
public:
    // Parses drivedb.h text (pure). Errors: Parse when it holds no entry at all.
    static Expected<DriveDatabase> parse(std::string_view text);
    // Debian installs it at /usr/share/smartmontools/drivedb.h.
    static Expected<DriveDatabase>
    load(const std::filesystem::path& file = "/usr/share/smartmontools/drivedb.h");

    const std::vector<DriveDbEntry>& entries() const { return m_entries; }
    // The first entry whose model and firmware regexes match (as smartctl picks), or nullptr.
    // Entries for USB bridges, defaults and the version line are skipped.
    const DriveDbEntry* match(const std::string& model, const std::string& firmware) const;
    // The warning of the matching entry, its wrapped lines joined into one; empty when none.
    std::vector<std::string> firmwareWarnings(const std::string& model,
                                              const std::string& firmware) const;

private:
    std::vector<DriveDbEntry> m_entries;
};

} // namespace ssdk::smart
