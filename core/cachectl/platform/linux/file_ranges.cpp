#include <cerrno>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <sys/ioctl.h>

#include "core/cachectl/block_store.h"

namespace ssdk::cachectl {

namespace {

std::expected<void, int> rangeCall(int fd, bool isBlockDevice, unsigned long blockRequest,
                                   int fallocateMode, std::uint64_t offset, std::uint64_t length) {
    int result = 0;
    if (isBlockDevice) {
        std::uint64_t span[2] = {offset, length};
        result = ::ioctl(fd, blockRequest, span);
    } else {
        result = ::fallocate(fd, fallocateMode | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(offset),
                             static_cast<off_t>(length));
    }
    if (result != 0) {
        return std::unexpected(errno);
    }
    return {};
}

} // namespace

std::expected<BlockDeviceGeometry, int> blockDeviceGeometry(int fd) {
    std::uint64_t size = 0;
    int sectorSize = 0;
    if (::ioctl(fd, BLKGETSIZE64, &size) != 0 || ::ioctl(fd, BLKSSZGET, &sectorSize) != 0) {
        return std::unexpected(errno);
    }
    return BlockDeviceGeometry{size, static_cast<std::uint32_t>(sectorSize)};
}

std::expected<void, int> discardRange(int fd, bool isBlockDevice, std::uint64_t offset,
                                      std::uint64_t length) {
    return rangeCall(fd, isBlockDevice, BLKDISCARD, FALLOC_FL_PUNCH_HOLE, offset, length);
}

std::expected<void, int> zeroRange(int fd, bool isBlockDevice, std::uint64_t offset,
                                   std::uint64_t length) {
    return rangeCall(fd, isBlockDevice, BLKZEROOUT, FALLOC_FL_ZERO_RANGE, offset, length);
}

} // namespace ssdk::cachectl
