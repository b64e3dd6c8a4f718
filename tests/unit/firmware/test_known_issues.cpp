// The known-issues catalog: the shipped file parses, a shared fixture of a drive with a known
// problem (Intel SSD 320 on 4PC10302, the "8MB bug") is flagged, the other fixtures are not,
// and smartctl's drive database warnings join the catalog's.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>

#include "core/base/replay_process_runner.h"
#include "core/firmware/known_issues.h"
#include "core/smart/atasmart_parser.h"
#include "core/smart/drivedb.h"
#include "core/smart/health_service.h"
#include "core/smart/smartctl_parser.h"
#include "tests/unit/firmware/firmware_test_support.h"

using namespace ssdk;
using namespace ssdk::firmware;
using namespace ssdk::firmware::test;
namespace fs = std::filesystem;

namespace {

KnownIssueCatalog shippedCatalog() {
    auto catalog = KnownIssueCatalog::load(SSDK_FIRMWARE_CATALOG_FILE);
    REQUIRE(catalog);
    return *catalog;
}

const fs::path kShared = SSDK_SHARED_FIXTURES_DIR;

} // namespace

TEST_CASE("the shipped catalog parses and every entry names a public source") {
    const auto catalog = shippedCatalog();
    REQUIRE(catalog.issues().size() >= 5);
    for (const auto& issue : catalog.issues()) {
        CHECK((issue.source.starts_with("https://") || issue.source.starts_with("http://")));
        CHECK_FALSE(issue.fixedRevision.empty());
    }
}

TEST_CASE("the shared Intel SSD 320 fixture on 4PC10302 is flagged with the 8MB bug", "[linux]") {
    const std::string blob = readFile(kShared / "atasmart" / "INTEL_SSDSA2CW120G3--4PC10302");
    auto report =
        smart::parseAtasmartBlob({reinterpret_cast<const std::uint8_t*>(blob.data()), blob.size()});
    REQUIRE(report);
    REQUIRE(report->firmware == "4PC10302");
    const auto findings = shippedCatalog().match(report->model, report->firmware);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].origin == "catalog");
    CHECK(findings[0].fixedRevision == "4PC10362");
    CHECK_THAT(findings[0].problem, Catch::Contains("8 MB"));
    // The fixed revision itself is not flagged.
    CHECK(shippedCatalog().match(report->model, "4PC10362").empty());
}

TEST_CASE("no shared smartctl or libatasmart fixture other than the Intel 320 is flagged") {
    const auto catalog = shippedCatalog();
    std::size_t checked = 0;
    for (const auto& entry : fs::directory_iterator(kShared / "smartctl")) {
        if (entry.path().extension() != ".json") {
            continue;
        }
        auto report = smart::parseSmartctlJson(readFile(entry.path()));
        if (!report || report->model.empty()) {
            continue;
        }
        INFO(entry.path().filename().string()
             << ": " << report->model << " / " << report->firmware);
        CHECK(catalog.match(report->model, report->firmware).empty());
        ++checked;
    }
    for (const auto& entry : fs::directory_iterator(kShared / "atasmart")) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with("INTEL_SSDSA2CW120G3") || name.starts_with("README")) {
            continue;
        }
        const std::string blob = readFile(entry.path());
        auto report = smart::parseAtasmartBlob(
            {reinterpret_cast<const std::uint8_t*>(blob.data()), blob.size()});
        if (!report) {
            continue;
        }
        INFO(name);
        CHECK(catalog.match(report->model, report->firmware).empty());
        ++checked;
    }
    CHECK(checked > 30);
}

TEST_CASE("catalog entries match the documented revisions and not the fixed ones") {
    const auto catalog = shippedCatalog();
    CHECK(catalog.match("Samsung SSD 840 EVO 250GB", "EXT0BB6Q").size() == 1);
    CHECK(catalog.match("Samsung SSD 840 EVO 250GB", "EXT0DB6Q").empty());
    CHECK(catalog.match("Samsung SSD 980 PRO 2TB", "3B2QGXA7").size() == 1);
    CHECK(catalog.match("Samsung SSD 980 PRO 2TB", "5B2QGXA7").empty());
    CHECK(catalog.match("Samsung SSD 990 PRO 2TB", "0B2QJXD7").size() == 1);
    CHECK(catalog.match("Samsung SSD 990 PRO 2TB", "1B2QJXD7").empty());
    CHECK(catalog.match("M4-CT256M4SSD2", "0009").size() == 1);
    CHECK(catalog.match("M4-CT256M4SSD2", "0309").empty());
    // Case and padding do not matter; an empty revision never matches.
    CHECK(catalog.match("  samsung ssd 980 pro 1tb ", "3b2qgxa7").size() == 1);
    CHECK(catalog.match("Samsung SSD 980 PRO 1TB", "").empty());
}

TEST_CASE("the system drive database adds its firmware warning to the catalog's") {
    auto db = smart::DriveDatabase::load();
    REQUIRE(db);
    const auto findings = findKnownIssues(shippedCatalog(), &*db, "M4-CT064M4SSD2", "0002");
    REQUIRE(findings.size() == 2);
    CHECK(findings[0].origin == "catalog");
    CHECK(findings[1].origin == "drivedb");
    CHECK_THAT(findings[1].problem, Catch::Contains("5184"));
    CHECK_THAT(findings[1].source, Catch::Contains("Crucial"));
    const auto reasons = healthReasons(findings);
    REQUIRE(reasons.size() == 2);
    CHECK(reasons[0] ==
          "Known firmware problem: " + findings[0].problem + " (fixed in firmware 0309)");
    CHECK(findKnownIssues(shippedCatalog(), &*db, "Samsung SSD 970 EVO Plus 250GB", "2B2QEXM7")
              .empty());
}

TEST_CASE("malformed catalogs are refused with the reason") {
    CHECK_FALSE(KnownIssueCatalog::parse("[]"));
    CHECK_FALSE(KnownIssueCatalog::parse(R"({"issues": [{"model": "X"}]})"));
    auto badRegex = KnownIssueCatalog::parse(
        R"({"issues": [{"model": "X(", "firmware": "1", "problem": "p", "fixed": "2",
            "source": "https://example.org"}]})");
    REQUIRE_FALSE(badRegex);
    CHECK_THAT(badRegex.error().message(), Catch::Contains("bad pattern"));
    auto notUrl = KnownIssueCatalog::parse(
        R"({"issues": [{"model": "X", "firmware": "1", "problem": "p", "fixed": "2",
            "source": "a forum post"}]})");
    REQUIRE_FALSE(notUrl);
    CHECK_THAT(notUrl.error().message(), Catch::Contains("URL"));
    CHECK(KnownIssueCatalog::load("/nonexistent/known-issues.json").error().code() ==
          ErrorCode::NotFound);
}

TEST_CASE("a catalogued firmware problem becomes a health reason of the drive", "[linux]") {
    ::setenv("SSDK_FIRMWARE_CATALOG", SSDK_FIRMWARE_CATALOG_FILE, 1);
    const std::string blob = readFile(kShared / "atasmart" / "INTEL_SSDSA2CW120G3--4PC10302");
    auto report =
        smart::parseAtasmartBlob({reinterpret_cast<const std::uint8_t*>(blob.data()), blob.size()});
    REQUIRE(report);
    ReplayProcessRunner runner;
    smart::HealthService service(runner, {}, true);

    auto reasonCodes = [&](const smart::SmartReport& assessed) {
        auto health = service.evaluate("/dev/sdx", assessed);
        REQUIRE(health);
        std::vector<std::string> codes;
        for (const auto& reason : health->assessment.reasons) {
            codes.push_back(reason.code);
            if (reason.code == "firmware-known-problem") {
                CHECK(reason.severity == smart::Severity::Caution);
                CHECK_THAT(reason.message, Catch::Contains("fixed in firmware 4PC10362"));
                CHECK(health->assessment.verdict != smart::Verdict::Good);
            }
        }
        return codes;
    };
    const auto has = [](const std::vector<std::string>& codes, const char* code) {
        return std::find(codes.begin(), codes.end(), code) != codes.end();
    };
    CHECK_FALSE(has(reasonCodes(*report), "firmware-known-problem"));
    service.setFirmwareAdvisor(catalogAdvisor());
    CHECK(has(reasonCodes(*report), "firmware-known-problem"));
    smart::SmartReport fixed = *report;
    fixed.firmware = "4PC10362";
    CHECK_FALSE(has(reasonCodes(fixed), "firmware-known-problem"));
    ::unsetenv("SSDK_FIRMWARE_CATALOG");
}
