#pragma once
// Known firmware problems: SSD Keeper's own catalog (resources/firmware/known-issues.json,
// each entry with model and firmware patterns, the problem, the fixed revision and a public
// source) plus the firmware warnings of smartctl's drive database (drivedb.h).

#include <filesystem>
#include <functional>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"
#include "core/base/json.h"

namespace ssdk::smart {
class DriveDatabase;
}

namespace ssdk::firmware {

struct KnownIssue {
    std::string modelPattern, firmwarePattern; // ECMAScript regexes matching the whole string
    std::string problem, fixedRevision, source;
};

// One problem that applies to a drive.
struct Finding {
    std::string origin; // "catalog" or "drivedb"
    std::string problem;
    std::string fixedRevision; // empty when the source names none
    std::string source;        // a URL, or the drive database family
};

class KnownIssueCatalog {
public:
    // Parses {"issues": [{"model", "firmware", "problem", "fixed", "source"}, …]}.
    // Errors: Parse for malformed JSON, a missing field, a bad regex or a source that is
    // not an http(s) URL.
    static Expected<KnownIssueCatalog> parse(std::string_view text);
    static Expected<KnownIssueCatalog> load(const std::filesystem::path& file);

    const std::vector<KnownIssue>& issues() const { return m_issues; }
    // Matching is case-insensitive; surrounding spaces of model and firmware are ignored.
    std::vector<Finding> match(const std::string& model, const std::string& firmware) const;

private:
    struct Compiled {
        std::regex model, firmware;
    };
    std::vector<KnownIssue> m_issues;
    std::vector<Compiled> m_compiled;
};

// Where the catalog is: $SSDK_FIRMWARE_CATALOG, else the installed file, else the source
// tree's resources/firmware/known-issues.json (a build that was not installed).
std::filesystem::path defaultCatalogPath();

// Catalog findings, then the drive database's firmware warnings (db may be null).
std::vector<Finding> findKnownIssues(const KnownIssueCatalog& catalog,
                                     const smart::DriveDatabase* db, const std::string& model,
                                     const std::string& firmware);

// Known problems from the catalog at defaultCatalogPath() (loaded on the first call; when it
// cannot be loaded a warning goes to the log once and nothing is reported), as health
// reasons: what smart::HealthService::setFirmwareAdvisor takes. Thread-safe.
std::function<std::vector<std::string>(const std::string& model, const std::string& firmware)>
catalogAdvisor();

// The findings as health reasons ("Known firmware problem: …; fixed in X").
std::vector<std::string> healthReasons(const std::vector<Finding>& findings);

Json toJson(const Finding& finding);

} // namespace ssdk::firmware
