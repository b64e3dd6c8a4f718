#include "core/base/platform/replay/unavailable.h"
#include "core/cachectl/block_store.h"

namespace ssdk::cachectl {

// Block device ioctls and hole punching have no standard C++ counterpart.
std::expected<BlockDeviceGeometry, int> blockDeviceGeometry(int /*fd*/) {
    return std::unexpected(replay::kUnavailableErrno);
}

std::expected<void, int> discardRange(int /*fd*/, bool /*isBlockDevice*/, std::uint64_t /*offset*/,
                                      std::uint64_t /*length*/) {
    return std::unexpected(replay::kUnavailableErrno);
}

std::expected<void, int> zeroRange(int /*fd*/, bool /*isBlockDevice*/, std::uint64_t /*offset*/,
                                   std::uint64_t /*length*/) {
    return std::unexpected(replay::kUnavailableErrno);
}

} // namespace ssdk::cachectl
