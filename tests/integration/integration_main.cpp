// Integration tests need root and loop devices. Without them every test case skips with
// a message saying what is missing (exit code 77, which CTest reports as "Skipped").
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cstdio>
#include <unistd.h>

int main(int argc, char* argv[]) {
    if (::geteuid() != 0) {
        std::fprintf(stderr, "SKIPPED: integration tests need root (run ./scripts/test as root "
                             "or through sudo)\n");
        return 77;
    }
    if (::access("/dev/loop-control", R_OK | W_OK) != 0) {
        std::fprintf(stderr, "SKIPPED: integration tests need /dev/loop-control (loop module)\n");
        return 77;
    }
    return Catch::Session().run(argc, argv);
}
