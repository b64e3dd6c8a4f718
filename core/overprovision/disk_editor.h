#pragma once

#include <cstdint>
#include <string>

#include "core/base/bytes.h"
#include "core/base/error.h"
#include "core/base/process_runner.h"
#include "core/base/sysfs_root.h"

namespace ssdk::overprovision {

// The block-level half of an operation: the partition table on disk, the kernel's view of it,
// and discards. Each call is safe to repeat.
class DiskEditor {
public:
    virtual ~DiskEditor() = default;

    // The partition table as `sfdisk --dump` prints it (what `sfdisk` restores from).
    virtual Expected<std::string> dumpTable(const std::string& device) = 0;
    // Start and size of partition `number` as the table on disk has them.
    struct Extent {
        Bytes start;
        Bytes size;
    };
    virtual Expected<Extent> partitionOnDisk(const std::string& device, std::uint32_t number) = 0;
    // Sets partition `number`'s size in the on-disk table (GPT or MBR), keeping its start,
    // type, UUID and name. Nothing is written when it already has that size.
    virtual Expected<void> resizePartition(const std::string& device, std::uint32_t number,
                                           Bytes newSize) = 0;
    // Tells the kernel the partition's new extent (BLKPG_RESIZE_PARTITION) and checks that
    // sysfs shows it.
    virtual Expected<void> informKernel(const std::string& device, std::uint32_t number,
                                        Bytes start, Bytes size) = 0;
    // Discards [start, start + length) of the whole device (BLKDISCARD), so the drive (or the
    // sparse file behind a loop device) gets the space back. Unsupported when the device
    // accepts no discards.
    virtual Expected<void> discard(const std::string& device, Bytes start, Bytes length) = 0;
};

// libfdisk, ioctls and sysfs of the live system.
class LinuxDiskEditor final : public DiskEditor {
public:
    LinuxDiskEditor(ProcessRunner& runner, SysfsRoot root = SysfsRoot());

    Expected<std::string> dumpTable(const std::string& device) override;
    Expected<Extent> partitionOnDisk(const std::string& device, std::uint32_t number) override;
    Expected<void> resizePartition(const std::string& device, std::uint32_t number,
                                   Bytes newSize) override;
    Expected<void> informKernel(const std::string& device, std::uint32_t number, Bytes start,
                                Bytes size) override;
    Expected<void> discard(const std::string& device, Bytes start, Bytes length) override;

private:
    ProcessRunner& m_runner;
    SysfsRoot m_root;
};

} // namespace ssdk::overprovision
