#include "core/lab/platform/linux/loop_device.h"

#include "core/base/platform/replay/unavailable.h"

namespace ssdk::lab {

// The replay platform has no loop devices.
Expected<std::string> attachLoop(const std::filesystem::path& image, std::uint32_t /*sectorSize*/,
                                 bool /*readOnly*/) {
    return std::unexpected(replay::unavailable("a loop device over " + image.string()));
}

Expected<std::string> attachLoop(int /*imageFd*/, const std::filesystem::path& image,
                                 std::uint32_t /*sectorSize*/, bool /*readOnly*/) {
    return std::unexpected(replay::unavailable("a loop device over " + image.string()));
}

Expected<void> markNonRotational(const std::string& devicePath) {
    return std::unexpected(replay::unavailable("the queue of " + devicePath));
}

Expected<void> detachLoop(const std::string& devicePath) {
    return std::unexpected(replay::unavailable("detaching " + devicePath));
}

} // namespace ssdk::lab
