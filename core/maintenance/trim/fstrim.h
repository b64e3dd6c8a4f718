#pragma once
// Manual TRIM of a mounted filesystem (FITRIM, the ioctl fstrim uses) in slices so progress
// can be shown, and the status/toggle of systemd's fstrim.timer.

#include <functional>
#include <string>
#include <string_view>

#include "core/base/bytes.h"
#include "core/base/process_runner.h"
#include "core/base/sysfs_root.h"
#include "core/maintenance/trim/audit.h"

namespace ssdk::maintenance::trim {

// fraction in [0, 1], bytes trimmed so far
using TrimProgress = std::function<void(double fraction, Bytes trimmedSoFar)>;

struct FstrimResult {
    std::string mountPoint;
    Bytes filesystemSize;
    Bytes trimmed; // what the filesystem reports it discarded (free space it passed down)
    int slices = 0;
};

// Trims mountPoint, which must be exactly a mount point of a filesystem on a block device
// (a directory inside another filesystem is refused, so the wrong filesystem is never
// trimmed). slices: how many FITRIM calls the range is split into, for progress.
// Errors: InvalidArgument (not a mount point), Unsupported (the filesystem or a layer below
// refuses discards: EOPNOTSUPP).
Expected<FstrimResult> runFstrim(const std::string& mountPoint, const SysfsRoot& root,
                                 int slices = 16, const TrimProgress& progress = {});

// Parses `systemctl show fstrim.timer -p UnitFileState -p ActiveState -p LastTriggerUSec
// --timestamp=unix` output. Pure.
TimerFacts parseTimerShow(std::string_view text);

// The timer's status; unavailable (with the reason) when systemd is not the init system or
// systemctl is missing.
TimerFacts readTimer(ProcessRunner& runner, const SysfsRoot& root);

// `systemctl enable --now` / `disable --now` fstrim.timer.
Expected<TimerFacts> setTimerEnabled(ProcessRunner& runner, const SysfsRoot& root, bool enabled);

Json toJson(const TimerFacts& timer);

} // namespace ssdk::maintenance::trim
