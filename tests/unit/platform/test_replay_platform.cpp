// The replay platform's seams (core/platform/replay/): recorded program runs and trees are
// replayed, everything that needs a live system is refused with Unsupported.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>

#include "core/platform/replay/replay_platform.h"
#include "tests/support/temp_dir.h"
#include "tests/unit/platform/fake_platform.h"

using namespace ssdk;
using platform::ReplayPlatform;
using test::named;
using test::recordedTree;

namespace {

bool refusedOnReplay(const Error& error) {
    return error.code() == ErrorCode::Unsupported &&
           error.describe().find("not available on the replay platform") != std::string::npos;
}

void record(const std::filesystem::path& file, const Json& recording) {
    std::ofstream(file) << recording.dump();
}

} // namespace

TEST_CASE("ReplayPlatform answers the recorded program runs and only those", "[platform]") {
    const test::TempDir dir("ssdk-replay");
    record(dir.path / "smartctl.json",
           {{"argv", {"smartctl", "--version"}}, {"stdout", "smartctl 7.3\n"}});
    record(dir.path / "false.json", {{"argv", {"false"}}, {"exit_code", 1}, {"stderr", "no"}});
    std::ofstream(dir.path / "notes.txt") << "not a recording";

    ReplayPlatform platform(dir.path);
    auto version = platform.processRunner().run({.argv = {"smartctl", "--version"}});
    REQUIRE(version);
    CHECK(version->exitCode == 0);
    CHECK(version->standardOutput == "smartctl 7.3\n");
    auto failed = platform.processRunner().run({.argv = {"false"}});
    REQUIRE(failed);
    CHECK(failed->exitCode == 1);
    CHECK(failed->standardError == "no");
    auto unrecorded = platform.processRunner().run({.argv = {"true"}});
    REQUIRE_FALSE(unrecorded);
    CHECK(unrecorded.error().code() == ErrorCode::ToolMissing);
}

TEST_CASE("ReplayPlatform with a broken recording fails every run with the reason", "[platform]") {
    const test::TempDir dir("ssdk-replay");
    record(dir.path / "good.json", {{"argv", {"true"}}});
    std::ofstream(dir.path / "bad.json") << R"({"stdout": "no argv"})";
    ReplayPlatform platform(dir.path);
    auto run = platform.processRunner().run({.argv = {"true"}});
    REQUIRE_FALSE(run);
    CHECK(run.error().code() == ErrorCode::Parse);
    CHECK(run.error().describe().find("bad.json") != std::string::npos);

    ReplayPlatform missing(dir.path / "no-such-directory");
    auto none = missing.processRunner().run({.argv = {"true"}});
    REQUIRE_FALSE(none);
    CHECK(none.error().code() == ErrorCode::NotFound);
}

TEST_CASE("makePlatform on the replay platform takes its recordings from the environment",
          "[platform]") {
    const test::TempDir dir("ssdk-replay");
    record(dir.path / "lsblk.json", {{"argv", {"lsblk"}}, {"stdout", "sda\n"}});
    REQUIRE(::setenv(platform::kReplayRecordingsVariable, dir.path.c_str(), 1) == 0);
    const auto fromEnvironment = platform::makePlatform();
    REQUIRE(::unsetenv(platform::kReplayRecordingsVariable) == 0);
    REQUIRE(dynamic_cast<ReplayPlatform*>(fromEnvironment.get()) != nullptr);
    auto listed = fromEnvironment->processRunner().run({.argv = {"lsblk"}});
    REQUIRE(listed);
    CHECK(listed->standardOutput == "sda\n");

    const auto plain = platform::makePlatform();
    auto nothing = plain->processRunner().run({.argv = {"lsblk"}});
    REQUIRE_FALSE(nothing);
    CHECK(nothing.error().code() == ErrorCode::ToolMissing);
}

TEST_CASE("ReplayPlatform discovers a recorded tree with the filesystems udev recorded",
          "[platform]") {
    const ReplayPlatform platform;
    const auto devices = platform.makeDiscovery(recordedTree("workstation")).discover();
    REQUIRE(devices);
    const device::Device* nvme = named(*devices, "nvme0n1");
    REQUIRE(nvme != nullptr);
    REQUIRE(nvme->partitions.size() == 2);
    REQUIRE(nvme->partitions[0].filesystem);
    CHECK(nvme->partitions[0].filesystem->type == "vfat");
    CHECK(nvme->partitions[0].filesystem->label == "EFI");
    CHECK(nvme->partitionTableType == "gpt");
}

TEST_CASE("ReplayPlatform's stat source reads the recorded counters", "[platform]") {
    const test::TempDir dir("ssdk-replay");
    const auto blockDir = dir.path / "sys" / "class" / "block" / "sdz";
    std::filesystem::create_directories(blockDir);
    const std::string counters = "1 0 8 3 2 0 16 6 0 9 9\n";
    std::ofstream(blockDir / "stat") << counters;
    const auto source = ReplayPlatform().makeStatSource(SysfsRoot(dir.path));
    auto reader = source->open("sdz");
    REQUIRE(reader);
    auto text = (*reader)->read();
    REQUIRE(text);
    CHECK(*text == counters);
    CHECK_FALSE(source->open("sdy"));
}

TEST_CASE("ReplayPlatform's disk editor replays the table dump and refuses every edit",
          "[platform]") {
    ReplayProcessRunner runner;
    runner.expect({"sfdisk", "--dump", "/dev/sdz"},
                  ProcessResult{.standardOutput = "label: gpt\n"});
    const auto editor = ReplayPlatform().makeDiskEditor(runner, recordedTree("workstation"));
    auto table = editor->dumpTable("/dev/sdz");
    REQUIRE(table);
    CHECK(*table == "label: gpt\n");
    const auto partition = editor->partitionOnDisk("/dev/sdz", 1);
    REQUIRE_FALSE(partition);
    CHECK(refusedOnReplay(partition.error()));
    const auto resized = editor->resizePartition("/dev/sdz", 1, Bytes::mib(1));
    REQUIRE_FALSE(resized);
    CHECK(refusedOnReplay(resized.error()));
    const auto informed = editor->informKernel("/dev/sdz", 1, Bytes{0}, Bytes::mib(1));
    REQUIRE_FALSE(informed);
    CHECK(refusedOnReplay(informed.error()));
    const auto discarded = editor->discard("/dev/sdz", Bytes{0}, Bytes{4096});
    REQUIRE_FALSE(discarded);
    CHECK(refusedOnReplay(discarded.error()));
    CHECK(runner.requests().size() == 1);
}

TEST_CASE("ReplayPlatform refuses drive commands and the helper", "[platform]") {
    const ReplayPlatform platform;
    const auto transports = platform.transports();
    auto scsi = transports.scsi("/dev/sda");
    REQUIRE_FALSE(scsi);
    CHECK(refusedOnReplay(scsi.error()));
    auto nvme = transports.nvme("/dev/nvme0");
    REQUIRE_FALSE(nvme);
    CHECK(refusedOnReplay(nvme.error()));
    const auto session = platform.makeHelperSession();
    auto pong = session->call("ping", Json::object());
    REQUIRE_FALSE(pong);
    CHECK(refusedOnReplay(pong.error()));
}
