#pragma once
// Where a file's data sits on its filesystem's block device (Linux: FS_IOC_FIEMAP; implemented
// under platform/<os>/).

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/error.h"

namespace ssdk::maintenance {

struct Extent {
    std::uint64_t logical = 0;  // offset in the file
    std::uint64_t physical = 0; // offset on the filesystem's device
    std::uint64_t length = 0;
    bool mappable = true; // false for inline, encoded, encrypted, unaligned or unknown extents
};

// Syncs the file first (FIEMAP_FLAG_SYNC). Errors: Unsupported when the filesystem has no
// FIEMAP.
Expected<std::vector<Extent>> fileExtents(int fd);
Expected<std::vector<Extent>> fileExtents(const std::string& path);

// Whether no extent of the file fd is open on that overlaps [offset, offset + length) stores
// data: each is unwritten (allocated, reads as zeroes). False when the filesystem cannot say
// (no FIEMAP) or the range has 16 extents or more (too fragmented to judge: count it as data).
bool allExtentsUnwritten(int fd, std::uint64_t offset, std::uint64_t length);

} // namespace ssdk::maintenance
