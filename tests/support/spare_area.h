#pragma once
// The made-up drive and journal the spare-area tests (unit, helper verbs, GUI) work on: a
// 512 MiB GPT disk whose one partition runs from 1 MiB to the last usable MiB (510 MiB), and a
// journal shrinking that partition to 408 MiB.
#include <filesystem>
#include <string>
#include <utility>

#include "core/device/device.h"
#include "core/overprovision/journal.h"

namespace ssdk::test {

// `base` (name, path, bus, identity as given) as a 512 MiB discard-capable GPT disk with one
// partition of `filesystem`, named after the disk ("/dev/loop7" → "loop7p1"), not mounted.
inline device::Device withSpareAreaLayout(device::Device base, device::Filesystem filesystem) {
    base.size = Bytes::mib(512);
    base.partitionTableType = "gpt";
    base.discardGranularity = Bytes(4096);
    base.discardMaxBytes = Bytes::gib(4);
    device::Partition partition;
    partition.path = base.path + "p1";
    partition.name = std::filesystem::path(partition.path).filename().string();
    partition.number = 1;
    partition.start = Bytes::mib(1);
    partition.size = Bytes::mib(510);
    partition.filesystem = std::move(filesystem);
    base.partitions = {partition};
    return base;
}

// The loop7 disk of the planner tests, its partition holding `fsType`.
inline device::Device spareAreaLoop7(const std::string& fsType = "ext4") {
    device::Device loop7;
    loop7.name = "loop7";
    loop7.path = "/dev/loop7";
    loop7.bus = device::Bus::Loop;
    return withSpareAreaLayout(std::move(loop7), device::Filesystem{fsType, "", ""});
}

// An "apply" journal that shrinks partition 1 (ext4) of a drive from 510 to 408 MiB; no step
// taken yet.
inline overprovision::Journal shrinkJournal(std::string deviceId, std::string devicePath,
                                            std::string partitionPath) {
    overprovision::Journal journal;
    journal.deviceId = std::move(deviceId);
    journal.devicePath = std::move(devicePath);
    journal.purpose = "apply";
    journal.direction = overprovision::Direction::Shrink;
    journal.partitionNumber = 1;
    journal.partitionPath = std::move(partitionPath);
    journal.filesystemType = "ext4";
    journal.fromPartitionSize = Bytes::mib(510);
    journal.toPartitionSize = Bytes::mib(408);
    journal.steps = overprovision::stepsFor(overprovision::Direction::Shrink);
    return journal;
}

// shrinkJournal() for spareAreaLoop7() in full: where the partition starts, the filesystem's
// sizes, and the table backup's file name.
inline overprovision::Journal loop7ShrinkJournal(std::string tableBackup) {
    auto journal = shrinkJournal("lab-op", "/dev/loop7", "/dev/loop7p1");
    journal.partitionStart = Bytes::mib(1);
    journal.fromFilesystemSize = Bytes::mib(510);
    journal.toFilesystemSize = Bytes::mib(408);
    journal.tableBackup = std::move(tableBackup);
    return journal;
}

} // namespace ssdk::test
