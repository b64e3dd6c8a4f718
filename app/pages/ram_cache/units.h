#pragma once

#include <cstdint>

#include <QString>

#include "app/device_text.h"

// The units the RAM Cache page's parts show sizes in.
namespace ssdk::app::ramcache {

inline constexpr std::uint64_t kKiB = 1024;
inline constexpr std::uint64_t kMiB = 1024 * kKiB;

// bytes as "4.00 GiB": the app's one size formatter (sizeText).
inline QString iec(std::uint64_t bytes) {
    return sizeText(Bytes(bytes));
}

} // namespace ssdk::app::ramcache
