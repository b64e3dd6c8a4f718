// ssdkeeperctl's maintenance commands as users run them (root: the helper starts directly).
#include "core/base/json.h"
#include "core/maintenance/erase/guards.h"
#include "tests/integration/maintenance/maintenance_scratch.h"

using namespace ssdk;
using namespace ssdk::test;
namespace fs = std::filesystem;

namespace {

ProcessResult ctl(std::vector<std::string> args) {
    args.insert(args.begin(), std::string(SSDK_BINARY_DIR) + "/bin/ssdkeeperctl");
    SystemProcessRunner runner;
    auto result = runner.run({.argv = args, .timeout = std::chrono::minutes(2)});
    REQUIRE(result);
    return *result;
}

} // namespace

TEST_CASE("ssdkeeperctl trim verify, format --verify-trim and erase on a lab drive",
          "[maintenance]") {
    const MaintenanceScratch scratch;
    const auto drive = makeLabDrive("maint-cli", Bytes::gib(1), "gpt-ext4");
    const std::string partition = drive.devicePath + "p1";
    {
        MountGuard mount(partition, scratch.dir() / "mnt");
        const auto verified = ctl({"--json", "trim", "verify", partition, "--blocks", "64"});
        INFO(verified.standardError);
        REQUIRE(verified.exitCode == 0);
        const Json json = parseJson(verified.standardOutput, "verify").value();
        CHECK(json["result"] == "reached");
        CHECK(json["after"]["zeros"] == 64);
        CHECK(json["backing_file_holes"] == 64);
        writeRandomFiles(scratch.dir() / "mnt", 4, 4 << 20);
    }
    const auto unconfirmed = ctl({"--json", "format", partition, "--fs", "exfat", "--verify-trim"});
    CHECK(unconfirmed.exitCode == 2);
    CHECK(probeType(partition) == "ext4");
    if (haveProgram("mkfs.exfat")) {
        const auto formatted = ctl({"--json", "format", partition, "--fs", "exfat", "--quick",
                                    "--verify-trim", "--yes-destroy-data"});
        INFO(formatted.standardError);
        REQUIRE(formatted.exitCode == 0);
        const Json json = parseJson(formatted.standardOutput, "format").value();
        CHECK(json["result"] == "not-reached");
        CHECK(json["offer_blkdiscard"] == true);
        CHECK(json["ground_truth_agreements"] == json["sampled"]);
    }
    const auto wrong = ctl({"--json", "erase", drive.devicePath, "--method", "zeroout", "--confirm",
                            "not the model", "--yes-destroy-data"});
    CHECK(wrong.exitCode != 0);
    CHECK_FALSE(probeType(partition).empty());
    const auto listed = ctl({"--json", "erase", drive.devicePath, "--list"});
    REQUIRE(listed.exitCode == 0);
    const std::string model =
        parseJson(listed.standardOutput, "probe").value()["confirmation"].get<std::string>();
    const fs::path certificate = scratch.dir() / "certificate.json";
    const auto erased =
        ctl({"--json", "erase", drive.devicePath, "--method", "zeroout", "--confirm", model,
             "--certificate", certificate.string(), "--yes-destroy-data"});
    INFO(erased.standardError << erased.standardOutput);
    REQUIRE(erased.exitCode == 0);
    const Json json = parseJson(erased.standardOutput, "erase").value();
    CHECK(json["verification"]["passed"] == true);
    CHECK(fs::exists(certificate));
    CHECK(fs::exists(certificate.string() + ".txt"));
    CHECK(probeType(partition).empty());
}
