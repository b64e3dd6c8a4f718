#pragma once
// Reads where a filesystem just made on a device leaves it free: runs the filesystem's own tool
// (dumpe2fs, xfs_db, btrfs inspect-internal, ntfscat) or reads its maps from the device (FAT,
// exFAT), and hands the bytes to the pure parsers of free_space.h.

#include <string>

#include "core/base/process_runner.h"
#include "core/maintenance/block_io.h"
#include "core/maintenance/trim/free_space.h"

namespace ssdk::maintenance::trim {

struct NewFsFreeMap {
    FreeMap map;
    std::string source; // what was read, e.g. "dumpe2fs", "the FAT"
};

// fsType: a formatters() name. reader: the device, opened with O_DIRECT.
Expected<NewFsFreeMap> readNewFsFreeMap(const std::string& fsType, const std::string& device,
                                        const DirectReader& reader, ProcessRunner& runner);

} // namespace ssdk::maintenance::trim
