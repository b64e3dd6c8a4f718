#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/sysfs_root.h"
#include "core/device/device.h"
#include "core/device/fs_probe.h"

namespace ssdk::device {

// Lists the machine's block devices from sysfs and mountinfo, the way lsblk does:
// every /sys/block entry except RAM disks (major 1) and loop devices with nothing attached.
// Reads only; never opens a device for writing. Cheap enough to call on every hot-plug event,
// but it reads files: never call it on a GUI thread.
class Discovery {
public:
    Discovery(SysfsRoot root, std::shared_ptr<FsProber> fsProber);

    Expected<std::vector<Device>> discover() const;

    // A device by kernel name ("sda"), /dev path, or a symlink to it (/dev/disk/by-id/…).
    // Partitions resolve to their disk.
    Expected<Device> find(std::string_view nameOrPath) const;

    // A short text that changes when devices appear, vanish, resize or (un)mount.
    // Compare two tokens to decide whether a full discover() is needed.
    std::string changeToken() const;

    const SysfsRoot& root() const { return m_root; }

private:
    SysfsRoot m_root;
    std::shared_ptr<FsProber> m_fsProber;
};

// The prober for the live system: udev's database first (readable by users), then
// libblkid on the device node (needs read permission, i.e. root for most disks).
std::shared_ptr<FsProber> makeSystemFsProber(const SysfsRoot& root);

} // namespace ssdk::device
