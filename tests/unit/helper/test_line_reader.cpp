#include <catch2/catch.hpp>
#include <unistd.h>

#include "helper/line_reader.h"

using namespace ssdk;
using namespace ssdk::helper;

TEST_CASE("lines are read one by one, over-long ones are skipped with an error", "[helper]") {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    const std::string input = "one\n" + std::string(100, 'x') + "\ntwo\nlast";
    REQUIRE(::write(fds[1], input.data(), input.size()) == static_cast<ssize_t>(input.size()));
    ::close(fds[1]);

    LineReader reader(fds[0], 16);
    auto line = reader.next();
    REQUIRE(line);
    CHECK(*line == std::optional<std::string>("one"));
    line = reader.next();
    REQUIRE_FALSE(line);
    CHECK(line.error().code() == ErrorCode::Protocol);
    line = reader.next();
    REQUIRE(line);
    CHECK(*line == std::optional<std::string>("two"));
    line = reader.next();
    REQUIRE(line);
    CHECK(*line == std::optional<std::string>("last"));
    line = reader.next();
    REQUIRE(line);
    CHECK_FALSE(line->has_value());
    ::close(fds[0]);
}
