#include "core/device/devno.h"

namespace ssdk::device {

// The replayed recordings come from Linux, and so do their device numbers: glibc's split of
// the 64-bit dev_t (12 bits of major and 20 of minor, the rest above them).
std::string devnoText(std::uint64_t deviceNumber) {
    const auto major = ((deviceNumber >> 32) & 0xfffff000U) | ((deviceNumber >> 8) & 0xfffU);
    const auto minor = ((deviceNumber >> 12) & 0xffffff00U) | (deviceNumber & 0xffU);
    return std::to_string(major) + ":" + std::to_string(minor);
}

} // namespace ssdk::device
