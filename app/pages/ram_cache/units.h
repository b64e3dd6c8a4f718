#pragma once

#include <cstdint>

#include <QString>

#include "core/base/bytes.h"

// The units the RAM Cache page's parts show sizes in.
namespace ssdk::app::ramcache {

inline constexpr std::uint64_t kKiB = 1024;
inline constexpr std::uint64_t kMiB = 1024 * kKiB;

// bytes as "4.00 GiB" (formatIec).
inline QString iec(std::uint64_t bytes) {
    return QString::fromStdString(formatIec(Bytes(bytes)));
}

} // namespace ssdk::app::ramcache
