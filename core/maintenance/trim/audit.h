#pragma once
// TRIM audit: can a discard issued at the top of a storage stack (a filesystem, a partition,
// a disk) reach the flash, and if not, which layer stops it and why. auditTrim() is pure over
// a StackSnapshot; stack.h gathers one from sysfs, mountinfo and the drive's identify data.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/base/bytes.h"
#include "core/base/json.h"
#include "core/maintenance/identify.h"

namespace ssdk::maintenance::trim {

// One block layer between the filesystem and the drive, top to bottom.
struct BlockLayer {
    enum class Kind { Partition, Loop, DmCrypt, Lvm, DmOther, Md, Disk };
    Kind kind = Kind::Disk;
    std::string name; // kernel name: "sda1", "dm-0", "loop3", "md0", "nvme0n1"
    Bytes discardGranularity;
    Bytes discardMaxBytes;         // what the queue accepts now (0: discards are refused here)
    Bytes discardMaxHwBytes;       // what the layer below allows; 0 when unknown
    std::string dmName;            // dm layers: "luks-data", "vg-root"
    std::string mdLevel;           // md: "raid1"
    std::string loopBackingFile;   // loop: the image
    std::string loopBackingFsType; // loop: the filesystem holding the image ("ext4", "fuseblk")
};

// The physical drive at the bottom of the stack and what it says about TRIM.
struct DriveFacts {
    std::string bus; // device::toString(Bus): "nvme", "sata", "usb", "scsi", "virtio", "loop"
    std::optional<AtaIdentify> ata;
    // libata's view (/sys/class/ata_device/*/trim): "unsupported", "unqueued" (NCQ TRIM off:
    // not supported or blacklisted by a quirk such as ATA_QUIRK_NO_NCQ_TRIM), "queued", "forced".
    std::optional<std::string> libataTrimMode;
    std::optional<ScsiProvisioning> scsiProvisioning;
    // sd's provisioning_mode: "unmap", "writesame_16", "writesame_10", "full", "disabled".
    std::optional<std::string> provisioningMode;
    std::optional<NvmeController> nvmeController;
    std::optional<NvmeNamespace> nvmeNamespace;
};

// The scheduled-TRIM timer (systemd's fstrim.timer).
struct TimerFacts {
    bool available = false;
    std::string unavailableReason; // when !available
    bool enabled = false;
    bool active = false;
    std::optional<std::int64_t> lastTriggerEpochSeconds;
};

struct FilesystemFacts {
    std::string mountPoint;
    std::string fsType;
    std::string options; // mount and superblock options joined
};

struct StackSnapshot {
    std::string target; // what the user asked about
    std::optional<FilesystemFacts> filesystem;
    std::vector<BlockLayer> layers; // top (just below the filesystem) to bottom (the drive)
    DriveFacts drive;
    TimerFacts timer;
    std::int64_t nowEpochSeconds = 0;
};

enum class LayerStatus { Passes, Blocks, Warning, Info };
std::string_view toString(LayerStatus status); // "passes", "blocks", "warning", "info"

struct AuditLayer {
    std::string layer; // "filesystem", "schedule", "partition", "loop", "dm-crypt", "lvm",
                       // "dm", "md", "queue", "usb-bridge", "libata", "drive"
    std::string name;
    LayerStatus status = LayerStatus::Info;
    std::string detail;
};

// What the drive returns when a trimmed block is read.
enum class ReadAfterTrim { Zeros, Ones, Deterministic, Unspecified };
std::string_view toString(ReadAfterTrim value); // "zeros", "ones", "deterministic", "unspecified"

struct TrimAudit {
    std::string target;
    std::vector<AuditLayer> layers;
    bool reachesDrive = false;       // no block layer and not the drive stops a discard
    bool filesystemDiscards = false; // online discard or a recent scheduled fstrim
    ReadAfterTrim readAfterTrim = ReadAfterTrim::Unspecified;
    std::string verdict; // one sentence for people
};

TrimAudit auditTrim(const StackSnapshot& snapshot);

// {"target", "reaches_drive", "filesystem_discards", "read_after_trim", "verdict",
//  "layers": [{"layer", "name", "status", "detail"}]}
Json toJson(const TrimAudit& audit);

// Filesystems whose image files can have holes punched (so a loop device over them turns
// discards into freed space), as far as Linux 6.x goes.
bool filesystemPunchesHoles(const std::string& fsType);

} // namespace ssdk::maintenance::trim
