#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "core/base/error.h"
#include "core/device/device.h"
#include "core/platform/platform.h"
#include "core/smart/health_json.h"
#include "core/smart/health_service.h"
#include "core/smart/selftest.h"
#include "core/smart/smart_source.h"

namespace ssdk::rpc {
class Transport;
}

namespace ssdk::app {

// One reading of a drive, or a saved report opened.
struct HealthReading {
    smart::DriveHealth health;
    // What the drive answered, as a saved report holds it (smartctl JSON or a libatasmart
    // blob); none for a drive without SMART and for an opened report.
    std::optional<smart::RawReport> raw;
    // When the drive was read; for a report, when its file was last written.
    std::chrono::system_clock::time_point readAt;
};

// Writes a reading's raw report to `file` (replacing it whole), in the format "Open report"
// and `ssdkeeperctl health --replay` read back. Blocks.
Expected<void> saveRawReport(const std::filesystem::path& file, const smart::RawReport& raw);
// When a saved report was written: its file's modification time (now when unknown).
std::chrono::system_clock::time_point reportTime(const std::filesystem::path& file);

// What the Health page needs from the world. Every call blocks (the page runs them on a pool
// thread); implementations must be safe to call from one worker thread at a time.
class HealthBackend {
public:
    virtual ~HealthBackend() = default;
    // A device without SMART gives verdict unknown with reason "no-smart", not an error.
    virtual Expected<HealthReading> read(const device::Device& device) = 0;
    // A saved report: smartctl JSON or a libatasmart blob.
    virtual Expected<HealthReading> load(const std::filesystem::path& file) = 0;
    virtual Expected<void> selfTest(const device::Device& device, smart::SelfTestAction action) = 0;
};

// The real one: smartctl/libatasmart directly when root (through the platform's process
// runner), else the helper (smart.read, selftest.start/abort) over `session`, the helper
// session (AppServices::helper; nullptr = a session of its own from the platform, started on
// the first call). platform: AppServices::platform; nullptr = makePlatform().
class SystemHealthBackend final : public HealthBackend {
public:
    explicit SystemHealthBackend(std::shared_ptr<rpc::Transport> session = nullptr,
                                 std::shared_ptr<platform::Platform> platform = nullptr);
    ~SystemHealthBackend() override;

    Expected<HealthReading> read(const device::Device& device) override;
    Expected<HealthReading> load(const std::filesystem::path& file) override;
    Expected<void> selfTest(const device::Device& device, smart::SelfTestAction action) override;

private:
    rpc::Transport& helper();

    std::mutex m_mutex;
    std::shared_ptr<platform::Platform> m_platform;
    std::shared_ptr<rpc::Transport> m_helper;
    smart::HealthService m_service;
};

} // namespace ssdk::app
