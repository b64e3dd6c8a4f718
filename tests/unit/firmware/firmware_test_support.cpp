#include "tests/unit/firmware/firmware_test_support.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ssdk::firmware::test {

std::string readFile(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        throw std::runtime_error("cannot read " + file.string());
    }
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<std::uint8_t> ataIdentify(const std::map<std::size_t, std::uint16_t>& words) {
    std::vector<std::uint8_t> data(512, 0);
    for (const auto& [index, value] : words) {
        data[index * 2] = static_cast<std::uint8_t>(value & 0xFF);
        data[index * 2 + 1] = static_cast<std::uint8_t>(value >> 8);
    }
    return data;
}

TempDir::TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "ssdk-fw-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
        throw std::runtime_error("mkdtemp failed");
    }
    m_path = pattern;
}

TempDir::~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(m_path, ec);
}

void TempDir::write(const std::filesystem::path& relative, const std::string& text) const {
    const auto file = m_path / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << text;
}

} // namespace ssdk::firmware::test
