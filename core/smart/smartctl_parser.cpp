#include "core/smart/smartctl_parser.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <string>

#include "core/base/json.h"

namespace ssdk::smart {

namespace {

// Exit status bits of smartctl (smartctl(8), EXIT STATUS).
constexpr unsigned kExitCommandLine = 0x01;
constexpr unsigned kExitOpenFailed = 0x02;
constexpr unsigned kExitCommandFailed = 0x04;

const Json* member(const Json& object, std::string_view key) {
    if (!object.is_object()) {
        return nullptr;
    }
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

const Json* path(const Json& root, std::initializer_list<std::string_view> keys) {
    const Json* node = &root;
    for (const auto key : keys) {
        node = member(*node, key);
        if (node == nullptr) {
            return nullptr;
        }
    }
    return node;
}

std::string stringAt(const Json& object, std::string_view key) {
    const Json* value = member(object, key);
    return value != nullptr && value->is_string() ? value->get<std::string>() : std::string();
}

std::optional<bool> boolAt(const Json* object, std::string_view key) {
    const Json* value = object == nullptr ? nullptr : member(*object, key);
    if (value == nullptr || !value->is_boolean()) {
        return std::nullopt;
    }
    return value->get<bool>();
}

// A non-negative integer that fits 128 bits: "KEY_le" bytes, then "KEY_s", then KEY itself
// when nlohmann kept it as an exact unsigned/signed integer (a double is never trusted).
std::optional<UInt128> counterAt(const Json* object, std::string_view key) {
    if (object == nullptr || !object->is_object()) {
        return std::nullopt;
    }
    const std::string name(key);
    if (const Json* le = member(*object, name + "_le"); le != nullptr && le->is_array()) {
        std::vector<std::uint8_t> bytes;
        bool valid = le->size() <= 16;
        for (const auto& byte : *le) {
            if (!byte.is_number_unsigned() || byte.get<std::uint64_t>() > 0xff) {
                valid = false;
                break;
            }
            bytes.push_back(static_cast<std::uint8_t>(byte.get<std::uint64_t>()));
        }
        if (valid) {
            if (auto value = UInt128::fromLittleEndian(bytes)) {
                return value;
            }
        }
    }
    if (const Json* s = member(*object, name + "_s"); s != nullptr && s->is_string()) {
        if (auto value = UInt128::fromDecimal(s->get_ref<const std::string&>())) {
            return value;
        }
    }
    const Json* value = member(*object, key);
    if (value == nullptr) {
        return std::nullopt;
    }
    if (value->is_number_unsigned()) {
        return UInt128(value->get<std::uint64_t>());
    }
    if (value->is_number_integer() && value->get<std::int64_t>() >= 0) {
        return UInt128(static_cast<std::uint64_t>(value->get<std::int64_t>()));
    }
    return std::nullopt;
}

std::optional<std::uint64_t> u64At(const Json* object, std::string_view key) {
    auto value = counterAt(object, key);
    if (!value || !value->fitsIn64()) {
        return std::nullopt;
    }
    return value->low();
}

std::optional<std::uint8_t> u8At(const Json* object, std::string_view key) {
    auto value = u64At(object, key);
    if (!value || *value > 0xff) {
        return std::nullopt;
    }
    return static_cast<std::uint8_t>(*value);
}

std::optional<int> intAt(const Json* object, std::string_view key) {
    const Json* value = object == nullptr ? nullptr : member(*object, key);
    if (value == nullptr || !value->is_number_integer()) {
        return std::nullopt;
    }
    const auto number = value->get<std::int64_t>();
    if (number < std::numeric_limits<int>::min() || number > std::numeric_limits<int>::max()) {
        return std::nullopt;
    }
    return static_cast<int>(number);
}

// A temperature reading that means something: smartctl and drives use 0 and -273 (0 K)
// for "no sensor", and nothing above 200 °C is a real drive temperature.
std::optional<int> plausibleCelsius(std::optional<int> value) {
    if (!value || *value <= 0 || *value > 200) {
        return std::nullopt;
    }
    return value;
}

std::vector<std::string> messagesOf(const Json& root, std::string_view severity = {}) {
    std::vector<std::string> messages;
    const Json* list = path(root, {"smartctl", "messages"});
    if (list == nullptr || !list->is_array()) {
        return messages;
    }
    for (const auto& message : *list) {
        const std::string text = stringAt(message, "string");
        if (text.empty()) {
            continue;
        }
        if (!severity.empty() && stringAt(message, "severity") != severity) {
            continue;
        }
        messages.push_back(text);
    }
    return messages;
}

std::string joined(const std::vector<std::string>& parts) {
    std::string text;
    for (const auto& part : parts) {
        text += (text.empty() ? "" : "; ") + part;
    }
    return text;
}

bool mentionsNoSmart(const std::string& text) {
    static constexpr std::string_view kMarkers[] = {
        "Unable to detect device type", "Unknown USB bridge",  "SMART support is: Unavailable",
        "does not support SMART",       "Device type unknown", "Unsupported"};
    return std::any_of(std::begin(kMarkers), std::end(kMarkers), [&](std::string_view marker) {
        return text.find(marker) != std::string::npos;
    });
}

Protocol protocolOf(const Json& root) {
    const std::string protocol = [&] {
        const Json* device = member(root, "device");
        return device != nullptr ? stringAt(*device, "protocol") : std::string();
    }();
    if (protocol == "ATA") {
        return Protocol::Ata;
    }
    if (protocol == "NVMe") {
        return Protocol::Nvme;
    }
    if (protocol == "SCSI") {
        return Protocol::Scsi;
    }
    return Protocol::Unknown;
}

AtaAttribute parseAttribute(const Json& row) {
    AtaAttribute attribute;
    attribute.id = u8At(&row, "id").value_or(0);
    attribute.name = stringAt(row, "name");
    attribute.value = u8At(&row, "value");
    attribute.worst = u8At(&row, "worst");
    attribute.thresh = u8At(&row, "thresh");
    const Json* raw = member(row, "raw");
    attribute.raw = u64At(raw, "value").value_or(0);
    attribute.rawText = raw != nullptr ? stringAt(*raw, "string") : std::string();
    if (attribute.rawText.empty()) {
        attribute.rawText = std::to_string(attribute.raw);
    }
    attribute.prefailure = boolAt(member(row, "flags"), "prefailure").value_or(false);
    // smartctl's verdict ("FAILING_NOW", "In_the_past"), confirmed from the values: a
    // threshold of 0 means "never fails" (ATA spec), so only thresh > 0 counts.
    const std::string whenFailed = stringAt(row, "when_failed");
    const bool hasThreshold = attribute.thresh && *attribute.thresh > 0;
    attribute.failingNow = whenFailed == "FAILING_NOW" || (hasThreshold && attribute.value &&
                                                           *attribute.value <= *attribute.thresh);
    attribute.failedInPast = whenFailed == "In_the_past" || (hasThreshold && attribute.worst &&
                                                             *attribute.worst <= *attribute.thresh);
    return attribute;
}

NvmeHealthLog parseNvmeLog(const Json& log) {
    NvmeHealthLog nvme;
    nvme.criticalWarning = u8At(&log, "critical_warning").value_or(0);
    nvme.temperatureC = plausibleCelsius(intAt(&log, "temperature"));
    nvme.availableSpare = u8At(&log, "available_spare");
    nvme.availableSpareThreshold = u8At(&log, "available_spare_threshold");
    nvme.percentageUsed = u8At(&log, "percentage_used");
    nvme.dataUnitsRead = counterAt(&log, "data_units_read");
    nvme.dataUnitsWritten = counterAt(&log, "data_units_written");
    nvme.hostReads = counterAt(&log, "host_reads");
    nvme.hostWrites = counterAt(&log, "host_writes");
    nvme.controllerBusyTime = counterAt(&log, "controller_busy_time");
    nvme.powerCycles = counterAt(&log, "power_cycles");
    nvme.powerOnHours = counterAt(&log, "power_on_hours");
    nvme.unsafeShutdowns = counterAt(&log, "unsafe_shutdowns");
    nvme.mediaErrors = counterAt(&log, "media_errors");
    nvme.numErrLogEntries = counterAt(&log, "num_err_log_entries");
    nvme.warningTempTime = u64At(&log, "warning_temp_time");
    nvme.criticalCompTime = u64At(&log, "critical_comp_time");
    if (const Json* sensors = member(log, "temperature_sensors");
        sensors != nullptr && sensors->is_array()) {
        for (const auto& sensor : *sensors) {
            if (sensor.is_number_integer()) {
                const auto celsius = sensor.get<std::int64_t>();
                if (celsius > 0 && celsius <= 200) {
                    nvme.temperatureSensors.push_back(static_cast<int>(celsius));
                }
            }
        }
    }
    return nvme;
}

std::optional<SelfTestState> parseSelfTest(const Json& root) {
    SelfTestState state;
    bool any = false;
    if (const Json* ata = path(root, {"ata_smart_data", "self_test"})) {
        any = true;
        if (const Json* status = member(*ata, "status")) {
            state.statusText = stringAt(*status, "string");
            const auto value = u64At(status, "value").value_or(0);
            // Self-test execution status 0xF_: in progress, low nibble = tenths remaining.
            state.running = (value >> 4) == 0x0f;
            if (auto remaining = intAt(status, "remaining_percent")) {
                state.percentRemaining = *remaining;
            } else if (state.running) {
                state.percentRemaining = static_cast<int>(value & 0x0f) * 10;
            }
        }
        const Json* polling = member(*ata, "polling_minutes");
        state.shortMinutes = intAt(polling, "short");
        state.extendedMinutes = intAt(polling, "extended");
    }
    if (const Json* table = path(root, {"ata_smart_self_test_log", "standard", "table"});
        table != nullptr && table->is_array()) {
        any = true;
        for (const auto& row : *table) {
            SelfTestEntry entry;
            if (const Json* type = member(row, "type")) {
                entry.type = stringAt(*type, "string");
            }
            const Json* status = member(row, "status");
            entry.status = status != nullptr ? stringAt(*status, "string") : std::string();
            entry.passed = boolAt(status, "passed").value_or(true);
            entry.lifetimeHours = u64At(&row, "lifetime_hours");
            state.log.push_back(std::move(entry));
        }
    }
    if (const Json* nvme = member(root, "nvme_self_test_log")) {
        any = true;
        if (const Json* current = member(*nvme, "current_self_test_operation")) {
            state.statusText = stringAt(*current, "string");
            state.running = u64At(current, "value").value_or(0) != 0;
        }
        if (auto done = intAt(nvme, "current_self_test_completion_percent");
            done && state.running) {
            state.percentRemaining = 100 - *done;
        }
        if (const Json* table = member(*nvme, "table"); table != nullptr && table->is_array()) {
            for (const auto& row : *table) {
                SelfTestEntry entry;
                if (const Json* code = member(row, "self_test_code")) {
                    entry.type = stringAt(*code, "string");
                }
                const Json* result = member(row, "self_test_result");
                entry.status = result != nullptr ? stringAt(*result, "string") : std::string();
                entry.passed = u64At(result, "value").value_or(0) == 0;
                entry.lifetimeHours = u64At(&row, "power_on_hours");
                state.log.push_back(std::move(entry));
            }
        }
    }
    if (!any) {
        return std::nullopt;
    }
    return state;
}

void parseTemperatures(const Json& root, SmartReport& report) {
    const Json* temperature = member(root, "temperature");
    report.temperatureC = plausibleCelsius(intAt(temperature, "current"));
    report.temperatureLifetimeMinC = plausibleCelsius(intAt(temperature, "lifetime_min"));
    report.temperatureLifetimeMaxC = plausibleCelsius(intAt(temperature, "lifetime_max"));
    // ATA SCT and NVMe WCTEMP/CCTEMP come as op_limit_max / critical_limit_max; SCSI as
    // drive_trip (the drive's shutdown temperature).
    report.temperatureWarningC = plausibleCelsius(intAt(temperature, "op_limit_max"));
    report.temperatureCriticalC = plausibleCelsius(intAt(temperature, "critical_limit_max"));
    if (!report.temperatureCriticalC) {
        report.temperatureCriticalC = plausibleCelsius(intAt(temperature, "limit_max"));
    }
    if (!report.temperatureCriticalC) {
        report.temperatureCriticalC = plausibleCelsius(intAt(temperature, "drive_trip"));
    }
    if (report.nvme) {
        if (!report.temperatureC) {
            report.temperatureC = report.nvme->temperatureC;
        }
    }
}

void parseIdentity(const Json& root, SmartReport& report) {
    report.protocol = protocolOf(root);
    if (const Json* device = member(root, "device")) {
        report.devicePath = stringAt(*device, "name");
    }
    report.model = stringAt(root, "model_name");
    if (report.model.empty()) {
        // SCSI: vendor + product ("scsi_model_name" since 7.2).
        report.model = stringAt(root, "scsi_model_name");
        if (report.model.empty()) {
            const std::string vendor = stringAt(root, "scsi_vendor");
            const std::string product = stringAt(root, "scsi_product");
            report.model = vendor.empty() ? product : vendor + " " + product;
        }
    }
    report.serial = stringAt(root, "serial_number");
    report.firmware = stringAt(root, "firmware_version");
    if (report.firmware.empty()) {
        report.firmware = stringAt(root, "scsi_revision");
    }
    report.modelFamily = stringAt(root, "model_family");
    report.capacityBytes = u64At(member(root, "user_capacity"), "bytes");
    if (!report.capacityBytes) {
        report.capacityBytes = u64At(&root, "nvme_total_capacity");
    }
    if (!report.capacityBytes) {
        if (const Json* namespaces = member(root, "nvme_namespaces");
            namespaces != nullptr && namespaces->is_array() && namespaces->size() == 1) {
            report.capacityBytes = u64At(member((*namespaces)[0], "size"), "bytes");
        }
    }
    if (auto block = u64At(&root, "logical_block_size"); block && *block <= 1u << 20) {
        report.logicalBlockSize = static_cast<std::uint32_t>(*block);
    }
    if (report.protocol == Protocol::Nvme) {
        report.isSsd = true;
    } else if (auto rpm = u64At(&root, "rotation_rate")) {
        report.isSsd = *rpm == 0; // 0: "Solid State Device"
    }
    if (const Json* trim = member(root, "trim")) {
        report.trimSupported = boolAt(trim, "supported");
    }
    const Json* support = member(root, "smart_support");
    report.smartAvailable = boolAt(support, "available");
    report.smartEnabled = boolAt(support, "enabled");
    report.smartOverallPassed = boolAt(member(root, "smart_status"), "passed");
    report.powerOnHours = u64At(member(root, "power_on_time"), "hours");
    report.powerCycles = u64At(&root, "power_cycle_count");
}

} // namespace

bool looksLikeJson(std::string_view bytes) {
    const auto first = bytes.find_first_not_of(" \t\r\n");
    return first != std::string_view::npos && bytes[first] == '{';
}

Expected<SmartReport> parseSmartctlJson(std::string_view text) {
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
        return fail(ErrorCode::Parse, "smartctl printed nothing");
    }
    auto parsed = parseJson(text, "smartctl output");
    if (!parsed) {
        return std::unexpected(parsed.error());
    }
    const Json& root = *parsed;
    if (!root.is_object()) {
        return fail(ErrorCode::Parse, "smartctl output is not a JSON object");
    }
    const Json* version = member(root, "json_format_version");
    if (version == nullptr || !version->is_array() || version->empty() ||
        !(*version)[0].is_number_unsigned()) {
        return fail(ErrorCode::Parse, "smartctl output has no json_format_version");
    }
    if (const auto major = (*version)[0].get<std::uint64_t>(); major != 1) {
        return fail(ErrorCode::Unsupported, "smartctl JSON format version " +
                                                std::to_string(major) +
                                                " is not supported (this program reads version 1)");
    }

    SmartReport report;
    report.source = ReportSource::Smartctl;
    const auto exitStatus = u64At(member(root, "smartctl"), "exit_status");
    if (exitStatus && *exitStatus <= 0xff) {
        report.smartctlExitStatus = static_cast<std::uint8_t>(*exitStatus);
    }
    const unsigned status = report.smartctlExitStatus.value_or(0);
    const std::string errors = joined(messagesOf(root, "error"));
    const std::string allMessages = joined(messagesOf(root));
    if ((status & (kExitCommandLine | kExitOpenFailed)) != 0) {
        const std::string why =
            errors.empty() ? (allMessages.empty() ? std::string("no message") : allMessages)
                           : errors;
        return fail(mentionsNoSmart(why) ? ErrorCode::Unsupported : ErrorCode::ProcessFailed,
                    "smartctl could not read the device (exit status " + std::to_string(status) +
                        "): " + why);
    }

    parseIdentity(root, report);
    if ((status & kExitCommandFailed) != 0) {
        if (report.model.empty() && report.serial.empty()) {
            return fail(
                ErrorCode::ProcessFailed,
                "smartctl could not read the device (exit status " + std::to_string(status) +
                    "): " + (errors.empty() ? std::string("a SMART command failed") : errors));
        }
        report.warnings.push_back("smartctl: some SMART or ATA command failed, or a SMART data "
                                  "structure had a bad checksum; values may be incomplete");
    }
    for (const auto& warning : messagesOf(root)) {
        report.warnings.push_back("smartctl: " + warning);
    }

    if (const Json* table = path(root, {"ata_smart_attributes", "table"});
        table != nullptr && table->is_array()) {
        for (const auto& row : *table) {
            if (row.is_object()) {
                report.attributes.push_back(parseAttribute(row));
            }
        }
    }
    if (const Json* errorLog = member(root, "ata_smart_error_log")) {
        report.ataErrorLogCount = u64At(member(*errorLog, "extended"), "count");
        if (!report.ataErrorLogCount) {
            report.ataErrorLogCount = u64At(member(*errorLog, "summary"), "count");
        }
    }
    if (const Json* log = member(root, "nvme_smart_health_information_log");
        log != nullptr && log->is_object()) {
        report.nvme = parseNvmeLog(*log);
        if (!report.powerOnHours && report.nvme->powerOnHours &&
            report.nvme->powerOnHours->fitsIn64()) {
            report.powerOnHours = report.nvme->powerOnHours->low();
        }
        if (!report.powerCycles && report.nvme->powerCycles &&
            report.nvme->powerCycles->fitsIn64()) {
            report.powerCycles = report.nvme->powerCycles->low();
        }
    }
    report.scsiGrownDefects = u64At(&root, "scsi_grown_defect_list");
    report.scsiPercentageUsed = u8At(&root, "scsi_percentage_used_endurance_indicator");
    if (const Json* counters = member(root, "scsi_error_counter_log")) {
        std::uint64_t uncorrected = 0;
        bool anyCounter = false;
        for (const auto direction : {"read", "write", "verify"}) {
            if (auto count = u64At(member(*counters, direction), "total_uncorrected_errors")) {
                uncorrected += *count;
                anyCounter = true;
            }
        }
        if (anyCounter) {
            report.scsiUncorrectedErrors = uncorrected;
        }
    }
    parseTemperatures(root, report);
    report.selfTest = parseSelfTest(root);
    return report;
}

} // namespace ssdk::smart
