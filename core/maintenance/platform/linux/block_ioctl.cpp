#include "core/maintenance/block_ioctl.h"

#include <cerrno>
#include <cstddef> // BLKGETSIZE64 names size_t
#include <linux/fs.h>
#include <sys/ioctl.h>

namespace ssdk::maintenance {

namespace {

std::expected<void, int> rangeIoctl(int fd, unsigned long request, std::uint64_t offset,
                                    std::uint64_t length) {
    std::uint64_t range[2] = {offset, length};
    if (::ioctl(fd, request, range) != 0) {
        return std::unexpected(errno);
    }
    return {};
}

} // namespace

std::expected<std::uint64_t, int> blockDeviceSize(int fd) {
    std::uint64_t size = 0;
    if (::ioctl(fd, BLKGETSIZE64, &size) != 0) {
        return std::unexpected(errno);
    }
    return size;
}

std::expected<void, int> discardRange(int fd, std::uint64_t offset, std::uint64_t length) {
    return rangeIoctl(fd, BLKDISCARD, offset, length);
}

std::expected<void, int> secureDiscardRange(int fd, std::uint64_t offset, std::uint64_t length) {
    return rangeIoctl(fd, BLKSECDISCARD, offset, length);
}

std::expected<void, int> zeroOutRange(int fd, std::uint64_t offset, std::uint64_t length) {
    return rangeIoctl(fd, BLKZEROOUT, offset, length);
}

std::expected<std::uint64_t, int> trimFilesystemRange(int fd, std::uint64_t offset,
                                                      std::uint64_t length) {
    fstrim_range range{};
    range.start = offset;
    range.len = length;
    range.minlen = 0;
    if (::ioctl(fd, FITRIM, &range) != 0) {
        return std::unexpected(errno);
    }
    return range.len; // the kernel replaces the length with the bytes trimmed
}

} // namespace ssdk::maintenance
