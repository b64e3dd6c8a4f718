#include "core/device/devno.h"

#include <sys/sysmacros.h>

namespace ssdk::device {

std::string devnoText(std::uint64_t deviceNumber) {
    return std::to_string(::major(deviceNumber)) + ":" + std::to_string(::minor(deviceNumber));
}

} // namespace ssdk::device
