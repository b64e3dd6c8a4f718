#include "identify_builder.h"

#include <cstdio>

namespace ssdk::test {

AtaIdentifyBuilder::AtaIdentifyBuilder() {
    word(83, 1U << 10);               // 48-bit addressing
    word(100, 0x1000).word(101, 0x1); // 0x11000 sectors
}

AtaIdentifyBuilder& AtaIdentifyBuilder::word(std::size_t index, std::uint16_t value) {
    m_bytes[index * 2] = static_cast<std::uint8_t>(value & 0xFF);
    m_bytes[index * 2 + 1] = static_cast<std::uint8_t>(value >> 8);
    return *this;
}

void AtaIdentifyBuilder::string(std::size_t firstWord, std::size_t words, const std::string& text) {
    std::string padded = text;
    padded.resize(words * 2, ' ');
    for (std::size_t i = 0; i < words; ++i) {
        word(firstWord + i,
             static_cast<std::uint16_t>((static_cast<unsigned char>(padded[i * 2]) << 8) |
                                        static_cast<unsigned char>(padded[i * 2 + 1])));
    }
}

AtaIdentifyBuilder& AtaIdentifyBuilder::model(const std::string& text) {
    string(27, 20, text);
    return *this;
}

AtaIdentifyBuilder& AtaIdentifyBuilder::serial(const std::string& text) {
    string(10, 10, text);
    return *this;
}

std::array<std::uint8_t, 512> AtaIdentifyBuilder::build() const {
    auto bytes = m_bytes;
    bytes[510] = 0xA5;
    std::uint8_t sum = 0;
    for (std::size_t i = 0; i < 511; ++i) {
        sum = static_cast<std::uint8_t>(sum + bytes[i]);
    }
    bytes[511] = static_cast<std::uint8_t>(0x100 - sum);
    return bytes;
}

std::string ataIdHexText(const std::array<std::uint8_t, 512>& bytes) {
    std::string text;
    for (std::size_t i = 0; i < 256; ++i) {
        char buffer[8];
        std::snprintf(buffer, sizeof buffer, "%04x%c",
                      static_cast<unsigned>(bytes[i * 2] | (bytes[i * 2 + 1] << 8)),
                      i % 8 == 7 ? '\n' : ' ');
        text += buffer;
    }
    return text;
}

} // namespace ssdk::test
