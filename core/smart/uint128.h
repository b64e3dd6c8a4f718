#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace ssdk::smart {

// An unsigned 128-bit counter. NVMe health-log counters (data units, host commands, power-on
// hours, media errors) are 128 bits wide; smartctl reports values it cannot print exactly as
// a JSON number also as a decimal string "KEY_s" and a little-endian byte array "KEY_le".
class UInt128 {
public:
    constexpr UInt128() = default;
    constexpr UInt128(std::uint64_t value) // NOLINT(google-explicit-constructor): widening
        : m_high(0)
        , m_low(value) {}
    constexpr UInt128(std::uint64_t high, std::uint64_t low)
        : m_high(high)
        , m_low(low) {}

    // "0".."340282366920938463463374607431768211455"; nullopt on anything else or overflow.
    static std::optional<UInt128> fromDecimal(std::string_view text);
    // Up to 16 bytes, least significant first (smartctl's "KEY_le").
    static std::optional<UInt128> fromLittleEndian(std::span<const std::uint8_t> bytes);

    constexpr std::uint64_t high() const { return m_high; }
    constexpr std::uint64_t low() const { return m_low; }
    constexpr bool fitsIn64() const { return m_high == 0; }
    // The value as a double, for ratios and Prometheus samples (which are doubles anyway).
    double toDouble() const;
    std::string toString() const;

    // Saturates at the maximum instead of wrapping.
    UInt128 saturatingMultiply(std::uint64_t factor) const;

    constexpr auto operator<=>(const UInt128&) const = default;

private:
    std::uint64_t m_high = 0;
    std::uint64_t m_low = 0;
};

} // namespace ssdk::smart
