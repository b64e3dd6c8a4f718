// The NVMe image update against a scripted controller: every download's NUMD/OFST, the
// commit's slot/action bits, and every refusal and error path.
#include <catch2/catch.hpp>

#include "core/firmware/nvme_update.h"
#include "tests/unit/firmware/firmware_test_support.h"
#include "tests/unit/maintenance/fake_nvme_admin.h"

using namespace ssdk;
using namespace ssdk::firmware;
using namespace ssdk::firmware::test;
using ssdk::maintenance::transport::NvmeAdminCommand;
using ssdk::maintenance::transport::NvmeDataDirection;
using ssdk::test::FakeNvmeAdmin;

namespace {

const PowerState kMains{true, "mains adapter AC online"};

// 3 slots, slot 1 read-only, activation without reset; FWUG as given.
NvmeFirmwareCaps caps(std::uint8_t fwug, std::uint8_t frmw = 0x17, bool fwCommands = true) {
    auto parsed = parseFirmwareCaps(identifyController(fwCommands, frmw, fwug));
    REQUIRE(parsed);
    return *parsed;
}

NvmeSlotLog slots() {
    auto parsed = parseFirmwareSlotLog(slotLog(0x01, {"1.0", "1.1", ""}));
    REQUIRE(parsed);
    return *parsed;
}

std::vector<std::uint8_t> image(std::size_t size) {
    std::vector<std::uint8_t> bytes(size);
    for (std::size_t i = 0; i < size; ++i) {
        bytes[i] = static_cast<std::uint8_t>(i * 7 + 3);
    }
    return bytes;
}

UpdateRequest request(std::uint8_t slot, CommitAction action, std::uint64_t size) {
    UpdateRequest r;
    r.slot = slot;
    r.action = action;
    r.imageSize = size;
    return r;
}

void expectDownload(FakeNvmeAdmin& admin, std::uint64_t offset, std::uint32_t length,
                    std::uint16_t status = 0) {
    NvmeAdminCommand command;
    command.opcode = 0x11;
    command.cdw10 = length / 4 - 1;
    command.cdw11 = static_cast<std::uint32_t>(offset / 4);
    command.direction = NvmeDataDirection::ToDevice;
    command.timeout = std::chrono::seconds(120);
    admin.expect({.command = command, .dataSize = length, .status = status});
}

void expectCommit(FakeNvmeAdmin& admin, std::uint8_t slot, std::uint8_t action,
                  std::uint16_t status = 0) {
    NvmeAdminCommand command;
    command.opcode = 0x10;
    command.cdw10 = slot | (std::uint32_t{action} << 3);
    command.timeout = std::chrono::seconds(120);
    admin.expect({.command = command, .status = status});
}

std::string failedCheck(const UpdatePlan& plan) {
    for (const auto& check : plan.checks) {
        if (!check.passed) {
            return check.name;
        }
    }
    return {};
}

} // namespace

TEST_CASE("FWUG-sized downloads, then commit replace+activate to slot 2") {
    const auto img = image(24576);
    const auto plan =
        planNvmeUpdate(caps(2), slots(), request(2, CommitAction::ReplaceActivate, 24576), kMains);
    REQUIRE(plan.allowed());
    CHECK(plan.chunkBytes == 8192);
    CHECK(plan.downloads == 3);
    FakeNvmeAdmin admin;
    expectDownload(admin, 0, 8192);
    expectDownload(admin, 8192, 8192);
    expectDownload(admin, 16384, 8192);
    expectCommit(admin, 2, 1);
    expectSlotLog(admin, slotLog(0x21, {"1.0", "2.0", ""}));
    std::vector<double> fractions;
    auto result = runNvmeUpdate(admin, plan, img,
                                [&](double f, const std::string&) { fractions.push_back(f); });
    REQUIRE(result);
    CHECK(admin.scriptDone());
    CHECK(admin.sent() == img);
    CHECK(result->downloads == 3);
    CHECK(result->outcome == CommitOutcome::Done);
    CHECK(result->resetNeeded);
    CHECK_THAT(result->account, Catch::Contains("next controller reset"));
    REQUIRE(result->slotsAfter);
    CHECK(result->slotsAfter->nextResetSlot == std::optional<std::uint8_t>(2));
    REQUIRE_FALSE(fractions.empty());
    CHECK(fractions.back() == 1.0);
    CHECK(std::is_sorted(fractions.begin(), fractions.end()));
}

TEST_CASE("no stated granularity: 4 KiB chunks and a shorter dword-aligned last one") {
    const auto img = image(10240);
    const auto plan =
        planNvmeUpdate(caps(0), slots(), request(3, CommitAction::Replace, 10240), kMains);
    REQUIRE(plan.allowed());
    CHECK(plan.downloads == 3);
    FakeNvmeAdmin admin;
    expectDownload(admin, 0, 4096);
    expectDownload(admin, 4096, 4096);
    expectDownload(admin, 8192, 2048);
    expectCommit(admin, 3, 0);
    expectSlotLog(admin, slotLog(0x01, {"1.0", "1.1", "2.0"}));
    auto result = runNvmeUpdate(admin, plan, img);
    REQUIRE(result);
    CHECK(admin.scriptDone());
    CHECK(admin.sent() == img);
    CHECK_FALSE(result->resetNeeded);
}

TEST_CASE("activate-now that the controller answers with 'needs reset' statuses") {
    const auto img = image(8192);
    const auto status = GENERATE(std::uint16_t{0x10B}, std::uint16_t{0x110}, std::uint16_t{0x111});
    const auto plan = planNvmeUpdate(
        caps(0xFF), slots(), request(2, CommitAction::ReplaceActivateImmediate, 8192), kMains);
    REQUIRE(plan.allowed());
    FakeNvmeAdmin admin;
    expectDownload(admin, 0, 4096);
    expectDownload(admin, 4096, 4096);
    expectCommit(admin, 2, 3, status);
    expectSlotLog(admin, slotLog(0x21, {"1.0", "2.0", ""}));
    auto result = runNvmeUpdate(admin, plan, img);
    REQUIRE(result);
    CHECK(admin.scriptDone());
    CHECK(result->resetNeeded);
    CHECK(result->outcome != CommitOutcome::Done);
    CHECK_THAT(result->account, Catch::Contains("Requires"));
    CHECK_THAT(result->account, Catch::Contains("the image is committed"));
}

TEST_CASE("activate-now that succeeds needs no reset") {
    const auto plan = planNvmeUpdate(
        caps(0), slots(), request(2, CommitAction::ReplaceActivateImmediate, 4096), kMains);
    FakeNvmeAdmin admin;
    expectDownload(admin, 0, 4096);
    expectCommit(admin, 2, 3);
    expectSlotLog(admin, slotLog(0x02, {"1.0", "2.0", ""}));
    auto result = runNvmeUpdate(admin, plan, image(4096));
    REQUIRE(result);
    CHECK_FALSE(result->resetNeeded);
    CHECK(result->outcome == CommitOutcome::Done);
}

TEST_CASE("activate an image already in a slot sends only the commit") {
    const auto plan =
        planNvmeUpdate(caps(0), slots(), request(1, CommitAction::Activate, 0), kMains);
    REQUIRE(plan.allowed()); // slot 1 is read-only but activating it is fine
    FakeNvmeAdmin admin;
    expectCommit(admin, 1, 2);
    expectSlotLog(admin, slotLog(0x11, {"1.0", "1.1", ""}));
    auto result = runNvmeUpdate(admin, plan, {});
    REQUIRE(result);
    CHECK(admin.scriptDone());
    CHECK(result->resetNeeded);
}

TEST_CASE("pre-flight refusals send nothing to the drive") {
    struct Case {
        const char* name;
        NvmeFirmwareCaps caps;
        UpdateRequest request;
        PowerState power;
        const char* failing;
    };
    UpdateRequest system = request(2, CommitAction::ReplaceActivate, 4096);
    system.systemDisk = true;
    const Case cases[] = {
        {"bad alignment", caps(0), request(2, CommitAction::ReplaceActivate, 4097), kMains,
         "image alignment"},
        {"not a multiple of FWUG", caps(4), request(2, CommitAction::ReplaceActivate, 8192), kMains,
         "image alignment"},
        {"empty image", caps(0), request(2, CommitAction::ReplaceActivate, 0), kMains,
         "image size"},
        {"huge image", caps(0), request(2, CommitAction::ReplaceActivate, kMaxImageBytes + 4),
         kMains, "image size"},
        {"read-only slot 1", caps(0), request(1, CommitAction::ReplaceActivate, 4096), kMains,
         "slot writable"},
        {"slot 0", caps(0), request(0, CommitAction::ReplaceActivate, 4096), kMains, "slot"},
        {"slot beyond the drive's", caps(0), request(4, CommitAction::Replace, 4096), kMains,
         "slot"},
        {"activate an empty slot", caps(0), request(3, CommitAction::Activate, 0), kMains,
         "slot image"},
        {"activate with an image", caps(0), request(2, CommitAction::Activate, 4096), kMains,
         "image"},
        {"no activation without reset", caps(0, 0x07),
         request(2, CommitAction::ReplaceActivateImmediate, 4096), kMains,
         "activation without reset"},
        {"no firmware commands", caps(0, 0x17, false),
         request(2, CommitAction::ReplaceActivate, 4096), kMains, "firmware commands"},
        {"on battery", caps(0), request(2, CommitAction::ReplaceActivate, 4096),
         PowerState{false, "running on battery BAT0 (Discharging)"}, "power"},
        {"system disk not confirmed", caps(0), system, kMains, "system disk"},
    };
    for (const auto& c : cases) {
        INFO(c.name);
        const auto plan = planNvmeUpdate(c.caps, slots(), c.request, c.power);
        CHECK_FALSE(plan.allowed());
        CHECK(failedCheck(plan) == c.failing);
        FakeNvmeAdmin admin;
        auto result = runNvmeUpdate(admin, plan, image(c.request.imageSize % 65536));
        REQUIRE_FALSE(result);
        CHECK(result.error().code() == ErrorCode::InvalidArgument);
        CHECK_THAT(result.error().message(), Catch::Contains(c.failing));
        CHECK(admin.unexpectedCommands() == 0);
    }
    system.confirmSystemDisk = true;
    CHECK(planNvmeUpdate(caps(0), slots(), system, kMains).allowed());
}

TEST_CASE("a rejected download stops before any commit") {
    const auto plan =
        planNvmeUpdate(caps(0), slots(), request(2, CommitAction::ReplaceActivate, 8192), kMains);
    FakeNvmeAdmin admin;
    expectDownload(admin, 0, 4096);
    expectDownload(admin, 4096, 4096, 0x114);
    auto result = runNvmeUpdate(admin, plan, image(8192));
    REQUIRE_FALSE(result);
    CHECK(result.error().code() == ErrorCode::Unsupported);
    CHECK_THAT(result.error().message(), Catch::Contains("Overlapping Range"));
    CHECK_THAT(result.error().message(), Catch::Contains("nothing was committed"));
    CHECK(admin.scriptDone());
    CHECK(admin.unexpectedCommands() == 0);
}

TEST_CASE("firmware judges a completion on SCT and SC alone (status & 7FFh)") {
    // More (bit 13) and DNR (bit 14) set on a success: still a success.
    FakeNvmeAdmin reads;
    expectIdentify(reads, identifyController(true, 0x17, 0), 0x6000);
    expectSlotLog(reads, slotLog(0x01, {"1.0"}), 0x2000);
    CHECK(readFirmwareCaps(reads));
    CHECK(readSlotLog(reads));
    CHECK(reads.scriptDone());

    const auto plan =
        planNvmeUpdate(caps(0), slots(), request(2, CommitAction::ReplaceActivate, 4096), kMains);
    FakeNvmeAdmin admin;
    expectDownload(admin, 0, 4096, 0x4114); // DNR | Overlapping Range
    auto result = runNvmeUpdate(admin, plan, image(4096));
    REQUIRE_FALSE(result);
    CHECK_THAT(result.error().message(), Catch::Contains("Overlapping Range"));

    FakeNvmeAdmin failing;
    expectSlotLog(failing, slotLog(0x01, {"1.0"}), 0x4002); // DNR | Invalid Field in Command
    auto log = readSlotLog(failing);
    REQUIRE_FALSE(log);
    CHECK(log.error().code() == ErrorCode::Unsupported);
    CHECK(log.error().message() ==
          "the firmware slot log could not be read: Invalid Field in Command");
}

TEST_CASE("a refused commit names the status") {
    const auto status = GENERATE(std::uint16_t{0x106}, std::uint16_t{0x107}, std::uint16_t{0x113});
    const auto plan =
        planNvmeUpdate(caps(0), slots(), request(2, CommitAction::ReplaceActivate, 4096), kMains);
    FakeNvmeAdmin admin;
    expectDownload(admin, 0, 4096);
    expectCommit(admin, 2, 1, status);
    auto result = runNvmeUpdate(admin, plan, image(4096));
    REQUIRE_FALSE(result);
    CHECK(result.error().code() == ErrorCode::Unsupported);
    CHECK_THAT(result.error().message(), Catch::Contains(describeStatus(status)));
    CHECK(admin.scriptDone());
}

TEST_CASE("an image that differs from the planned size is refused") {
    const auto plan =
        planNvmeUpdate(caps(0), slots(), request(2, CommitAction::ReplaceActivate, 4096), kMains);
    FakeNvmeAdmin admin;
    auto result = runNvmeUpdate(admin, plan, image(8192));
    REQUIRE_FALSE(result);
    CHECK(result.error().code() == ErrorCode::InvalidArgument);
    CHECK(admin.unexpectedCommands() == 0);
}

TEST_CASE("mains power from /sys/class/power_supply") {
    TempDir dir;
    const SysfsRoot root(dir.path());
    CHECK(readPowerState(root).onMains); // no supplies: a desktop or VM
    dir.write("sys/class/power_supply/BAT0/type", "Battery\n");
    dir.write("sys/class/power_supply/BAT0/status", "Discharging\n");
    dir.write("sys/class/power_supply/AC/type", "Mains\n");
    dir.write("sys/class/power_supply/AC/online", "0\n");
    auto battery = readPowerState(root);
    CHECK_FALSE(battery.onMains);
    CHECK_THAT(battery.detail, Catch::Contains("BAT0"));
    dir.write("sys/class/power_supply/AC/online", "1\n");
    CHECK(readPowerState(root).onMains);
}
