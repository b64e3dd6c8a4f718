#include "core/maintenance/erase/guards.h"

#include <fmt/format.h>

namespace ssdk::maintenance::erase {

std::string confirmationWord(const device::Device& device) {
    return device.model.empty() ? device.name : device.model;
}

std::string identityLine(const device::Device& device) {
    return fmt::format("{}, serial {}, {} ({})", device.model.empty() ? device.name : device.model,
                       device.serial.empty() ? "none" : device.serial, formatSi(device.size),
                       device.path);
}

Expected<void> checkEraseGuards(const device::Device& device,
                                const std::string& typedConfirmation) {
    if (device.holdsRootFilesystem()) {
        return fail(ErrorCode::PermissionDenied,
                    device.path + " holds the running system's root filesystem; refusing to "
                                  "erase it");
    }
    std::string mounted;
    auto addMounts = [&](const std::vector<device::Mount>& mounts, const std::string& name) {
        for (const auto& mount : mounts) {
            mounted += (mounted.empty() ? "" : ", ") + name + " at " + mount.mountPoint;
        }
    };
    addMounts(device.mounts, device.name);
    std::string held;
    for (const auto& holder : device.holders) {
        held += (held.empty() ? "" : ", ") + holder.displayName;
    }
    for (const auto& partition : device.partitions) {
        addMounts(partition.mounts, partition.name);
        for (const auto& holder : partition.holders) {
            held += (held.empty() ? "" : ", ") + holder.displayName + " on " + partition.name;
        }
    }
    if (!mounted.empty()) {
        return fail(ErrorCode::Busy,
                    device.path + " is in use: mounted " + mounted + "; unmount it first");
    }
    if (!held.empty()) {
        return fail(ErrorCode::Busy, device.path + " is in use by " + held + "; close those first");
    }
    if (device.readOnly) {
        return fail(ErrorCode::PermissionDenied, device.path + " is read-only");
    }
    if (typedConfirmation != confirmationWord(device)) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("the confirmation '{}' does not match the model '{}': nothing "
                                "was erased",
                                typedConfirmation, confirmationWord(device)));
    }
    return {};
}

} // namespace ssdk::maintenance::erase
