// Every shared fixture loads; identity and the "bad" verdict match what each file itself says.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <regex>

// atasmart.h uses size_t without including what declares it.
#include <atasmart.h>

#include "core/smart/atasmart_parser.h"
#include "core/smart/health.h"
#include "core/smart/smartctl_parser.h"
#include "tests/unit/smart/smart_test_support.h"

using namespace ssdk::smart;
using namespace ssdk::smart::test;

namespace {

std::string jsonString(const nlohmann::json& root, const char* key) {
    const auto it = root.find(key);
    return it != root.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// What a smartctl file itself says about identity and failure, read with plain nlohmann.
struct SmartctlExpectation {
    std::string model, serial, firmware;
    bool failed = false;
};

SmartctlExpectation expectationOf(const nlohmann::json& root) {
    SmartctlExpectation expected;
    expected.model = jsonString(root, "model_name");
    if (expected.model.empty()) {
        expected.model = jsonString(root, "scsi_model_name");
    }
    if (expected.model.empty()) {
        expected.model = jsonString(root, "scsi_vendor") + " " + jsonString(root, "scsi_product");
    }
    expected.serial = jsonString(root, "serial_number");
    expected.firmware = jsonString(root, "firmware_version");
    if (expected.firmware.empty()) {
        expected.firmware = jsonString(root, "scsi_revision");
    }
    expected.failed = root.contains("smart_status") && root["smart_status"].contains("passed") &&
                      !root["smart_status"]["passed"].get<bool>();
    if (root.contains("ata_smart_attributes")) {
        for (const auto& row : root["ata_smart_attributes"]["table"]) {
            if (row.value("when_failed", std::string()) == "FAILING_NOW") {
                expected.failed = true;
            }
        }
    }
    return expected;
}

// What `skdump --load=FILE` printed for a blob (recorded by tests/data/smart/record-skdump).
struct SkdumpExpectation {
    std::string model, serial, firmware;
    bool failed = false;
    std::size_t attributeRows = 0;
};

SkdumpExpectation skdumpExpectation(const std::string& text) {
    SkdumpExpectation expected;
    const std::regex identity(R"(^(Model|Serial|Firmware): \[(.*)\]$)");
    // "  5 reallocated-sector-count  100   100    36   0 sectors   0x... prefail online  yes  yes"
    const std::regex row(R"(^\s*\d+ \S+ .* (yes|no|n/a)\s+(yes|no|n/a)\s*$)");
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        std::smatch match;
        if (std::regex_match(line, match, identity)) {
            (match[1] == "Model"    ? expected.model
             : match[1] == "Serial" ? expected.serial
                                    : expected.firmware) = match[2];
        } else if (line == "SMART Disk Health Good: no") {
            expected.failed = true;
        } else if (std::regex_match(line, match, row)) {
            ++expected.attributeRows;
            if (match[1] == "no") {
                expected.failed = true; // the "Good" column: failing now
            }
        }
    }
    return expected;
}

} // namespace

TEST_CASE("every shared smartctl fixture loads with its own identity and failure state") {
    const auto files = filesIn(sharedFixtures() / "smartctl");
    REQUIRE(files.size() == 168);
    int bad = 0;
    for (const auto& file : files) {
        INFO(file.filename().string());
        const std::string text = readText(file);
        const auto expected = expectationOf(nlohmann::json::parse(text));
        auto report = parseSmartctlJson(text);
        REQUIRE(report.has_value());
        CHECK(report->model == expected.model);
        CHECK(report->serial == expected.serial);
        CHECK(report->firmware == expected.firmware);
        CHECK(report->protocol != Protocol::Unknown);
        const auto assessment = assessHealth(*report);
        CHECK(assessment.verdict != Verdict::Unknown);
        CHECK((assessment.verdict == Verdict::Bad) == expected.failed);
        bad += assessment.verdict == Verdict::Bad ? 1 : 0;
    }
    // The README names one failing drive among the 168.
    CHECK(bad == 1);
}

TEST_CASE("every shared libatasmart blob loads as skdump --load shows it", "[linux]") {
    const auto blobs = filesIn(sharedFixtures() / "atasmart");
    REQUIRE(blobs.size() == 13);
    int bad = 0;
    for (const auto& blob : blobs) {
        INFO(blob.filename().string());
        const auto recording =
            smartData() / "atasmart-skdump" / (blob.filename().string() + ".txt");
        REQUIRE(std::filesystem::exists(recording));
        const auto expected = skdumpExpectation(readText(recording));
        REQUIRE_FALSE(expected.model.empty());
        auto report = parseAtasmartBlob(readBytes(blob));
        REQUIRE(report.has_value());
        CHECK(report->model == expected.model);
        CHECK(report->serial == expected.serial);
        CHECK(report->firmware == expected.firmware);
        CHECK(report->attributes.size() == expected.attributeRows);
        CHECK(report->smartOverallPassed == true);
        const auto assessment = assessHealth(*report);
        CHECK((assessment.verdict == Verdict::Bad) == expected.failed);
        bad += assessment.verdict == Verdict::Bad ? 1 : 0;
    }
    CHECK(bad >= 1); // ST9100821AS--3.CME has start-stop-count at its threshold now
}

// The parser works out power-on time, power cycles and temperature in its one pass over the
// attributes; libatasmart's own getters (each a further pass) are the reference.
TEST_CASE("blob power-on, power cycles and temperature equal libatasmart's getters", "[linux]") {
    for (const auto& blob : filesIn(sharedFixtures() / "atasmart")) {
        INFO(blob.filename().string());
        const auto bytes = readBytes(blob);
        auto report = parseAtasmartBlob(bytes);
        REQUIRE(report);
        SkDisk* raw = nullptr;
        REQUIRE(sk_disk_open(nullptr, &raw) >= 0);
        REQUIRE(sk_disk_set_blob(raw, bytes.data(), bytes.size()) >= 0);
        const SkSmartParsedData* data = nullptr;
        REQUIRE(sk_disk_smart_read_data(raw) >= 0);
        REQUIRE(sk_disk_smart_parse(raw, &data) >= 0);
        std::uint64_t value = 0;
        if (sk_disk_smart_get_power_on(raw, &value) >= 0) {
            CHECK(report->powerOnHours == value / 3'600'000);
        } else {
            CHECK_FALSE(report->powerOnHours);
        }
        if (sk_disk_smart_get_power_cycle(raw, &value) >= 0) {
            CHECK(report->powerCycles == value);
        } else {
            CHECK_FALSE(report->powerCycles);
        }
        if (sk_disk_smart_get_temperature(raw, &value) >= 0) {
            REQUIRE(report->temperatureC);
            CHECK(*report->temperatureC ==
                  static_cast<int>(std::lround((static_cast<double>(value) - 273150.0) / 1000.0)));
        } else {
            CHECK_FALSE(report->temperatureC);
        }
        sk_disk_free(raw);
    }
}
