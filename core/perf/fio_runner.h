#pragma once
// Runs fio through a ProcessRunner and hands back fio's own numbers. Cancellable from another
// thread: cancel() creates fio's --trigger-file, fio stops its jobs cleanly and exits, and the
// test file is removed. Decides where a benchmark may write (prepareTarget).

#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>

#include "core/base/error.h"
#include "core/base/process_runner.h"
#include "core/device/discovery.h"
#include "core/perf/fio_job.h"
#include "core/perf/fio_result.h"

namespace ssdk::perf {

// Where a benchmark writes.
struct BenchTarget {
    std::string path;         // test file or /dev node given to fio --filename
    bool isDevice = false;    // a raw block device: destructive
    bool removeAfter = false; // a test file this run creates and removes
    std::string deviceName;   // the block device the I/O lands on ("loop3"), for identity
};

// Checks a target before anything is written, and refuses with a clear reason:
// - a directory: the test file "<dir>/ssdkeeper-bench-<pid>.tmp" (removed after the run);
//   NoSpace when its filesystem has less than `size` + 64 MiB free;
// - an existing regular file: refused (a benchmark never overwrites a user's file);
// - a block device: only with destroyConfirmed, and Busy when it or a partition is mounted
//   or held, or it holds the root filesystem.
Expected<BenchTarget> prepareTarget(const std::string& deviceOrPath, Bytes size,
                                    bool destroyConfirmed, const device::Discovery& discovery);

struct FioRun {
    std::vector<std::string> argv; // as started
    FioOutput output;
    // Per-interval logs by "<logPrefix>_bw" / "<logPrefix>_iops" (logPrefix as in the job).
    std::map<std::string, std::vector<FioLogEntry>> logs;
};

class FioRunner {
public:
    // Logs and the trigger file go to a private directory made under workParent.
    explicit FioRunner(ProcessRunner& runner,
                       std::filesystem::path workParent = std::filesystem::temp_directory_path());
    ~FioRunner();
    FioRunner(const FioRunner&) = delete;
    FioRunner& operator=(const FioRunner&) = delete;

    // Runs the jobs of spec on target. ToolMissing when fio is not installed, Cancelled when
    // cancel() was called (fio stopped, nothing left behind), ProcessFailed when fio failed.
    // The test file of a BenchTarget with removeAfter is removed in every case.
    Expected<FioRun> run(const BenchTarget& target, FioRunSpec spec,
                         std::chrono::milliseconds timeout);

    // Thread-safe; may be called before or during run().
    void cancel();
    bool cancelled() const { return m_cancelled.load(); }

private:
    ProcessRunner& m_runner;
    std::filesystem::path m_workDir;
    std::filesystem::path m_triggerFile;
    std::atomic<bool> m_cancelled{false};
};

} // namespace ssdk::perf
