#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/bytes.h"

namespace ssdk::device {

// How a block device is attached. Decided from the resolved sysfs device path.
enum class Bus { Nvme, Sata, Scsi, Usb, Virtio, Mmc, Loop, Zram, DeviceMapper, Md, Unknown };

std::string_view toString(Bus bus); // "nvme", "sata", "scsi", "usb", "virtio", "mmc", "loop", …

// A device stacked on top of this one (found in sysfs holders/).
struct Holder {
    enum class Kind { DeviceMapper, Md, Bcache, Other };
    Kind kind = Kind::Other;
    std::string name;        // kernel name: "dm-0", "md127", "bcache0"
    std::string displayName; // dm name ("vg-root", "luks-…") when there is one, else name
};

std::string_view toString(Holder::Kind kind); // "dm", "md", "bcache", "other"

struct Filesystem {
    std::string type; // "ext4", "ntfs", "vfat", "btrfs", "crypto_LUKS", "LVM2_member", …
    std::string label;
    std::string uuid;
};

// Where a filesystem is mounted (from mountinfo).
struct Mount {
    std::string mountPoint;
    std::string fsType;
    std::string options; // per-mount options, e.g. "rw,relatime"
};

struct Partition {
    std::string name; // "nvme0n1p2"
    std::string path; // "/dev/nvme0n1p2"
    std::uint32_t number = 0;
    Bytes start; // offset from the disk's first byte
    Bytes size;
    std::optional<Filesystem> filesystem; // empty when unknown or none
    std::string partitionUuid, partitionLabel, partitionType;
    std::vector<Mount> mounts;
    std::vector<Holder> holders;
    bool readOnly = false;
};

// A whole block device as the kernel shows it, with what sits on it.
struct Device {
    std::string name;  // kernel name: "nvme0n1", "sda", "loop3"
    std::string path;  // "/dev/nvme0n1"
    std::string devno; // "259:0"
    Bus bus = Bus::Unknown;
    std::string model, serial, firmware, vendor, wwn; // empty where sysfs has none
    Bytes size;
    std::uint32_t logicalSectorSize = 512;
    std::uint32_t physicalSectorSize = 512;
    bool rotational = false;
    bool removable = false;
    bool readOnly = false;
    Bytes discardGranularity; // 0: the device does not accept discards
    Bytes discardMaxBytes;
    std::optional<Filesystem> filesystem; // a filesystem directly on the disk (no table)
    std::string partitionTableType;       // "gpt", "dos", or empty
    std::vector<Partition> partitions;    // sorted by number
    std::vector<Mount> mounts;            // mounts of the whole device itself
    std::vector<Holder> holders;
    std::string loopBackingFile;        // for loop devices, the file behind it
    std::optional<std::string> labName; // set when this is an SSD Keeper lab drive
    // Set by discovery when the running system stands on this device, directly or through
    // device-mapper (LVM, LUKS) or md RAID: it holds (part of) the filesystem at "/", "/usr",
    // "/boot" or "/boot/efi", or an active swap area. See systemDiskNames (discovery.h).
    bool systemDisk = false;

    bool supportsDiscard() const {
        return discardGranularity.value > 0 && discardMaxBytes.value > 0;
    }
    bool isLab() const { return labName.has_value(); }
    // True when the running system stands on this device: systemDisk (found through the
    // whole stack by discovery), or this device or one of its partitions is mounted at "/".
    bool holdsRootFilesystem() const;
    // True when it or any partition is mounted or has holders.
    bool inUse() const;
};

// SSD Keeper lab drives are loop devices over "<state dir>/ssdkeeper/lab/<NAME>.img".
// Returns NAME for such a backing file (the kernel may append " (deleted)"), else nothing.
std::optional<std::string> labNameFromBackingFile(std::string_view backingFile);

} // namespace ssdk::device
