#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "core/base/error.h"
#include "core/base/json.h"
#include "core/base/json_args.h"
#include "core/device/discovery.h"

namespace ssdk::helper {

// The longest path a verb takes (PATH_MAX).
inline constexpr std::size_t kMaxPathLength = 4096;

// Verb arguments come from an unprivileged process: every one is checked for presence,
// type, range and form before use, and unknown keys are refused rather than ignored
// (core/base/json_args.h).
using ssdk::requireOnlyKeys;
using ssdk::stringArg;
using ssdk::unsignedArg;

// What a verb tolerates about the device it acts on.
struct DeviceRules {
    bool allowMounted = false;    // the device or a partition may be mounted
    bool allowSystemDisk = false; // the device may hold the system (Device::holdsRootFilesystem)
};

// Checks a device path from a request: absolute, under /dev after resolving symlinks, a block
// device node (not /dev/zero, not a file), known to the kernel's block layer, and within the
// rules. Returns the whole device (a partition resolves to its disk) as discovery sees it.
// Errors: InvalidArgument (not a /dev path, leads outside /dev, not a block device), NotFound
// (no such node, or not known to the block layer), PermissionDenied (the system disk), Busy
// (mounted or held).
Expected<device::Device> validateBlockDevice(std::string_view path, const DeviceRules& rules,
                                             const device::Discovery& discovery);
// The same against the live system.
Expected<device::Device> validateBlockDevice(std::string_view path, const DeviceRules& rules);

// A device path resolved once and validated as resolved: `node` is the device node in /dev
// that was checked (no symbolic link left in it), for the verb to use instead of the path it
// was given, which a user may point elsewhere at any moment (a link in /dev/shm).
struct ValidatedNode {
    std::string node;
    device::Device device; // the whole device, as validateBlockDevice returns it
};
Expected<ValidatedNode> validateBlockDeviceNode(std::string_view path, const DeviceRules& rules,
                                                const device::Discovery& discovery);
Expected<ValidatedNode> validateBlockDeviceNode(std::string_view path, const DeviceRules& rules);

} // namespace ssdk::helper
