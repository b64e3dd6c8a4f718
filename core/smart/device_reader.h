#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/device/device.h"
#include "core/smart/smart_source.h"

namespace ssdk::smart {

// Why a device cannot have SMART at all, from how it is attached (loop devices such as lab
// drives, zram, device-mapper, md, virtio disks); nullopt when it may have SMART.
std::optional<std::string> noSmartReason(const device::Device& device);

// Reads a device with the first available source that works, in the order given (normally
// smartctl, then libatasmart for SATA). Errors: Unsupported with the reason when the device
// has no SMART (noSmartReason, or what the sources said), else the first real failure.
Expected<RawReport> captureDevice(const device::Device& device,
                                  const std::vector<SmartSource*>& sources,
                                  ReadOptions options = {});

} // namespace ssdk::smart
