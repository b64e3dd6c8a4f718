#pragma once
// A fresh directory under /tmp for one test, removed with everything in it when the test ends
// (also when it fails).
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <system_error>
#include <unistd.h>

namespace ssdk::test {

class TempDir {
public:
    // /tmp/<prefix>-XXXXXX
    explicit TempDir(const std::string& prefix) {
        std::string pattern = "/tmp/" + prefix + "-XXXXXX";
        REQUIRE(::mkdtemp(pattern.data()) != nullptr);
        path = pattern;
    }
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    std::filesystem::path path;
};

} // namespace ssdk::test
