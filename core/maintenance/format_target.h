#pragma once
// What a quick format refuses, judged on the disk discovery found for the node given: the
// running system's disk, a whole disk that has a partition table, a mounted or held partition,
// and a node that is not the disk or one of its partitions. The helper checks it before it
// formats; ssdkeeperctl checks it before it asks for --yes-destroy-data (check first, ask last).

#include <string>

#include "core/base/error.h"
#include "core/device/device.h"

namespace ssdk::maintenance {

// realPath: the node with its symlinks resolved (/dev/sdb1).
Expected<void> checkFormatTarget(const device::Device& disk, const std::string& realPath);

} // namespace ssdk::maintenance
