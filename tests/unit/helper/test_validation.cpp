// Device-path arguments from unprivileged callers, against this machine's real /dev and
// /sys. Only read-only checks: nothing here opens a device for writing.
#include <catch2/catch.hpp>
#include <fstream>
#include <unistd.h>

#include "core/device/discovery.h"
#include "helper/validation.h"

using namespace ssdk;
using namespace ssdk::helper;
namespace fs = std::filesystem;

TEST_CASE("device paths that are not block devices under /dev are refused",
          "[helper][validation]") {
    const fs::path dir =
        fs::temp_directory_path() / ("ssdk-validation-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::ofstream(dir / "file") << "not a disk";
    fs::create_symlink(dir / "file", dir / "link");
    struct Case {
        std::string path;
        ErrorCode code;
        std::string mentions;
    };
    const std::vector<Case> cases{
        {"", ErrorCode::InvalidArgument, "device path"},
        {"sda", ErrorCode::InvalidArgument, "not a device path under /dev"},
        {"dev/sda", ErrorCode::InvalidArgument, "not a device path under /dev"},
        {"/dev/../etc/passwd", ErrorCode::InvalidArgument, "/etc/passwd"},
        {(dir / "link").string(), ErrorCode::InvalidArgument, "not a device path under /dev"},
        {(dir / "file").string(), ErrorCode::InvalidArgument, "not a device path under /dev"},
        {"/dev/zero", ErrorCode::InvalidArgument, "not a block device"},
        {"/dev/null", ErrorCode::InvalidArgument, "not a block device"},
        {"/dev/", ErrorCode::InvalidArgument, "not a device node"},
        {"/dev/sdzz9", ErrorCode::NotFound, "/dev/sdzz9"},
        {"/dev/" + std::string(5000, 'a'), ErrorCode::InvalidArgument, "4096"},
    };
    for (const auto& [path, code, mentions] : cases) {
        INFO(path.substr(0, 80));
        const auto result = validateBlockDevice(path, {});
        REQUIRE_FALSE(result);
        CHECK(result.error().code() == code);
        CHECK_THAT(result.error().describe(), Catch::Contains(mentions));
    }
    fs::remove_all(dir);
}

TEST_CASE("the disk holding / is refused unless the rules allow it", "[helper][validation]") {
    const SysfsRoot root;
    const device::Discovery discovery(root, device::makeSystemFsProber(root));
    auto devices = discovery.discover();
    REQUIRE(devices);
    const auto system = std::ranges::find_if(
        *devices, [](const device::Device& device) { return device.holdsRootFilesystem(); });
    if (system == devices->end() || !fs::exists(system->path)) {
        WARN("no block device holds / here (container?); nothing to check");
        return;
    }
    INFO(system->path);
    const auto refused = validateBlockDevice(system->path, {}, discovery);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code() == ErrorCode::PermissionDenied);
    CHECK_THAT(refused.error().message(), Catch::Contains("root filesystem"));

    const auto mountedStill =
        validateBlockDevice(system->path, {.allowSystemDisk = true}, discovery);
    REQUIRE_FALSE(mountedStill);
    CHECK(mountedStill.error().code() == ErrorCode::Busy);

    const auto allowed = validateBlockDevice(
        system->path, {.allowMounted = true, .allowSystemDisk = true}, discovery);
    REQUIRE(allowed);
    CHECK(allowed->path == system->path);
}

TEST_CASE("argument helpers check presence, type, length and unknown keys",
          "[helper][validation]") {
    const Json args{{"name", "lab"}, {"size", 5}, {"negative", -5}, {"text", "12"}};
    CHECK(requireOnlyKeys(args, {"name", "size", "negative", "text"}));
    const auto unknown = requireOnlyKeys(args, {"name", "size"});
    REQUIRE_FALSE(unknown);
    CHECK_THAT(unknown.error().message(), Catch::Contains("unknown argument"));
    CHECK_FALSE(requireOnlyKeys(Json::array(), {}));

    CHECK(stringArg(args, "name", 8) == "lab");
    CHECK_FALSE(stringArg(args, "name", 2));
    CHECK_FALSE(stringArg(args, "size", 8));
    CHECK_FALSE(stringArg(args, "missing", 8));
    CHECK(stringArg(args, "missing", 8, "fallback") == "fallback");
    CHECK_FALSE(stringArg(Json{{"name", std::string("a\0b", 3)}}, "name", 8));

    CHECK(unsignedArg(args, "size") == 5U);
    CHECK_FALSE(unsignedArg(args, "negative"));
    CHECK_FALSE(unsignedArg(args, "text"));
    CHECK_FALSE(unsignedArg(Json{{"f", 1.5}}, "f"));
    CHECK(unsignedArg(args, "missing", 512) == 512U);
}
