#pragma once

#include "core/base/process_runner.h"
#include "core/smart/smart_source.h"

namespace ssdk::smart {

// smartctl (smartmontools >= 7.0) run through a ProcessRunner:
//   smartctl --json=c -x [-n standby] [-d TYPE] DEV
// USB bridges are tried as -d sat, sntjmicron, sntasmedia, sntrealtek (in that order) when the
// plain call cannot detect the device type.
class SmartctlSource final : public SmartSource {
public:
    explicit SmartctlSource(ProcessRunner& runner, std::string executable = "smartctl");

    std::string_view name() const override { return "smartctl"; }
    Availability availability() override;
    Expected<RawReport> capture(const std::string& devicePath, const ReadOptions& options) override;

    // The argv of one read, for a device type ("" = smartctl's own detection).
    std::vector<std::string> readCommand(const std::string& devicePath, const ReadOptions& options,
                                         const std::string& deviceType) const;

private:
    Expected<RawReport> captureAs(const std::string& devicePath, const ReadOptions& options,
                                  const std::string& deviceType);

    ProcessRunner& m_runner;
    std::string m_executable;
};

// "smartctl 7.3 2022-02-28 r5338 [x86_64-linux-6.1.0] (local build)" → {7, 3}.
Expected<std::pair<int, int>> parseSmartctlVersion(std::string_view versionOutput);

} // namespace ssdk::smart
