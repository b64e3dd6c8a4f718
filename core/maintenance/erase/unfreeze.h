#pragma once
// A frozen ATA drive (the BIOS sent SECURITY FREEZE LOCK at boot) refuses every security
// command until it loses power. A short suspend to RAM cuts its power on most machines;
// rtcwake (util-linux) suspends and lets the real-time clock wake the machine again, so
// nobody has to press a key.

#include <chrono>

#include "core/base/error.h"
#include "core/base/process_runner.h"
#include "core/base/sysfs_root.h"

namespace ssdk::maintenance::erase {

// Ok when the kernel can suspend to RAM: /sys/power/state lists "mem".
// Errors: Unsupported naming what the kernel offers instead.
Expected<void> checkSuspendToRam(const SysfsRoot& root);

// Suspends the machine to RAM for `sleep` and returns once it is back.
// Errors: Unsupported (no suspend to RAM), ToolMissing (rtcwake), ProcessFailed with
// rtcwake's own message (e.g. no RTC wake alarm), Timeout.
Expected<void> suspendBriefly(ProcessRunner& runner, const SysfsRoot& root,
                              std::chrono::seconds sleep);

} // namespace ssdk::maintenance::erase
