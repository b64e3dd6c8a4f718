#include "core/perf/fio_job.h"

#include <array>
#include <fmt/format.h>

namespace ssdk::perf {

std::vector<std::string> fioArguments(const FioRunSpec& spec, const std::string& triggerFile) {
    std::vector<std::string> argv = {
        "fio", "--output-format=json", "--filename=" + spec.target, "--ioengine=" + spec.ioEngine,
        fmt::format("--direct={}", spec.direct ? 1 : 0), "--group_reporting=0",
        // the test file's content must not be compressible or
        // deduplicable by the drive
        "--refill_buffers=1", "--randrepeat=0"};
    if (!triggerFile.empty()) {
        argv.push_back("--trigger-file=" + triggerFile);
        // A stop through the trigger file makes fio save *-verify.state files; they go to
        // the trigger file's (private, removed) directory instead of the working directory.
        const auto slash = triggerFile.rfind('/');
        if (slash != std::string::npos && slash > 0) {
            argv.push_back("--aux-path=" + triggerFile.substr(0, slash));
        }
    }
    for (const auto& job : spec.jobs) {
        argv.push_back("--name=" + job.name);
        argv.push_back("--rw=" + job.rw);
        argv.push_back(fmt::format("--bs={}", job.blockSize.value));
        argv.push_back(fmt::format("--iodepth={}", job.ioDepth));
        argv.push_back(fmt::format("--numjobs={}", job.numJobs));
        if (job.size.value > 0) {
            argv.push_back(fmt::format("--size={}", job.size.value));
        }
        if (job.runtime) {
            argv.push_back(fmt::format("--runtime={}", job.runtime->count()));
            argv.push_back("--time_based=1");
        }
        if (job.rateBytesPerS) {
            argv.push_back(fmt::format("--rate={}", *job.rateBytesPerS));
        }
        if (job.rateIops) {
            argv.push_back(fmt::format("--rate_iops={}", *job.rateIops));
        }
        if (!job.logPrefix.empty()) {
            argv.push_back("--write_bw_log=" + job.logPrefix);
            argv.push_back("--write_iops_log=" + job.logPrefix);
            argv.push_back(fmt::format("--log_avg_msec={}", job.logAvgMsec));
        }
        if (job.thinkTimeS > 0) {
            argv.push_back(fmt::format("--thinktime={}s", job.thinkTimeS));
            argv.push_back("--thinktime_blocks=1");
        }
        argv.push_back("--stonewall");
    }
    return argv;
}

Json toJson(const FioJob& job) {
    Json out{{"name", job.name},
             {"rw", job.rw},
             {"bs", job.blockSize.value},
             {"iodepth", job.ioDepth},
             {"numjobs", job.numJobs},
             {"size", job.size.value},
             {"log_avg_msec", job.logAvgMsec}};
    if (job.runtime) {
        out["runtime_s"] = job.runtime->count();
    }
    if (job.rateBytesPerS) {
        out["rate"] = *job.rateBytesPerS;
    }
    if (job.rateIops) {
        out["rate_iops"] = *job.rateIops;
    }
    if (job.thinkTimeS > 0) {
        out["thinktime_s"] = job.thinkTimeS;
    }
    return out;
}

namespace {

struct CdmTest {
    const char* label;
    bool random;
    unsigned queueDepth;
};
constexpr std::array<CdmTest, 4> kCdmTests = {{{"SEQ1M Q8T1", false, 8},
                                               {"SEQ1M Q1T1", false, 1},
                                               {"RND4K Q32T1", true, 32},
                                               {"RND4K Q1T1", true, 1}}};

std::string compact(std::string label) {
    std::erase(label, ' ');
    return label;
}

// Sequential 1 MiB writes at queue depth 8 over `size`: how the consistency and TRIM recovery
// tests fill the drive and how the SLC probe writes.
FioJob sequentialWrites(std::string name, Bytes size) {
    return {.name = std::move(name),
            .rw = "write",
            .blockSize = Bytes::mib(1),
            .ioDepth = 8,
            .size = size};
}

// Random 4 KiB writes at queue depth 32 over `size` for `runtime`: the steady-state torture.
FioJob randomWrites(std::string name, Bytes size, std::chrono::seconds runtime) {
    return {.name = std::move(name),
            .rw = "randwrite",
            .blockSize = Bytes::kib(4),
            .ioDepth = 32,
            .size = size,
            .runtime = runtime};
}

} // namespace

std::vector<FioJob> cdmJobs(Bytes size, unsigned loops, unsigned testTimeS) {
    std::vector<FioJob> jobs;
    for (const bool write : {false, true}) {
        for (const auto& test : kCdmTests) {
            for (unsigned loop = 1; loop <= loops; ++loop) {
                FioJob job;
                job.name =
                    fmt::format("{}-{}#{}", compact(test.label), write ? "write" : "read", loop);
                job.rw = std::string(test.random ? "rand" : "") + (write ? "write" : "read");
                job.blockSize = test.random ? Bytes::kib(4) : Bytes::mib(1);
                job.ioDepth = test.queueDepth;
                job.size = size;
                job.runtime = std::chrono::seconds(testTimeS);
                jobs.push_back(std::move(job));
            }
        }
    }
    return jobs;
}

std::optional<CdmKey> cdmKeyOf(const std::string& jobName) {
    for (const auto& test : kCdmTests) {
        const std::string prefix = compact(test.label);
        if (jobName.starts_with(prefix + "-read#")) {
            return CdmKey{test.label, false};
        }
        if (jobName.starts_with(prefix + "-write#")) {
            return CdmKey{test.label, true};
        }
    }
    return std::nullopt;
}

std::vector<FioJob> qdScalingJobs(Bytes size, unsigned secondsEach) {
    std::vector<FioJob> jobs;
    for (const unsigned depth : {1U, 2U, 4U, 8U, 16U, 32U}) {
        FioJob job;
        job.name = fmt::format("RND4K-read-QD{}", depth);
        job.rw = "randread";
        job.blockSize = Bytes::kib(4);
        job.ioDepth = depth;
        job.size = size;
        job.runtime = std::chrono::seconds(secondsEach);
        jobs.push_back(std::move(job));
    }
    return jobs;
}

std::vector<FioJob> consistencyJobs(Bytes size, std::chrono::seconds duration,
                                    const std::string& logPrefix) {
    FioJob steady = randomWrites("steady", size, duration);
    steady.logPrefix = logPrefix + "-steady";
    steady.logAvgMsec = 1000;
    return {sequentialWrites("fill", size), steady};
}

std::vector<FioJob> slcJobs(Bytes size, Bytes burst, const std::vector<unsigned>& gapsS,
                            const std::string& logPrefix) {
    std::vector<FioJob> jobs;
    FioJob probe = sequentialWrites("probe", size);
    probe.logPrefix = logPrefix + "-probe";
    probe.logAvgMsec = 500;
    jobs.push_back(probe);
    for (const unsigned gap : gapsS) {
        if (gap > 0) {
            FioJob idle;
            idle.name = fmt::format("idle-{}s", gap);
            idle.rw = "write";
            idle.blockSize = Bytes::kib(4);
            idle.size = Bytes::kib(4);
            idle.thinkTimeS = gap;
            jobs.push_back(idle);
        }
        FioJob drain = probe;
        drain.name = fmt::format("drain-{}s", gap);
        drain.size = burst;
        drain.logPrefix = fmt::format("{}-drain-{}s", logPrefix, gap);
        jobs.push_back(drain);
    }
    return jobs;
}

std::vector<FioJob> trimRecoveryJobs(Bytes size, std::chrono::seconds torture) {
    FioJob trim;
    trim.name = "trim";
    trim.rw = "trim";
    trim.blockSize = Bytes::mib(64);
    trim.ioDepth = 1; // size 0: fio covers the whole device
    return {sequentialWrites("fresh", size), randomWrites("torture", size, torture),
            sequentialWrites("dirty", size), trim, sequentialWrites("after-trim", size)};
}

} // namespace ssdk::perf
