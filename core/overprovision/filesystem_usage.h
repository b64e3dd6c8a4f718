#pragma once

#include <string>
#include <string_view>

#include "core/base/bytes.h"
#include "core/base/error.h"
#include "core/base/json.h"

namespace ssdk::overprovision {

// How big a filesystem is and how small it could become, as its own tools report it.
struct FilesystemUsage {
    std::string type;   // "ext4", "ntfs", "btrfs"
    Bytes size;         // the filesystem's current size (may be smaller than its partition)
    Bytes used;         // bytes in use (data and metadata)
    Bytes minimumSize;  // the smallest size the resize tool accepts (>= used)
    Bytes blockSize;    // the allocation unit where the tool reports it (ext), else 0
    std::string source; // the command the figures came from, e.g. "dumpe2fs -h, resize2fs -P"
};

// Parsers over the tools' output (LC_ALL=C). Pure; Parse errors name the missing field.

// `dumpe2fs -h DEV`: "Block count:", "Free blocks:", "Block size:" → size and used.
Expected<FilesystemUsage> parseDumpe2fs(std::string_view text);
// `resize2fs -P DEV`: "Estimated minimum size of the filesystem: N" → N blocks.
Expected<std::uint64_t> parseResize2fsMinimumBlocks(std::string_view text);
// `ntfsresize --info --force --no-progress-bar DEV`: "Current volume size: N bytes",
// "You might resize at N bytes" (or "already at its minimum") → size and minimum.
Expected<FilesystemUsage> parseNtfsresizeInfo(std::string_view text);
// `btrfs filesystem usage -b MOUNT`: "Device size:", "Used:" → size and used.
Expected<FilesystemUsage> parseBtrfsUsage(std::string_view text);

} // namespace ssdk::overprovision

namespace ssdk::overprovision {

// {type, size, used, minimum_size, source}, sizes in bytes; the op.inspect verb's form.
Json toJson(const FilesystemUsage& usage);
Expected<FilesystemUsage> filesystemUsageFromJson(const Json& json);

} // namespace ssdk::overprovision
