// rpc::Progress: the one "progress" event shape every long verb sends.
#include <catch2/catch.hpp>

#include "core/rpc/progress.h"

using namespace ssdk;

TEST_CASE("a progress event round-trips, with a step only when it has one", "[rpc]") {
    const rpc::Progress plain{.fraction = 0.25, .text = "Format NVM running"};
    const Json json = rpc::toJson(plain);
    CHECK(json == Json{{"fraction", 0.25}, {"text", "Format NVM running"}});
    const rpc::Progress back = rpc::progressFromJson(json);
    CHECK(back.fraction == 0.25);
    CHECK(back.text == "Format NVM running");
    CHECK_FALSE(back.step);
    CHECK_FALSE(back.finished);

    const rpc::Progress step{
        .fraction = 0.5, .text = "Shrinking ext4", .step = "shrink-filesystem", .finished = true};
    const Json stepJson = rpc::toJson(step);
    CHECK(stepJson["step"] == "shrink-filesystem");
    CHECK(stepJson["finished"] == true);
    const rpc::Progress stepBack = rpc::progressFromJson(stepJson);
    CHECK(stepBack.step == std::optional<std::string>("shrink-filesystem"));
    CHECK(stepBack.finished);
}

TEST_CASE("a progress event missing members or of the wrong types reads as the defaults", "[rpc]") {
    for (const Json& data : {Json(nullptr), Json::array(), Json::object(),
                             Json{{"fraction", "half"}, {"text", 3}, {"finished", "yes"}}}) {
        INFO(data.dump());
        const rpc::Progress read = rpc::progressFromJson(data);
        CHECK(read.fraction < 0); // unknown: the caller shows a busy indicator
        CHECK(read.text.empty());
        CHECK_FALSE(read.step);
        CHECK_FALSE(read.finished);
    }
    // A lab.create event from before fractions were sent: its text still shows.
    CHECK(rpc::progressFromJson(Json{{"text", "creating"}}).text == "creating");
}
