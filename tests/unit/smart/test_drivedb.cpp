// Firmware warnings from the system's smartctl drive database (Debian's smartmontools).
#include <catch2/catch.hpp>
#include <filesystem>

#include "core/smart/drivedb.h"

using namespace ssdk::smart;

TEST_CASE("drivedb.h entries parse with concatenated literals and comments") {
    const char* text = R"(const drive_settings builtin_knowndrives[] = {
  { "VERSION: 7.3", "-", "-", "this is the version", "" },
  { "Example SSD", // comment
    "EXAMPLE-(1|2)00"
    "GB", /* block comment */
    "FW0[1-3]",
    "Firmware FW01-FW03 may lose data:\n"
    "update it",
    "-v 9,minutes" },
  { "Example SSD, fixed firmware", "EXAMPLE-.*", "", "", "" }
};)";
    auto database = DriveDatabase::parse(text);
    REQUIRE(database.has_value());
    REQUIRE(database->entries().size() == 3);
    CHECK(database->entries()[1].modelRegex == "EXAMPLE-(1|2)00GB");
    CHECK(database->firmwareWarnings("EXAMPLE-100GB", "FW02") ==
          std::vector<std::string>{"Firmware FW01-FW03 may lose data: update it"});
    CHECK(database->firmwareWarnings("EXAMPLE-100GB", "FW04").empty());
    CHECK(database->firmwareWarnings("EXAMPLE-100GBX", "FW02").empty());
    CHECK_FALSE(DriveDatabase::parse("nothing here").has_value());
}

TEST_CASE("the system drive database warns about the Crucial m4 5184-hour firmware") {
    const std::filesystem::path file = "/usr/share/smartmontools/drivedb.h";
    REQUIRE(std::filesystem::exists(file)); // smartmontools is in scripts/setup
    auto database = DriveDatabase::load(file);
    REQUIRE(database.has_value());
    CHECK(database->entries().size() > 500);
    const auto warnings = database->firmwareWarnings("M4-CT064M4SSD2", "0002");
    REQUIRE_FALSE(warnings.empty());
    CHECK_THAT(warnings.front(), Catch::Contains("5184 hours"));
    CHECK(database->firmwareWarnings("M4-CT064M4SSD2", "0309").empty());
}
