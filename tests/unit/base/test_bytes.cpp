#include <catch2/catch.hpp>

#include "core/base/bytes.h"

using ssdk::Bytes;

TEST_CASE("formatSi and formatIec use three significant digits", "[bytes]") {
    CHECK(ssdk::formatSi(Bytes(0)) == "0 B");
    CHECK(ssdk::formatSi(Bytes(999)) == "999 B");
    CHECK(ssdk::formatSi(Bytes(500'107'862'016)) == "500 GB");
    CHECK(ssdk::formatSi(Bytes(1'000'204'886'016)) == "1.00 TB");
    CHECK(ssdk::formatIec(Bytes(500'107'862'016)) == "466 GiB");
    CHECK(ssdk::formatIec(Bytes::gib(8)) == "8.00 GiB");
    CHECK(ssdk::formatIec(Bytes::kib(4)) == "4.00 KiB");
    CHECK(ssdk::formatIec(Bytes::mib(15) + Bytes::kib(512)) == "15.5 MiB");
    CHECK(ssdk::formatSi(Bytes(UINT64_MAX)) == "18.4 EB");
}

TEST_CASE("formatSi and formatIec round to what they print, across digits and units", "[bytes]") {
    // 1023.6 MiB rounds to 1024 MiB, which is the next unit.
    CHECK(ssdk::formatIec(Bytes::mib(1023) + Bytes::kib(615)) == "1.00 GiB");
    CHECK(ssdk::formatIec(Bytes::mib(1023) + Bytes::kib(400)) == "1023 MiB");
    CHECK(ssdk::formatSi(Bytes(999'600)) == "1.00 MB");
    CHECK(ssdk::formatSi(Bytes(999'400)) == "999 kB");
    // 99.96 and 9.996 keep three significant digits once rounded.
    CHECK(ssdk::formatSi(Bytes(99'960'000)) == "100 MB");
    CHECK(ssdk::formatSi(Bytes(99'940'000)) == "99.9 MB");
    CHECK(ssdk::formatSi(Bytes(9'996'000)) == "10.0 MB");
    CHECK(ssdk::formatSi(Bytes(9'994'000)) == "9.99 MB");
    CHECK(ssdk::formatIec(Bytes(1023)) == "1023 B");
}

TEST_CASE("parseSize follows truncate for bare suffixes and SI for kB…PB", "[bytes]") {
    CHECK(ssdk::parseSize("8G").value() == Bytes::gib(8));
    CHECK(ssdk::parseSize("8GiB").value() == Bytes::gib(8));
    CHECK(ssdk::parseSize("8gb").value() == Bytes(8'000'000'000));
    CHECK(ssdk::parseSize("512M").value() == Bytes::mib(512));
    CHECK(ssdk::parseSize(" 4096 ").value() == Bytes(4096));
    CHECK(ssdk::parseSize("1T").value() == Bytes::tib(1));
    CHECK(ssdk::parseSize("10 MB").value() == Bytes(10'000'000));
}

TEST_CASE("parseSize rejects what is not a size", "[bytes]") {
    for (const char* bad :
         {"", "G", "-1G", "8X", "8GG", "1.5G", "99999999999999999999", "20000000P"}) {
        INFO(bad);
        auto parsed = ssdk::parseSize(bad);
        REQUIRE_FALSE(parsed.has_value());
        CHECK(parsed.error().code() == ssdk::ErrorCode::InvalidArgument);
    }
}
