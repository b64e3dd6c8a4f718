#pragma once

#include <optional>
#include <string>

#include "core/device/device.h"

namespace ssdk::device {

// What is on a block device or partition, as far as a prober can tell.
struct ProbeResult {
    std::optional<Filesystem> filesystem;
    std::string partitionTableType;                           // whole disks: "gpt", "dos"
    std::string partitionUuid, partitionLabel, partitionType; // partitions
};

// Finds filesystem and partition metadata. Implementations: udev database, libblkid,
// a chain of both, and fakes in tests. Returns an empty result when it cannot tell.
class FsProber {
public:
    virtual ~FsProber() = default;
    // devPath: "/dev/sda1"; devno: "8:1" (major:minor).
    virtual ProbeResult probe(const std::string& devPath, const std::string& devno) const = 0;
};

} // namespace ssdk::device
