#include <algorithm>
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

TEST_CASE("encoding never throws on text that is not UTF-8", "[rpc]") {
    std::string line;
    REQUIRE_NOTHROW(line = encode(Response{7, fail(ErrorCode::Parse, "bad byte \xff here")}));
    auto message = decodeMessage(line);
    REQUIRE(message);
    REQUIRE_FALSE(message->response.result);
    CHECK(message->response.result.error().message() == "bad byte \xef\xbf\xbd here");

    REQUIRE_NOTHROW(line = encode(Event{7, "progress", Json{{"text", "cut \xe2\x82"}}}));
    message = decodeMessage(line);
    REQUIRE(message);
    CHECK(message->event.data["text"] == "cut \xef\xbf\xbd");

    REQUIRE_NOTHROW(line = encode(Request{8, "ping", Json{{"x", "\xc3"}}}));
    CHECK(decodeRequest(line));
}

TEST_CASE("a parse error quotes the client's bytes printably", "[rpc]") {
    const auto decoded = decodeRequest("{\"id\": 1, \"verb\": \"\xff\x1b[2J\"}");
    REQUIRE_FALSE(decoded);
    CHECK(decoded.error().code() == ErrorCode::Parse);
    CHECK_THAT(decoded.error().message(), Catch::Contains("not valid JSON"));
    CHECK(std::ranges::all_of(decoded.error().message(), [](char c) {
        return static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f;
    }));
}

TEST_CASE("lines nested deeper than the limit are refused before parsing", "[rpc]") {
    const auto nested = [](std::size_t depth) {
        return R"({"id": 1, "verb": "ping", "args": {"a": )" + std::string(depth, '[') +
               std::string(depth, ']') + "}}";
    };
    // The envelope and args are two levels.
    CHECK(decodeRequest(nested(kMaxNestingDepth - 2)));
    for (const std::size_t depth :
         {kMaxNestingDepth - 1, std::size_t{1000}, std::size_t{100'000}}) {
        INFO(depth);
        const auto decoded = decodeRequest(nested(depth));
        REQUIRE_FALSE(decoded);
        CHECK(decoded.error().code() == ErrorCode::Protocol);
        CHECK_THAT(decoded.error().message(), Catch::Contains("nests"));
    }
    CHECK_FALSE(decodeCancel("{\"id\": 1, \"cancel\": true, \"x\": " + std::string(100'000, '{')));
    CHECK_FALSE(
        decodeMessage("{\"id\": 1, \"ok\": true, \"result\": " + std::string(100'000, '[')));
}

TEST_CASE("nesting is counted outside strings only", "[rpc]") {
    CHECK_FALSE(nestsDeeperThan(R"({"a": "[[[[[[[[[["})", 2));
    CHECK_FALSE(nestsDeeperThan(R"({"a": "\"[[[[[[[[[["})", 2));
    CHECK_FALSE(nestsDeeperThan(R"({"a": "\\", "b": [1]})", 2));
    CHECK(nestsDeeperThan(R"({"a": "\\", "b": [[1]]})", 2));
    CHECK(nestsDeeperThan("[[[", 2));
    CHECK_FALSE(nestsDeeperThan("]]][[", 2));
    CHECK(decodeRequest(R"({"id": 1, "verb": "ping", "args": {"s": ")" + std::string(1000, '[') +
                        "\"}}"));
}

TEST_CASE("printable keeps ASCII, escapes the rest and cuts long text", "[rpc]") {
    CHECK(printable("plain text") == "plain text");
    CHECK(printable("a\nb\xff") == "a\\x0ab\\xff");
    CHECK(printable(std::string(300, 'a'), 10) == "aaaaaaaaaa…(300 bytes)");
    CHECK(printableJson(Json{{"x", "\xff"}}) == "{\"x\":\"\\xef\\xbf\\xbd\"}");
}
