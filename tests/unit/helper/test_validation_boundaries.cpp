// validateBlockDevice at the edges of each check: the path length limit on both sides, the
// empty path, and a real block node whose numbers the (replayed) kernel gives another name.
// Read-only: nothing here opens a device (tests/mutation/mutate.py checks each comparison).
#include <catch2/catch.hpp>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

#include "core/device/discovery.h"
#include "helper/validation.h"

using namespace ssdk;
using namespace ssdk::helper;
namespace fs = std::filesystem;

TEST_CASE("device path length: empty and 4097 characters are refused as such, 4096 is not",
          "[validation]") {
    const std::string lengthError = "a device path must have 1 to 4096 characters";
    const auto empty = validateBlockDevice("", {});
    REQUIRE_FALSE(empty);
    CHECK(empty.error().message() == lengthError);

    const std::string longest = "/dev/" + std::string(kMaxPathLength - 5, 'a');
    REQUIRE(longest.size() == kMaxPathLength);
    const auto atLimit = validateBlockDevice(longest, {});
    REQUIRE_FALSE(atLimit); // no such node, but the length was accepted
    CHECK(atLimit.error().message() != lengthError);

    const auto over = validateBlockDevice(longest + "a", {});
    REQUIRE_FALSE(over);
    CHECK(over.error().code() == ErrorCode::InvalidArgument);
    CHECK(over.error().message() == lengthError);
}

TEST_CASE("a block node whose numbers the kernel gives another device is refused", "[validation]") {
    // A real block node of this machine (so the node checks pass) in a replay tree whose
    // sys/class/block entry for that name has other numbers: a stray mknod.
    const SysfsRoot live;
    std::string name;
    for (const auto& candidate : live.list("/sys/block")) {
        struct stat info {};
        if (::stat(("/dev/" + candidate).c_str(), &info) == 0 && S_ISBLK(info.st_mode)) {
            name = candidate;
            break;
        }
    }
    REQUIRE_FALSE(name.empty()); // every Linux machine has a block device node
    const fs::path tree =
        fs::temp_directory_path() / ("ssdk-validation-devno-" + std::to_string(::getpid()));
    fs::remove_all(tree);
    fs::create_directories(tree / "sys/class/block" / name);
    std::ofstream(tree / "sys/class/block" / name / "dev") << "0:0\n"; // no block device has 0:0

    const SysfsRoot root(tree);
    const device::Discovery discovery(root, device::makeSystemFsProber(root));
    INFO("/dev/" << name);
    const auto refused = validateBlockDevice("/dev/" + name, {}, discovery);
    fs::remove_all(tree);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code() == ErrorCode::NotFound);
    CHECK_THAT(refused.error().message(),
               Catch::Contains("is not a block device the kernel knows"));
}
