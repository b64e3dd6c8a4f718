// ssdkeeperctl trace record on a real loop device with a GPT of two partitions (root): while it
// records, the test reads and writes known 4 KiB blocks with O_DIRECT, and the saved trace must
// hold exactly those blocks, relative to the partition, and nothing of its sibling; the cache
// simulator replays the file. Ctrl-C stops a recording and keeps what it has; refusals exit
// 1 or 2 with the reason; no tracefs instance is left behind.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <linux/fs.h>
#include <sstream>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <thread>
#include <unistd.h>

#include "core/base/sysfs_root.h"
#include "core/base/system_process_runner.h"
#include "tests/integration/lab/lab_scratch.h"
#include "tests/support/child_process.h"
#include "tests/support/run_tool.h"
#include "tests/support/skip.h"

using namespace ssdk;
using namespace ssdk::test;
namespace fs = std::filesystem;

namespace {

const fs::path kInstances = "/sys/kernel/tracing/instances";
constexpr std::uint64_t kBlock = 4096;

std::string readText(const fs::path& file) {
    std::ifstream in(file);
    std::stringstream content;
    content << in.rdbuf();
    return content.str();
}

std::string trimmed(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) {
        text.pop_back();
    }
    return text;
}

// The request lines of a blocks trace (comments left out).
std::vector<std::string> requestLines(const fs::path& trace) {
    std::vector<std::string> lines;
    std::istringstream in(readText(trace));
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && !line.starts_with('#')) {
            lines.push_back(line);
        }
    }
    return lines;
}

std::vector<std::string> ssdkeeperInstances() {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(kInstances, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with("ssdkeeper-")) {
            names.push_back(name);
        }
    }
    return names;
}

// Instances that should not exist any more: any of a process that is gone, and any that still
// traces this test's disk once its recording is over.
std::vector<std::string> leftInstances(std::uint64_t diskDevT) {
    std::vector<std::string> left;
    for (const auto& name : ssdkeeperInstances()) {
        const pid_t pid = static_cast<pid_t>(std::atol(name.c_str() + 10));
        const bool gone = pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH;
        const std::string filter =
            SysfsRoot()
                .tryString(kInstances / name / "events/block/block_bio_queue/filter")
                .value_or("");
        if (gone || filter.find(std::to_string(diskDevT)) != std::string::npos) {
            left.push_back(name);
        }
    }
    return left;
}

// Test-owned cleanup that does not trust the code under test: disables and removes the
// instances left for this disk by processes that are gone.
void removeLeftInstances(std::uint64_t diskDevT) {
    for (const auto& name : leftInstances(diskDevT)) {
        const pid_t pid = static_cast<pid_t>(std::atol(name.c_str() + 10));
        if (pid > 0 && ::kill(pid, 0) == 0) {
            continue;
        }
        std::ofstream(kInstances / name / "events/block/block_bio_queue/enable") << "0";
        ::rmdir((kInstances / name).c_str());
    }
}

// A sparse 128 MiB image as a loop device with a GPT: p1 of 32 MiB from 1 MiB, p2 the rest.
// The destructor detaches it (ScratchState sweeps it as well if the test dies earlier).
class PartitionedLoop {
public:
    explicit PartitionedLoop(const fs::path& dir) {
        const fs::path image = dir / "trace.img";
        { std::ofstream create(image); }
        fs::resize_file(image, 128ULL << 20);
        auto attached = m_runner.run({.argv = {"losetup", "--find", "--show", image.string()}});
        REQUIRE(attached);
        INFO(attached->standardError);
        REQUIRE(attached->exitCode == 0);
        disk = trimmed(attached->standardOutput);
        auto table = m_runner.run({.argv = {"sfdisk", "--quiet", disk},
                                   .standardInput = "label: gpt\n,32M,L\n,,L\n",
                                   .environment = {{"LC_ALL", "C"}}});
        REQUIRE(table);
        INFO(table->standardError);
        REQUIRE(table->exitCode == 0);
        first = partitionNode(1);
        second = partitionNode(2);
        const std::string name = fs::path(second).filename().string();
        const SysfsRoot root;
        secondStart = root.tryU64("/sys/class/block/" + name + "/start").value_or(0);
        secondSectors = root.tryU64("/sys/class/block/" + name + "/size").value_or(0);
        REQUIRE(secondStart > 0);
        REQUIRE(secondSectors > 0);
        struct stat info {};
        REQUIRE(::stat(disk.c_str(), &info) == 0);
        diskDevT = (static_cast<std::uint64_t>(major(info.st_rdev)) << 20) | minor(info.st_rdev);
    }
    ~PartitionedLoop() {
        if (diskDevT != 0) {
            removeLeftInstances(diskDevT);
        }
        for (const auto& node : m_madeNodes) {
            ::unlink(node.c_str());
        }
        if (!disk.empty()) {
            // Partitions added through BLKPG outlive the loop device's detach (seen on a
            // kernel without a GPT parser): remove them, or the next user of this loop number
            // finds this test's partitions.
            (void)m_runner.run({.argv = {"partx", "--delete", disk}});
            (void)m_runner.run({.argv = {"losetup", "-d", disk}});
        }
    }
    PartitionedLoop(const PartitionedLoop&) = delete;
    PartitionedLoop& operator=(const PartitionedLoop&) = delete;

    std::string disk;
    std::string first;
    std::string second;
    std::uint64_t secondStart = 0; // sectors
    std::uint64_t secondSectors = 0;
    std::uint64_t diskDevT = 0; // the kernel's dev_t of the disk, as tracepoint filters show it

private:
    // The kernel may leave partition scanning to user space (partx adds them through BLKPG),
    // and without udev the node may need making from sysfs.
    std::string partitionNode(int number) {
        const std::string node = disk + "p" + std::to_string(number);
        const std::string sysDev =
            "/sys/class/block/" + fs::path(node).filename().string() + "/dev";
        for (int attempt = 0; attempt < 100; ++attempt) {
            if (fs::exists(node)) {
                return node;
            }
            if (attempt == 10) {
                (void)m_runner.run({.argv = {"partx", "--add", disk}});
            }
            if (attempt > 20) {
                if (const auto devno = SysfsRoot().tryString(sysDev)) {
                    const auto colon = devno->find(':');
                    const auto made =
                        ::makedev(static_cast<unsigned>(std::stoul(devno->substr(0, colon))),
                                  static_cast<unsigned>(std::stoul(devno->substr(colon + 1))));
                    if (::mknod(node.c_str(), S_IFBLK | 0600, made) == 0) {
                        m_madeNodes.push_back(node);
                        return node;
                    }
                }
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        FAIL(node << " did not appear after writing the partition table");
        return {};
    }

    SystemProcessRunner m_runner;
    std::vector<std::string> m_madeNodes;
};

// O_DIRECT I/O of whole 4 KiB blocks. The node stays open until the test is done: closing a
// written node makes udev (where it runs) probe it, which would add reads to the trace.
class DirectIo {
public:
    explicit DirectIo(const std::string& device)
        : m_fd(::open(device.c_str(), O_RDWR | O_DIRECT | O_CLOEXEC)) {
        REQUIRE(m_fd >= 0);
        REQUIRE(::posix_memalign(&m_buffer, kBlock, 2 * kBlock) == 0);
        std::fill_n(static_cast<char*>(m_buffer), 2 * kBlock, 'x');
    }
    ~DirectIo() {
        std::free(m_buffer);
        ::close(m_fd);
    }
    DirectIo(const DirectIo&) = delete;
    DirectIo& operator=(const DirectIo&) = delete;

    void write(std::uint64_t block, std::uint64_t count = 1) {
        REQUIRE(::pwrite(m_fd, m_buffer, count * kBlock, static_cast<off_t>(block * kBlock)) ==
                static_cast<ssize_t>(count * kBlock));
    }
    void read(std::uint64_t block) {
        REQUIRE(::pread(m_fd, m_buffer, kBlock, static_cast<off_t>(block * kBlock)) ==
                static_cast<ssize_t>(kBlock));
    }
    void discard(std::uint64_t block, std::uint64_t count) {
        const std::uint64_t range[2] = {block * kBlock, count * kBlock};
        REQUIRE(::ioctl(m_fd, BLKDISCARD, range) == 0);
    }
    void flush() { REQUIRE(::fdatasync(m_fd) == 0); }

private:
    int m_fd = -1;
    void* m_buffer = nullptr;
};

// Waits until a recording of the disk has its event enabled; the instance's name, or "".
std::string waitForRecording(std::uint64_t diskDevT, std::chrono::seconds limit) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
        for (const auto& name : ssdkeeperInstances()) {
            const auto event = kInstances / name / "events/block/block_bio_queue";
            const SysfsRoot root;
            if (root.tryString(event / "enable").value_or("") == "1" &&
                root.tryString(event / "filter").value_or("").find(std::to_string(diskDevT)) !=
                    std::string::npos) {
                return name;
            }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return {};
}

// Skips the test case unless the kernel has tracefs (the helper mounts it where nothing has)
// and, once mounted, the block_bio_queue tracepoint. Called before anything is made.
void skipUnlessTracing() {
    const fs::path tracefs = "/sys/kernel/tracing";
    if (!fs::is_directory(tracefs)) {
        skipTest("this kernel has no tracefs (/sys/kernel/tracing)");
    }
    if (fs::is_directory(tracefs / "instances") &&
        !fs::is_directory(tracefs / "events/block/block_bio_queue")) {
        skipTest("this kernel has no block:block_bio_queue tracepoint");
    }
}

// Runs ssdkeeperctl on a thread while the test does I/O on this one.
class CtlRun {
public:
    explicit CtlRun(std::vector<std::string> args)
        : m_thread(
              [this, args = std::move(args)]() mutable { m_result = runCtl(std::move(args)); }) {}
    ~CtlRun() {
        if (m_thread.joinable()) {
            m_thread.join();
        }
    }
    CtlRun(const CtlRun&) = delete;
    CtlRun& operator=(const CtlRun&) = delete;

    const ProcessResult& result() {
        m_thread.join();
        return m_result;
    }

private:
    ProcessResult m_result;
    std::thread m_thread;
};

} // namespace

TEST_CASE("trace record of a partition holds exactly its blocks, relative to it",
          "[perf][trace][cli]") {
    skipUnlessTracing();
    const ScratchState scratch;
    const PartitionedLoop loop(scratch.dir());
    const fs::path output = scratch.dir() / "p2.blocks";
    {
        DirectIo p2(loop.second);
        DirectIo p1(loop.first);
        CtlRun run({"trace", "record", loop.second, "--seconds", "3", "--output", output.string()});
        REQUIRE_FALSE(waitForRecording(loop.diskDevT, std::chrono::seconds(10)).empty());
        p2.write(5);
        p1.write(9);
        p2.read(3);
        p2.write(17, 2);
        p1.read(2);
        p2.read(42);
        p2.discard(256, 256);
        p2.write(1000);
        p2.flush();
        const auto& result = run.result();
        INFO(result.standardOutput << result.standardError);
        REQUIRE(result.exitCode == 0);
        CHECK_THAT(result.standardOutput,
                   Catch::Contains("Recorded " + loop.second) &&
                       Catch::Contains("6 requests (2 reads, 3 writes, 1 discards)"));
        CHECK_THAT(result.standardOutput,
                   Catch::Contains("Next: ssdkeeperctl cache simulate --trace " + output.string() +
                                   " --format blocks --mrc"));
        // Progress once a second on stderr (not a terminal: a line per event).
        CHECK_THAT(result.standardError,
                   Catch::Contains("recording " + loop.second + ": 1 s of 3"));
    }
    CHECK(leftInstances(loop.diskDevT).empty());
    // Partition-relative, in the order they were queued; p1's blocks and the discard are not
    // there (a flush carries no sector of the partition and is left out too).
    CHECK(requestLines(output) == std::vector<std::string>{"5 1", "3 1", "17 2", "42 1", "1000 1"});
    const std::string header = readText(output);
    CHECK_THAT(header, Catch::Contains("# device: " + loop.second + " (partition of /dev/" +
                                       fs::path(loop.disk).filename().string() + " from sector " +
                                       std::to_string(loop.secondStart)));
    CHECK_THAT(header, Catch::Contains("# requests: 6 (2 reads, 3 writes, 1 discards, 0 flushes"));

    const auto simulated = runCtl({"cache", "simulate", "--trace", output.string(), "--format",
                                   "blocks", "--cache-blocks", "16", "--json"});
    const Json json = stdoutJson(simulated);
    CHECK(simulated.exitCode == 0);
    CHECK(json["requests"] == 6); // blocks 5, 3, 17, 18, 42, 1000
    CHECK(json["unique_blocks"] == 6);
    CHECK(json["hits"] == 0);
}

TEST_CASE("trace record --json of a whole disk: absolute blocks and the counts",
          "[perf][trace][cli]") {
    skipUnlessTracing();
    const ScratchState scratch;
    const PartitionedLoop loop(scratch.dir());
    const fs::path output = scratch.dir() / "disk.blocks";
    Json json;
    {
        DirectIo p2(loop.second);
        DirectIo p1(loop.first);
        CtlRun run({"trace", "record", fs::path(loop.disk).filename().string(), "--seconds", "2",
                    "--output", output.string(), "--json"});
        REQUIRE_FALSE(waitForRecording(loop.diskDevT, std::chrono::seconds(10)).empty());
        p2.write(5);
        p1.read(2);
        p2.flush();
        const auto& result = run.result();
        INFO(result.standardOutput << result.standardError);
        REQUIRE(result.exitCode == 0);
        json = stdoutJson(result);
    }
    CHECK(leftInstances(loop.diskDevT).empty());
    const std::uint64_t p2Block = loop.secondStart / 8;
    const std::uint64_t p1Block = 2048 / 8; // p1 starts at 1 MiB
    CHECK(requestLines(output) == std::vector<std::string>{std::to_string(p2Block + 5) + " 1",
                                                           std::to_string(p1Block + 2) + " 1"});
    CHECK(json["device"] == loop.disk);
    CHECK(json["output"] == output.string());
    CHECK_FALSE(json.contains("trace"));
    CHECK(json["requests"] == 3); // the write, the read and the flush
    CHECK(json["reads"] == 1);
    CHECK(json["writes"] == 1);
    CHECK(json["discards"] == 0);
    CHECK(json["bytes_read"] == kBlock);
    CHECK(json["bytes_written"] == kBlock);
    CHECK(json["unparsed"] == 0);
    CHECK(json["lost_events"] == 0);
    CHECK(json["stopped_early"] == false);
    CHECK(json["truncated"] == false);
    CHECK(json["truncated_reason"] == "");
    CHECK(json["seconds"].get<double>() == Approx(2.0).margin(0.5));
}

TEST_CASE("Ctrl-C stops a recording early and still saves it", "[perf][trace][cli]") {
    skipUnlessTracing();
    const ScratchState scratch;
    const PartitionedLoop loop(scratch.dir());
    const fs::path output = scratch.dir() / "stopped.blocks";
    const fs::path json = scratch.dir() / "stopped.json";
    DirectIo p2(loop.second);
    const auto started = std::chrono::steady_clock::now();
    // exec: the shell becomes ssdkeeperctl, so the signal reaches it.
    auto ctl = ssdk::testing::ChildProcess::spawn(
        {"sh", "-c", "exec \"$0\" \"$@\" > " + json.string(),
         std::string(SSDK_BINARY_DIR) + "/bin/ssdkeeperctl", "trace", "record", loop.second,
         "--seconds", "60", "--output", output.string(), "--json"});
    REQUIRE(ctl);
    REQUIRE_FALSE(waitForRecording(loop.diskDevT, std::chrono::seconds(10)).empty());
    p2.write(7);
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    ctl->signal(SIGINT);
    const int exitCode = ctl->wait();
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    INFO(readText(json));
    CHECK(exitCode == 0);
    CHECK(took < 15);
    CHECK(leftInstances(loop.diskDevT).empty());
    auto result = parseJson(readText(json), "the recording's JSON");
    REQUIRE(result);
    CHECK((*result)["stopped_early"] == true);
    CHECK((*result)["truncated"] == false);
    CHECK((*result)["writes"] == 1);
    CHECK((*result)["seconds"].get<double>() < 10);
    CHECK(requestLines(output) == std::vector<std::string>{"7 1"});
    CHECK_THAT(readText(output), Catch::Contains("(stopped early)"));
}

TEST_CASE("a recording larger than one helper message arrives whole", "[perf][trace][cli]") {
    skipUnlessTracing();
    const ScratchState scratch;
    const PartitionedLoop loop(scratch.dir());
    const fs::path output = scratch.dir() / "many.blocks";
    // 160,000 reads: their lines (~1.2 MB) overflow the 1 MiB a single helper message carries,
    // so they must travel in the verb's "trace" events.
    constexpr std::uint64_t kReads = 160'000;
    const fs::path json = scratch.dir() / "many.json";
    {
        DirectIo p2(loop.second);
        auto ctl = ssdk::testing::ChildProcess::spawn(
            {"sh", "-c", "exec \"$0\" \"$@\" > " + json.string(),
             std::string(SSDK_BINARY_DIR) + "/bin/ssdkeeperctl", "trace", "record", loop.second,
             "--seconds", "300", "--output", output.string(), "--json"});
        REQUIRE(ctl);
        REQUIRE_FALSE(waitForRecording(loop.diskDevT, std::chrono::seconds(10)).empty());
        for (std::uint64_t i = 0; i < kReads; ++i) {
            p2.read(i % 20'000);
        }
        ctl->signal(SIGINT); // stop: what was recorded is kept
        REQUIRE(ctl->wait() == 0);
    }
    auto result = parseJson(readText(json), "the recording's JSON");
    REQUIRE(result);
    CHECK((*result)["reads"] == kReads);
    CHECK((*result)["lost_events"] == 0);
    CHECK((*result)["truncated"] == false);
    CHECK(leftInstances(loop.diskDevT).empty());
    const auto lines = requestLines(output);
    REQUIRE(lines.size() == kReads);
    for (std::uint64_t i = 0; i < kReads; i += 9973) {
        CHECK(lines[i] == std::to_string(i % 20'000) + " 1");
    }
    CHECK(lines.back() == std::to_string((kReads - 1) % 20'000) + " 1");
    CHECK(fs::file_size(output) > (1U << 20));
}

TEST_CASE("the instance of a killed helper is removed by the next recording",
          "[perf][trace][cli]") {
    skipUnlessTracing();
    const ScratchState scratch;
    const PartitionedLoop loop(scratch.dir());
    const fs::path output = scratch.dir() / "killed.blocks";
    std::string instance;
    {
        CtlRun run(
            {"trace", "record", loop.second, "--seconds", "30", "--output", output.string()});
        instance = waitForRecording(loop.diskDevT, std::chrono::seconds(10));
        REQUIRE_FALSE(instance.empty());
        const pid_t helper = static_cast<pid_t>(std::atol(instance.c_str() + 10));
        REQUIRE(helper > 0);
        REQUIRE(::kill(helper, SIGKILL) == 0);
        const auto& result = run.result();
        INFO(result.standardError);
        CHECK(result.exitCode == 1);
        CHECK_THAT(result.standardError, Catch::Contains("ssdkeeper-helper stopped"));
    }
    CHECK_FALSE(fs::exists(output));
    CHECK(fs::exists(kInstances / instance));
    const auto next =
        runCtl({"trace", "record", loop.first, "--seconds", "1", "--output", output.string()});
    INFO(next.standardError);
    CHECK(next.exitCode == 0);
    CHECK_FALSE(fs::exists(kInstances / instance));
    CHECK(leftInstances(loop.diskDevT).empty());
}

// Every refusal here comes from ssdkeeperctl before the helper is asked, so it needs no tracefs.
TEST_CASE("trace record refuses what it cannot record, before recording", "[perf][trace][cli]") {
    const ScratchState scratch;
    const PartitionedLoop loop(scratch.dir());
    const fs::path output = scratch.dir() / "refused.blocks";

    const auto notBlock =
        runCtl({"trace", "record", "/etc/hostname", "--seconds", "1", "--output", output.string()});
    CHECK(notBlock.exitCode == 1);
    CHECK_THAT(notBlock.standardError,
               Catch::Contains("/etc/hostname is not a block device or partition"));
    const auto notBlockJson = runCtl({"trace", "record", "/etc/hostname", "--seconds", "1",
                                      "--output", output.string(), "--json"});
    CHECK(notBlockJson.exitCode == 1);
    CHECK(stdoutJson(notBlockJson)["error"]["code"] == "not-found");
    const auto missing =
        runCtl({"trace", "record", "/dev/ssdk-no-such-disk", "--output", output.string()});
    CHECK(missing.exitCode == 1);

    for (const char* seconds : {"0", "3601", "soon"}) {
        const auto usage = runCtl(
            {"trace", "record", loop.second, "--seconds", seconds, "--output", output.string()});
        INFO(seconds << ": " << usage.standardError);
        CHECK(usage.exitCode == 2);
    }
    CHECK(runCtl({"trace", "record", loop.second, "--seconds", "1"}).exitCode == 2);

    // An output that cannot be written fails at once, before the helper records anything.
    const auto start = std::chrono::steady_clock::now();
    const auto unwritable = runCtl({"trace", "record", loop.second, "--seconds", "30", "--output",
                                    (scratch.dir() / "no-such-dir" / "t.blocks").string()});
    CHECK(unwritable.exitCode == 1);
    CHECK_THAT(unwritable.standardError, Catch::Contains("does not exist"));
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
    const auto directory = runCtl(
        {"trace", "record", loop.second, "--seconds", "30", "--output", scratch.dir().string()});
    CHECK(directory.exitCode == 1);
    CHECK_THAT(directory.standardError, Catch::Contains("is a directory"));
    CHECK_FALSE(fs::exists(output));
    CHECK(leftInstances(loop.diskDevT).empty());
}
