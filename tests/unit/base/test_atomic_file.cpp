#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/atomic_file.h"

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

TEST_CASE("writeFileAtomically replaces a file whole and leaves no temporary", "[atomic]") {
    const fs::path dir = fs::temp_directory_path() / ("ssdk-atomic-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path file = dir / "journal.json";

    REQUIRE(ssdk::writeFileAtomically(file, "first\n", 0600));
    CHECK(slurp(file) == "first\n");
    struct stat info {};
    REQUIRE(::stat(file.c_str(), &info) == 0);
    CHECK((info.st_mode & 0777) == 0600);

    REQUIRE(ssdk::writeFileAtomically(file, "second, longer\n"));
    CHECK(slurp(file) == "second, longer\n");
    // Nothing but the file: the temporary was renamed over it.
    CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);

    SECTION("a target that cannot be replaced keeps the old content and no temporary") {
        const fs::path blocker = dir / "blocker";
        fs::create_directories(blocker / "inside");
        auto written = ssdk::writeFileAtomically(blocker, "text");
        REQUIRE_FALSE(written);
        CHECK(written.error().message().find("renaming") != std::string::npos);
        CHECK(fs::is_directory(blocker / "inside"));
        CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 2);
    }
    SECTION("a missing directory is an error naming the file") {
        auto written = ssdk::writeFileAtomically(dir / "missing" / "x.json", "text");
        REQUIRE_FALSE(written);
        CHECK(written.error().message().find("opening the directory of " +
                                             (dir / "missing" / "x.json").string()) !=
              std::string::npos);
    }
    fs::remove_all(dir);
}
