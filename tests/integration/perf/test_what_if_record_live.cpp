// The RAM Cache page's "Record" through the real ssdkeeper-helper (root, so no pkexec): while
// HelperTraceRecordCalls records a lab drive's partition, the test reads every block of it
// three times with O_DIRECT (about 48,000 requests, so the lines arrive in several of the
// helper's "trace" events), stops the recording, and the trace that reaches the panel is the
// helper's header followed by every line, in order, exactly once.
#include <cstdlib>
#include <fcntl.h>
#include <memory>
#include <sstream>
#include <unistd.h>

#include <QApplication>
#include <QSignalSpy>

#include "app/widgets/what_if_panel.h"
#include "core/base/system_process_runner.h"
#include "core/lab/lab.h"
#include "tests/integration/lab/lab_scratch.h"
#include "tests/integration/perf/gui_support.h"

using namespace ssdk;
using namespace ssdk::test;

namespace {

// Reads every 4 KiB block of device `passes` times with O_DIRECT; returns the blocks read.
std::uint64_t readEveryBlock(const std::string& device, int passes) {
    const int fd = ::open(device.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
    REQUIRE(fd >= 0);
    void* raw = nullptr;
    REQUIRE(::posix_memalign(&raw, 4096, 4096) == 0);
    const std::unique_ptr<void, decltype(&std::free)> buffer(raw, &std::free);
    std::uint64_t blocks = 0;
    for (int pass = 0; pass < passes; ++pass) {
        for (off_t offset = 0;; offset += 4096) {
            const ssize_t n = ::pread(fd, buffer.get(), 4096, offset);
            REQUIRE(n >= 0);
            if (n < 4096) {
                break;
            }
            ++blocks;
        }
    }
    ::close(fd);
    return blocks;
}

} // namespace

TEST_CASE_METHOD(LabBench, "a recording through the helper reaches the what-if panel whole",
                 "[perf]") {
    offscreenApplication();
    ::setenv("SSDK_HELPER", SSDK_BINARY_DIR "/bin/ssdkeeper-helper", 1);
    const auto drive = createLabDrive(manager, "what-if-record", Bytes::mib(64), "gpt-ext4");
    const std::string partition = drive.devicePath + "p1";

    app::HelperTraceRecordCalls calls;
    QSignalSpy progress(&calls, &app::TraceRecordCalls::progress);
    QSignalSpy finished(&calls, &app::TraceRecordCalls::finished);
    REQUIRE(calls.record(QString::fromStdString(partition), 60));
    CHECK_FALSE(calls.record(QString::fromStdString(partition), 60)); // one at a time
    REQUIRE(progress.wait(30000)); // the first progress: the tracepoint is on
    const std::uint64_t blocks = readEveryBlock(partition, 3);
    REQUIRE(blocks > 40000);
    calls.stop();
    REQUIRE(finished.wait(30000));

    const auto arguments = finished.first();
    INFO(arguments.at(1).toString().toStdString());
    REQUIRE(arguments.at(0).toBool());
    const auto result = arguments.at(2).value<Json>();
    const auto trace =
        result.value("header", std::string()) + arguments.at(3).toByteArray().toStdString();
    CHECK(result.value("stopped_early", false));
    CHECK(result.value("lost_events", std::uint64_t{1}) == 0);
    CHECK(result.value("requests", std::uint64_t{0}) == blocks);
    CHECK(result.value("reads", std::uint64_t{0}) == blocks);

    // The header's comment lines, then "block 1" for each read, in the order of the reads.
    std::istringstream lines(trace);
    std::string line;
    std::uint64_t comments = 0;
    while (lines.peek() == '#' && std::getline(lines, line)) {
        ++comments;
    }
    CHECK(comments > 0);
    const std::uint64_t perPass = blocks / 3;
    std::uint64_t seen = 0;
    std::uint64_t outOfOrder = 0;
    while (std::getline(lines, line)) {
        const std::string expected = std::to_string(seen % perPass) + " 1";
        outOfOrder += line == expected ? 0U : 1U;
        ++seen;
    }
    CHECK(seen == blocks);
    CHECK(outOfOrder == 0);
    CHECK(manager.destroy("what-if-record"));
}
