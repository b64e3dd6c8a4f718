#include "core/firmware/known_issues.h"

#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>

#include "core/base/log.h"
#include "core/smart/drivedb.h"

#ifndef SSDK_FIRMWARE_CATALOG_INSTALL_PATH
#error "SSDK_FIRMWARE_CATALOG_INSTALL_PATH must be defined by the build"
#endif
#ifndef SSDK_FIRMWARE_CATALOG_SOURCE_PATH
#error "SSDK_FIRMWARE_CATALOG_SOURCE_PATH must be defined by the build"
#endif

namespace ssdk::firmware {

namespace {

std::string trimmed(const std::string& text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string::npos) {
        return {};
    }
    const auto last = text.find_last_not_of(" \t");
    return text.substr(first, last - first + 1);
}

Expected<std::string> field(const Json& entry, const char* name, std::size_t index) {
    if (!entry.contains(name) || !entry[name].is_string() ||
        entry[name].get<std::string>().empty()) {
        return fail(ErrorCode::Parse,
                    fmt::format("known issue {} has no '{}' text", index + 1, name));
    }
    return entry[name].get<std::string>();
}

} // namespace

Expected<KnownIssueCatalog> KnownIssueCatalog::parse(std::string_view text) {
    auto json = parseJson(text, "the firmware known-issues catalog");
    if (!json) {
        return std::unexpected(json.error());
    }
    if (!json->is_object() || !json->contains("issues") || !(*json)["issues"].is_array()) {
        return fail(ErrorCode::Parse, "the firmware catalog has no 'issues' array");
    }
    KnownIssueCatalog catalog;
    const Json& issues = (*json)["issues"];
    for (std::size_t i = 0; i < issues.size(); ++i) {
        const Json& entry = issues[i];
        if (!entry.is_object()) {
            return fail(ErrorCode::Parse, fmt::format("known issue {} is not an object", i + 1));
        }
        KnownIssue issue;
        auto model = field(entry, "model", i);
        auto firmware = field(entry, "firmware", i);
        auto problem = field(entry, "problem", i);
        auto fixed = field(entry, "fixed", i);
        auto source = field(entry, "source", i);
        for (auto* part : {&model, &firmware, &problem, &fixed, &source}) {
            if (!*part) {
                return std::unexpected(part->error());
            }
        }
        issue.modelPattern = *model;
        issue.firmwarePattern = *firmware;
        issue.problem = *problem;
        issue.fixedRevision = *fixed;
        issue.source = *source;
        if (!issue.source.starts_with("https://") && !issue.source.starts_with("http://")) {
            return fail(ErrorCode::Parse,
                        fmt::format("known issue {}: source must be a public http(s) URL", i + 1));
        }
        try {
            const auto flags = std::regex::ECMAScript | std::regex::icase;
            catalog.m_compiled.push_back(
                {std::regex(issue.modelPattern, flags), std::regex(issue.firmwarePattern, flags)});
        } catch (const std::regex_error& e) {
            return fail(ErrorCode::Parse,
                        fmt::format("known issue {}: bad pattern: {}", i + 1, e.what()));
        }
        catalog.m_issues.push_back(std::move(issue));
    }
    return catalog;
}

Expected<KnownIssueCatalog> KnownIssueCatalog::load(const std::filesystem::path& file) {
    std::ifstream in(file);
    if (!in) {
        return fail(ErrorCode::NotFound,
                    "the firmware known-issues catalog is missing: " + file.string());
    }
    std::stringstream text;
    text << in.rdbuf();
    return withContext(parse(text.str()), "reading " + file.string());
}

std::vector<Finding> KnownIssueCatalog::match(const std::string& model,
                                              const std::string& firmware) const {
    std::vector<Finding> out;
    const std::string m = trimmed(model);
    const std::string f = trimmed(firmware);
    if (m.empty() || f.empty()) {
        return out;
    }
    for (std::size_t i = 0; i < m_issues.size(); ++i) {
        if (std::regex_match(m, m_compiled[i].model) &&
            std::regex_match(f, m_compiled[i].firmware)) {
            const KnownIssue& issue = m_issues[i];
            out.push_back({"catalog", issue.problem, issue.fixedRevision, issue.source});
        }
    }
    return out;
}

std::filesystem::path defaultCatalogPath() {
    if (const char* env = std::getenv("SSDK_FIRMWARE_CATALOG"); env != nullptr && *env != 0) {
        return env;
    }
    std::error_code ec;
    const std::filesystem::path installed = SSDK_FIRMWARE_CATALOG_INSTALL_PATH;
    if (std::filesystem::is_regular_file(installed, ec)) {
        return installed;
    }
    return SSDK_FIRMWARE_CATALOG_SOURCE_PATH;
}

std::vector<Finding> findKnownIssues(const KnownIssueCatalog& catalog,
                                     const smart::DriveDatabase* db, const std::string& model,
                                     const std::string& firmware) {
    auto findings = catalog.match(model, firmware);
    if (db != nullptr) {
        const auto* entry = db->match(trimmed(model), trimmed(firmware));
        for (const auto& warning : db->firmwareWarnings(trimmed(model), trimmed(firmware))) {
            findings.push_back({"drivedb", warning, "",
                                "smartctl drive database: " +
                                    (entry != nullptr ? entry->family : std::string("drivedb.h"))});
        }
    }
    return findings;
}

std::function<std::vector<std::string>(const std::string&, const std::string&)> catalogAdvisor() {
    struct Loaded {
        std::once_flag once;
        std::optional<KnownIssueCatalog> catalog;
    };
    auto loaded = std::make_shared<Loaded>();
    return [loaded](const std::string& model, const std::string& firmware) {
        std::call_once(loaded->once, [&] {
            auto catalog = KnownIssueCatalog::load(defaultCatalogPath());
            if (catalog) {
                loaded->catalog = std::move(*catalog);
            } else {
                log::get("firmware")
                    ->warn("no known firmware problems from the catalog: {}",
                           catalog.error().describe());
            }
        });
        if (!loaded->catalog) {
            return std::vector<std::string>{};
        }
        return healthReasons(loaded->catalog->match(model, firmware));
    };
}

std::vector<std::string> healthReasons(const std::vector<Finding>& findings) {
    std::vector<std::string> reasons;
    for (const auto& finding : findings) {
        std::string reason = "Known firmware problem: " + finding.problem;
        if (!finding.fixedRevision.empty()) {
            reason += " (fixed in firmware " + finding.fixedRevision + ")";
        }
        reasons.push_back(std::move(reason));
    }
    return reasons;
}

Json toJson(const Finding& finding) {
    return Json{{"origin", finding.origin},
                {"problem", finding.problem},
                {"fixed_revision", finding.fixedRevision},
                {"source", finding.source}};
}

} // namespace ssdk::firmware
