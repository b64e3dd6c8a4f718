#pragma once

#include <string>

#include "core/device/device.h"

namespace ssdk::device {

// A drive's stable key, used to name its state files (journals, locks, backups): "lab-NAME"
// for lab drives, else MODEL-SERIAL (or the serial alone), else the WWN, else the kernel name.
// Only [A-Za-z0-9_.-], never starting with '.', at most 96 characters: always a valid
// StateStore file name stem.
std::string driveKey(const Device& device);

} // namespace ssdk::device
