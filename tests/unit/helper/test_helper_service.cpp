#include <catch2/catch.hpp>
#include <stdexcept>

#include "helper/helper_service.h"

using namespace ssdk;
using namespace ssdk::helper;

namespace {

class FakeAuthorizer final : public Authorizer {
public:
    Expected<void> authorize(const std::string& action) override {
        asked.push_back(action);
        if (refuse) {
            return fail(ErrorCode::PermissionDenied, "not authorized for " + action);
        }
        return {};
    }
    std::vector<std::string> asked;
    bool refuse = false;
};

Json decode(const std::string& line) {
    REQUIRE(line.back() == '\n');
    auto json = parseJson(line, "response");
    REQUIRE(json);
    return *json;
}

// A service with one verb, "test.echo", answering its args back after one event.
HelperService echoService(FakeAuthorizer& authorizer) {
    HelperService service(authorizer);
    service.add(Verb{"test.echo", "io.github.ssdkeeper.test.echo", Grade::Read,
                     [](const Json& args, const VerbEvents& events) -> Expected<Json> {
                         events("progress", Json{{"fraction", 1.0}});
                         return Json{{"args", args}};
                     }});
    service.add(Verb{"test.throw", "io.github.ssdkeeper.test.throw", Grade::Read,
                     [](const Json&, const VerbEvents&) -> Expected<Json> {
                         throw std::runtime_error("boom");
                     }});
    return service;
}

} // namespace

TEST_CASE("a verb runs after authorization, its events come through the sink", "[helper]") {
    FakeAuthorizer authorizer;
    HelperService service = echoService(authorizer);
    std::vector<rpc::Event> events;
    const Json response =
        decode(service.handleLine(R"({"id": 5, "verb": "test.echo", "args": {"x": 1}})",
                                  [&](const rpc::Event& event) { events.push_back(event); }));
    CHECK(response["id"] == 5);
    CHECK(response["ok"] == true);
    CHECK(response["result"]["args"]["x"] == 1);
    CHECK(authorizer.asked == std::vector<std::string>{"io.github.ssdkeeper.test.echo"});
    REQUIRE(events.size() == 1);
    CHECK(events[0].id == 5);
    CHECK(events[0].name == "progress");
}

TEST_CASE("refused authorization is an error response and the verb does not run", "[helper]") {
    FakeAuthorizer authorizer;
    authorizer.refuse = true;
    HelperService service = echoService(authorizer);
    int events = 0;
    const Json response = decode(service.handleLine(R"({"id": 2, "verb": "test.echo"})",
                                                    [&](const rpc::Event&) { ++events; }));
    CHECK(response["ok"] == false);
    CHECK(response["error"]["code"] == "permission-denied");
    CHECK(events == 0);
}

TEST_CASE("bad lines and unknown verbs get clear error responses", "[helper]") {
    FakeAuthorizer authorizer;
    HelperService service = echoService(authorizer);
    struct Case {
        std::string line;
        std::uint64_t id;
        std::string code;
        std::string mentions;
    };
    const std::vector<Case> cases{
        {"{nope", 0, "parse", "not valid JSON"},
        {"[]", 0, "protocol", "JSON object"},
        {R"({"id": -3, "verb": "test.echo"})", 0, "protocol", "unsigned"},
        {R"({"id": 4, "verb": "test echo"})", 4, "protocol", "verb"},
        {R"({"id": 6, "verb": "test.echo", "args": 1})", 6, "protocol", "args"},
        {R"({"id": 7, "verb": "shell.run", "args": {"cmd": "id"}})", 7, "invalid-argument",
         "unknown verb 'shell.run'"},
        {R"({"id": 8, "verb": "test.throw"})", 8, "internal", "boom"},
    };
    for (const auto& [line, id, code, mentions] : cases) {
        INFO(line);
        const Json response = decode(service.handleLine(line));
        CHECK(response["id"] == id);
        CHECK(response["ok"] == false);
        CHECK(response["error"]["code"] == code);
        CHECK_THAT(response["error"]["message"].get<std::string>(), Catch::Contains(mentions));
    }
    CHECK(authorizer.asked == std::vector<std::string>{"io.github.ssdkeeper.test.throw"});
}

TEST_CASE("verb names are listed", "[helper]") {
    FakeAuthorizer authorizer;
    CHECK(echoService(authorizer).verbNames() ==
          std::vector<std::string>{"test.echo", "test.throw"});
}
