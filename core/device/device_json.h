#pragma once

#include "core/base/json.h"
#include "core/device/device.h"

namespace ssdk::device {

// The stable JSON form of a device, documented in docs/cli.md ("Device object").
// Sizes and offsets are integers in bytes; absent strings are "" and absent objects null.
Json toJson(const Device& device);
Json toJson(const Partition& partition);

} // namespace ssdk::device
