// The exposition of every fixture drive follows the Prometheus text format 0.0.4, checked by a
// strict parser here and by `promtool check metrics` (scripts/setup installs Debian's prometheus
// for it).
#include <catch2/catch.hpp>
#include <map>
#include <regex>
#include <set>

#include "core/base/system_process_runner.h"
#include "core/smart/prometheus.h"
#include "core/smart/report_loader.h"
#include "tests/unit/smart/smart_test_support.h"

using namespace ssdk;
using namespace ssdk::smart;
using namespace ssdk::smart::test;

namespace {

struct Sample {
    std::string name;
    std::map<std::string, std::string> labels;
    double value = 0;
};

// Parses the text format strictly; any deviation fails the test with the line.
std::vector<Sample> parseExposition(const std::string& text) {
    static const std::regex help(R"(^# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) (.+)$)");
    static const std::regex type(R"(^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge)$)");
    static const std::regex sample(R"(^([a-zA-Z_:][a-zA-Z0-9_:]*)\{(.*)\} (\S+)$)");
    static const std::regex label(R"(^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)\"(,|$))");
    std::vector<Sample> samples;
    std::map<std::string, std::string> types;
    std::set<std::string> helped, finished, series;
    std::string current;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        INFO(line);
        std::smatch match;
        if (std::regex_match(line, match, help)) {
            REQUIRE(helped.insert(match[1]).second);
            if (!current.empty() && current != match[1].str()) {
                finished.insert(current);
            }
            current = match[1];
            REQUIRE(finished.count(current) == 0);
        } else if (std::regex_match(line, match, type)) {
            REQUIRE(match[1] == current);
            REQUIRE(types.emplace(match[1], match[2]).second);
            if (match[2] == "counter") {
                CHECK(current.ends_with("_total"));
            } else {
                CHECK_FALSE(current.ends_with("_total"));
            }
        } else {
            REQUIRE(std::regex_match(line, match, sample));
            Sample parsed;
            parsed.name = match[1];
            REQUIRE(parsed.name == current); // samples follow their family's HELP and TYPE
            REQUIRE(types.count(parsed.name) == 1);
            std::string rest = match[2];
            while (!rest.empty()) {
                std::smatch labelMatch;
                REQUIRE(std::regex_search(rest, labelMatch, label));
                REQUIRE(parsed.labels.emplace(labelMatch[1], labelMatch[2]).second);
                rest = labelMatch.suffix();
            }
            std::size_t used = 0;
            parsed.value = std::stod(match[3].str(), &used);
            REQUIRE(used == match[3].str().size());
            REQUIRE(series.insert(line.substr(0, line.rfind(' '))).second);
            samples.push_back(std::move(parsed));
        }
    }
    return samples;
}

std::vector<DriveHealth> fixtureDrives() {
    std::vector<DriveHealth> drives;
    for (const char* folder : {"smartctl", "atasmart"}) {
        for (const auto& file : filesIn(sharedFixtures() / folder)) {
            auto report = loadSavedReport(file);
            REQUIRE(report);
            drives.push_back(makeDriveHealth("/dev/" + file.filename().string(), *report));
        }
    }
    drives.push_back(makeNoSmartHealth("/dev/loop7", "a loop device"));
    return drives;
}

} // namespace

TEST_CASE("metrics of every fixture drive are valid exposition text", "[linux]") {
    const auto drives = fixtureDrives();
    const std::string text = formatPrometheus(drives);
    const auto samples = parseExposition(text);
    std::map<std::string, int> perFamily;
    for (const auto& sample : samples) {
        ++perFamily[sample.name];
        CHECK(sample.labels.count("device") == 1);
    }
    CHECK(perFamily["ssdkeeper_drive_info"] == static_cast<int>(drives.size()));
    CHECK(perFamily["ssdkeeper_health_verdict"] == static_cast<int>(drives.size()));
    CHECK(perFamily["ssdkeeper_health_status"] == 4 * static_cast<int>(drives.size()));
    CHECK(perFamily["ssdkeeper_temperature_celsius"] > 100);
    CHECK(perFamily["ssdkeeper_host_written_bytes_total"] > 50);
    CHECK(perFamily["ssdkeeper_life_used_ratio"] > 50);
    CHECK(perFamily["ssdkeeper_available_spare_ratio"] > 50);
    CHECK(perFamily["ssdkeeper_media_errors_total"] > 50);
    CHECK(perFamily["ssdkeeper_power_on_seconds_total"] > 150);
    // Unknown values are left out, never 0: the loop device has only info and verdict.
    for (const auto& sample : samples) {
        if (sample.labels.at("device") == "/dev/loop7" &&
            sample.name == "ssdkeeper_health_verdict") {
            CHECK(sample.value == 3);
        }
        if (sample.labels.at("device") == "/dev/loop7") {
            CHECK((sample.name == "ssdkeeper_drive_info" ||
                   sample.name == "ssdkeeper_health_verdict" ||
                   sample.name == "ssdkeeper_health_status"));
        }
    }

    const std::string promtool = findExecutable("promtool");
    REQUIRE_FALSE(promtool.empty()); // scripts/setup installs it (package prometheus)
    SystemProcessRunner runner;
    auto result = runner.run({.argv = {promtool, "check", "metrics"}, .standardInput = text});
    REQUIRE(result);
    INFO(result->standardOutput << result->standardError);
    CHECK(result->exitCode == 0);
}

TEST_CASE("a drive without SMART is named by what discovery knows of it") {
    DriveHealth virtio = makeNoSmartHealth("/dev/vda", "virtio has no SMART");
    virtio.identity = {"Virtio block device", "1976641213107911", ""};
    const auto samples = parseExposition(formatPrometheus({virtio}));
    REQUIRE_FALSE(samples.empty());
    CHECK(samples.front().name == "ssdkeeper_drive_info");
    CHECK(samples.front().labels.at("model") == "Virtio block device");
    CHECK(samples.front().labels.at("serial") == "1976641213107911");
    CHECK(samples.front().labels.at("firmware").empty());
    CHECK(samples.front().labels.at("protocol") == "unknown");
}

TEST_CASE("a report's own identity comes before discovery's", "[linux]") {
    for (DriveHealth drive : fixtureDrives()) {
        if (!drive.report || drive.report->model.empty()) {
            continue;
        }
        INFO(drive.device);
        drive.identity = {"what sysfs says", "sysfs serial", "sysfs fw"};
        const auto samples = parseExposition(formatPrometheus({drive}));
        REQUIRE_FALSE(samples.empty());
        CHECK(samples.front().labels.at("model") == escapeLabelValue(drive.report->model));
        CHECK(samples.front().labels.at("serial") ==
              (drive.report->serial.empty() ? "sysfs serial"
                                            : escapeLabelValue(drive.report->serial)));
    }
}

TEST_CASE("label values are escaped") {
    CHECK(escapeLabelValue(R"(a"b\c)") == R"(a\"b\\c)");
    CHECK(escapeLabelValue("two\nlines") == "two\\nlines");
    DriveHealth odd = makeNoSmartHealth("/dev/we\"ird", "x");
    const auto samples = parseExposition(formatPrometheus({odd}));
    REQUIRE_FALSE(samples.empty());
    CHECK(samples.front().labels.at("device") == R"(/dev/we\"ird)");
}
