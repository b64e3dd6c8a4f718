#include "core/smart/atasmart_parser.h"

#include <atasmart.h>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <memory>
#include <optional>
#include <string_view>

#include "core/smart/platform/linux/atasmart_disk.h"

namespace ssdk::smart {

namespace {

// IDENTIFY strings are ASCII by the ATA spec; anything else (a damaged blob) becomes '?' so
// the text stays valid UTF-8 for JSON and the GUI.
std::string asciiText(const char* text) {
    std::string clean;
    for (const char* c = text; *c != '\0'; ++c) {
        const auto byte = static_cast<unsigned char>(*c);
        clean.push_back(byte >= 0x20 && byte < 0x7f ? *c : '?');
    }
    return clean;
}

std::string prettyText(const SkSmartAttributeParsedData& attribute) {
    const auto value = attribute.pretty_value;
    switch (attribute.pretty_unit) {
    case SK_SMART_ATTRIBUTE_UNIT_MSECONDS:
        if (value < 1000) {
            return fmt::format("{} ms", value);
        }
        if (value < 3'600'000) {
            return fmt::format("{:.1f} s", static_cast<double>(value) / 1000.0);
        }
        return fmt::format("{:.1f} h", static_cast<double>(value) / 3'600'000.0);
    case SK_SMART_ATTRIBUTE_UNIT_SECTORS:
        return fmt::format("{} sectors", value);
    case SK_SMART_ATTRIBUTE_UNIT_MKELVIN:
        return fmt::format("{:.1f} °C", (static_cast<double>(value) - 273150.0) / 1000.0);
    case SK_SMART_ATTRIBUTE_UNIT_SMALL_PERCENT:
        return fmt::format("{:.3f}%", static_cast<double>(value) / 1000.0);
    case SK_SMART_ATTRIBUTE_UNIT_PERCENT:
        return fmt::format("{}%", value);
    case SK_SMART_ATTRIBUTE_UNIT_MB:
        return fmt::format("{} MB", value);
    case SK_SMART_ATTRIBUTE_UNIT_NONE:
        return fmt::format("{}", value);
    default:
        return {};
    }
}

// What one pass over the attributes gathers. The derived values are what libatasmart's
// sk_disk_smart_get_power_on/_power_cycle/_temperature return (the largest value among the
// attributes they consider), worked out here because each of those getters parses every
// attribute again and compiles libatasmart's quirk regexes each time: four times the work of
// one parse, which made the blob fuzz target crawl.
struct AttributeCollector {
    SmartReport* report = nullptr;
    std::optional<std::uint64_t> powerOnMs, powerCycles, temperatureMk;
};

void keepLargest(std::optional<std::uint64_t>& kept, std::uint64_t value) {
    if (!kept || value > *kept) {
        kept = value;
    }
}

void deriveFromAttribute(const SkSmartAttributeParsedData& parsed, AttributeCollector& collector) {
    if (parsed.name == nullptr) {
        return;
    }
    const std::string_view name = parsed.name;
    if (parsed.pretty_unit == SK_SMART_ATTRIBUTE_UNIT_MSECONDS &&
        (name == "power-on-minutes" || name == "power-on-seconds" || name == "power-on-seconds-2" ||
         name == "power-on-half-minutes" || name == "power-on-hours")) {
        keepLargest(collector.powerOnMs, parsed.pretty_value);
    } else if (parsed.pretty_unit == SK_SMART_ATTRIBUTE_UNIT_NONE && name == "power-cycle-count") {
        keepLargest(collector.powerCycles, parsed.pretty_value);
    } else if (parsed.pretty_unit == SK_SMART_ATTRIBUTE_UNIT_MKELVIN &&
               (name == "temperature-centi-celsius" || name == "temperature-celsius" ||
                name == "temperature-celsius-2" || name == "airflow-temperature-celsius")) {
        keepLargest(collector.temperatureMk, parsed.pretty_value);
    }
}

void collectAttribute(SkDisk* /*disk*/, const SkSmartAttributeParsedData* parsed, void* userdata) {
    auto& collector = *static_cast<AttributeCollector*>(userdata);
    deriveFromAttribute(*parsed, collector);
    auto* report = collector.report;
    AtaAttribute attribute;
    attribute.id = parsed->id;
    attribute.name =
        parsed->name != nullptr ? parsed->name : fmt::format("attribute-{}", parsed->id);
    if (parsed->current_value_valid) {
        attribute.value = parsed->current_value;
    }
    if (parsed->worst_value_valid) {
        attribute.worst = parsed->worst_value;
    }
    if (parsed->threshold_valid) {
        attribute.thresh = parsed->threshold;
    }
    for (std::size_t i = 6; i > 0; --i) {
        attribute.raw = (attribute.raw << 8) | parsed->raw[i - 1];
    }
    attribute.rawText = prettyText(*parsed);
    if (attribute.rawText.empty()) {
        attribute.rawText = std::to_string(attribute.raw);
    }
    attribute.prefailure = parsed->prefailure;
    if (parsed->pretty_unit == SK_SMART_ATTRIBUTE_UNIT_MB &&
        parsed->pretty_value <= UINT64_MAX / 1'000'000) {
        attribute.decodedBytes = parsed->pretty_value * 1'000'000;
    }
    attribute.failingNow = parsed->good_now_valid && !parsed->good_now;
    attribute.failedInPast = parsed->good_in_the_past_valid && !parsed->good_in_the_past;
    report->attributes.push_back(std::move(attribute));
}

} // namespace

Expected<SmartReport> parseAtasmartBlob(std::span<const std::uint8_t> blob) {
    auto sections = splitAtasmartBlob(blob);
    if (!sections) {
        return std::unexpected(sections.error());
    }
    SkDisk* raw = nullptr;
    if (sk_disk_open(nullptr, &raw) < 0) {
        return failErrno(errno, "creating a libatasmart blob disk");
    }
    const SkDiskPtr disk(raw);
    if (sk_disk_set_blob(disk.get(), blob.data(), blob.size()) < 0) {
        return fail(ErrorCode::Parse,
                    fmt::format("libatasmart refused the blob: {}", std::strerror(errno)));
    }

    SmartReport report;
    report.source = ReportSource::Atasmart;
    report.protocol = Protocol::Ata;
    const SkIdentifyParsedData* identity = nullptr;
    if (sk_disk_identify_parse(disk.get(), &identity) < 0 || identity == nullptr) {
        return fail(ErrorCode::Parse, fmt::format("libatasmart could not parse IDENTIFY data: {}",
                                                  std::strerror(errno)));
    }
    report.model = asciiText(identity->model);
    report.serial = asciiText(identity->serial);
    report.firmware = asciiText(identity->firmware);
    readIdentifyCapabilities(sections->identify, report);

    SkBool available = 0;
    if (sk_disk_smart_is_available(disk.get(), &available) >= 0) {
        report.smartAvailable = available != 0;
    }
    if (sections->status.empty()) {
        report.warnings.push_back("the blob has no SMART status section (SMST): the drive's "
                                  "overall self-assessment is unknown");
    } else {
        SkBool good = 0;
        if (sk_disk_smart_status(disk.get(), &good) >= 0) {
            report.smartOverallPassed = good != 0;
        }
    }
    if (sections->data.empty()) {
        report.warnings.push_back("the blob has no SMART data section (SMDT): no attributes");
        return report;
    }
    const SkSmartParsedData* data = nullptr;
    if (sk_disk_smart_read_data(disk.get()) < 0 || sk_disk_smart_parse(disk.get(), &data) < 0) {
        return fail(ErrorCode::Parse, fmt::format("libatasmart could not parse SMART data: {}",
                                                  std::strerror(errno)));
    }
    if (sections->thresholds.empty()) {
        report.warnings.push_back("the blob has no SMART threshold section (SMTH): attributes "
                                  "cannot be judged against thresholds");
    }
    AttributeCollector collector{&report, {}, {}, {}};
    if (sk_disk_smart_parse_attributes(disk.get(), collectAttribute, &collector) < 0) {
        return fail(ErrorCode::Parse, fmt::format("libatasmart could not parse attributes: {}",
                                                  std::strerror(errno)));
    }
    if (collector.powerOnMs) {
        report.powerOnHours = *collector.powerOnMs / 3'600'000;
    }
    report.powerCycles = collector.powerCycles;
    if (collector.temperatureMk) {
        const std::uint64_t value = *collector.temperatureMk;
        const double celsius = (static_cast<double>(value) - 273150.0) / 1000.0;
        if (celsius > 0.0 && celsius <= 200.0) {
            report.temperatureC = static_cast<int>(std::lround(celsius));
        }
    }
    SelfTestState selfTest;
    selfTest.running =
        data->self_test_execution_status == SK_SMART_SELF_TEST_EXECUTION_STATUS_INPROGRESS;
    selfTest.statusText =
        sk_smart_self_test_execution_status_to_string(data->self_test_execution_status);
    if (selfTest.running) {
        selfTest.percentRemaining = static_cast<int>(data->self_test_execution_percent_remaining);
    }
    if (data->short_and_extended_test_available) {
        selfTest.shortMinutes = static_cast<int>(data->short_test_polling_minutes);
        selfTest.extendedMinutes = static_cast<int>(data->extended_test_polling_minutes);
    }
    report.selfTest = std::move(selfTest);
    return report;
}

} // namespace ssdk::smart
