// parseJson and dumpJsonLine on hostile text: nesting beyond kMaxJsonDepth is refused before
// nlohmann builds it, nothing throws, and error messages and dumps stay valid UTF-8.
#include <catch2/catch.hpp>
#include <string>

#include "core/base/json.h"

using namespace ssdk;

namespace {

std::string nested(std::size_t depth, char open = '[', char close = ']') {
    return std::string(depth, open) + std::string(depth, close);
}

} // namespace

TEST_CASE("parseJson refuses arrays and objects nested deeper than kMaxJsonDepth", "[json]") {
    // 100 000 levels: nlohmann's parser itself overflowed the stack on this (SIGSEGV), and
    // copying, comparing or dumping such a value recurses once per level.
    const auto deep = parseJson(nested(100000), "a request");
    REQUIRE_FALSE(deep);
    CHECK(deep.error().code() == ErrorCode::Parse);
    CHECK_THAT(deep.error().message(), Catch::Contains("nest deeper than 256 levels"));
    CHECK_THAT(deep.error().message(), Catch::StartsWith("a request"));

    CHECK_FALSE(parseJson(std::string(100000, '['), "x"));
    CHECK(parseJson(nested(kMaxJsonDepth), "x"));
    CHECK_FALSE(parseJson(nested(kMaxJsonDepth + 1), "x"));
    std::string objects;
    for (std::size_t i = 0; i < kMaxJsonDepth + 1; ++i) {
        objects += "{\"a\":";
    }
    objects += "1" + std::string(kMaxJsonDepth + 1, '}');
    CHECK_FALSE(parseJson(objects, "x"));
    // Brackets inside strings, escaped quotes included, are text, not nesting.
    const std::string text = "[\"" + std::string(1000, '[') + "\\\"" + std::string(1000, '{') +
                             "\", {\"k\": \"]]]\\\\\"}]";
    auto inString = parseJson(text, "x");
    REQUIRE(inString);
    CHECK((*inString)[0].get<std::string>().size() == 2001);
    CHECK((*inString)[1]["k"] == "]]]\\");
    // Closing brackets before any opening one do not buy depth.
    CHECK_FALSE(parseJson(std::string(1000, ']') + nested(kMaxJsonDepth + 1), "x"));
}

TEST_CASE("parseJson errors are ASCII and never throw", "[json]") {
    // A parse error quotes the bytes where parsing stopped: 0xFF must not reach the message.
    const std::string line = "{\"cmd\":\"status\"\xff\xfe}";
    const auto bad = parseJson(line, "control request");
    REQUIRE_FALSE(bad);
    CHECK(bad.error().code() == ErrorCode::Parse);
    for (const char c : bad.error().message()) {
        CHECK(static_cast<unsigned char>(c) < 0x80);
    }
    CHECK_NOTHROW(toJson(bad.error()).dump());
    CHECK_FALSE(parseJson("\"\xc3\x28\"", "x")); // invalid UTF-8 inside a string
    CHECK_FALSE(parseJson("1E400", "x"));
    CHECK_FALSE(parseJson("", "x"));
}

TEST_CASE("dumpJsonLine replaces invalid UTF-8 instead of throwing", "[json]") {
    const Json value{{"message", std::string("bad \xff byte")}, {"n", 1}};
    CHECK_THROWS(value.dump());
    const std::string line = dumpJsonLine(value);
    CHECK(line == "{\"message\":\"bad \xef\xbf\xbd byte\",\"n\":1}");
    CHECK(line.find('\n') == std::string::npos);
    CHECK(parseJson(line, "x"));
}
