#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "core/base/error.h"

namespace ssdk::lab {

// Attaches a file to a free loop device with the given logical sector size (512 or 4096) and
// partition scanning on. Returns "/dev/loopN". Needs root (/dev/loop-control).
Expected<std::string> attachLoop(const std::filesystem::path& image, std::uint32_t sectorSize,
                                 bool readOnly = false);
// The same for an image the caller has opened (read-write unless readOnly), e.g. with another
// user's file access rights; image only names it for the kernel and the logs.
Expected<std::string> attachLoop(int imageFd, const std::filesystem::path& image,
                                 std::uint32_t sectorSize, bool readOnly = false);

// Tells the kernel the loop device is not rotational (queue/rotational = 0): a lab drive
// stands in for an SSD, while the kernel marks a loop over a file on a disk it thinks spins
// (or over a virtual disk that says nothing) as rotational.
Expected<void> markNonRotational(const std::string& devicePath);

// Detaches a loop device (LOOP_CLR_FD). When the device is still open somewhere the kernel
// only marks it for auto-clear and this succeeds anyway: callers that must know check that
// /sys/block/loopN/loop/backing_file is gone afterwards.
Expected<void> detachLoop(const std::string& devicePath);

} // namespace ssdk::lab
