#include "core/smart/uint128.h"

#include <algorithm>

namespace ssdk::smart {

namespace {

__extension__ using Native = unsigned __int128;

Native toNative(const UInt128& value) {
    return (static_cast<Native>(value.high()) << 64) | value.low();
}

UInt128 fromNative(Native value) {
    return UInt128(static_cast<std::uint64_t>(value >> 64), static_cast<std::uint64_t>(value));
}

constexpr Native kMax = ~static_cast<Native>(0);

} // namespace

std::optional<UInt128> UInt128::fromDecimal(std::string_view text) {
    if (text.empty() || text.size() > 39) {
        return std::nullopt;
    }
    Native value = 0;
    for (const char c : text) {
        if (c < '0' || c > '9') {
            return std::nullopt;
        }
        const auto digit = static_cast<unsigned>(c - '0');
        if (value > (kMax - digit) / 10) {
            return std::nullopt;
        }
        value = value * 10 + digit;
    }
    return fromNative(value);
}

std::optional<UInt128> UInt128::fromLittleEndian(std::span<const std::uint8_t> bytes) {
    if (bytes.empty() || bytes.size() > 16) {
        return std::nullopt;
    }
    Native value = 0;
    for (std::size_t i = bytes.size(); i > 0; --i) {
        value = (value << 8) | bytes[i - 1];
    }
    return fromNative(value);
}

double UInt128::toDouble() const {
    return static_cast<double>(m_high) * 18446744073709551616.0 + static_cast<double>(m_low);
}

std::string UInt128::toString() const {
    Native value = toNative(*this);
    if (value == 0) {
        return "0";
    }
    std::string digits;
    while (value != 0) {
        digits.push_back(static_cast<char>('0' + static_cast<int>(value % 10)));
        value /= 10;
    }
    std::reverse(digits.begin(), digits.end());
    return digits;
}

UInt128 UInt128::saturatingMultiply(std::uint64_t factor) const {
    const Native value = toNative(*this);
    if (factor != 0 && value > kMax / factor) {
        return fromNative(kMax);
    }
    return fromNative(value * factor);
}

} // namespace ssdk::smart
