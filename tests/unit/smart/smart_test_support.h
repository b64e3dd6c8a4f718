#pragma once
// Helpers shared by the SMART unit tests: reading fixture files as they are.

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace ssdk::smart::test {

inline std::filesystem::path sharedFixtures() {
    return std::filesystem::path(SSDK_SHARED_FIXTURES_DIR);
}
inline std::filesystem::path smartData() {
    return std::filesystem::path(SSDK_TEST_DATA_DIR) / "smart";
}

inline std::vector<std::uint8_t> readBytes(const std::filesystem::path& file) {
    std::ifstream stream(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
}

inline std::string readText(const std::filesystem::path& file) {
    std::ifstream stream(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
}

// Files of a directory, sorted, skipping README files.
inline std::vector<std::filesystem::path> filesIn(const std::filesystem::path& directory) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(directory)) {
        if (entry.is_regular_file() && entry.path().filename().string().rfind("README", 0) != 0) {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace ssdk::smart::test
