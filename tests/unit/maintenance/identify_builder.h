#pragma once
// Builds ATA IDENTIFY DEVICE and NVMe identify blocks field by field for tests.

#include <array>
#include <cstdint>
#include <string>

namespace ssdk::test {

class AtaIdentifyBuilder {
public:
    AtaIdentifyBuilder();
    AtaIdentifyBuilder& word(std::size_t index, std::uint16_t value);
    AtaIdentifyBuilder& model(const std::string& text);
    AtaIdentifyBuilder& serial(const std::string& text);
    // Word 255 signature A5h and the checksum over all 512 bytes.
    std::array<std::uint8_t, 512> build() const;

private:
    void string(std::size_t firstWord, std::size_t words, const std::string& text);
    std::array<std::uint8_t, 512> m_bytes{};
};

// The hex text libata's sysfs "id" attribute shows for a block.
std::string ataIdHexText(const std::array<std::uint8_t, 512>& bytes);

} // namespace ssdk::test
