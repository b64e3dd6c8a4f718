#include "core/maintenance/block_ioctl.h"

#include "core/base/platform/replay/unavailable.h"

namespace ssdk::maintenance {

// Block device and filesystem ioctls have no standard C++ counterpart.
std::expected<std::uint64_t, int> blockDeviceSize(int /*fd*/) {
    return std::unexpected(replay::kUnavailableErrno);
}

std::expected<void, int> discardRange(int /*fd*/, std::uint64_t /*offset*/,
                                      std::uint64_t /*length*/) {
    return std::unexpected(replay::kUnavailableErrno);
}

std::expected<void, int> secureDiscardRange(int /*fd*/, std::uint64_t /*offset*/,
                                            std::uint64_t /*length*/) {
    return std::unexpected(replay::kUnavailableErrno);
}

std::expected<void, int> zeroOutRange(int /*fd*/, std::uint64_t /*offset*/,
                                      std::uint64_t /*length*/) {
    return std::unexpected(replay::kUnavailableErrno);
}

std::expected<std::uint64_t, int> trimFilesystemRange(int /*fd*/, std::uint64_t /*offset*/,
                                                      std::uint64_t /*length*/) {
    return std::unexpected(replay::kUnavailableErrno);
}

} // namespace ssdk::maintenance
