#include "core/maintenance/extents.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <vector>

#include "core/base/unique_fd.h"

namespace ssdk::maintenance {

Expected<std::vector<Extent>> fileExtents(int fd) {
    constexpr std::uint32_t kBatch = 64;
    std::vector<std::uint8_t> storage(sizeof(fiemap) + kBatch * sizeof(fiemap_extent));
    std::vector<Extent> extents;
    std::uint64_t start = 0;
    while (true) {
        std::fill(storage.begin(), storage.end(), 0);
        auto* map = reinterpret_cast<fiemap*>(storage.data());
        map->fm_start = start;
        map->fm_length = FIEMAP_MAX_OFFSET - start;
        map->fm_flags = FIEMAP_FLAG_SYNC;
        map->fm_extent_count = kBatch;
        if (::ioctl(fd, FS_IOC_FIEMAP, map) != 0) {
            const int err = errno;
            if (err == EOPNOTSUPP || err == ENOTTY) {
                return fail(ErrorCode::Unsupported, "the filesystem does not report file "
                                                    "extents (FIEMAP)");
            }
            return failErrno(err, "FIEMAP");
        }
        if (map->fm_mapped_extents == 0) {
            return extents;
        }
        bool last = false;
        for (std::uint32_t i = 0; i < map->fm_mapped_extents; ++i) {
            const fiemap_extent& e = map->fm_extents[i];
            constexpr std::uint32_t kUnmappable =
                FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_ENCODED | FIEMAP_EXTENT_DATA_ENCRYPTED |
                FIEMAP_EXTENT_NOT_ALIGNED | FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_DELALLOC;
            extents.push_back(
                {e.fe_logical, e.fe_physical, e.fe_length, (e.fe_flags & kUnmappable) == 0});
            start = e.fe_logical + e.fe_length;
            last = last || (e.fe_flags & FIEMAP_EXTENT_LAST) != 0;
        }
        if (last) {
            return extents;
        }
    }
}

Expected<std::vector<Extent>> fileExtents(const std::string& path) {
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid()) {
        return failErrno(errno, "opening " + path);
    }
    return fileExtents(fd.get());
}

bool allExtentsUnwritten(int fd, std::uint64_t offset, std::uint64_t length) {
    constexpr std::uint32_t kSlots = 16;
    std::vector<std::uint8_t> storage(sizeof(fiemap) + kSlots * sizeof(fiemap_extent), 0);
    auto* map = reinterpret_cast<fiemap*>(storage.data());
    map->fm_start = offset;
    map->fm_length = length;
    map->fm_extent_count = kSlots;
    if (::ioctl(fd, FS_IOC_FIEMAP, map) != 0) {
        return false;
    }
    if (map->fm_mapped_extents == kSlots) {
        return false; // too fragmented to judge here; count it as data
    }
    for (std::uint32_t i = 0; i < map->fm_mapped_extents; ++i) {
        if ((map->fm_extents[i].fe_flags & FIEMAP_EXTENT_UNWRITTEN) == 0) {
            return false;
        }
    }
    return true;
}

} // namespace ssdk::maintenance
