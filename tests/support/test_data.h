#pragma once
// readTestData: the whole text of a file under tests/data (SSDK_TEST_DATA_DIR); the test
// fails when it cannot be read.

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>

namespace ssdk::test {

inline std::string readTestData(const std::string& relativePath) {
    const std::string path = std::string(SSDK_TEST_DATA_DIR) + "/" + relativePath;
    std::ifstream in(path);
    INFO(path);
    REQUIRE(in);
    std::stringstream content;
    content << in.rdbuf();
    return content.str();
}

} // namespace ssdk::test
