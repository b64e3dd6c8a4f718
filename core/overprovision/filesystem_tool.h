#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "core/base/bytes.h"
#include "core/base/error.h"
#include "core/base/process_runner.h"
#include "core/device/mountinfo.h"
#include "core/overprovision/filesystem_usage.h"

namespace ssdk::overprovision {

// Where a filesystem is: its partition node and, when mounted, its mount point.
struct FilesystemLocation {
    std::string type; // "ext2", "ext3", "ext4", "ntfs", "btrfs"
    std::string device;
    std::string mountPoint; // empty when unmounted
};

bool isSupportedFilesystem(std::string_view type);
// ext2, ext3 or ext4 (e2fsprogs).
bool isExtFilesystem(std::string_view type);

// How much smaller than asked a filesystem may come out: NTFS keeps its backup boot sector in
// the partition's last sector, outside the volume ntfsresize reports.
inline constexpr Bytes kSizeSlack = Bytes::kib(64);
// True when a filesystem of filesystemSize is what resizing to target gives.
bool sameSize(Bytes filesystemSize, Bytes target);

// Runs each filesystem's own tools (e2fsprogs, ntfsresize, btrfs-progs) through a
// ProcessRunner. Every call is safe to repeat: resizing to the size a filesystem already has
// does nothing.
class FilesystemTool {
public:
    // mountInfo: where unmount/mount look whether a filesystem is mounted.
    explicit FilesystemTool(ProcessRunner& runner,
                            std::filesystem::path mountInfo = "/proc/self/mountinfo");

    Expected<FilesystemUsage> inspect(const FilesystemLocation& where);
    // The filesystem's own idea of its size.
    Expected<Bytes> size(const FilesystemLocation& where);
    // Checks (and, unmounted, repairs) the filesystem before a resize. ext: e2fsck -f -y,
    // accepting "errors corrected"; ntfs: ntfsresize --check; btrfs: checked by its own
    // checksums online, nothing to run. Mounted ext/ntfs are not checked (growing online).
    Expected<void> check(const FilesystemLocation& where);
    // A read-only check that fails unless the filesystem is clean (ext: e2fsck -f -n;
    // ntfs: ntfsresize --check). Mounted filesystems are not checked.
    Expected<void> verify(const FilesystemLocation& where);
    // Resizes to exactly newSize bytes (for ext a multiple of 1 KiB and of the block size).
    Expected<void> resize(const FilesystemLocation& where, Bytes newSize);

    // Unmounts device from mountPoint (umount, never lazily); nothing when it is not mounted
    // there.
    Expected<void> unmount(const std::string& device, const std::string& mountPoint);
    // Mounts where.device at where.mountPoint as where.type with options, always nosuid and
    // nodev (helperMountOptions); nothing when it is mounted there already. The mount point
    // must be an existing directory named by its canonical path (no link on the way).
    Expected<void> mount(const FilesystemLocation& where, const std::string& options);
    // device's entry at mountPoint in mountInfo, if mounted there.
    Expected<std::optional<device::MountInfoEntry>> mountOf(const std::string& device,
                                                            const std::string& mountPoint) const;

private:
    // Size and used space from the filesystem's own tool, without the minimum size.
    Expected<FilesystemUsage> readUsage(const FilesystemLocation& where);

    ProcessRunner& m_runner;
    std::filesystem::path m_mountInfo;
};

} // namespace ssdk::overprovision
