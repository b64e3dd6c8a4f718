#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/base/error.h"

namespace ssdk {

// A byte count. Sizes, offsets and limits carry this type rather than a bare integer.
struct Bytes {
    std::uint64_t value = 0;

    constexpr Bytes() = default;
    constexpr explicit Bytes(std::uint64_t count)
        : value(count) {}

    static constexpr Bytes kib(std::uint64_t n) { return Bytes(n << 10); }
    static constexpr Bytes mib(std::uint64_t n) { return Bytes(n << 20); }
    static constexpr Bytes gib(std::uint64_t n) { return Bytes(n << 30); }
    static constexpr Bytes tib(std::uint64_t n) { return Bytes(n << 40); }
    // Linux block-layer counts (sysfs size, partition start) are in 512-byte sectors
    // whatever the device's logical block size.
    static constexpr Bytes sectors512(std::uint64_t n) { return Bytes(n * 512); }

    constexpr auto operator<=>(const Bytes&) const = default;
    constexpr Bytes operator+(Bytes other) const { return Bytes(value + other.value); }
    constexpr Bytes operator-(Bytes other) const { return Bytes(value - other.value); }
};

// "500 GB", "1.02 TB" (powers of 1000, as drives are sold).
std::string formatSi(Bytes bytes);
// "465.8 GiB" (powers of 1024, as operating systems count).
std::string formatIec(Bytes bytes);

// Parses a size as people type it: "8G" and "8GiB" are binary (like truncate and losetup),
// "8GB" is decimal; plain numbers are bytes. Suffixes K M G T P, case-insensitive.
Expected<Bytes> parseSize(std::string_view text);

} // namespace ssdk
