// ssdkeeperctl's maintenance commands as users run them (root: the helper starts directly).
// Their TRIM verdicts are checked against the lab image as the test measures it, not against
// the numbers they report about it.
#include "core/base/json.h"
#include "core/maintenance/erase/guards.h"
#include "tests/integration/maintenance/maintenance_scratch.h"
#include "tests/integration/maintenance/trim_ground_truth.h"

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
    // Marker blocks a verify run left in the image: it runs in another process, so the test
    // finds them by their content where the image is allocated.
    const std::uint64_t imageSize = fs::file_size(drive.image);
    std::vector<std::uint64_t> oldFiles;
    {
        MountGuard mount(partition, scratch.dir() / "mnt");
        const auto verified = ctl({"--json", "trim", "verify", partition, "--blocks", "64"});
        INFO(verified.standardError);
        REQUIRE(verified.exitCode == 0);
        const Json json = parseJson(verified.standardOutput, "verify").value();
        const TrimTruth reached{64, markerBlocksInImage(drive.image, 0, imageSize)};
        INFO(json.dump());
        CHECK(outcomeShownBy(reached) == "reached");
        CHECK(trimDisagreements(json, reached).empty());
        CHECK(json["after"]["zeros"] == 64);
        // Negative control: a verifier that says the opposite fails the comparison.
        CHECK_FALSE(trimDisagreements(lyingTrimResult(json), reached).empty());
        writeRandomFiles(scratch.dir() / "mnt", 4, 4 << 20);
        oldFiles = fileBlocksInImage(scratch.dir() / "mnt", imageOffsetOf(partition));
    }
    const auto unconfirmed = ctl({"--json", "format", partition, "--fs", "exfat", "--verify-trim"});
    CHECK(unconfirmed.exitCode == 2);
    CHECK(probeType(partition) == "ext4");
    if (haveProgram("mkfs.exfat")) {
        const OldData old = recordOldData(drive.image, oldFiles);
        const auto formatted = ctl({"--json", "format", partition, "--fs", "exfat", "--quick",
                                    "--verify-trim", "--yes-destroy-data"});
        INFO(formatted.standardError);
        REQUIRE(formatted.exitCode == 0);
        const Json json = parseJson(formatted.standardOutput, "format").value();
        const FormatTruth truth = measureFormat(old);
        INFO(json.dump() << "; image: " << truth.holes << " holes, " << truth.kept << " kept, "
                         << truth.rewritten << " rewritten");
        CHECK(outcomeShownBy(truth) == "not-reached");
        CHECK(formatDisagreements(json, truth).empty());
        CHECK_FALSE(formatDisagreements(lyingFormatResult(json), truth).empty());
        CHECK(json["offer_blkdiscard"] == true);
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

// Check first, ask last: a destructive command that would be refused says why before it asks
// for --yes-destroy-data / --yes, and changes nothing.
TEST_CASE("ssdkeeperctl refuses a destructive command before asking for its confirmation",
          "[maintenance]") {
    const MaintenanceScratch scratch;
    const auto drive = makeLabDrive("maint-ask-last", Bytes::mib(256), "gpt-ext4");
    const std::string partition = drive.devicePath + "p1";
    auto refusedFirst = [](const ProcessResult& result, int exitCode, const std::string& says) {
        INFO(result.standardError << result.standardOutput);
        CHECK(result.exitCode == exitCode);
        CHECK_THAT(result.standardError, Catch::Contains(says));
        CHECK_THAT(result.standardError, !Catch::Contains("--yes"));
        CHECK_THAT(result.standardError, !Catch::Contains("confirm"));
    };
    {
        MountGuard mount(partition, scratch.dir() / "mnt");
        refusedFirst(ctl({"erase", drive.devicePath}), 1, "is in use: mounted");
        refusedFirst(ctl({"format", partition, "--fs", "vfat"}), 1,
                     partition + " is mounted at " + (scratch.dir() / "mnt").string());
        refusedFirst(ctl({"bench", drive.devicePath}), 1, "is mounted or in use");
    }
    CHECK(probeType(partition) == "ext4");
    refusedFirst(ctl({"format", drive.devicePath + "p9", "--fs", "ext4"}), 1,
                 drive.devicePath + "p9 does not exist");
    refusedFirst(ctl({"format", drive.devicePath, "--fs", "ext4"}), 2,
                 "has a partition table; format one of its partitions");
    refusedFirst(ctl({"erase", partition}), 2, "is a partition; an erase takes the whole drive");
    refusedFirst(ctl({"erase", "maint-ask-last", "--method", "nvme-format"}), 1,
                 "method nvme-format is not available: not an NVMe drive");
    refusedFirst(ctl({"erase", drive.devicePath, "--method", "shred"}), 2,
                 "unknown erase method 'shred'");
    refusedFirst(ctl({"op", "undo", drive.devicePath}), 1,
                 "nothing to undo on " + drive.devicePath);
    refusedFirst(ctl({"op", "recover", drive.devicePath, "--finish"}), 1, "nothing to recover");
    CHECK(probeType(partition) == "ext4");

    // Once nothing stands in the way, it is the confirmation that is missing.
    const auto asks = ctl({"format", partition, "--fs", "vfat"});
    CHECK(asks.exitCode == 2);
    CHECK_THAT(asks.standardError, Catch::Contains("add --yes-destroy-data to go ahead"));
    CHECK(probeType(partition) == "ext4");
}
