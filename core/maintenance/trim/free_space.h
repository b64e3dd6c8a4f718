#pragma once
// Where a freshly made filesystem leaves its device free: pure parsers from what its tools print
// (dumpe2fs, xfs_db, btrfs inspect-internal) or from its own on-disk maps (the NTFS $Bitmap, the
// FAT, the exFAT allocation bitmap) to byte ranges of the filesystem's device. Everything outside
// the ranges is used by the filesystem (or was written by its formatter) and says nothing about
// a discard. Running the tools and reading the device is new_fs_free_space.h.

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <vector>

#include "core/base/error.h"

namespace ssdk::maintenance::trim {

// [start, end) in bytes of the filesystem's device.
struct ByteRange {
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    bool operator==(const ByteRange&) const = default;
};

// Sorted, non-overlapping, non-empty ranges (adjacent ones merged).
class FreeMap {
public:
    FreeMap() = default;
    explicit FreeMap(std::vector<ByteRange> ranges); // sorts and merges

    const std::vector<ByteRange>& ranges() const { return m_ranges; }
    std::uint64_t freeBytes() const;
    // Whether every byte of [offset, offset + length) is free.
    bool whollyFree(std::uint64_t offset, std::uint64_t length) const;
    // These ranges minus `used`.
    FreeMap without(std::vector<ByteRange> used) const;
    // The complement of `used` within [0, size).
    static FreeMap outside(std::vector<ByteRange> used, std::uint64_t size);

private:
    std::vector<ByteRange> m_ranges;
};

// `dumpe2fs DEV` (with the group listing): "Block size:" from the header and every group's
// "Free blocks: a-b, c, ..." list.
Expected<FreeMap> parseDumpe2fs(std::string_view text);

// `xfs_db -r -c 'sb 0' -c 'p agblocks blocksize dblocks' -c 'freesp -d' DEV`: "agblocks = N",
// "blocksize = N", "dblocks = N", then one "agno agbno len" line per free extent. The first and
// last 128 KiB, which mkfs.xfs zeroes after its discard, are not free.
Expected<FreeMap> parseXfsFreesp(std::string_view text);

// `btrfs inspect-internal dump-tree -t dev DEV` of a one-device filesystem on a device of
// deviceSize bytes: free is what lies outside its dev extents and the superblock copies (64 KiB,
// 64 MiB, 256 GiB), above its first dev extent (mkfs.btrfs builds temporary chunks below it and
// zeroes the first 2 MiB) and below the last 2 MiB (which mkfs.btrfs zeroes too).
Expected<FreeMap> parseBtrfsDevTree(std::string_view text, std::uint64_t deviceSize);

// The NTFS boot sector (its first 512 bytes) and the $Bitmap file (`ntfscat DEV '$Bitmap'`):
// one bit per cluster, least significant first, set = in use.
Expected<FreeMap> parseNtfsBitmap(std::span<const std::uint8_t> bootSector,
                                  std::span<const std::uint8_t> bitmap);

// Reads `length` bytes at `offset` of the filesystem's device.
using ReadBytes =
    std::function<Expected<std::vector<std::uint8_t>>(std::uint64_t offset, std::size_t length)>;

// FAT12/16/32: the boot sector's BPB, then the first FAT: a cluster whose entry is 0 is free.
Expected<FreeMap> readFatFreeMap(const ReadBytes& read);

// exFAT: the boot sector, the root directory's allocation bitmap entry (type 0x81) and the
// bitmap (one bit per cluster of the cluster heap, from cluster 2).
Expected<FreeMap> readExfatFreeMap(const ReadBytes& read);

} // namespace ssdk::maintenance::trim
