#pragma once
// Gathers a StackSnapshot for a mount point, a partition or a disk from sysfs, mountinfo and
// the drive's identify data: the facts auditTrim() judges. Reads only.

#include <functional>
#include <string>

#include "core/base/sysfs_root.h"
#include "core/maintenance/trim/audit.h"

namespace ssdk::maintenance::trim {

// NVMe identify data for a namespace node, when it can be read (root on a live system);
// empty otherwise. Injected so tests and non-root callers do without.
using NvmeIdentifyReader =
    std::function<std::optional<std::pair<NvmeController, NvmeNamespace>>(const std::string&)>;

// The libnvme reader for the live system.
NvmeIdentifyReader liveNvmeIdentifyReader();

struct StackOptions {
    NvmeIdentifyReader nvmeIdentify;
    TimerFacts timer;
    std::int64_t nowEpochSeconds = 0;
};

// target: a mount point (must be exactly a mount point, not a directory inside one), a
// /dev node, or a kernel name ("sda1"). Errors: NotFound (no such mount/device),
// InvalidArgument (a directory that is not a mount point).
Expected<StackSnapshot> snapshotStack(const std::string& target, const SysfsRoot& root,
                                      const StackOptions& options);

// Where a kernel block name lives in sysfs: /sys/block/NAME, or /sys/block/DISK/NAME for a
// partition. Empty when unknown.
std::filesystem::path blockSysfsDir(const SysfsRoot& root, const std::string& name);

} // namespace ssdk::maintenance::trim
