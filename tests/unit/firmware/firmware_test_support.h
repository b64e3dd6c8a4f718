#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace ssdk::firmware::test {

std::string readFile(const std::filesystem::path& file);
// 512 bytes of ATA IDENTIFY with the given words set (little-endian), the rest zero.
std::vector<std::uint8_t> ataIdentify(const std::map<std::size_t, std::uint16_t>& words);

// A temporary directory removed when the object goes.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return m_path; }
    void write(const std::filesystem::path& relative, const std::string& text) const;

private:
    std::filesystem::path m_path;
};

} // namespace ssdk::firmware::test
