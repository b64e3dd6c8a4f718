#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/base/bytes.h"
#include "core/base/json.h"
#include "core/device/device.h"
#include "core/overprovision/filesystem_usage.h"

namespace ssdk::overprovision {

// The spare area a user can choose, in percent of the drive's user capacity.
inline constexpr double kMaximumSparePercent = 50.0;
// Partition ends are aligned to this, and to the drive's discard granularity.
inline constexpr Bytes kPartitionAlignment = Bytes::mib(1);

// Over-provisioning the manufacturer built in: NAND is made in binary sizes (GiB) and sold in
// decimal ones (GB), so a "256 GB" drive carries 256 GiB of NAND: 7.37 % more than it shows.
struct FactoryOverprovision {
    Bytes rawNand; // estimated: the smallest power-of-two GiB holding the user capacity
    Bytes userCapacity;
    double percent = 0; // (rawNand - userCapacity) / userCapacity · 100
};

// Known for flash drives whose capacity sits just under a power-of-two GiB (within 30 %);
// nothing for loop devices, RAM disks, virtual and rotational drives.
std::optional<FactoryOverprovision> estimateFactoryOverprovision(const device::Device& device);
// The same arithmetic for a capacity alone (pure; used by the above).
std::optional<FactoryOverprovision> factoryOverprovisionFor(Bytes userCapacity);

enum class Direction { None, Shrink, Grow };

// What choosing a spare percentage means for a drive. `possible` is false with reasons in
// `refusals` when it cannot be done; `notes` hold what the user should know anyway.
struct Plan {
    std::string devicePath;
    Bytes diskSize;
    std::optional<FactoryOverprovision> factory;
    Bytes currentSpare; // unallocated space after the last partition
    double currentSparePercent = 0;
    double requestedPercent = 0;
    Bytes requestedSpare; // what the percentage asks for
    Bytes alignment;      // 1 MiB and the discard granularity

    // The partition at the end of the disk, the only one that changes.
    int partitionIndex = -1; // into Device::partitions; -1 when there is none
    std::uint32_t partitionNumber = 0;
    std::string partitionPath;
    std::string filesystemType;
    std::string mountPoint; // empty when unmounted
    Bytes partitionStart;
    Bytes oldPartitionSize;
    Bytes newPartitionSize;
    std::optional<FilesystemUsage> usage;
    Bytes margin;       // kept above the filesystem's minimum size (safetyMargin)
    Bytes requiredSize; // the filesystem's minimum size plus the margin
    Bytes newSpare;     // unallocated space at the end after the change

    Direction direction = Direction::None;
    Bytes changedStart; // the range freed (shrink) or taken back (grow), on the whole disk
    Bytes changedLength;

    // A mounted ext2/3/4 shrinks only unmounted. unmountOffered: the plan could unmount it,
    // shrink it and mount it again (one mount, not the system disk); unmountAndRemount: this
    // plan does so (asked for in PlanOptions and nothing holds the filesystem open).
    bool unmountOffered = false;
    bool unmountAndRemount = false;
    std::vector<std::string> mountUsers; // processes holding the filesystem, "1234 (bash)"

    bool possible = false;
    std::vector<std::string> refusals;
    std::vector<std::string> notes;

    // The plan in words, one sentence per line.
    std::string describe() const;
};

// What the user chose besides the percentage, and what the system says about the mount.
struct PlanOptions {
    // Unmount a mounted ext2/3/4 for the shrink and mount it again where and how it was.
    bool unmountAndRemount = false;
    // Processes with files, a working directory or mappings on the last partition's mounted
    // filesystem (findMountUsers); any of them refuses the unmount.
    std::vector<std::string> mountUsers;
};

// The margin kept above a filesystem's minimum size. None where the minimum is the resize
// tool's own limit (usage.minimumExact: resize2fs -P, ntfsresize --info), which the helper
// reads again right before it applies and the tool enforces itself, refusing a smaller size
// before it changes anything; 10 % of an estimated minimum (btrfs), at least 8 MiB.
Bytes safetyMargin(const FilesystemUsage& usage);

// Plans the spare area for `device`. `usage` describes the filesystem of the last partition
// (nothing when it could not be read: the plan then refuses, saying why). Pure.
// Errors: InvalidArgument when sparePercent is outside 0–50.
Expected<Plan> plan(const device::Device& device, const std::optional<FilesystemUsage>& usage,
                    double sparePercent, const PlanOptions& options = {});

// The partition at the end of the disk (the highest end), or -1.
int lastPartitionIndex(const device::Device& device);

Json toJson(const Plan& plan);
std::string_view toString(Direction direction); // "none", "shrink", "grow"

} // namespace ssdk::overprovision
