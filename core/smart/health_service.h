#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "core/base/json.h"
#include "core/base/process_runner.h"
#include "core/device/device.h"
#include "core/smart/drivedb.h"
#include "core/smart/health_history.h"
#include "core/smart/health_json.h"
#include "core/smart/smart_source.h"
#include "core/smart/verbs.h"

namespace ssdk::smart {

// A helper verb call: (verb, args) → result. The CLI wraps rpc::HelperClient::call in it;
// tests pass a fake.
using HelperCall = std::function<Expected<Json>(const std::string& verb, const Json& args)>;

// Known firmware problems for a model and firmware revision, as sentences. core/firmware's
// catalog provides one (core/smart cannot depend on it: firmware builds on smart).
using FirmwareAdvisor =
    std::function<std::vector<std::string>(const std::string& model, const std::string& firmware)>;

// Reads drive health the way the CLI and GUI need it: directly through the sources when this
// process may talk to devices (root), otherwise through the helper's smart.read verb; then
// parses, derives and assesses, adding firmware warnings from the system drive database.
class HealthService {
public:
    HealthService(ProcessRunner& runner, HelperCall helper, bool direct);

    // The raw output of one device. Unsupported means "no SMART" (with the reason).
    Expected<RawReport> capture(const device::Device& device, const ReadOptions& options = {});
    // Keeps each drive's earlier report there: evaluating raw output of a device then compares
    // with it (error-log and CRC growth) and records the new one. Replays are not recorded.
    void setHistory(std::optional<HealthHistory> history) { m_history = std::move(history); }
    // Adds the advisor's known firmware problems to every assessment.
    void setFirmwareAdvisor(FirmwareAdvisor advisor) { m_advisor = std::move(advisor); }

    // Parses raw output of a device and judges it (against its history when set).
    Expected<DriveHealth> evaluate(std::string deviceName, const RawReport& raw);
    Expected<DriveHealth> evaluate(std::string deviceName, SmartReport report);
    // capture + evaluate. A device without SMART gives verdict unknown with reason "no-smart";
    // other failures are errors.
    Expected<DriveHealth> read(const device::Device& device, const ReadOptions& options = {});

    // Firmware warnings of the drive database for a model/firmware (empty when the database
    // is missing: a warning about that goes to the log once).
    std::vector<std::string> firmwareWarnings(const std::string& model,
                                              const std::string& firmware);

private:
    ProcessRunner& m_runner;
    HelperCall m_helper;
    bool m_direct;
    std::mutex m_databaseMutex;
    std::optional<std::shared_ptr<const DriveDatabase>> m_database;
    std::optional<HealthHistory> m_history;
    FirmwareAdvisor m_advisor;

    AssessmentOptions optionsFor(const SmartReport& report);
};

} // namespace ssdk::smart
