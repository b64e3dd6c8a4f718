// The block tracer's checks that need no root: the kernel's dev_t, what is not a block device,
// and why a tracefs without instances or without the block_bio_queue tracepoint cannot record.
#include <catch2/catch.hpp>
#include <filesystem>
#include <unistd.h>

#include "core/perf/platform/linux/block_tracer.h"

using namespace ssdk;
using namespace ssdk::perf;
namespace fs = std::filesystem;

namespace {

// A directory standing in for /sys/kernel/tracing, removed afterwards.
class FakeTracefs {
public:
    FakeTracefs()
        : m_dir(fs::temp_directory_path() / ("ssdk-fake-tracefs-" + std::to_string(::getpid()))) {
        fs::create_directories(m_dir);
    }
    ~FakeTracefs() {
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }
    FakeTracefs(const FakeTracefs&) = delete;
    FakeTracefs& operator=(const FakeTracefs&) = delete;

    const fs::path& dir() const { return m_dir; }

private:
    fs::path m_dir;
};

Error startError(const fs::path& tracefs, const std::string& device) {
    BlockTracer tracer(tracefs);
    auto started = tracer.start(device);
    REQUIRE_FALSE(started);
    CHECK_FALSE(tracer.recording());
    return started.error();
}

} // namespace

TEST_CASE("tracepoint filters compare with the kernel's dev_t", "[perf][trace]") {
    CHECK(kernelDevT(7, 0) == 7340032);
    CHECK(kernelDevT(259, 1) == (259ULL << 20 | 1));
    CHECK(kernelDevT(8, 17) == 8388625);
}

TEST_CASE("only block devices can be traced", "[perf][trace][linux]") {
    const auto character = resolveTraceTarget("/dev/null");
    REQUIRE_FALSE(character);
    CHECK(character.error().code() == ErrorCode::InvalidArgument);
    CHECK(character.error().message() == "/dev/null is not a block device or partition");
    const auto missing = resolveTraceTarget("/dev/ssdk-no-such-disk");
    REQUIRE_FALSE(missing);
    CHECK(missing.error().code() == ErrorCode::NotFound);
}

TEST_CASE("a kernel without tracefs or the tracepoint says why it cannot record",
          "[perf][trace][linux]") {
    const FakeTracefs tracefs;
    const auto absent = startError(tracefs.dir() / "absent", "/dev/null");
    CHECK(absent.code() == ErrorCode::Unsupported);
    CHECK_THAT(absent.message(), Catch::Contains("no tracefs"));

    // An empty mount point: tracefs is not mounted there.
    const auto unmounted = startError(tracefs.dir(), "/dev/null");
    CHECK(unmounted.code() == ErrorCode::Unsupported);
    CHECK_THAT(unmounted.message(), Catch::Contains("mount -t tracefs nodev"));

    fs::create_directories(tracefs.dir() / "instances");
    fs::create_directories(tracefs.dir() / "events" / "block" / "block_rq_issue");
    const auto noTracepoint = startError(tracefs.dir(), "/dev/null");
    CHECK(noTracepoint.code() == ErrorCode::Unsupported);
    CHECK_THAT(noTracepoint.message(), Catch::Contains("no block:block_bio_queue tracepoint"));

    // With the tracepoint, the device is checked before any instance is made.
    fs::create_directories(tracefs.dir() / "events" / "block" / "block_bio_queue");
    const auto notBlock = startError(tracefs.dir(), "/dev/null");
    CHECK(notBlock.code() == ErrorCode::InvalidArgument);
    CHECK(fs::is_empty(tracefs.dir() / "instances"));
}

TEST_CASE("a tracer that does not record cannot be polled or stopped", "[perf][trace][linux]") {
    BlockTracer tracer;
    CHECK(tracer.poll(std::chrono::milliseconds(0)).error().code() == ErrorCode::Internal);
    CHECK(tracer.stop().error().code() == ErrorCode::Internal);
}
