#include "core/perf/fio_runner.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "core/base/log.h"
#include "core/base/unique_fd.h"
#include "core/device/devno.h"
#include "core/perf/sampler.h"

namespace ssdk::perf {

namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kFreeSpaceMargin = 64ULL << 20;

// The block device holding a directory ("loop3"), from st_dev via /sys/dev/block.
std::string deviceNameOf(const fs::path& dir) {
    struct stat info {};
    if (::stat(dir.c_str(), &info) != 0) {
        return {};
    }
    std::error_code ec;
    const auto link = fs::read_symlink("/sys/dev/block/" + device::devnoText(info.st_dev), ec);
    return ec ? std::string() : link.filename().string();
}

void removeQuietly(const fs::path& path) {
    std::error_code ec;
    fs::remove(path, ec);
}

} // namespace

Expected<BenchTarget> prepareTarget(const std::string& deviceOrPath, Bytes size,
                                    bool destroyConfirmed, const device::Discovery& discovery) {
    std::error_code ec;
    const auto status = fs::status(deviceOrPath, ec);
    if (ec || !fs::exists(status)) {
        return fail(ErrorCode::NotFound, "'" + deviceOrPath + "' does not exist");
    }
    BenchTarget target;
    if (fs::is_block_file(status)) {
        auto device = discovery.find(deviceOrPath);
        if (!device) {
            return std::unexpected(
                Error(device.error()).addContext("checking benchmark target " + deviceOrPath));
        }
        // find() resolves a partition to its disk: a benchmark must not write to more than
        // it was given.
        std::error_code pathEc;
        const auto given = fs::canonical(deviceOrPath, pathEc);
        if (pathEc || given != fs::path(device->path)) {
            return fail(ErrorCode::InvalidArgument,
                        deviceOrPath +
                            " is a partition; a raw-device benchmark runs on a whole, "
                            "unmounted drive (" +
                            device->path + ")");
        }
        if (device->holdsRootFilesystem()) {
            return fail(ErrorCode::Busy,
                        device->path + " holds the root filesystem; refusing to overwrite it");
        }
        if (device->inUse()) {
            return fail(ErrorCode::Busy, device->path +
                                             " is mounted or in use; unmount it first (a "
                                             "destructive benchmark would destroy the data)");
        }
        if (device->readOnly) {
            return fail(ErrorCode::Unsupported, device->path + " is read-only");
        }
        // Asked last: nothing is confirmed that would be refused anyway.
        if (!destroyConfirmed) {
            return fail(ErrorCode::InvalidArgument,
                        "benchmarking the raw device " + device->path +
                            " overwrites its data; confirm with --yes-destroy-data, or give a "
                            "directory on a mounted filesystem for a non-destructive test file");
        }
        target.path = device->path;
        target.isDevice = true;
        target.deviceName = device->name;
        return target;
    }
    if (fs::is_directory(status)) {
        if (size.value == 0) {
            return fail(ErrorCode::InvalidArgument,
                        "a test file needs a size above 0 (--size, e.g. 1G)");
        }
        struct statvfs vfs {};
        if (::statvfs(deviceOrPath.c_str(), &vfs) != 0) {
            return failErrno(errno, "checking free space of " + deviceOrPath);
        }
        const std::uint64_t freeBytes = static_cast<std::uint64_t>(vfs.f_bavail) * vfs.f_frsize;
        if (freeBytes < size.value + kFreeSpaceMargin) {
            return fail(ErrorCode::NoSpace,
                        fmt::format("{} has {} free; a {} test file needs at least {} (the "
                                    "filesystem is too full for this benchmark)",
                                    deviceOrPath, formatIec(Bytes(freeBytes)), formatIec(size),
                                    formatIec(Bytes(size.value + kFreeSpaceMargin))));
        }
        target.path =
            (fs::path(deviceOrPath) / fmt::format("ssdkeeper-bench-{}.tmp", ::getpid())).string();
        if (fs::exists(target.path, ec)) {
            return fail(ErrorCode::Busy, target.path + " already exists; another benchmark "
                                                       "is running or left it behind");
        }
        target.removeAfter = true;
        target.deviceName = deviceNameOf(deviceOrPath);
        return target;
    }
    return fail(ErrorCode::InvalidArgument,
                "'" + deviceOrPath +
                    "' is a file; give a directory (a test file is created and removed there) "
                    "or an unmounted block device");
}

FioRunner::FioRunner(ProcessRunner& runner, fs::path workParent)
    : m_runner(runner) {
    std::string pattern = (workParent / "ssdkeeper-fio-XXXXXX").string();
    if (::mkdtemp(pattern.data()) != nullptr) {
        m_workDir = pattern;
        m_triggerFile = m_workDir / "stop";
    }
}

FioRunner::~FioRunner() {
    if (!m_workDir.empty()) {
        std::error_code ec;
        fs::remove_all(m_workDir, ec);
    }
}

void FioRunner::cancel() {
    m_cancelled = true;
    if (!m_triggerFile.empty()) {
        UniqueFd fd(::open(m_triggerFile.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600));
    }
}

Expected<FioRun> FioRunner::run(const BenchTarget& target, FioRunSpec spec,
                                std::chrono::milliseconds timeout) {
    struct RemoveTestFile {
        const BenchTarget& target;
        ~RemoveTestFile() {
            if (target.removeAfter) {
                removeQuietly(target.path);
            }
        }
    } removeTestFile{target};

    if (m_workDir.empty()) {
        return fail(ErrorCode::Io, "could not create a work directory for fio");
    }
    if (m_cancelled) {
        return fail(ErrorCode::Cancelled, "the benchmark was cancelled before it started");
    }
    spec.target = target.path;
    std::vector<std::string> prefixes;
    for (auto& job : spec.jobs) {
        if (!job.logPrefix.empty()) {
            prefixes.push_back(job.logPrefix);
            job.logPrefix = (m_workDir / job.logPrefix).string();
        }
    }
    FioRun run;
    run.argv = fioArguments(spec, m_triggerFile.string());
    log::get("perf")->info("running {}", describeCommand(run.argv));
    auto result = m_runner.run({.argv = run.argv, .timeout = timeout});
    if (!result) {
        if (result.error().code() == ErrorCode::ToolMissing) {
            return fail(ErrorCode::ToolMissing,
                        "fio is not installed; install the 'fio' package to run benchmarks");
        }
        return std::unexpected(Error(result.error()).addContext("running fio"));
    }
    if (m_cancelled) {
        return fail(ErrorCode::Cancelled,
                    "the benchmark was cancelled; fio was stopped" +
                        std::string(target.removeAfter ? " and the test file removed" : ""));
    }
    if (!result->succeeded()) {
        // With --output-format=json fio may report its error on stdout instead of stderr.
        const std::string& said =
            result->standardError.empty() ? result->standardOutput : result->standardError;
        return fail(ErrorCode::ProcessFailed, fmt::format("fio exited with status {}: {}",
                                                          result->exitCode, said.substr(0, 2000)));
    }
    auto output = parseFioOutput(result->standardOutput);
    if (!output) {
        return std::unexpected(Error(output.error()).addContext("reading fio's result"));
    }
    for (const auto& job : output->jobs) {
        if (job.error != 0) {
            return fail(ErrorCode::ProcessFailed,
                        fmt::format("fio job '{}' failed with error {} ({})", job.name, job.error,
                                    std::strerror(job.error)));
        }
    }
    run.output = std::move(*output);
    // fio names a log "<prefix>_<kind>.<job number>.log", the number counting every job.
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(m_workDir, ec)) {
        const std::string file = entry.path().filename().string();
        for (const auto& prefix : prefixes) {
            for (const char* kind : {"bw", "iops"}) {
                const std::string stem = prefix + "_" + kind + ".";
                if (!file.starts_with(stem) || !file.ends_with(".log")) {
                    continue;
                }
                std::ifstream in(entry.path());
                std::stringstream content;
                content << in.rdbuf();
                auto entries = parseFioLog(content.str());
                if (!entries) {
                    return std::unexpected(Error(entries.error()).addContext("reading " + file));
                }
                run.logs[prefix + "_" + kind] = std::move(*entries);
            }
        }
    }
    return run;
}

} // namespace ssdk::perf
