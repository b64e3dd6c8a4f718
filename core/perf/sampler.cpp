#include "core/perf/sampler.h"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

#include "core/base/log.h"
#include "core/base/unique_fd.h"

namespace ssdk::perf {

namespace {

class FdStatReader final : public StatReader {
public:
    FdStatReader(UniqueFd fd, std::string path)
        : m_fd(std::move(fd))
        , m_path(std::move(path)) {}

    Expected<std::string> read() override {
        // A stat line is under 200 bytes; kernfs regenerates it on every read at offset 0.
        char buffer[512];
        const ssize_t n = ::pread(m_fd.get(), buffer, sizeof buffer, 0);
        if (n < 0) {
            return failErrno(errno, "reading " + m_path);
        }
        return std::string(buffer, static_cast<std::size_t>(n));
    }

private:
    UniqueFd m_fd;
    std::string m_path;
};

} // namespace

SysfsStatSource::SysfsStatSource(SysfsRoot root)
    : m_root(std::move(root)) {}

Expected<std::unique_ptr<StatReader>> SysfsStatSource::open(const std::string& name) {
    const std::string path = (m_root.sys() / "class" / "block" / name / "stat").string();
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid()) {
        return failErrno(errno, "opening " + path);
    }
    return std::make_unique<FdStatReader>(std::move(fd), path);
}

Expected<std::string> blockDeviceName(const std::string& nameOrPath) {
    std::string name = nameOrPath;
    if (name.starts_with("/dev/")) {
        name = name.substr(5);
    }
    if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..") {
        return fail(ErrorCode::InvalidArgument,
                    "'" + nameOrPath + "' is not a block device name or /dev path");
    }
    return name;
}

Sampler::Sampler(StatSource& source, std::vector<std::string> devices)
    : m_source(source)
    , m_devices(std::move(devices)) {}

std::vector<DeviceSample> Sampler::sample(Clock::time_point now) {
    std::vector<DeviceSample> samples;
    samples.reserve(m_devices.size());
    for (const auto& name : m_devices) {
        DeviceSample out;
        out.device = name;
        Tracked& tracked = m_tracked[name];
        if (!tracked.reader) {
            auto reader = m_source.open(name);
            if (!reader) {
                samples.push_back(std::move(out));
                continue;
            }
            tracked.reader = std::move(*reader);
            tracked.previous.reset();
            log::get("perf")->debug("sampling {}", name);
        }
        auto text = tracked.reader->read();
        auto stat = text ? parseDiskStat(*text) : Expected<DiskStat>(std::unexpected(text.error()));
        if (!stat) {
            log::get("perf")->debug("{} vanished: {}", name, stat.error().describe());
            tracked.reader.reset();
            tracked.previous.reset();
            samples.push_back(std::move(out));
            continue;
        }
        out.present = true;
        out.counters = *stat;
        if (tracked.previous && now > tracked.previousTime) {
            out.hasRates = true;
            out.rates = computeRates(*tracked.previous, *stat, now - tracked.previousTime);
        }
        tracked.previous = *stat;
        tracked.previousTime = now;
        samples.push_back(std::move(out));
    }
    return samples;
}

} // namespace ssdk::perf
