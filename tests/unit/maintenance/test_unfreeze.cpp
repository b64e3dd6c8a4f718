// Unfreezing a security-frozen ATA drive by a short suspend to RAM: only when the kernel can
// suspend to RAM, exactly `rtcwake -m mem -s N`, and rtcwake's own complaint when it fails.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "core/base/replay_process_runner.h"
#include "core/maintenance/erase/unfreeze.h"

using namespace ssdk;
using namespace ssdk::maintenance::erase;
namespace fs = std::filesystem;

namespace {

// A recorded root whose /sys/power/state holds `states` (absent when empty).
struct PowerRoot {
    fs::path path = fs::temp_directory_path() / ("ssdk-unfreeze-" + std::to_string(::getpid()));
    explicit PowerRoot(const std::string& states) {
        fs::create_directories(path / "sys" / "power");
        if (!states.empty()) {
            std::ofstream(path / "sys" / "power" / "state") << states << "\n";
        }
    }
    ~PowerRoot() { fs::remove_all(path); }
    SysfsRoot root() const { return SysfsRoot(path); }
};

} // namespace

TEST_CASE("a brief suspend runs rtcwake to RAM and comes back") {
    const PowerRoot power("freeze mem disk");
    ReplayProcessRunner runner;
    runner.expect({"rtcwake", "-m", "mem", "-s", "5"}, ProcessResult{});
    REQUIRE(suspendBriefly(runner, power.root(), std::chrono::seconds(5)));
    const auto requests = runner.requests();
    REQUIRE(requests.size() == 1);
    CHECK(requests[0].timeout > std::chrono::seconds(5));
}

TEST_CASE("no suspend is tried when the kernel cannot suspend to RAM") {
    ReplayProcessRunner runner;
    SECTION("only freeze and disk") {
        const PowerRoot power("freeze disk");
        auto slept = suspendBriefly(runner, power.root(), std::chrono::seconds(5));
        REQUIRE_FALSE(slept);
        CHECK(slept.error().code() == ErrorCode::Unsupported);
        CHECK_THAT(slept.error().message(), Catch::Contains("freeze disk"));
        CHECK_THAT(slept.error().message(), Catch::Contains("hot-plug"));
    }
    SECTION("no /sys/power/state") {
        const PowerRoot power("");
        auto slept = suspendBriefly(runner, power.root(), std::chrono::seconds(5));
        REQUIRE_FALSE(slept);
        CHECK(slept.error().code() == ErrorCode::Unsupported);
    }
    CHECK(runner.requests().empty());
}

TEST_CASE("rtcwake's own complaint reaches the user") {
    const PowerRoot power("mem");
    ReplayProcessRunner runner;
    runner.expect({"rtcwake", "-m", "mem", "-s", "5"},
                  ProcessResult{.exitCode = 1,
                                .standardOutput = {},
                                .standardError = "rtcwake: /dev/rtc0: unable to find device\n"});
    auto slept = suspendBriefly(runner, power.root(), std::chrono::seconds(5));
    REQUIRE_FALSE(slept);
    CHECK_THAT(slept.error().describe(), Catch::Contains("unable to find device"));
    CHECK_THAT(slept.error().describe(), Catch::Contains("rtcwake"));
}
