// ATA DOWNLOAD MICROCODE capabilities from IDENTIFY words 69/83/86/119/120/234/235.
#include <catch2/catch.hpp>

#include "core/firmware/ata_microcode.h"
#include "tests/unit/firmware/firmware_test_support.h"

using namespace ssdk::firmware;
using namespace ssdk::firmware::test;

TEST_CASE("a drive with segmented download and its block limits") {
    auto mc = parseAtaMicrocode(ataIdentify({{69, 0x0100},
                                             {83, 0x4001},
                                             {86, 0x0001},
                                             {119, 0x4010},
                                             {120, 0x4010},
                                             {234, 1},
                                             {235, 128}}));
    REQUIRE(mc);
    CHECK(mc->supported);
    CHECK(mc->enabled);
    CHECK(mc->dmaSupported);
    CHECK(mc->segmentedSupported);
    CHECK(mc->segmentedEnabled);
    CHECK(mc->minBlocks == std::optional<std::uint16_t>(1));
    CHECK(mc->maxBlocks == std::optional<std::uint16_t>(128));
    const auto modes = mc->modes();
    REQUIRE(modes.size() == 3);
    CHECK(modes[0].starts_with("07h"));
    CHECK(modes[1].find("1-128 blocks") != std::string::npos);
}

TEST_CASE("words whose validity bits are not 01b are ignored") {
    // Word 83 = FFFFh (bits 15:14 = 11b) is not valid: nothing is supported.
    auto mc = parseAtaMicrocode(ataIdentify({{83, 0xFFFF}, {119, 0xFFFF}, {234, 1}}));
    REQUIRE(mc);
    CHECK_FALSE(mc->supported);
    CHECK_FALSE(mc->segmentedSupported);
    CHECK(mc->modes().empty());
}

TEST_CASE("download microcode without segmented mode, limits not reported") {
    auto mc = parseAtaMicrocode(ataIdentify({{83, 0x4001}, {119, 0x4000}, {234, 0xFFFF}}));
    REQUIRE(mc);
    CHECK(mc->supported);
    CHECK_FALSE(mc->enabled);
    CHECK_FALSE(mc->segmentedSupported);
    CHECK_FALSE(mc->minBlocks);
    CHECK(mc->modes().size() == 1);
}

TEST_CASE("IDENTIFY must be 512 bytes") {
    CHECK_FALSE(parseAtaMicrocode(std::vector<std::uint8_t>(100, 0)));
}
