// The firmware helper verbs refuse malformed requests before any device is touched.
#include <catch2/catch.hpp>

#include "core/firmware/nvme_firmware.h"
#include "core/firmware/verbs.h"
#include "helper/firmware_verbs.h"

using namespace ssdk;
using namespace ssdk::helper;

namespace {

class AllowAll final : public Authorizer {
public:
    Expected<void> authorize(const std::string&) override { return {}; }
};

} // namespace

TEST_CASE("firmware verbs are registered with their grades") {
    AllowAll authorizer;
    HelperService service(authorizer);
    addFirmwareVerbs(service, {}, nullptr);
    REQUIRE(service.find(firmware::kVerbInfo) != nullptr);
    CHECK(service.find(firmware::kVerbInfo)->grade == Grade::Read);
    CHECK(service.find(firmware::kVerbPlan)->grade == Grade::Read);
    CHECK(service.find(firmware::kVerbUpdate)->grade == Grade::Destroy);
}

TEST_CASE("firmware.update and firmware.plan refuse bad arguments before opening a device") {
    AllowAll authorizer;
    HelperService service(authorizer);
    bool opened = false;
    addFirmwareVerbs(
        service,
        [&opened](
            const std::string&) -> Expected<std::unique_ptr<maintenance::transport::NvmeAdmin>> {
            opened = true;
            return fail(ErrorCode::Internal, "must not be reached");
        },
        nullptr);
    const Json base{{"device", "/dev/nvme0n1"},
                    {"image", "/tmp/fw.bin"},
                    {"slot", 2},
                    {"action", "replace-activate"}};
    struct Case {
        const char* name;
        Json args;
        const char* message;
    };
    std::vector<Case> cases;
    Json extra = base;
    extra["force"] = true;
    cases.push_back({"unknown key", extra, "force"});
    Json slot0 = base;
    slot0["slot"] = 0;
    cases.push_back({"slot 0", slot0, "slot"});
    Json slot8 = base;
    slot8["slot"] = 8;
    cases.push_back({"slot 8", slot8, "slot"});
    Json badAction = base;
    badAction["action"] = "flash";
    cases.push_back({"bad action", badAction, "action"});
    Json noImage = base;
    noImage.erase("image");
    cases.push_back({"replace without image", noImage, "needs an image"});
    Json activateWithImage = base;
    activateWithImage["action"] = "activate";
    cases.push_back({"activate with image", activateWithImage, "give no image"});
    Json relative = base;
    relative["image"] = "fw.bin";
    cases.push_back({"relative image", relative, "absolute"});
    Json confirm = base;
    confirm["confirm_system_disk"] = "yes";
    cases.push_back({"confirm not a bool", confirm, "confirm_system_disk"});
    Json notDev = base;
    notDev["device"] = "/etc/passwd";
    notDev["image"] = "/nonexistent/fw.bin";
    cases.push_back({"not a /dev path", notDev, "/etc/passwd"});
    for (const std::string verb : {"firmware.update", "firmware.plan"}) {
        for (const auto& c : cases) {
            INFO(verb << ": " << c.name);
            Json args = c.args;
            // plan takes the image's size instead of its path.
            if (verb == "firmware.plan" && args.contains("image")) {
                if (args["image"] == "fw.bin") {
                    continue; // a relative path cannot reach plan
                }
                args.erase("image");
                args["image_size"] = 4096;
            }
            const Json request{{"id", 7}, {"verb", verb}, {"args", args}};
            const auto line = service.handleLine(request.dump());
            auto response = parseJson(line, "response");
            REQUIRE(response);
            REQUIRE(response->contains("error"));
            CHECK_THAT((*response)["error"].dump(), Catch::Contains(c.message));
        }
    }
    CHECK_FALSE(opened);
    // plan never takes a path: a read verb must not stat files as root for its caller.
    const Json withPath{{"id", 8}, {"verb", "firmware.plan"}, {"args", base}};
    auto response = parseJson(service.handleLine(withPath.dump()), "response");
    REQUIRE(response);
    REQUIRE(response->contains("error"));
    CHECK_THAT((*response)["error"].dump(), Catch::Contains("image"));
    CHECK_FALSE(opened);
}

TEST_CASE("firmware requests survive their JSON: the image path for update, its size for plan") {
    const firmware::UpdateVerbRequest update{
        "/dev/nvme0n1", 2, firmware::CommitAction::ReplaceActivate, "/tmp/fw.bin", true};
    auto readUpdate = firmware::updateVerbRequestFromJson(toJson(update));
    REQUIRE(readUpdate);
    CHECK(toJson(*readUpdate) == toJson(update));
    const auto plan = firmware::planOf(update, 4096);
    const Json planJson = toJson(plan);
    CHECK_FALSE(planJson.contains("image"));
    CHECK(planJson["image_size"] == 4096);
    auto readPlan = firmware::planVerbRequestFromJson(planJson);
    REQUIRE(readPlan);
    CHECK(readPlan->imageSize == 4096);
    CHECK(readPlan->confirmSystemDisk);
    // Activate uses the image in the slot: neither an image nor a size goes with it.
    const firmware::UpdateVerbRequest activate{"/dev/nvme0n1", 3, firmware::CommitAction::Activate,
                                               "", false};
    CHECK_FALSE(toJson(firmware::planOf(activate, 4096)).contains("image_size"));
    CHECK(firmware::updateVerbRequestFromJson(toJson(activate)));
    CHECK(firmware::infoRequestFromJson(toJson(firmware::InfoRequest{"/dev/nvme0n1"}))->device ==
          "/dev/nvme0n1");
    CHECK_FALSE(firmware::commitActionArg("flash"));
    CHECK(firmware::commitActionArg("activate-now") ==
          firmware::CommitAction::ReplaceActivateImmediate);
}
