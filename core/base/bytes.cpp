#include "core/base/bytes.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fmt/format.h>

namespace ssdk {

namespace {

std::string formatScaled(std::uint64_t value, double base,
                         const std::array<const char*, 7>& units) {
    if (value < static_cast<std::uint64_t>(base)) {
        return fmt::format("{} B", value);
    }
    auto scaled = static_cast<double>(value);
    std::size_t unit = 0;
    while (scaled >= base && unit + 1 < units.size()) {
        scaled /= base;
        ++unit;
    }
    // Three significant digits, the way drive tools print capacities, decided on the value as
    // printed: 1023.6 MiB is "1.00 GiB" (not "1024 MiB"), 99.96 is "100" and 9.996 is "10.0".
    if (std::round(scaled) >= base && unit + 1 < units.size()) {
        scaled /= base;
        ++unit;
    }
    if (std::round(scaled * 10.0) >= 1000.0) {
        return fmt::format("{:.0f} {}", scaled, units[unit]);
    }
    if (std::round(scaled * 100.0) >= 1000.0) {
        return fmt::format("{:.1f} {}", scaled, units[unit]);
    }
    return fmt::format("{:.2f} {}", scaled, units[unit]);
}

} // namespace

std::string formatSi(Bytes bytes) {
    static constexpr std::array<const char*, 7> kUnits{"B", "kB", "MB", "GB", "TB", "PB", "EB"};
    return formatScaled(bytes.value, 1000.0, kUnits);
}

std::string formatIec(Bytes bytes) {
    static constexpr std::array<const char*, 7> kUnits{"B",   "KiB", "MiB", "GiB",
                                                       "TiB", "PiB", "EiB"};
    return formatScaled(bytes.value, 1024.0, kUnits);
}

Expected<Bytes> parseSize(std::string_view text) {
    const std::string original(text);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
        text.remove_suffix(1);
    }
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
        text.remove_prefix(1);
    }
    std::uint64_t number = 0;
    const auto* begin = text.data();
    const auto* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(begin, end, number);
    if (ec != std::errc{} || ptr == begin) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("'{}' is not a size (expected e.g. 8G, 512M, 100GB)", original));
    }
    std::string suffix;
    for (const auto* p = ptr; p != end; ++p) {
        suffix += static_cast<char>(std::tolower(static_cast<unsigned char>(*p)));
    }
    if (!suffix.empty() && suffix.front() == ' ') {
        suffix.erase(0, 1);
    }
    if (suffix.empty() || suffix == "b") {
        return Bytes(number);
    }
    static constexpr std::string_view kPrefixes = "kmgtp";
    const auto exponent = kPrefixes.find(suffix.front());
    std::uint64_t base = 0;
    if (exponent != std::string_view::npos) {
        const std::string_view rest = std::string_view(suffix).substr(1);
        if (rest.empty() || rest == "ib") {
            base = 1024;
        } else if (rest == "b") {
            base = 1000;
        }
    }
    if (base == 0) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("'{}' has an unknown unit '{}' (use K, M, G, T, P, "
                                "KiB…PiB or kB…PB)",
                                original, suffix));
    }
    std::uint64_t multiplier = 1;
    for (std::size_t i = 0; i <= exponent; ++i) {
        multiplier *= base;
    }
    if (number > UINT64_MAX / multiplier) {
        return fail(ErrorCode::InvalidArgument, fmt::format("'{}' is too large", original));
    }
    return Bytes(number * multiplier);
}

} // namespace ssdk
