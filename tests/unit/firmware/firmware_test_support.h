#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "tests/unit/maintenance/fake_nvme_admin.h"

namespace ssdk::firmware::test {

std::string readFile(const std::filesystem::path& file);
// 512 bytes of ATA IDENTIFY with the given words set (little-endian), the rest zero.
std::vector<std::uint8_t> ataIdentify(const std::map<std::size_t, std::uint16_t>& words);

// Identify Controller bytes with the firmware fields set.
std::vector<std::uint8_t> identifyController(bool fwCommands, std::uint8_t frmw, std::uint8_t fwug,
                                             const std::string& revision = "1.0");
// A slot log with AFI and the revisions of slots 1…n.
std::vector<std::uint8_t> slotLog(std::uint8_t afi, const std::vector<std::string>& revisions);

// Scripts firmware's Identify Controller and slot log commands, answered with data.
void expectIdentify(ssdk::test::FakeNvmeAdmin& admin, const std::vector<std::uint8_t>& data,
                    std::uint16_t status = 0);
void expectSlotLog(ssdk::test::FakeNvmeAdmin& admin, const std::vector<std::uint8_t>& log,
                   std::uint16_t status = 0);

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
