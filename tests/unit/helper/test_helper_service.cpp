#include <catch2/catch.hpp>
#include <stdexcept>

#include "helper/helper_service.h"

using namespace ssdk;
using namespace ssdk::helper;

namespace {

class FakeAuthorizer final : public Authorizer {
public:
    Expected<void> authorize(const std::string& action) override {
        return authorizeWithDetails(action, {});
    }
    Expected<void> authorizeWithDetails(const std::string& action,
                                        const AuthDetails& shown) override {
        asked.push_back(action);
        details.push_back(shown);
        if (refuse) {
            return fail(ErrorCode::PermissionDenied, "not authorized for " + action);
        }
        return {};
    }
    std::vector<std::string> asked;
    std::vector<AuthDetails> details;
    bool refuse = false;
};

Json decode(const std::string& line) {
    REQUIRE(line.back() == '\n');
    auto json = parseJson(line, "response");
    REQUIRE(json);
    return *json;
}

// A service with the verbs "test.echo" (Read) and "test.change" (Change), answering their args
// back after one event, and "test.throw".
HelperService echoService(FakeAuthorizer& authorizer, DriveDescriber describeDrive = {}) {
    HelperService service(authorizer, std::move(describeDrive));
    service.add(Verb{"test.echo", "io.github.ssdkeeper.test.echo", Grade::Read,
                     [](const Json& args, const VerbEvents& events) -> Expected<Json> {
                         events("progress", Json{{"fraction", 1.0}});
                         return Json{{"args", args}};
                     }});
    service.add(Verb{"test.change", "io.github.ssdkeeper.test.change", Grade::Change,
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
          std::vector<std::string>{"test.change", "test.echo", "test.throw"});
}

namespace {

// A request line whose args hold "a" nested depth arrays deep.
std::string deepLine(std::uint64_t id, std::size_t depth) {
    return "{\"id\": " + std::to_string(id) + R"(, "verb": "test.echo", "args": {"a": )" +
           std::string(depth, '[') + std::string(depth, ']') + "}}";
}

// Adds verbs that answer with text that is not UTF-8, and one that throws a non-exception.
void addHostileVerbs(HelperService& service) {
    service.add(Verb{"test.bad-error", "io.github.ssdkeeper.test.bad-error", Grade::Read,
                     [](const Json&, const VerbEvents&) -> Expected<Json> {
                         return fail(ErrorCode::InvalidArgument, "no such drive: \xff\xfe");
                     }});
    service.add(Verb{"test.bad-result", "io.github.ssdkeeper.test.bad-result", Grade::Read,
                     [](const Json&, const VerbEvents& events) -> Expected<Json> {
                         events("progress", Json{{"text", "half \xc3"}});
                         return Json{{"model", "cut \xe2\x82"}};
                     }});
    service.add(Verb{"test.throw-int", "io.github.ssdkeeper.test.throw-int", Grade::Read,
                     [](const Json&, const VerbEvents&) -> Expected<Json> { throw 42; }});
}

} // namespace

TEST_CASE("bytes that are not UTF-8 get an error response, never an exception", "[helper]") {
    FakeAuthorizer authorizer;
    HelperService service = echoService(authorizer);
    // The parser quotes the bad byte in its error; echoing it back must not throw.
    for (const std::string& line :
         {std::string("\xff"),
          std::string(R"({"id": 9, "verb": "test.echo", "args": {"x": ")") + "\xff" + "\"}}",
          std::string(R"({"id": 3, "verb": ")") + "\xc3\x28" + "\"}",
          std::string("{\"id\": 4, \"verb\": \"test.echo\"}\xff")}) {
        INFO(line);
        std::string encoded;
        REQUIRE_NOTHROW(encoded = service.handleLine(line));
        const Json response = decode(encoded);
        CHECK(response["ok"] == false);
        CHECK(response["error"]["code"] == "parse");
        CHECK_THAT(response["error"]["message"].get<std::string>(), Catch::Contains("JSON"));
    }
    CHECK(authorizer.asked.empty());
}

TEST_CASE("text that is not UTF-8 from a verb is encoded with replacements", "[helper]") {
    FakeAuthorizer authorizer;
    HelperService service = echoService(authorizer);
    addHostileVerbs(service);
    std::vector<std::string> eventLines;
    const EventSink sink = [&](const rpc::Event& event) {
        eventLines.push_back(rpc::encode(event));
    };
    const Json error = decode(service.handleLine(R"({"id": 1, "verb": "test.bad-error"})", sink));
    CHECK(error["ok"] == false);
    CHECK(error["error"]["code"] == "invalid-argument");
    CHECK_THAT(error["error"]["message"].get<std::string>(), Catch::Contains("\xef\xbf\xbd"));
    const Json result = decode(service.handleLine(R"({"id": 2, "verb": "test.bad-result"})", sink));
    CHECK(result["ok"] == true);
    CHECK(result["result"]["model"] == "cut \xef\xbf\xbd");
    REQUIRE(eventLines.size() == 1);
    CHECK(decode(eventLines[0])["data"]["text"] == "half \xef\xbf\xbd");
}

TEST_CASE("a handler throwing anything at all gives an internal error response", "[helper]") {
    FakeAuthorizer authorizer;
    HelperService service = echoService(authorizer);
    addHostileVerbs(service);
    std::string encoded;
    REQUIRE_NOTHROW(encoded = service.handleLine(R"({"id": 6, "verb": "test.throw-int"})"));
    const Json response = decode(encoded);
    CHECK(response["id"] == 6);
    CHECK(response["ok"] == false);
    CHECK(response["error"]["code"] == "internal");
}

TEST_CASE("deeply nested arguments are refused before they are copied or logged", "[helper]") {
    FakeAuthorizer authorizer;
    HelperService service = echoService(authorizer);
    for (const std::size_t depth : {std::size_t{100}, std::size_t{100'000}}) {
        INFO(depth);
        const Json refused = decode(service.handleLine(deepLine(2, depth)));
        CHECK(refused["ok"] == false);
        CHECK(refused["error"]["code"] == "protocol");
        CHECK_THAT(refused["error"]["message"].get<std::string>(), Catch::Contains("nests"));
    }
    CHECK(authorizer.asked.empty());
    // Still serving.
    const Json shallow = decode(service.handleLine(deepLine(1, 8)));
    CHECK(shallow["ok"] == true);
    CHECK(decode(service.handleLine(R"({"id": 3, "verb": "test.echo"})"))["ok"] == true);
}

TEST_CASE("a read verb is asked about once per dialog details, changes every time, refusals "
          "never kept",
          "[helper]") {
    FakeAuthorizer authorizer;
    HelperService service = echoService(authorizer);
    // A page polling a status verb once a second for a minute: polkit is asked once.
    for (int poll = 0; poll < 60; ++poll) {
        REQUIRE(decode(service.handleLine(R"({"id": 1, "verb": "test.echo"})"))["ok"] == true);
    }
    CHECK(authorizer.asked.size() == 1);
    // Another drive named in the dialog is another question.
    REQUIRE(decode(service.handleLine(
                R"({"id": 2, "verb": "test.echo", "args": {"device": "/dev/sdb"}})"))["ok"] ==
            true);
    REQUIRE(decode(service.handleLine(
                R"({"id": 3, "verb": "test.echo", "args": {"device": "/dev/sdb"}})"))["ok"] ==
            true);
    CHECK(authorizer.asked.size() == 2);
    for (int call = 0; call < 3; ++call) {
        REQUIRE(decode(service.handleLine(R"({"id": 4, "verb": "test.change"})"))["ok"] == true);
    }
    CHECK(authorizer.asked.size() == 5);
    // A refused read is asked again next time.
    authorizer.refuse = true;
    CHECK(decode(service.handleLine(R"({"id": 5, "verb": "test.throw"})"))["ok"] == false);
    authorizer.refuse = false;
    CHECK(decode(service.handleLine(R"({"id": 6, "verb": "test.throw"})"))["error"]["code"] ==
          "internal");
    CHECK(authorizer.asked.size() == 7);
}

TEST_CASE("a request's device argument is shown in the polkit dialog", "[helper]") {
    FakeAuthorizer authorizer;
    std::vector<std::string> described;
    HelperService service = echoService(authorizer, [&](const std::string& path) {
        described.push_back(path);
        return path == "/dev/sdx" ? std::string("Evil \x1b[2J drive")
                                  : std::string("Samsung SSD 980 PRO 500GB (S5GXNF0R100001A)");
    });
    // A change verb: asked about every time (a read verb is asked once per details).
    const auto detailsOf = [&](const Json& args) {
        authorizer.details.clear();
        const Json response = decode(
            service.handleLine(Json{{"id", 1}, {"verb", "test.change"}, {"args", args}}.dump()));
        CHECK(response["ok"] == true);
        REQUIRE(authorizer.details.size() == 1);
        return authorizer.details[0];
    };
    CHECK(detailsOf(Json{{"device", "/dev/nvme0n1"}}) ==
          AuthDetails{{"device", "/dev/nvme0n1"},
                      {"drive", "Samsung SSD 980 PRO 500GB (S5GXNF0R100001A)"}});
    // The describer's answer is checked too.
    CHECK(detailsOf(Json{{"device", "/dev/sdx"}}) == AuthDetails{{"device", "/dev/sdx"}});
    // A path a dialog could misread is not shown as given, and not looked up.
    described.clear();
    for (const std::string& path :
         {std::string("/dev/sda\n\nAuthentication is not needed"), std::string("/dev/\xc3\xa9"),
          "/dev/" + std::string(200, 'a'), std::string("-x")}) {
        INFO(path);
        CHECK(detailsOf(Json{{"device", path}}) == AuthDetails{{"device", "(unprintable path)"}});
    }
    CHECK(described.empty());
    // Not under /dev: shown, not looked up. No device, or not a string: no details.
    CHECK(detailsOf(Json{{"device", "sda"}}) == AuthDetails{{"device", "sda"}});
    CHECK(described.empty());
    CHECK(detailsOf(Json{{"device", 5}}).empty());
    CHECK(detailsOf(Json::object()).empty());
}
