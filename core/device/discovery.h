#pragma once

#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/sysfs_root.h"
#include "core/device/device.h"
#include "core/device/fs_probe.h"
#include "core/device/mountinfo.h"

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
    // Partitions resolve to their disk. Reads and probes that device alone: other drives are
    // not opened (a probe reads sectors, which would wake a sleeping disk nobody asked about).
    Expected<Device> find(std::string_view nameOrPath) const;

    // A short text that changes when devices appear, vanish, resize or (un)mount.
    // Compare two tokens to decide whether a full discover() is needed.
    std::string changeToken() const;

    // "MODEL (SERIAL)" (or what of it sysfs has) of the disk behind a /dev path, a partition
    // of it or a kernel name, read from sysfs alone: nothing is probed or opened, so it may run
    // before a request is authorized. Empty when the kernel knows no such block device.
    std::string describeDrive(std::string_view nameOrPath) const;

    const SysfsRoot& root() const { return m_root; }

private:
    SysfsRoot m_root;
    std::shared_ptr<FsProber> m_fsProber;
};

// Kernel names of the whole block devices the running system stands on: the devices under
// the filesystems at "/", "/usr", "/boot" and "/boot/efi" (by mountinfo) and under every
// active swap area (<proc>/swaps; a swap file counts for the filesystem holding it), followed
// down through sysfs "slaves" (device-mapper: LVM, LUKS; md RAID; any depth) to the disks,
// a partition counting for its disk. Every device on the way is named: for root on LVM on
// LUKS on nvme0n1p3 that is {dm-1, dm-0, nvme0n1}; for md RAID1 over sda1 and sdb1, both disks.
std::set<std::string> systemDiskNames(const SysfsRoot& root,
                                      const std::vector<MountInfoEntry>& mounts);

// The prober for the live system: udev's database (readable by users) for the devices it has
// entries for, libblkid on the device node (needs read permission, i.e. root for most disks)
// only for those it has none for: where udev keeps a database, discovery opens no device.
std::shared_ptr<FsProber> makeSystemFsProber(const SysfsRoot& root);

} // namespace ssdk::device
