// Device-path arguments from unprivileged callers, against this machine's real /dev and
// /sys. Only read-only checks: nothing here opens a device for writing.
#include <catch2/catch.hpp>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

#include "core/device/discovery.h"
#include "helper/validation.h"
#include "tests/support/skip.h"

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
        ssdk::test::skipTest("no block device holds / here (a container's root)");
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

TEST_CASE("a disk under the root filesystem's LVM volume is the system disk",
          "[helper][validation]") {
    // A replay tree in which a real block node of this machine (its name and numbers, so the
    // node checks pass) is the disk of a partition that is the PV under the LV mounted at "/".
    const SysfsRoot live;
    std::string name;
    std::string devno;
    for (const auto& candidate : live.list("/sys/block")) {
        auto number = live.tryString("/sys/block/" + candidate + "/dev");
        struct stat info {};
        if (number && ::stat(("/dev/" + candidate).c_str(), &info) == 0 && S_ISBLK(info.st_mode)) {
            name = candidate;
            devno = *number;
            break;
        }
    }
    REQUIRE_FALSE(name.empty()); // every Linux machine has a block device node
    const fs::path tree =
        fs::temp_directory_path() / ("ssdk-validation-lvm-" + std::to_string(::getpid()));
    fs::remove_all(tree);
    const auto put = [&](const fs::path& file, const std::string& text) {
        fs::create_directories((tree / file).parent_path());
        std::ofstream(tree / file) << text << '\n';
    };
    const fs::path disk = "sys/devices/virtual/block/" + name;
    const fs::path dm = "sys/devices/virtual/block/dm-0";
    const std::string part = name + "p1";
    put(disk / "dev", devno);
    put(disk / "size", "2097152");
    put(disk / "loop" / "backing_file", "/srv/disk.img");
    put(disk / part / "partition", "1");
    put(disk / part / "dev", "259:90");
    put(disk / part / "size", "2095104");
    put(dm / "dev", "254:90");
    put(dm / "size", "2095104");
    put(dm / "dm" / "name", "sys-root");
    put("proc/self/mountinfo", "22 1 254:90 / / rw,relatime - ext4 /dev/mapper/sys-root rw");
    fs::create_directories(tree / disk / "holders");
    fs::create_directories(tree / disk / part / "holders");
    fs::create_directories(tree / dm / "slaves");
    fs::create_directories(tree / "sys/block");
    fs::create_directories(tree / "sys/class/block");
    fs::create_directory_symlink("../../../dm-0", tree / disk / part / "holders" / "dm-0");
    fs::create_directory_symlink("../../" + name + "/" + part, tree / dm / "slaves" / part);
    fs::create_directory_symlink("../devices/virtual/block/" + name, tree / "sys/block" / name);
    fs::create_directory_symlink("../devices/virtual/block/dm-0", tree / "sys/block/dm-0");
    fs::create_directory_symlink("../../devices/virtual/block/" + name,
                                 tree / "sys/class/block" / name);
    fs::create_directory_symlink("../../devices/virtual/block/" + name + "/" + part,
                                 tree / "sys/class/block" / part);
    fs::create_directory_symlink("../../devices/virtual/block/dm-0", tree / "sys/class/block/dm-0");

    const SysfsRoot root(tree);
    const device::Discovery discovery(root, device::makeSystemFsProber(root));
    INFO("/dev/" << name << " (" << devno << ")");
    const auto refused = validateBlockDevice("/dev/" + name, {}, discovery);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code() == ErrorCode::PermissionDenied);
    CHECK_THAT(refused.error().message(), Catch::Contains("root filesystem"));
    // Allowed as the system disk, it is still held by the volume.
    const auto held = validateBlockDevice("/dev/" + name, {.allowSystemDisk = true}, discovery);
    REQUIRE_FALSE(held);
    CHECK(held.error().code() == ErrorCode::Busy);
    fs::remove_all(tree);
}
