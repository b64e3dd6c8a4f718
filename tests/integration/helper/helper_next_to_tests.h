#pragma once
// The real ssdkeeper-helper of this build, found the way clients find it; as root it runs
// without pkexec.

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>

#include "core/rpc/client.h"

namespace ssdk::test {

inline rpc::HelperLocation helperNextToTests() {
    ::unsetenv("SSDK_HELPER");
    const auto location = rpc::locateHelper();
    REQUIRE(location.helperPath ==
            std::filesystem::path(SSDK_BINARY_DIR) / "bin" / "ssdkeeper-helper");
    REQUIRE_FALSE(location.usePkexec);
    return location;
}

} // namespace ssdk::test
