#include "core/maintenance/format_target.h"

#include <fmt/format.h>

namespace ssdk::maintenance {

namespace {

std::string mountedWhere(const std::vector<device::Mount>& mounts) {
    std::string where;
    for (const auto& mount : mounts) {
        where += (where.empty() ? "" : ", ") + mount.mountPoint;
    }
    return where;
}

Expected<void> checkNotInUse(const std::string& path, const std::vector<device::Mount>& mounts,
                             const std::vector<device::Holder>& holders) {
    if (!mounts.empty()) {
        return fail(ErrorCode::Busy, fmt::format("{} is mounted at {}; unmount it first", path,
                                                 mountedWhere(mounts)));
    }
    if (!holders.empty()) {
        return fail(ErrorCode::Busy, fmt::format("{} is in use by {}; close that first", path,
                                                 holders.front().displayName));
    }
    return {};
}

} // namespace

Expected<void> checkFormatTarget(const device::Device& disk, const std::string& realPath) {
    if (disk.holdsRootFilesystem()) {
        return fail(ErrorCode::PermissionDenied,
                    fmt::format("{} is on {}, which holds the running system (its root, /usr, "
                                "/boot or swap); refusing to format it",
                                realPath, disk.path));
    }
    if (realPath == disk.path) {
        if (!disk.partitions.empty()) {
            return fail(ErrorCode::InvalidArgument,
                        realPath + " has a partition table; format one of its partitions");
        }
        return checkNotInUse(realPath, disk.mounts, disk.holders);
    }
    for (const auto& partition : disk.partitions) {
        if (partition.path == realPath) {
            return checkNotInUse(realPath, partition.mounts, partition.holders);
        }
    }
    return fail(ErrorCode::NotFound, realPath + " is not a partition of " + disk.path);
}

} // namespace ssdk::maintenance
