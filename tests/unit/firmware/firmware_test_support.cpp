#include "tests/unit/firmware/firmware_test_support.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/firmware/nvme_firmware.h"

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

std::vector<std::uint8_t> identifyController(bool fwCommands, std::uint8_t frmw, std::uint8_t fwug,
                                             const std::string& revision) {
    std::vector<std::uint8_t> data(4096, 0);
    const std::string serial = "SN0001";
    const std::string model = "QEMU NVMe Ctrl";
    std::fill(data.begin() + 4, data.begin() + 72, ' ');
    std::memcpy(data.data() + 4, serial.data(), serial.size());
    std::memcpy(data.data() + 24, model.data(), model.size());
    std::memcpy(data.data() + 64, revision.data(), std::min<std::size_t>(8, revision.size()));
    data[256] = fwCommands ? 0x06 : 0x02; // OACS: format (bit 1) and firmware (bit 2)
    data[258] = 50;                       // MTFA: 5 s
    data[260] = frmw;
    data[319] = fwug;
    return data;
}

std::vector<std::uint8_t> slotLog(std::uint8_t afi, const std::vector<std::string>& revisions) {
    std::vector<std::uint8_t> log(512, 0);
    log[0] = afi;
    for (std::size_t i = 0; i < revisions.size() && i < 7; ++i) {
        std::memcpy(log.data() + 8 + i * 8, revisions[i].data(),
                    std::min<std::size_t>(8, revisions[i].size()));
    }
    return log;
}

void expectIdentify(ssdk::test::FakeNvmeAdmin& admin, const std::vector<std::uint8_t>& data,
                    std::uint16_t status) {
    admin.expect({.command = identifyControllerCommand(),
                  .dataSize = 4096,
                  .status = status,
                  .reply = data});
}

void expectSlotLog(ssdk::test::FakeNvmeAdmin& admin, const std::vector<std::uint8_t>& log,
                   std::uint16_t status) {
    admin.expect(
        {.command = slotLogCommand(), .dataSize = kSlotLogBytes, .status = status, .reply = log});
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
