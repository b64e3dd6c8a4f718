#include "helper/validation.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <fmt/format.h>
#include <sys/stat.h>

#include "core/device/devno.h"

namespace ssdk::helper {

Expected<ValidatedNode> validateBlockDeviceNode(std::string_view path, const DeviceRules& rules,
                                                const device::Discovery& discovery) {
    const std::string given(path);
    if (given.empty() || given.size() > kMaxPathLength) {
        return fail(ErrorCode::InvalidArgument, "a device path must have 1 to 4096 characters");
    }
    if (!given.starts_with("/dev/")) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("'{}' is not a device path under /dev", given));
    }
    // Resolved here, once; from then on only the node is looked at and handed on. The node is
    // directly in /dev, which only root changes.
    char resolved[PATH_MAX];
    if (::realpath(given.c_str(), resolved) == nullptr) {
        if (errno == ENOENT) {
            return fail(ErrorCode::NotFound, fmt::format("{} does not exist", given));
        }
        return failErrno(errno, fmt::format("resolving {}", given));
    }
    const std::string real(resolved);
    if (!real.starts_with("/dev/") || real.find('/', 5) != std::string::npos) {
        return fail(
            ErrorCode::InvalidArgument,
            fmt::format("'{}' leads to {}, which is not a device node in /dev", given, real));
    }
    struct stat info {};
    if (::stat(real.c_str(), &info) != 0) {
        return failErrno(errno, fmt::format("checking {}", real));
    }
    if (!S_ISBLK(info.st_mode)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("{} is not a block device", real));
    }
    // The node must be the kernel's own for that name, not a stray mknod with other numbers.
    const std::string name = real.substr(5);
    const std::string devno = device::devnoText(info.st_rdev);
    const auto sysDevno =
        discovery.root().tryString(discovery.root().sys() / "class" / "block" / name / "dev");
    if (!sysDevno || *sysDevno != devno) {
        return fail(ErrorCode::NotFound,
                    fmt::format("{} is not a block device the kernel knows as {}", real, name));
    }
    auto device = discovery.find(real);
    if (!device) {
        return std::unexpected(Error(device.error()).addContext("checking " + given));
    }
    if (!rules.allowSystemDisk && device->holdsRootFilesystem()) {
        return fail(ErrorCode::PermissionDenied,
                    fmt::format("{} holds the running system's root filesystem (or /usr, /boot or "
                                "swap, directly or under LVM, LUKS or RAID); refusing",
                                real));
    }
    if (!rules.allowMounted && device->inUse()) {
        return fail(ErrorCode::Busy, fmt::format("{} (or one of its partitions) is mounted or in "
                                                 "use; unmount it first",
                                                 device->path));
    }
    return ValidatedNode{real, std::move(*device)};
}

Expected<ValidatedNode> validateBlockDeviceNode(std::string_view path, const DeviceRules& rules) {
    const SysfsRoot root;
    return validateBlockDeviceNode(path, rules,
                                   device::Discovery(root, device::makeSystemFsProber(root)));
}

Expected<device::Device> validateBlockDevice(std::string_view path, const DeviceRules& rules,
                                             const device::Discovery& discovery) {
    auto validated = validateBlockDeviceNode(path, rules, discovery);
    if (!validated) {
        return std::unexpected(validated.error());
    }
    return std::move(validated->device);
}

Expected<device::Device> validateBlockDevice(std::string_view path, const DeviceRules& rules) {
    auto validated = validateBlockDeviceNode(path, rules);
    if (!validated) {
        return std::unexpected(validated.error());
    }
    return std::move(validated->device);
}

} // namespace ssdk::helper
