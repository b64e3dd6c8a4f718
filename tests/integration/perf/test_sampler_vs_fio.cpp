// The sampler against real I/O on lab drives (root): its byte counts agree with what fio and
// dd report for the same interval; a detached device vanishes; fio runs are cancelled cleanly
// and leave no test file behind.
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/base/system_process_runner.h"
#include "core/lab/lab.h"
#include "core/perf/fio_runner.h"
#include "core/perf/sampler.h"
#include "tests/integration/lab/lab_scratch.h"
#include "tests/support/run_tool.h"

using namespace ssdk;
using namespace ssdk::perf;
using namespace ssdk::test;
namespace fs = std::filesystem;

namespace {

bool haveFio() {
    return !findExecutable("fio").empty();
}

} // namespace

TEST_CASE_METHOD(LabBench, "sampler bytes match fio's io_bytes and dd's byte count within 1%",
                 "[perf]") {
    if (!haveFio()) {
        FAIL("fio is not installed (scripts/setup installs it)");
    }
    const auto drive = createLabDrive(manager, "perf-fio", Bytes::mib(256), "empty");
    const std::string name = fs::path(drive.devicePath).filename().string();
    SysfsStatSource source;
    Sampler sampler(source, {name});

    SECTION("fio writes then reads") {
        const auto before = sampler.sample(Sampler::Clock::now());
        REQUIRE(before[0].present);
        FioRunner runner(processes);
        FioJob write{.name = "w",
                     .rw = "write",
                     .blockSize = Bytes::kib(128),
                     .ioDepth = 4,
                     .size = Bytes::mib(48)};
        FioJob read{.name = "r",
                    .rw = "randread",
                    .blockSize = Bytes::kib(16),
                    .ioDepth = 8,
                    .size = Bytes::mib(48)};
        const BenchTarget target{.path = drive.devicePath, .isDevice = true};
        const auto run = runner.run(target, {.jobs = {write, read}}, std::chrono::seconds(120));
        REQUIRE(run);
        const auto after = sampler.sample(Sampler::Clock::now());
        REQUIRE(after[0].hasRates);
        const double fioWritten = static_cast<double>(run->output.jobs[0].write.ioBytes);
        const double fioRead = static_cast<double>(run->output.jobs[1].read.ioBytes);
        CHECK(fioWritten == Approx(48.0 * 1024 * 1024));
        CHECK(static_cast<double>(after[0].rates.writeBytes) == Approx(fioWritten).epsilon(0.01));
        CHECK(static_cast<double>(after[0].rates.readBytes) == Approx(fioRead).epsilon(0.01));
    }
    SECTION("dd") {
        const auto before = sampler.sample(Sampler::Clock::now());
        REQUIRE(before[0].present);
        const auto dd = processes.run({.argv = {"dd", "if=/dev/zero", "of=" + drive.devicePath,
                                                "bs=1M", "count=40", "oflag=direct"}});
        REQUIRE(dd);
        REQUIRE(dd->exitCode == 0);
        const auto after = sampler.sample(Sampler::Clock::now());
        REQUIRE(after[0].hasRates);
        CHECK(static_cast<double>(after[0].rates.writeBytes) ==
              Approx(40.0 * 1024 * 1024).epsilon(0.01));
    }
    REQUIRE(manager.destroy("perf-fio"));
}

TEST_CASE_METHOD(LabBench, "a partition that vanishes while sampled is reported absent", "[perf]") {
    const auto drive = createLabDrive(manager, "perf-vanish", Bytes::mib(256), "gpt-ext4");
    const std::string name = fs::path(drive.devicePath).filename().string();
    SysfsStatSource source;
    Sampler sampler(source, {name, name + "p1"});
    auto first = sampler.sample(Sampler::Clock::now());
    CHECK(first[0].present);
    CHECK(first[1].present);
    REQUIRE(manager.destroy("perf-vanish"));
    // The kernel keeps an unbound loop device (loopN stays, with zero size); its partition
    // is deleted, and the kept-open stat file of the partition then fails to read.
    const auto gone = sampler.sample(Sampler::Clock::now());
    CHECK(gone[0].present);
    CHECK_FALSE(gone[1].present);
    CHECK_FALSE(sampler.sample(Sampler::Clock::now())[1].present);
}

TEST_CASE_METHOD(LabBench, "bench refusals and cancellation on a lab drive leave nothing behind",
                 "[perf]") {
    if (!haveFio()) {
        FAIL("fio is not installed (scripts/setup installs it)");
    }
    const auto drive = createLabDrive(manager, "perf-cancel", Bytes::mib(256), "gpt-ext4");
    const SysfsRoot root;
    const device::Discovery discovery(root, device::makeSystemFsProber(root));
    {
        MountGuard mount(drive.devicePath + "p1", scratch.dir() / "mnt");

        const auto mounted = prepareTarget(drive.devicePath, Bytes::mib(16), true, discovery);
        REQUIRE_FALSE(mounted);
        CHECK(mounted.error().code() == ErrorCode::Busy);
        const auto tooBig =
            prepareTarget((scratch.dir() / "mnt").string(), Bytes::gib(2), false, discovery);
        REQUIRE_FALSE(tooBig);
        CHECK(tooBig.error().code() == ErrorCode::NoSpace);

        const auto target =
            prepareTarget((scratch.dir() / "mnt").string(), Bytes::mib(32), false, discovery);
        REQUIRE(target);
        CHECK(target->removeAfter);
        FioRunner runner(processes);
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(1500));
            runner.cancel();
        });
        const auto started = std::chrono::steady_clock::now();
        const auto run = runner.run(*target, {.jobs = cdmJobs(Bytes::mib(32), 1, 30)},
                                    std::chrono::seconds(120));
        canceller.join();
        REQUIRE_FALSE(run);
        CHECK(run.error().code() == ErrorCode::Cancelled);
        CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(20));
        CHECK_FALSE(fs::exists(target->path));
        for (const auto& entry : fs::directory_iterator(fs::current_path())) {
            CHECK_FALSE(entry.path().filename().string().ends_with("-verify.state"));
        }
    }
    const auto unconfirmed = prepareTarget(drive.devicePath, Bytes::mib(16), false, discovery);
    REQUIRE_FALSE(unconfirmed);
    INFO(unconfirmed.error().describe());
    CHECK(unconfirmed.error().message().find("--yes-destroy-data") != std::string::npos);
    const auto destroyed = manager.destroy("perf-cancel");
    INFO((destroyed ? std::string() : destroyed.error().describe()));
    REQUIRE(destroyed);
}

TEST_CASE_METHOD(
    LabBench,
    "trim-recovery preset on a lab drive measures fresh then dirty then after-TRIM writes",
    "[perf]") {
    if (!haveFio()) {
        FAIL("fio is not installed (scripts/setup installs it)");
    }
    const auto drive = createLabDrive(manager, "perf-trim", Bytes::mib(256), "empty");
    const std::string first = (scratch.dir() / "first.json").string();
    const std::string second = (scratch.dir() / "second.json").string();
    for (const auto& output : {first, second}) {
        const auto run = runCtl({"bench", drive.devicePath, "--preset", "trim-recovery", "--size",
                                 "48M", "--duration", "2", "--yes-destroy-data", "--output", output,
                                 "--csv", output + ".csv"});
        INFO(run.standardOutput << run.standardError);
        REQUIRE(run.exitCode == 0);
        CHECK(run.standardOutput.find("after TRIM") != std::string::npos);
    }
    std::ifstream in(first);
    std::stringstream content;
    content << in.rdbuf();
    const auto json = parseJson(content.str(), first);
    REQUIRE(json);
    const Json& analysis = (*json)["analysis"]["trim_recovery"];
    CHECK(analysis["complete"] == true);
    CHECK(analysis["fresh_bytes_per_s"].get<double>() > 0);
    CHECK(analysis["after_trim_bytes_per_s"].get<double>() > 0);
    const auto& jobs = (*json)["fio"]["jobs"];
    REQUIRE(jobs.size() == 5);
    CHECK(jobs[3]["name"] == "trim");
    CHECK(jobs[3]["error"] == 0);
    CHECK(fs::file_size(first + ".csv") > 0);

    const auto compared = runCtl({"--json", "bench", "compare", first, second});
    INFO(compared.standardOutput << compared.standardError);
    REQUIRE(compared.exitCode == 0);
    const auto rows = stdoutJson(compared)["rows"];
    CHECK(rows.size() >= 9); // fresh/torture/dirty/after-trim bandwidth and IOPS, recovery

    // On a directory there is no whole device to TRIM: refused before anything is written.
    const auto onFile = runCtl({"bench", scratch.dir().string(), "--preset", "trim-recovery"});
    CHECK(onFile.exitCode != 0);
    CHECK(onFile.standardError.find("only on an unmounted block device") != std::string::npos);
    REQUIRE(manager.destroy("perf-trim"));
}
