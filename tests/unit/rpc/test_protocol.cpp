#include <catch2/catch.hpp>

#include "core/rpc/protocol.h"

using namespace ssdk;
using namespace ssdk::rpc;

TEST_CASE("requests survive encode and decode", "[rpc]") {
    const Request request{42, "lab.create", Json{{"name", "lab"}, {"size", 67108864}}};
    const std::string line = encode(request);
    REQUIRE(line.back() == '\n');
    REQUIRE(line.find('\n') == line.size() - 1);
    const auto decoded = decodeRequest(line.substr(0, line.size() - 1));
    REQUIRE(decoded);
    CHECK(decoded->id == 42);
    CHECK(decoded->verb == "lab.create");
    CHECK(decoded->args == request.args);
}

TEST_CASE("a request without args gets an empty object", "[rpc]") {
    const auto decoded = decodeRequest(R"({"id": 1, "verb": "ping"})");
    REQUIRE(decoded);
    CHECK(decoded->args == Json::object());
}

TEST_CASE("responses carry a result or an error with its context", "[rpc]") {
    const auto ok = decodeMessage(encode(Response{7, Json{{"device", "/dev/loop3"}}}));
    REQUIRE(ok);
    CHECK_FALSE(ok->isEvent);
    CHECK(ok->response.id == 7);
    REQUIRE(ok->response.result);
    CHECK((*ok->response.result)["device"] == "/dev/loop3");

    Error error(ErrorCode::Busy, "/dev/loop3p1 is mounted at /mnt");
    error.addContext("destroying lab drive 'lab'");
    const auto failed = decodeMessage(encode(Response{8, std::unexpected(error)}));
    REQUIRE(failed);
    REQUIRE_FALSE(failed->response.result);
    CHECK(failed->response.result.error().code() == ErrorCode::Busy);
    CHECK(failed->response.result.error().describe() == error.describe());
}

TEST_CASE("events are told apart from responses", "[rpc]") {
    const auto message =
        decodeMessage(encode(Event{3, "progress", Json{{"fraction", 0.5}, {"text", "mkfs"}}}));
    REQUIRE(message);
    REQUIRE(message->isEvent);
    CHECK(message->event.id == 3);
    CHECK(message->event.name == "progress");
    CHECK(message->event.data["text"] == "mkfs");
}

TEST_CASE("malformed request lines are refused with a reason", "[rpc]") {
    struct Case {
        std::string line;
        ErrorCode code;
        std::string mentions;
    };
    const std::vector<Case> cases{
        {"not json", ErrorCode::Parse, "not valid JSON"},
        {"", ErrorCode::Parse, "not valid JSON"},
        {R"({"id": 1, "verb": "ping")", ErrorCode::Parse, "not valid JSON"},
        {R"([1, "ping"])", ErrorCode::Protocol, "JSON object"},
        {R"("ping")", ErrorCode::Protocol, "JSON object"},
        {R"({"verb": "ping"})", ErrorCode::Protocol, "\"id\""},
        {R"({"id": -1, "verb": "ping"})", ErrorCode::Protocol, "unsigned"},
        {R"({"id": 1.5, "verb": "ping"})", ErrorCode::Protocol, "unsigned"},
        {R"({"id": "1", "verb": "ping"})", ErrorCode::Protocol, "unsigned"},
        {R"({"id": 1})", ErrorCode::Protocol, "\"verb\""},
        {R"({"id": 1, "verb": ""})", ErrorCode::Protocol, "\"verb\""},
        {R"({"id": 1, "verb": "lab create"})", ErrorCode::Protocol, "\"verb\""},
        {R"({"id": 1, "verb": "Lab.Create"})", ErrorCode::Protocol, "\"verb\""},
        {R"({"id": 1, "verb": "lab_create"})", ErrorCode::Protocol, "\"verb\""},
        {R"({"id": 1, "verb": 5})", ErrorCode::Protocol, "\"verb\""},
        {R"({"id": 1, "verb": "ping", "args": [1]})", ErrorCode::Protocol, "\"args\""},
        {R"({"id": 1, "verb": "ping", "args": "x"})", ErrorCode::Protocol, "\"args\""},
    };
    for (const auto& [line, code, mentions] : cases) {
        INFO(line);
        const auto decoded = decodeRequest(line);
        REQUIRE_FALSE(decoded);
        CHECK(decoded.error().code() == code);
        CHECK_THAT(decoded.error().message(), Catch::Contains(mentions));
    }
}

TEST_CASE("lines over the size limit are refused before parsing", "[rpc]") {
    std::string line = R"({"id": 1, "verb": "ping", "args": {"pad": ")";
    line += std::string(kMaxLineBytes, 'x');
    line += "\"}}";
    const auto decoded = decodeRequest(line);
    REQUIRE_FALSE(decoded);
    CHECK(decoded.error().code() == ErrorCode::Protocol);
    CHECK_THAT(decoded.error().message(), Catch::Contains("limit"));
}

TEST_CASE("malformed helper messages are refused", "[rpc]") {
    for (const std::string line : {R"({"id": 1})", R"({"id": 1, "ok": "yes"})", R"({"ok": true})",
                                   R"({"id": 1, "event": 3})", "[]", "{"}) {
        INFO(line);
        CHECK_FALSE(decodeMessage(line));
    }
}
