#pragma once

#include <string>
#include <string_view>

#include "core/base/bytes.h"
#include "core/base/error.h"
#include "core/base/json.h"

namespace ssdk::overprovision {

// How big a filesystem is and how small it could become, as its own tools report it. Every
// figure names where it comes from, so a refusal can say it (docs/spare-area.md, "How small").
struct FilesystemUsage {
    std::string type;       // "ext4", "ntfs", "btrfs"
    Bytes size;             // the filesystem's current size (may be smaller than its partition)
    Bytes used;             // bytes in use, as df counts them (ntfs: as ntfsresize rounds them)
    Bytes minimumSize;      // the smallest size the resize tool accepts, or an estimate (>= used)
    Bytes blockSize;        // the allocation unit where the tool reports it (ext), else 0
    std::string source;     // the commands the figures came from, e.g. "dumpe2fs -h, resize2fs -P"
    std::string usedSource; // how `used` was read, e.g. "dumpe2fs -h: blocks − free − overhead"
    std::string minimumSource; // how `minimumSize` was found, e.g. "resize2fs -P"
    // True when minimumSize is the resize tool's own limit: it accepts exactly that size and
    // refuses a smaller one before changing anything (resize2fs -P, ntfsresize --info, measured
    // in tests/integration/overprovision). False for an estimate (btrfs).
    bool minimumExact = false;
};

// Parsers over the tools' output (LC_ALL=C). Pure; Parse errors name the missing field.

// `dumpe2fs -h DEV`: "Block count:", "Free blocks:", "Block size:" → size and used; used is
// blocks − free − "Overhead clusters:" (what df counts: no bitmaps, inode tables or journal)
// where dumpe2fs prints the overhead (mke2fs ≥ 1.47), else every allocated block.
Expected<FilesystemUsage> parseDumpe2fs(std::string_view text);
// `resize2fs -P DEV`: "Estimated minimum size of the filesystem: N" → N blocks.
Expected<std::uint64_t> parseResize2fsMinimumBlocks(std::string_view text);
// `ntfsresize --info --force --no-progress-bar DEV`: "Current volume size: N bytes",
// "You might resize at N bytes" (or "already at its minimum") → size and minimum (exact);
// "Space in use : N MB" (MB of 10^6 bytes, rounded up; at most the minimum) → used.
Expected<FilesystemUsage> parseNtfsresizeInfo(std::string_view text);
// `btrfs filesystem usage -b MOUNT`: "Device size:", "Used:" → size and used (the minimum is
// left at used: FilesystemTool::inspect estimates it).
Expected<FilesystemUsage> parseBtrfsUsage(std::string_view text);

} // namespace ssdk::overprovision

namespace ssdk::overprovision {

// {type, size, used, minimum_size, source, used_source, minimum_source, minimum_exact}, sizes
// in bytes; the op.inspect verb's form (the last three default to "", "", false when absent).
Json toJson(const FilesystemUsage& usage);
Expected<FilesystemUsage> filesystemUsageFromJson(const Json& json);

} // namespace ssdk::overprovision
