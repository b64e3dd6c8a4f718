#include <catch2/catch.hpp>

#include "core/smart/uint128.h"

using ssdk::smart::UInt128;

TEST_CASE("UInt128 parses and prints decimal text exactly") {
    CHECK(UInt128::fromDecimal("0")->toString() == "0");
    CHECK(UInt128::fromDecimal("18446744073709551615")->fitsIn64());
    const auto big = UInt128::fromDecimal("18446744073709551616");
    REQUIRE(big);
    CHECK(big->high() == 1);
    CHECK(big->low() == 0);
    CHECK(UInt128::fromDecimal("340282366920938463463374607431768211455")->toString() ==
          "340282366920938463463374607431768211455");
    CHECK_FALSE(UInt128::fromDecimal("340282366920938463463374607431768211456"));
    CHECK_FALSE(UInt128::fromDecimal(""));
    CHECK_FALSE(UInt128::fromDecimal("-1"));
    CHECK_FALSE(UInt128::fromDecimal("12a"));
}

TEST_CASE("UInt128 reads little-endian byte arrays and multiplies with saturation") {
    const std::uint8_t bytes[] = {0x00, 0x01, 0, 0, 0, 0, 0, 0, 0x02};
    const auto value = UInt128::fromLittleEndian(bytes);
    REQUIRE(value);
    CHECK(value->low() == 0x100);
    CHECK(value->high() == 2);
    CHECK_FALSE(UInt128::fromLittleEndian({}));
    CHECK(UInt128(3).saturatingMultiply(512000).toString() == "1536000");
    const UInt128 max(~0ull, ~0ull);
    CHECK(max.saturatingMultiply(2) == max);
    CHECK(UInt128(1, 0) > UInt128(~0ull));
    CHECK(UInt128(1, 0).toDouble() == Approx(18446744073709551616.0));
}
