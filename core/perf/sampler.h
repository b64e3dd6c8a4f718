#pragma once
// Live sampler: per device, reads the block layer's stat counters and turns consecutive
// readings into rates. The real source keeps each stat file open and re-reads it with
// pread(…, 0), so a sample costs one system call per device and no path lookup.

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/base/sysfs_root.h"
#include "core/perf/disk_stat.h"

namespace ssdk::perf {

// Where stat counters come from: one reader per device, kept open between readings.
class StatReader {
public:
    virtual ~StatReader() = default;
    // The file's current content. An error means the device is gone (the kernel answers
    // ENODEV on a kept-open stat file of a removed device).
    virtual Expected<std::string> read() = 0;
};

class StatSource {
public:
    virtual ~StatSource() = default;
    // NotFound when there is no such disk or partition now.
    virtual Expected<std::unique_ptr<StatReader>> open(const std::string& name) = 0;
};

// /sys/class/block/<name>/stat of a SysfsRoot: whole disks and partitions alike.
class SysfsStatSource final : public StatSource {
public:
    explicit SysfsStatSource(SysfsRoot root = SysfsRoot());
    Expected<std::unique_ptr<StatReader>> open(const std::string& name) override;

private:
    SysfsRoot m_root;
};

// "/dev/sda1" → "sda1"; "nvme0n1" stays. Rejects names with '/' left or "..".
Expected<std::string> blockDeviceName(const std::string& nameOrPath);

// One device in one sample.
struct DeviceSample {
    std::string device;
    // Present: the device could be read now. Rates are valid only when hasRates: a device
    // seen for the first time (or again after vanishing) has a baseline but no interval yet.
    bool present = false;
    bool hasRates = false;
    DiskStat counters;
    DiskRates rates;
};

// Samples a fixed list of devices. Not thread-safe: one thread calls sample().
class Sampler {
public:
    using Clock = std::chrono::steady_clock;

    Sampler(StatSource& source, std::vector<std::string> devices);

    // Takes one reading of every device at `now` (callers pass Clock::now(); tests pass
    // their own times). A vanished device is reported absent and re-opened on later
    // samples; when it comes back its counters start a fresh baseline (they restarted at
    // zero), so no bogus rate spans the gap. Counter wrap is handled by counterDelta.
    std::vector<DeviceSample> sample(Clock::time_point now);

    const std::vector<std::string>& devices() const { return m_devices; }

private:
    struct Tracked {
        std::unique_ptr<StatReader> reader;
        std::optional<DiskStat> previous;
        Clock::time_point previousTime;
    };

    StatSource& m_source;
    std::vector<std::string> m_devices;
    std::map<std::string, Tracked> m_tracked;
};

} // namespace ssdk::perf
