// Integration tests need root and loop devices. Without them every test case skips with
// a message saying what is missing (exit code 77, which CTest reports as "Skipped"). Listing
// the test cases (CTest's test discovery) works without them, so each one is registered and
// shows up as skipped instead of vanishing from the run.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <string_view>
#include <unistd.h>

#include "tests/support/privileged_state_for_tests.h"
#include "tests/support/skip.h"

namespace {

bool onlyLists(int argc, char* argv[]) {
    for (int i = 1; i < argc; ++i) {
        if (std::string_view(argv[i]).starts_with("--list")) {
            return true;
        }
    }
    return false;
}

} // namespace

int main(int argc, char* argv[]) {
    ssdk::test::usePrivilegedStateForTests();
    if (onlyLists(argc, argv)) {
        return Catch::Session().run(argc, argv);
    }
    if (::geteuid() != 0) {
        ssdk::test::skipTest(
            "integration tests need root (run ./scripts/test as root or through sudo)");
    }
    if (::access("/dev/loop-control", R_OK | W_OK) != 0) {
        ssdk::test::skipTest("integration tests need /dev/loop-control (loop module)");
    }
    return Catch::Session().run(argc, argv);
}
