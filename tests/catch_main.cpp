#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "tests/support/privileged_state_for_tests.h"

int main(int argc, char* argv[]) {
    ssdk::test::usePrivilegedStateForTests();
    return Catch::Session().run(argc, argv);
}
