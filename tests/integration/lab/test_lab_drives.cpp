// LabManager on real loop devices (root): what it creates is what the kernel shows, and
// destroy() leaves nothing behind but refuses while something is mounted.
#include <fstream>
#include <sys/stat.h>

#include "core/device/discovery.h"
#include "core/lab/lab.h"
#include "tests/integration/lab/lab_scratch.h"

using namespace ssdk;
using namespace ssdk::lab;
using namespace ssdk::test;
namespace fs = std::filesystem;

namespace {

LabCreateRequest request(std::string name, Bytes size, std::uint32_t sectorSize,
                         std::string layout) {
    LabCreateRequest r;
    r.name = std::move(name);
    r.size = size;
    r.logicalSectorSize = sectorSize;
    r.layout = std::move(layout);
    return r;
}

std::uint64_t allocatedOnHost(const fs::path& image) {
    struct stat info {};
    REQUIRE(::stat(image.c_str(), &info) == 0);
    return static_cast<std::uint64_t>(info.st_blocks) * 512;
}

} // namespace

TEST_CASE_METHOD(LabBench,
                 "an empty 4096-byte-sector lab drive is a sparse, discard-capable, "
                 "non-rotational loop device",
                 "[lab]") {
    const auto drive = manager.create(request("itest-empty", Bytes::mib(64), 4096, "empty"));
    REQUIRE(drive);
    const std::string device = drive->devicePath;
    REQUIRE(device.starts_with("/dev/loop"));
    CHECK(fs::exists(device));
    CHECK(drive->image == scratch.labDir() / "itest-empty.img");
    CHECK(std::stoull(loopAttribute(device, "size")) * 512 == Bytes::mib(64).value);
    CHECK(loopAttribute(device, "queue/logical_block_size") == "4096");
    CHECK(std::stoull(loopAttribute(device, "queue/discard_granularity")) > 0);
    CHECK(fs::file_size(drive->image) == Bytes::mib(64).value);
    CHECK(allocatedOnHost(drive->image) < Bytes::mib(1).value);
    CHECK(drive->allocated.value == allocatedOnHost(drive->image));

    const auto listed = manager.list();
    REQUIRE(listed);
    REQUIRE(listed->size() == 1);
    CHECK((*listed)[0].devicePath == device);

    const SysfsRoot root;
    const device::Discovery discovery(root, device::makeSystemFsProber(root));
    const auto seen = discovery.find(device);
    REQUIRE(seen);
    CHECK(seen->labName == "itest-empty");
    // It stands in for an SSD: the kernel's queue says so, and so does discovery.
    CHECK(loopAttribute(device, "queue/rotational") == "0");
    CHECK_FALSE(seen->rotational);

    REQUIRE(manager.destroy("itest-empty"));
    CHECK_FALSE(loopAttached(device));
    CHECK_FALSE(fs::exists(drive->image));
}

TEST_CASE_METHOD(LabBench, "a gpt-ext4 lab drive is refused for destruction while mounted",
                 "[lab]") {
    const auto drive = manager.create(request("itest-ext4", Bytes::mib(64), 512, "gpt-ext4"));
    REQUIRE(drive);
    const std::string device = drive->devicePath;
    const std::string partition = device + "p1";
    REQUIRE(fs::exists(partition));
    CHECK(loopAttribute(device, "queue/logical_block_size") == "512");
    CHECK(probeType(partition) == "ext4");

    MountGuard mount(partition, scratch.dir() / "mnt");
    for (const std::string& target : std::vector<std::string>{"itest-ext4", device}) {
        INFO(target);
        const auto refused = manager.destroy(target);
        REQUIRE_FALSE(refused);
        CHECK(refused.error().code() == ErrorCode::Busy);
        CHECK_THAT(refused.error().message(), Catch::Contains(partition + " is mounted at " +
                                                              (scratch.dir() / "mnt").string()));
        CHECK(loopAttached(device));
        CHECK(fs::exists(drive->image));
    }
    mount.unmount();
    REQUIRE(manager.destroy(device));
    CHECK_FALSE(loopAttached(device));
    CHECK_FALSE(fs::exists(drive->image));
}

TEST_CASE_METHOD(LabBench, "creating a lab drive under a name in use changes nothing", "[lab]") {
    const auto first = manager.create(request("itest-dup", Bytes::mib(32), 512, "empty"));
    REQUIRE(first);
    const auto second = manager.create(request("itest-dup", Bytes::mib(64), 4096, "gpt-ext4"));
    REQUIRE_FALSE(second);
    CHECK(second.error().code() == ErrorCode::InvalidArgument);
    CHECK_THAT(second.error().message(), Catch::Contains("exists already"));
    CHECK(fs::file_size(first->image) == Bytes::mib(32).value);
    const auto listed = manager.list();
    REQUIRE(listed);
    REQUIRE(listed->size() == 1);
    CHECK((*listed)[0].devicePath == first->devicePath);
    CHECK(loopAttribute(first->devicePath, "queue/logical_block_size") == "512");
    REQUIRE(manager.destroy(first->devicePath));
}

TEST_CASE("a lab drive made for another user is theirs and bound by their rights", "[lab]") {
    const ScratchState scratch;
    constexpr std::uint32_t kNobody = 65534;
    // Let that user create the ssdkeeper/lab directories, as in their own home.
    fs::permissions(scratch.dir(), fs::perms::all);
    SystemProcessRunner runner;
    LabManager manager(userStateDirectory(), SysfsRoot(), runner, LabOwner{kNobody, kNobody});
    auto req = request("itest-owned", Bytes::mib(32), 512, "empty");
    req.ownerUid = kNobody;
    req.ownerGid = kNobody;
    const auto drive = manager.create(req);
    REQUIRE(drive);
    struct stat info {};
    REQUIRE(::stat(drive->image.c_str(), &info) == 0);
    CHECK(info.st_uid == kNobody);
    REQUIRE(::stat(scratch.labDir().c_str(), &info) == 0);
    CHECK(info.st_uid == kNobody);
    REQUIRE(manager.destroy("itest-owned"));
    CHECK_FALSE(fs::exists(drive->image));

    // The user swaps their lab directory for a link to a root-only directory: destroy() must
    // not reach the image there.
    const fs::path rootOnly = scratch.dir() / "root-only";
    fs::create_directories(rootOnly);
    fs::permissions(rootOnly, fs::perms::owner_all);
    { std::ofstream(rootOnly / "victim.img") << "x"; }
    fs::remove(scratch.labDir());
    fs::create_symlink(rootOnly, scratch.labDir());
    CHECK_FALSE(manager.destroy("victim"));
    CHECK(fs::exists(rootOnly / "victim.img"));
}
