#pragma once

#include <filesystem>
#include <memory>
#include <vector>

#include "core/base/sysfs_root.h"
#include "core/device/fs_probe.h"

namespace ssdk::device {

// Probes the device node with libblkid, read-only. Needs read permission on the node
// (root for most disks); without it the result is empty. Reading the first sectors wakes
// a disk in standby, so callers that care must check the power state first.
class BlkidProber final : public FsProber {
public:
    ProbeResult probe(const std::string& devPath, const std::string& devno) const override;
};

// Asks each prober in turn; for every field the first non-empty answer wins.
class ChainProber final : public FsProber {
public:
    explicit ChainProber(std::vector<std::shared_ptr<FsProber>> probers);
    ProbeResult probe(const std::string& devPath, const std::string& devno) const override;

private:
    std::vector<std::shared_ptr<FsProber>> m_probers;
};

} // namespace ssdk::device
