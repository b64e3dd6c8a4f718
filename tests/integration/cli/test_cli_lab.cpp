// ssdkeeperctl end to end as root: lab drives through the real helper, and `list --json`
// against lsblk on this machine's real devices.
#include <cstdlib>
#include <filesystem>
#include <map>
#include <unistd.h>

#include "tests/support/run_tool.h"

using ssdk::Json;
using ssdk::test::runCtl;
using ssdk::test::stdoutJson;
namespace fs = std::filesystem;

namespace {

// A private state directory so the test's lab drives never mix with a person's, removed
// (with anything still attached to it) even when a check fails.
class ScratchState {
public:
    ScratchState() {
        m_dir = fs::temp_directory_path() / ("ssdk-cli-test-" + std::to_string(::getpid()));
        fs::create_directories(m_dir);
        ::setenv("XDG_STATE_HOME", m_dir.c_str(), 1);
    }
    ~ScratchState() {
        ssdk::SystemProcessRunner runner;
        const fs::path labDir = m_dir / "ssdkeeper" / "lab";
        std::error_code ec;
        for (const auto& entry : fs::directory_iterator(labDir, ec)) {
            // Detach whatever still uses the image, independently of the code under test.
            auto attached = runner.run({.argv = {"losetup", "-j", entry.path().string()}});
            if (attached && !attached->standardOutput.empty()) {
                const auto device =
                    attached->standardOutput.substr(0, attached->standardOutput.find(':'));
                (void)runner.run({.argv = {"umount", "-R", device + "p1"}});
                (void)runner.run({.argv = {"losetup", "-d", device}});
            }
        }
        fs::remove_all(m_dir, ec);
        ::unsetenv("XDG_STATE_HOME");
    }
    const fs::path& dir() const { return m_dir; }

private:
    fs::path m_dir;
};

std::map<std::string, Json> flattenLsblk(const Json& lsblk) {
    std::map<std::string, Json> byName;
    for (const auto& device : lsblk["blockdevices"]) {
        byName[device["name"]] = device;
        for (const auto& child : device.value("children", Json::array())) {
            byName[child["name"]] = child;
        }
    }
    return byName;
}

} // namespace

TEST_CASE("list --json matches lsblk for every device, lab drive included", "[cli][lab]") {
    ScratchState state;
    const auto created = runCtl({"--json", "lab", "create", "--name", "ssdkt-cli", "--size", "96M",
                                 "--sector-size", "4096", "--layout", "gpt-ext4"});
    INFO(created.standardOutput << created.standardError);
    REQUIRE(created.exitCode == 0);
    const std::string loop = stdoutJson(created)["device"];
    REQUIRE(loop.starts_with("/dev/loop"));

    const auto listed = runCtl({"list", "--json"});
    REQUIRE(listed.exitCode == 0);
    const Json devices = stdoutJson(listed)["devices"];
    ssdk::SystemProcessRunner runner;
    const auto lsblkRun = runner.run(
        {.argv = {"lsblk", "-b", "-J", "-o", "NAME,SIZE,LOG-SEC,PHY-SEC,ROTA,DISC-GRAN,DISC-MAX"}});
    REQUIRE(lsblkRun);
    const auto lsblk = flattenLsblk(stdoutJson(*lsblkRun));

    std::size_t topLevel = 0;
    for (const auto& [name, expected] : lsblk) {
        const bool isPartition = [&] {
            for (const auto& device : devices) {
                for (const auto& part : device["partitions"]) {
                    if (part["name"] == name) {
                        INFO(name);
                        CHECK(part["size"] == expected["size"]);
                        return true;
                    }
                }
            }
            return false;
        }();
        if (isPartition) {
            continue;
        }
        ++topLevel;
        const Json* ours = nullptr;
        for (const auto& device : devices) {
            if (device["name"] == name) {
                ours = &device;
            }
        }
        INFO(name);
        REQUIRE(ours != nullptr);
        CHECK((*ours)["size"] == expected["size"]);
        CHECK((*ours)["logical_sector_size"] == expected["log-sec"]);
        CHECK((*ours)["physical_sector_size"] == expected["phy-sec"]);
        CHECK((*ours)["rotational"] == expected["rota"]);
        CHECK((*ours)["discard"]["granularity"] == expected["disc-gran"]);
        CHECK((*ours)["discard"]["max_bytes"] == expected["disc-max"]);
    }
    CHECK(topLevel == devices.size());

    const auto info = runCtl({"info", "--json", loop});
    REQUIRE(info.exitCode == 0);
    const Json lab = stdoutJson(info);
    CHECK(lab["lab"]["name"] == "ssdkt-cli");
    CHECK(lab["size"] == 96ULL << 20);
    CHECK(lab["logical_sector_size"] == 4096);
    CHECK(lab["discard"]["supported"] == true);
    CHECK(lab["partition_table"] == "gpt");
    REQUIRE(lab["partitions"].size() == 1);
    CHECK(lab["partitions"][0]["filesystem"]["type"] == "ext4");

    const auto text = runCtl({"lab", "list"});
    CHECK(text.standardOutput.find("ssdkt-cli") != std::string::npos);

    const auto destroyed = runCtl({"lab", "destroy", "ssdkt-cli"});
    INFO(destroyed.standardError);
    REQUIRE(destroyed.exitCode == 0);
    const fs::path image = state.dir() / "ssdkeeper/lab/ssdkt-cli.img";
    CHECK_FALSE(fs::exists(image));
    const auto remaining = runner.run({.argv = {"losetup", "-a"}});
    REQUIRE(remaining);
    CHECK(remaining->standardOutput.find("ssdkt-cli") == std::string::npos);
    const auto after = stdoutJson(runCtl({"list", "--json"}));
    for (const auto& device : after["devices"]) {
        CHECK(device["name"] != loop.substr(5));
    }
}

TEST_CASE("lab commands refuse bad requests and change nothing", "[cli][lab]") {
    ScratchState state;
    const auto huge = runCtl({"lab", "create", "--name", "ssdkt-huge", "--size", "900P"});
    CHECK(huge.exitCode == 2);
    CHECK_FALSE(huge.standardError.empty());
    const auto missing = runCtl({"lab", "destroy", "ssdkt-none"});
    CHECK(missing.exitCode == 1);
    CHECK(missing.standardError.find("ssdkt-none") != std::string::npos);
    std::error_code ec;
    const fs::path labDir = state.dir() / "ssdkeeper/lab";
    const bool nothingCreated = !fs::exists(labDir) || fs::is_empty(labDir, ec);
    CHECK(nothingCreated);
}
