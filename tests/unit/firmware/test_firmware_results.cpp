// The firmware verbs' results read back typed (verbs.h, firmwareInfoFromJson): exactly the JSON
// they came from, and a result that lacks a key, has a value of another type or a derived
// value that disagrees is refused naming the key. FirmwareClient over a scripted transport.
#include <catch2/catch.hpp>
#include <functional>
#include <string>
#include <vector>

#include "core/firmware/firmware_client.h"
#include "core/rpc/progress.h"
#include "tests/unit/firmware/firmware_test_support.h"

using namespace ssdk;
using namespace ssdk::firmware;
using namespace ssdk::firmware::test;

namespace {

const PowerState kMains{true, "mains adapter AC online"};

// 3 slots, slot 1 read-only, activation without reset, FWUG 2 (8 KiB).
NvmeFirmwareCaps nvmeCaps() {
    auto parsed = parseFirmwareCaps(identifyController(true, 0x17, 2, "2.0"));
    REQUIRE(parsed);
    parsed->maxActivationTime100ms = 30;
    return *parsed;
}

// Active slot 1, slot 2 after the next reset; seven slots, more than the controller has.
NvmeSlotLog slotLogOf() {
    auto parsed = parseFirmwareSlotLog(slotLog(0x21, {"1.0", "2.0", "", "", "", "", ""}));
    REQUIRE(parsed);
    return *parsed;
}

PathStatus fwupdPath() {
    PathStatus path{"fwupd", "fwupd / LVFS", true, "1 upgrade for this drive (it runs 2.0)"};
    path.fwupdDeviceId = "b1c2d3e4f5";
    path.fwupdDeviceName = "Samsung SSD 980 PRO 2TB";
    path.fwupdVersion = "2.0";
    path.releases.push_back(FwupdRelease{"2.1", "Fixes the wear-out bug", "lvfs",
                                         "https://fwupd.org/downloads/x.cab", 1048576, true,
                                         false});
    return path;
}

FirmwareInfo nvmeInfo() {
    FirmwareInfo info;
    info.device.path = "/dev/nvme0n1";
    info.device.bus = device::Bus::Nvme;
    info.facts.model = "Samsung SSD 980 PRO 2TB";
    info.facts.serial = "S6B0NL0T123456";
    info.facts.revision = "2.0";
    info.facts.nvme = nvmeCaps();
    info.facts.slotLog = slotLogOf();
    info.knownIssues = {Finding{"catalog", "Drives wear out early", "2.1", "https://example.com"},
                        Finding{"drivedb", "Slow after a power loss", "", "Samsung 980 family"}};
    info.catalogError = "the drive database could not be read";
    info.paths = {PathStatus{"nvme-image", "NVMe image you supply", true, "3 slots"}, fwupdPath(),
                  PathStatus{"ata-microcode", "ATA DOWNLOAD MICROCODE", false, "not ATA"}};
    return info;
}

FirmwareInfo ataInfo() {
    FirmwareInfo info;
    info.device.path = "/dev/sda";
    info.device.bus = device::Bus::Sata;
    info.facts.model = "INTEL SSDSA2CW120G3";
    info.facts.revision = "4PC10302";
    AtaMicrocode mc;
    mc.supported = true;
    mc.enabled = true;
    mc.dmaSupported = true;
    mc.segmentedSupported = true;
    mc.minBlocks = 1;
    mc.maxBlocks = 0xFFFE;
    info.facts.ata = mc;
    return info;
}

UpdatePlan allowedPlan() {
    UpdateRequest request;
    request.slot = 2;
    request.action = CommitAction::ReplaceActivate;
    request.imageSize = 24576;
    auto plan = planNvmeUpdate(nvmeCaps(), slotLogOf(), request, kMains);
    REQUIRE(plan.allowed());
    return plan;
}

UpdatePlan refusedPlan() {
    UpdateRequest request;
    request.slot = 1; // read-only
    request.action = CommitAction::Replace;
    request.imageSize = 4096;
    auto plan = planNvmeUpdate(nvmeCaps(), slotLogOf(), request, kMains);
    REQUIRE_FALSE(plan.allowed());
    return plan;
}

UpdateReply updateReply(CommitOutcome outcome, bool withSlots) {
    UpdateReply reply{allowedPlan(), {}};
    reply.result.outcome = outcome;
    reply.result.resetNeeded = outcome != CommitOutcome::Done;
    reply.result.account = "slot 2 runs after the next reset";
    reply.result.downloads = 3;
    if (withSlots) {
        reply.result.slotsAfter = slotLogOf();
    }
    return reply;
}

// The JSON as the helper's answer arrives: through its text.
Json overTheWire(const Json& json) {
    auto parsed = parseJson(json.dump(), "answer");
    REQUIRE(parsed);
    return *parsed;
}

// Reads json back and checks that toJson gives it again.
template <typename Read> auto readsBack(const Json& json, Read read) {
    auto typed = read(overTheWire(json));
    INFO(json.dump(2));
    if (!typed) {
        FAIL(typed.error().describe());
    }
    CHECK(toJson(*typed) == json);
    return *typed;
}

} // namespace

TEST_CASE("firmware.info's result reads back into the JSON it came from") {
    const FirmwareInfo nvme = readsBack(toJson(nvmeInfo()), firmwareInfoFromJson);
    CHECK(nvme.device.path == "/dev/nvme0n1");
    CHECK(nvme.device.bus == device::Bus::Nvme);
    REQUIRE(nvme.facts.nvme);
    CHECK(nvme.facts.nvme->slotCount == 3);
    CHECK(nvme.facts.nvme->chunkBytes() == 8192);
    CHECK(nvme.facts.nvme->maxActivationTime100ms == 30);
    // The log as the controller's three slots show it.
    REQUIRE(nvme.facts.slotLog);
    CHECK(nvme.facts.slotLog->revisions == std::vector<std::string>{"1.0", "2.0", ""});
    CHECK(nvme.facts.slotLog->nextResetSlot == 2);
    const auto states = slotStates(*nvme.facts.slotLog, &*nvme.facts.nvme);
    REQUIRE(states.size() == 3);
    CHECK(states[0].readOnly);
    CHECK(states[0].active);
    CHECK(states[1].nextReset);
    CHECK(nvme.knownIssues.size() == 2);
    CHECK(nvme.knownIssues[1].fixedRevision.empty());
    REQUIRE(nvme.paths.size() == 3);
    REQUIRE(nvme.paths[1].releases.size() == 1);
    CHECK(nvme.paths[1].releases[0].sizeBytes == 1048576);
    CHECK(nvme.paths[1].fwupdDeviceName == "Samsung SSD 980 PRO 2TB");

    const FirmwareInfo ata = readsBack(toJson(ataInfo()), firmwareInfoFromJson);
    CHECK_FALSE(ata.facts.nvme);
    CHECK_FALSE(ata.facts.slotLog);
    REQUIRE(ata.facts.ata);
    CHECK(ata.facts.ata->maxBlocks == 0xFFFE);
    CHECK(ata.facts.ata->modes() == ataInfo().facts.ata->modes());

    // A drive the info knows nothing of: every optional part null, every list empty.
    FirmwareInfo bare;
    bare.device.path = "/dev/loop0";
    bare.device.bus = device::Bus::Loop;
    readsBack(toJson(bare), firmwareInfoFromJson);
}

TEST_CASE("firmware.plan's and firmware.update's results read back into their JSON") {
    const UpdatePlan allowed = readsBack(toJson(allowedPlan()), updatePlanFromJson);
    CHECK(allowed.request.slot == 2);
    CHECK(allowed.request.action == CommitAction::ReplaceActivate);
    CHECK(allowed.request.imageSize == 24576);
    CHECK(allowed.chunkBytes == 8192);
    CHECK(allowed.downloads == 3);
    CHECK(allowed.allowed());
    const UpdatePlan refused = readsBack(toJson(refusedPlan()), updatePlanFromJson);
    CHECK_FALSE(refused.allowed());
    CHECK(refused.refusal() == refusedPlan().refusal());

    for (auto outcome : {CommitOutcome::Done, CommitOutcome::NeedsConventionalReset,
                         CommitOutcome::NeedsSubsystemReset, CommitOutcome::NeedsControllerReset,
                         CommitOutcome::Failed}) {
        for (bool withSlots : {false, true}) {
            const Json json = toJson(updateReply(outcome, withSlots));
            const UpdateReply reply = readsBack(json, updateReplyFromJson);
            CHECK(reply.result.outcome == outcome);
            CHECK(reply.result.slotsAfter.has_value() == withSlots);
            CHECK(readsBack(json["result"], updateResultFromJson).downloads == 3);
        }
    }
}

TEST_CASE("a malformed firmware result is refused, naming the key") {
    struct Case {
        const char* name;
        std::function<Expected<Json>(const Json&)> read; // the reader, answering toJson again
        Json json;                                       // a result that reads back
        std::function<void(Json&)> spoil;
        const char* message;
    };
    const auto info = [](const Json& json) -> Expected<Json> {
        auto read = firmwareInfoFromJson(json);
        return read ? Expected<Json>(toJson(*read)) : std::unexpected(read.error());
    };
    const auto plan = [](const Json& json) -> Expected<Json> {
        auto read = updatePlanFromJson(json);
        return read ? Expected<Json>(toJson(*read)) : std::unexpected(read.error());
    };
    const auto reply = [](const Json& json) -> Expected<Json> {
        auto read = updateReplyFromJson(json);
        return read ? Expected<Json>(toJson(*read)) : std::unexpected(read.error());
    };
    const Json nvme = toJson(nvmeInfo());
    const Json ata = toJson(ataInfo());
    const Json planJson = toJson(allowedPlan());
    const Json replyJson = toJson(updateReply(CommitOutcome::Done, true));
    const std::vector<Case> cases{
        {"not an object", info, nvme, [](Json& j) { j = Json::array(); },
         "the firmware.info result: must be a JSON object"},
        {"missing key", info, nvme, [](Json& j) { j.erase("revision"); },
         "the firmware.info result: 'revision' is missing"},
        {"string for a number", info, nvme, [](Json& j) { j["nvme"]["slots"] = "3"; },
         "'nvme.slots' must be an integer from 0 to 255"},
        {"negative size", info, nvme,
         [](Json& j) { j["update_paths"][1]["releases"][0]["size_bytes"] = -1; },
         "'update_paths[1].releases[0].size_bytes' must be an integer"},
        {"number for a bool", info, nvme, [](Json& j) { j["update_paths"][0]["available"] = 1; },
         "'update_paths[0].available' must be true or false"},
        {"missing path key", info, nvme,
         [](Json& j) { j["update_paths"][2].erase("fwupd_version"); },
         "'update_paths[2].fwupd_version' is missing"},
        {"unknown bus", info, nvme, [](Json& j) { j["bus"] = "floppy"; },
         "'bus' is not a bus name"},
        {"issues not a list", info, nvme, [](Json& j) { j["known_issues"] = "none"; },
         "'known_issues' must be an array of objects"},
        {"health reasons disagree", info, nvme,
         [](Json& j) { j["health_reasons"] = Json::array(); }, "'health_reasons' is []"},
        {"chunk disagrees with FWUG", info, nvme, [](Json& j) { j["nvme"]["chunk_bytes"] = 4096; },
         "'nvme.chunk_bytes' is 4096 but should be 8192 (from 'fwug')"},
        {"activation time not in MTFA units", info, nvme,
         [](Json& j) { j["nvme"]["max_activation_time_ms"] = 150; },
         "'nvme.max_activation_time_ms' is not a multiple of 100"},
        {"slot state disagrees", info, nvme,
         [](Json& j) { j["slot_log"]["slots"][1]["active"] = true; },
         "'slot_log.slots[1].active' is true"},
        {"slot out of place", info, nvme, [](Json& j) { j["slot_log"]["slots"][2]["slot"] = 7; },
         "'slot_log.slots[2].slot' is 7"},
        {"more slots than the controller", info, nvme, [](Json& j) { j["nvme"]["slots"] = 2; },
         "'slot_log.slots' lists 3 slots"},
        {"ATA part not an object", info, ata, [](Json& j) { j["ata_microcode"] = 5; },
         "'ata_microcode' must be null or an object"},
        {"ATA block limit out of range", info, ata,
         [](Json& j) { j["ata_microcode"]["max_blocks"] = 70000; },
         "'ata_microcode.max_blocks' must be null or an integer from 0 to 65535"},
        {"ATA modes disagree", info, ata,
         [](Json& j) { j["ata_microcode"]["modes"] = Json::array(); },
         "'ata_microcode.modes' is []"},
        {"unknown action", plan, planJson, [](Json& j) { j["action"] = "flash"; },
         "the firmware.plan result: 'action' is not a commit action"},
        {"allowed disagrees", plan, planJson, [](Json& j) { j["allowed"] = false; },
         "'allowed' is false but should be true (from its checks)"},
        {"check not a bool", plan, planJson, [](Json& j) { j["checks"][0]["passed"] = "yes"; },
         "'checks[0].passed' must be true or false"},
        {"reminder not a string", plan, planJson,
         [](Json& j) { j["reminders"] = Json::array({1}); },
         "'reminders' must be an array of strings"},
        {"chunk too large", plan, planJson, [](Json& j) { j["chunk_bytes"] = 1ULL << 33; },
         "'chunk_bytes' must be an integer from 0 to 4294967295"},
        {"no result", reply, replyJson, [](Json& j) { j.erase("result"); },
         "the firmware.update result: 'result' is missing"},
        {"plan not an object", reply, replyJson, [](Json& j) { j["plan"] = "ok"; },
         "'plan' must be an object"},
        {"unknown outcome", reply, replyJson, [](Json& j) { j["result"]["outcome"] = "exploded"; },
         "'result.outcome' is not a commit outcome"},
        {"slots after, wrong type", reply, replyJson,
         [](Json& j) { j["result"]["slots_after"]["active_slot"] = "1"; },
         "'result.slots_after.active_slot' must be an integer"},
    };
    for (const auto& c : cases) {
        INFO(c.name);
        Json json = c.json;
        c.spoil(json);
        // The unspoiled JSON reads back: the refusal is the spoiled key's.
        REQUIRE(c.read(c.json));
        auto read = c.read(overTheWire(json));
        REQUIRE_FALSE(read);
        CHECK(read.error().code() == ErrorCode::Parse);
        CHECK_THAT(read.error().describe(), Catch::Contains(c.message));
    }
}

namespace {

// Answers each call with the next scripted answer, after its events; records the calls.
class ScriptedTransport final : public rpc::Transport {
public:
    struct Answer {
        Expected<Json> result;
        std::vector<rpc::Event> events;
    };
    std::vector<Answer> answers;
    std::vector<std::pair<std::string, Json>> calls;

protected:
    Expected<Json> send(const std::string& verb, const Json& args,
                        const EventHandler& onEvent) override {
        calls.emplace_back(verb, args);
        REQUIRE(calls.size() <= answers.size());
        const Answer& answer = answers[calls.size() - 1];
        for (const auto& event : answer.events) {
            if (onEvent) {
                onEvent(event);
            }
        }
        return answer.result;
    }
    void cancelRunning() override {}
};

} // namespace

TEST_CASE("FirmwareClient sends each verb its request and reads its typed result") {
    ScriptedTransport transport;
    const UpdateReply committed = updateReply(CommitOutcome::NeedsConventionalReset, true);
    transport.answers.push_back({overTheWire(toJson(nvmeInfo())), {}});
    transport.answers.push_back({overTheWire(toJson(refusedPlan())), {}});
    transport.answers.push_back(
        {overTheWire(toJson(committed)),
         {rpc::Event{
              1, rpc::kEventProgress,
              rpc::toJson(rpc::Progress{.fraction = 0.5, .text = "downloaded 12 KiB of 24 KiB"})},
          rpc::Event{1, rpc::kEventProgress,
                     rpc::toJson(rpc::Progress{.fraction = 1.0, .text = "committed"})}}});
    Json spoiled = toJson(allowedPlan());
    spoiled.erase("checks");
    transport.answers.push_back({spoiled, {}});
    transport.answers.push_back({fail(ErrorCode::PermissionDenied, "polkit said no"), {}});
    FirmwareClient client(transport);

    auto info = client.info(InfoRequest{"/dev/nvme0n1"});
    REQUIRE(info);
    CHECK(toJson(*info) == toJson(nvmeInfo()));

    const UpdateVerbRequest update{"/dev/nvme0n1", 1, CommitAction::Replace, "/tmp/fw.bin", false};
    auto plan = client.plan(planOf(update, 4096));
    REQUIRE(plan);
    CHECK_FALSE(plan->allowed());

    std::vector<double> fractions;
    auto reply = client.update(update, [&fractions](const rpc::Event& event) {
        CHECK(event.name == rpc::kEventProgress);
        fractions.push_back(event.data["fraction"].get<double>());
    });
    REQUIRE(reply);
    CHECK(toJson(*reply) == toJson(committed));
    CHECK(fractions == std::vector<double>{0.5, 1.0});

    auto unreadable = client.plan(planOf(update, 4096));
    REQUIRE_FALSE(unreadable);
    CHECK(unreadable.error().code() == ErrorCode::Parse);
    CHECK_THAT(unreadable.error().describe(),
               Catch::Contains("reading the answer to firmware.plan") &&
                   Catch::Contains("'checks' is missing"));
    auto refused = client.info(InfoRequest{"/dev/nvme0n1"});
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code() == ErrorCode::PermissionDenied);

    REQUIRE(transport.calls.size() == 5);
    CHECK(transport.calls[0] ==
          std::pair<std::string, Json>{kVerbInfo, toJson(InfoRequest{"/dev/nvme0n1"})});
    CHECK(transport.calls[1] ==
          std::pair<std::string, Json>{kVerbPlan, toJson(planOf(update, 4096))});
    CHECK(transport.calls[2] == std::pair<std::string, Json>{kVerbUpdate, toJson(update)});
}
