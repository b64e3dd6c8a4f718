#pragma once
// What must be true before a whole device is erased. Pure over the Device model; the helper
// runs the same checks again on a fresh discovery before it erases.

#include <string>

#include "core/base/error.h"
#include "core/device/device.h"

namespace ssdk::maintenance::erase {

// The word the user types to confirm: the model, or the kernel name when the device has no
// model (loop devices).
std::string confirmationWord(const device::Device& device);

// "Samsung SSD 870 EVO 1TB, serial S6P…, 1 TB (/dev/sda)"
std::string identityLine(const device::Device& device);

// Refuses the disk holding "/" (PermissionDenied), a device with a mounted filesystem or
// holders such as dm/md/bcache (Busy, naming them), a read-only device (PermissionDenied) and
// a typed confirmation that differs from confirmationWord() (InvalidArgument).
Expected<void> checkEraseGuards(const device::Device& device, const std::string& typedConfirmation);

} // namespace ssdk::maintenance::erase
