#include <catch2/catch.hpp>
#include <cerrno>

#include "core/base/error.h"
#include "core/base/json.h"

using ssdk::Error;
using ssdk::ErrorCode;

namespace {

ssdk::Expected<int> readDepth(bool ok) {
    if (!ok) {
        return ssdk::fail(ErrorCode::NotFound, "no such attribute");
    }
    return 42;
}

} // namespace

TEST_CASE("context reads outermost first", "[error]") {
    auto result = ssdk::withContext(readDepth(false), "reading queue depth");
    result = ssdk::withContext(std::move(result), "discovering sda");
    REQUIRE_FALSE(result);
    CHECK(result.error().code() == ErrorCode::NotFound);
    CHECK(result.error().describe() == "discovering sda: reading queue depth: no such attribute");
    CHECK(ssdk::withContext(readDepth(true), "unused").value() == 42);
}

TEST_CASE("errno maps to codes", "[error]") {
    CHECK(ssdk::errnoError(ENOENT, "open x").code() == ErrorCode::NotFound);
    CHECK(ssdk::errnoError(EACCES, "open x").code() == ErrorCode::PermissionDenied);
    CHECK(ssdk::errnoError(EBUSY, "open x").code() == ErrorCode::Busy);
    CHECK(ssdk::errnoError(ENOSPC, "write").code() == ErrorCode::NoSpace);
    CHECK(ssdk::errnoError(EIO, "read").code() == ErrorCode::Io);
    CHECK(ssdk::errnoError(ENOENT, "open x").message().starts_with("open x: "));
}

TEST_CASE("errors survive a JSON round trip", "[error][json]") {
    Error error(ErrorCode::Busy, "/dev/loop3 is mounted at /mnt");
    error.addContext("destroying lab drive 'demo'");
    const Error back = ssdk::errorFromJson(ssdk::toJson(error));
    CHECK(back.code() == ErrorCode::Busy);
    CHECK(back.describe() == error.describe());
    for (auto code : {ErrorCode::InvalidArgument, ErrorCode::ToolMissing, ErrorCode::Protocol}) {
        CHECK(ssdk::errorCodeFromString(ssdk::toString(code)) == code);
    }
}

TEST_CASE("parseJson reports where malformed JSON breaks", "[json]") {
    auto bad = ssdk::parseJson("{\"a\": [1, 2", "the request");
    REQUIRE_FALSE(bad);
    CHECK(bad.error().code() == ErrorCode::Parse);
    CHECK(bad.error().message() == "the request is not valid JSON (line 1, column 12: unexpected "
                                   "end of input; expected ']')");
    auto huge = ssdk::parseJson("[1E400]", "the report");
    REQUIRE_FALSE(huge);
    CHECK(huge.error().message().find("json.exception") == std::string::npos);
    CHECK(huge.error().message().starts_with("the report is not usable JSON: "));
    CHECK(ssdk::parseJson("{\"a\": 1}", "x").value()["a"] == 1);
}
