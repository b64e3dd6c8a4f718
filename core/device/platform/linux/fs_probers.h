#pragma once

#include <filesystem>

#include "core/base/sysfs_root.h"
#include "core/device/fs_probe.h"
#include "core/device/udev_prober.h"

namespace ssdk::device {

// Probes the device node with libblkid, read-only. Needs read permission on the node
// (root for most disks); without it the result is empty. Reading the first sectors wakes
// a disk in standby, so callers that care must check the power state first.
class BlkidProber final : public FsProber {
public:
    ProbeResult probe(const std::string& devPath, const std::string& devno) const override;
};

// udev's database for a device it has an entry for (what udev's own blkid run found; the
// device is not opened), else libblkid on the node: a drive is read only where udev keeps no
// database (a container, a minimal system).
class UdevOrBlkidProber final : public FsProber {
public:
    explicit UdevOrBlkidProber(std::filesystem::path runDir);
    ProbeResult probe(const std::string& devPath, const std::string& devno) const override;

private:
    UdevDatabaseProber m_udev;
    BlkidProber m_blkid;
};

} // namespace ssdk::device
