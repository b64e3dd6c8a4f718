// The real ssdkeeper-helper, run as root next to this test binary, through HelperClient:
// lab drives end to end and arguments refused by the running binary.
#include <fstream>
#include <sys/stat.h>

#include "core/base/bytes.h"
#include "core/rpc/client.h"
#include "tests/integration/helper/helper_next_to_tests.h"
#include "tests/integration/lab/lab_scratch.h"

using namespace ssdk;
using namespace ssdk::test;
namespace fs = std::filesystem;

TEST_CASE("ping answers with the protocol version and the caller", "[helper]") {
    const ScratchState scratch;
    rpc::HelperClient client(helperNextToTests());
    const auto pong = client.call("ping", Json::object());
    REQUIRE(pong);
    CHECK((*pong)["version"] == rpc::kProtocolVersion);
    CHECK((*pong)["uid"] == 0);
}

TEST_CASE("lab.create and lab.destroy through the helper", "[helper][lab]") {
    const ScratchState scratch;
    rpc::HelperClient client(helperNextToTests());
    std::vector<std::string> events;
    const auto created =
        client.call("lab.create",
                    Json{{"name", "itest-helper"},
                         {"size", Bytes::mib(64).value},
                         {"sector_size", 4096},
                         {"layout", "gpt-ext4"}},
                    [&](const rpc::Event& event) { events.push_back(event.name); });
    REQUIRE(created);
    CHECK_FALSE(events.empty());
    const std::string device = (*created)["device"];
    const fs::path image = (*created)["image"].get<std::string>();
    REQUIRE(device.starts_with("/dev/loop"));
    CHECK(image == scratch.labDir() / "itest-helper.img");
    CHECK(std::stoull(loopAttribute(device, "size")) * 512 == Bytes::mib(64).value);
    CHECK(loopAttribute(device, "queue/logical_block_size") == "4096");
    CHECK(std::stoull(loopAttribute(device, "queue/discard_granularity")) > 0);
    CHECK((*created)["allocated"].get<std::uint64_t>() < Bytes::mib(64).value);
    REQUIRE(fs::exists(device + "p1"));
    CHECK(probeType(device + "p1") == "ext4");

    SECTION("a name in use is refused and nothing changes") {
        const auto again = client.call(
            "lab.create", Json{{"name", "itest-helper"}, {"size", Bytes::mib(32).value}});
        REQUIRE_FALSE(again);
        CHECK(again.error().code() == ErrorCode::InvalidArgument);
        CHECK(fs::file_size(image) == Bytes::mib(64).value);
        CHECK(loopAttached(device));
    }
    SECTION("a mounted partition keeps it from being destroyed") {
        MountGuard mount(device + "p1", scratch.dir() / "mnt");
        const auto refused = client.call("lab.destroy", Json{{"name_or_device", device}});
        REQUIRE_FALSE(refused);
        CHECK(refused.error().code() == ErrorCode::Busy);
        CHECK_THAT(refused.error().message(), Catch::Contains((scratch.dir() / "mnt").string()));
        CHECK(loopAttached(device));
        CHECK(fs::exists(image));
        mount.unmount();
    }
    const auto destroyed = client.call("lab.destroy", Json{{"name_or_device", device}});
    REQUIRE(destroyed);
    CHECK_FALSE(loopAttached(device));
    CHECK_FALSE(fs::exists(image));
}

TEST_CASE("the helper refuses loop devices that are not the caller's lab drives", "[helper][lab]") {
    const ScratchState scratch;
    const fs::path other = scratch.dir() / "not-a-lab.img";
    { std::ofstream(other) << ""; }
    fs::resize_file(other, Bytes::mib(16).value);
    SystemProcessRunner runner;
    const auto attached = runner.run({.argv = {"losetup", "-f", "--show", other.string()}});
    REQUIRE(attached);
    REQUIRE(attached->exitCode == 0);
    const std::string device =
        attached->standardOutput.substr(0, attached->standardOutput.find('\n'));

    rpc::HelperClient client(helperNextToTests());
    const auto refused = client.call("lab.destroy", Json{{"name_or_device", device}});
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code() == ErrorCode::PermissionDenied);
    CHECK_THAT(refused.error().message(), Catch::Contains("not an SSD Keeper lab drive"));
    CHECK(loopAttached(device));
}

TEST_CASE("the running helper answers bad requests and keeps serving", "[helper]") {
    const ScratchState scratch;
    rpc::HelperClient client(helperNextToTests());
    const std::vector<std::pair<std::string, Json>> bad{
        {"shell.run", Json{{"command", "id"}}},
        {"lab.create", Json{{"name", "x"}, {"size", "64M"}}},
        {"lab.create", Json{{"name", "x"}, {"size", std::uint64_t{1} << 60}}},
        {"lab.create", Json{{"name", "x"}, {"size", Bytes::mib(64).value}, {"extra", 1}}},
        {"lab.destroy", Json{{"name_or_device", "/dev/zero"}}},
        {"lab.destroy", Json{{"name_or_device", "/dev/../etc/passwd"}}},
    };
    for (const auto& [verb, args] : bad) {
        INFO(verb << " " << args.dump());
        const auto result = client.call(verb, args);
        REQUIRE_FALSE(result);
        CHECK(result.error().code() == ErrorCode::InvalidArgument);
    }
    CHECK_FALSE(fs::exists(scratch.labDir()));
    CHECK(client.call("ping", Json::object()));
}
