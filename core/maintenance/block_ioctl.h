#pragma once
// The block-device and filesystem commands maintenance sends through an open descriptor,
// one function per command; each OS implements them under platform/<os>/ (Linux: ioctls).
// Each fails with the errno value of the failed call, never 0, so that the caller names what it
// did in its own words and can tell "not supported here" (EOPNOTSUPP) from a failure.

#include <cstdint>
#include <expected>

namespace ssdk::maintenance {

// The size in bytes of the block device fd is open on (Linux: BLKGETSIZE64).
std::expected<std::uint64_t, int> blockDeviceSize(int fd);

// Commands over the byte range [offset, offset + length) of the block device fd is open on
// for writing (Linux: BLKDISCARD, BLKSECDISCARD, BLKZEROOUT). Each returns once the device has
// done it; the range's bounds must be multiples of the logical block size.
std::expected<void, int> discardRange(int fd, std::uint64_t offset, std::uint64_t length);
std::expected<void, int> secureDiscardRange(int fd, std::uint64_t offset, std::uint64_t length);
std::expected<void, int> zeroOutRange(int fd, std::uint64_t offset, std::uint64_t length);

// Discards the free space in [offset, offset + length) of the filesystem whose mount point fd
// is open on, every free extent however short (Linux: FITRIM, minlen 0). Returns the bytes the
// filesystem says it trimmed.
std::expected<std::uint64_t, int> trimFilesystemRange(int fd, std::uint64_t offset,
                                                      std::uint64_t length);

} // namespace ssdk::maintenance
