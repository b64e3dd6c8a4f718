#pragma once
// The unmount and remount steps that Operations share (spare area, RAM cache enable and
// disable): each is a Job that can be undone, over the Operation's own way of mounting.
#include <functional>
#include <memory>
#include <string>

#include "core/base/job.h"

namespace ssdk::device {

// A filesystem at a mount point: the device it is mounted from, its type and the options
// it is mounted with.
struct MountTarget {
    std::string device;
    std::string mountPoint;
    std::string fsType;
    std::string options;
};

// How an Operation mounts and unmounts (the spare area's FilesystemTool, the cache manager's
// mount and umount runs).
struct Mounter {
    std::function<Expected<void>(const MountTarget&)> mount;
    std::function<Expected<void>(const MountTarget&)> unmount;
};

// The target is read when the job describes or runs itself, not when it is made: a later
// job's target may only be known once an earlier job ran (the cached device a cache is
// mounted from).
using TargetOf = std::function<MountTarget()>;

// "unmount": unmounts the target; undo mounts it back.
std::unique_ptr<Job> makeUnmountJob(TargetOf target, Mounter mounter);
// "remount": mounts the target where it was; undo unmounts it.
std::unique_ptr<Job> makeRemountJob(TargetOf target, Mounter mounter);

} // namespace ssdk::device
