#include "core/smart/smartctl_source.h"

#include <charconv>
#include <regex>

#include "core/base/log.h"
#include "core/smart/atasmart_parser.h"
#include "core/smart/report_loader.h"
#include "core/smart/smartctl_parser.h"

namespace ssdk::smart {

namespace {
constexpr std::chrono::seconds kReadTimeout{60};
constexpr std::array kUsbBridgeTypes{"sat", "sntjmicron", "sntasmedia", "sntrealtek"};
} // namespace

std::string_view toString(RawReport::Format format) {
    return format == RawReport::Format::SmartctlJson ? "smartctl-json" : "atasmart-blob";
}

Expected<SmartReport> parseRawReport(const RawReport& raw) {
    if (raw.format == RawReport::Format::AtasmartBlob) {
        return parseAtasmartBlob(raw.bytes);
    }
    return parseSmartctlJson(
        std::string_view(reinterpret_cast<const char*>(raw.bytes.data()), raw.bytes.size()));
}

Expected<std::pair<int, int>> parseSmartctlVersion(std::string_view versionOutput) {
    static const std::regex pattern(R"(smartctl (\d+)\.(\d+))");
    std::cmatch match;
    if (!std::regex_search(versionOutput.begin(), versionOutput.end(), match, pattern)) {
        return fail(ErrorCode::Parse, "smartctl --version printed no version");
    }
    return std::pair{std::stoi(match[1].str()), std::stoi(match[2].str())};
}

SmartctlSource::SmartctlSource(ProcessRunner& runner, std::string executable)
    : m_runner(runner)
    , m_executable(std::move(executable)) {}

Availability SmartctlSource::availability() {
    auto result = m_runner.run({.argv = {m_executable, "--version"}});
    if (!result) {
        return {false, result.error().code() == ErrorCode::ToolMissing
                           ? "smartctl is not installed (Debian package smartmontools)"
                           : result.error().describe()};
    }
    auto version = parseSmartctlVersion(result->standardOutput);
    if (!version) {
        return {false, version.error().message()};
    }
    if (version->first < 7) {
        return {false, fmt::format("smartctl {}.{} is too old: JSON output needs 7.0 or newer",
                                   version->first, version->second)};
    }
    return {true, {}};
}

std::vector<std::string> SmartctlSource::readCommand(const std::string& devicePath,
                                                     const ReadOptions& options,
                                                     const std::string& deviceType) const {
    std::vector<std::string> argv{m_executable, "--json=c", "-x"};
    if (!options.wakeSleepingDisk) {
        argv.insert(argv.end(), {"-n", "standby"});
    }
    if (!deviceType.empty()) {
        argv.insert(argv.end(), {"-d", deviceType});
    }
    argv.push_back(devicePath);
    return argv;
}

Expected<RawReport> SmartctlSource::captureAs(const std::string& devicePath,
                                              const ReadOptions& options,
                                              const std::string& deviceType) {
    const auto argv = readCommand(devicePath, options, deviceType);
    log::get("smart")->debug("running {}", describeCommand(argv));
    auto result = m_runner.run({.argv = argv, .timeout = kReadTimeout});
    if (!result) {
        return std::unexpected(result.error());
    }
    RawReport raw;
    raw.format = RawReport::Format::SmartctlJson;
    raw.bytes.assign(result->standardOutput.begin(), result->standardOutput.end());
    // Parse once to turn smartctl's failures into errors; the caller parses the bytes again.
    auto parsed = parseSmartctlJson(result->standardOutput);
    if (!parsed) {
        const std::string& message = parsed.error().message();
        if (message.find("STANDBY") != std::string::npos ||
            message.find("SLEEP") != std::string::npos) {
            return fail(ErrorCode::Busy, devicePath + " is asleep (standby) and was not woken; "
                                                      "read it again with wake enabled");
        }
        if (result->standardOutput.empty() && !result->standardError.empty()) {
            return fail(ErrorCode::ProcessFailed, "smartctl failed: " + result->standardError);
        }
        return std::unexpected(parsed.error());
    }
    return raw;
}

Expected<RawReport> SmartctlSource::capture(const std::string& devicePath,
                                            const ReadOptions& options) {
    auto first = captureAs(devicePath, options, "");
    if (first) {
        return first;
    }
    Error lastError = first.error();
    if (!options.usbBridge || lastError.code() != ErrorCode::Unsupported) {
        return std::unexpected(
            lastError.addContext("reading SMART of " + devicePath + " with smartctl"));
    }
    for (const char* bridge : kUsbBridgeTypes) {
        auto attempt = captureAs(devicePath, options, bridge);
        if (attempt) {
            return attempt;
        }
        lastError = attempt.error();
    }
    return std::unexpected(
        lastError.addContext("reading SMART of " + devicePath +
                             " behind a USB bridge (tried sat, sntjmicron, sntasmedia, "
                             "sntrealtek)"));
}

} // namespace ssdk::smart
