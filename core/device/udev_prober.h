#pragma once

#include <filesystem>
#include <map>
#include <string>

#include "core/device/fs_probe.h"

namespace ssdk::device {

// A ProbeResult from libblkid's property names (TYPE, LABEL, UUID, PTTYPE, PART_ENTRY_*).
ProbeResult probeResultFromBlkidProperties(const std::map<std::string, std::string>& props);

// Reads udev's database (<run>/udev/data/b<major>:<minor>), which users may read: its
// "E:ID_FS_TYPE=ext4" lines carry what blkid told udev. Plain files, so every platform (and a
// recorded tree) uses the same reader.
class UdevDatabaseProber final : public FsProber {
public:
    explicit UdevDatabaseProber(std::filesystem::path runDir);
    ProbeResult probe(const std::string& devPath, const std::string& devno) const override;
    // Whether udev's database has an entry for the device (then probe() tells what udev
    // found on it, nothing included).
    bool hasEntry(const std::string& devno) const;

private:
    std::filesystem::path m_dataDir;
};

} // namespace ssdk::device
