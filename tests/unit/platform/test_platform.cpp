#include <catch2/catch.hpp>
#include <fstream>

#include "cli/cli_context.h"
#include "tests/support/temp_dir.h"
#include "tests/unit/platform/fake_platform.h"

using namespace ssdk;
using test::FakePlatform;
using test::named;
using test::recordedTree;

TEST_CASE("makePlatform's process runner runs programs", "[platform][linux]") {
    const auto platform = platform::makePlatform();
    REQUIRE(platform);
    auto ok = platform->processRunner().run({.argv = {"true"}});
    REQUIRE(ok);
    CHECK(ok->exitCode == 0);
    auto failed = platform->processRunner().run({.argv = {"false"}});
    REQUIRE(failed);
    CHECK(failed->exitCode == 1);
    auto echoed = platform->processRunner().run({.argv = {"cat"}, .standardInput = "through"});
    REQUIRE(echoed);
    CHECK(echoed->standardOutput == "through");
}

TEST_CASE("makePlatform's discovery reads a recorded tree with udev's database", "[platform]") {
    const auto platform = platform::makePlatform();
    const auto devices = platform->makeDiscovery(recordedTree("workstation")).discover();
    REQUIRE(devices);
    const device::Device* nvme = named(*devices, "nvme0n1");
    REQUIRE(nvme != nullptr);
    REQUIRE(nvme->partitions.size() == 2);
    // The filesystem comes from the tree's run/udev/data, through the platform's prober.
    REQUIRE(nvme->partitions[0].filesystem);
    CHECK(nvme->partitions[0].filesystem->type == "vfat");
    CHECK(nvme->partitions[0].filesystem->label == "EFI");
    CHECK(named(*devices, "ram0") == nullptr);
}

TEST_CASE("makePlatform's stat source reads the block layer's counters of its tree", "[platform]") {
    const test::TempDir dir("ssdk-platform");
    const auto blockDir = dir.path / "sys" / "class" / "block" / "sdz";
    std::filesystem::create_directories(blockDir);
    const std::string counters = "     100        0     2400       30      200        0     4800"
                                 "       60        0       90       90\n";
    std::ofstream(blockDir / "stat") << counters;

    const auto platform = platform::makePlatform();
    const auto source = platform->makeStatSource(SysfsRoot(dir.path));
    REQUIRE(source);
    auto reader = source->open("sdz");
    REQUIRE(reader);
    auto text = (*reader)->read();
    REQUIRE(text);
    CHECK(*text == counters);
    CHECK_FALSE(source->open("sdy"));
}

TEST_CASE("makePlatform's disk editor runs its tools through the runner it is given",
          "[platform]") {
    const auto platform = platform::makePlatform();
    ReplayProcessRunner runner;
    runner.expect({"sfdisk", "--dump", "/dev/sdz"},
                  ProcessResult{.standardOutput = "label: gpt\n"});
    const auto editor = platform->makeDiskEditor(runner, recordedTree("workstation"));
    REQUIRE(editor);
    auto table = editor->dumpTable("/dev/sdz");
    REQUIRE(table);
    CHECK(*table == "label: gpt\n");
    CHECK(runner.requests().size() == 1);
}

TEST_CASE("makePlatform's transports open device nodes and refuse a missing one",
          "[platform][linux]") {
    const auto platform = platform::makePlatform();
    const auto transports = platform->transports();
    REQUIRE(transports.scsi);
    REQUIRE(transports.nvme);
    const std::string missing = "/dev/ssdk-platform-test-no-such-node";
    auto scsi = transports.scsi(missing);
    REQUIRE_FALSE(scsi);
    CHECK(scsi.error().code() == ErrorCode::NotFound);
    auto nvme = transports.nvme(missing);
    REQUIRE_FALSE(nvme);
    CHECK(nvme.error().code() == ErrorCode::NotFound);
}

TEST_CASE("makePlatform makes a new helper session each time, started only when called",
          "[platform]") {
    const auto platform = platform::makePlatform();
    const auto first = platform->makeHelperSession();
    const auto second = platform->makeHelperSession();
    REQUIRE(first);
    REQUIRE(second);
    CHECK(first != second);
}

TEST_CASE("CliContext takes a test-made Platform: its runner, discovery and helper session",
          "[platform]") {
    const auto fake = std::make_shared<FakePlatform>();
    cli::CliContext context(fake);
    context.sysfsRoot = recordedTree("workstation").sys().parent_path();
    CHECK(&context.helper() == fake->session.get());
    CHECK(&context.processes() == &fake->runner);

    auto device = context.makeDiscovery().find("/dev/nvme0n1");
    REQUIRE(device);
    CHECK(fake->prober->calls > 0);
    REQUIRE_FALSE(device->partitions.empty());
    REQUIRE(device->partitions[0].filesystem);
    CHECK(device->partitions[0].filesystem->label == "fake");
}
