#include "core/maintenance/erase/guards.h"

#include <fmt/format.h>

#include "core/base/translate.h"

namespace ssdk::maintenance::erase {

std::string confirmationWord(const device::Device& device) {
    return device.model.empty() ? device.name : device.model;
}

std::string identityLine(const device::Device& device) {
    return fmt::format("{}, serial {}, {} ({})", device.model.empty() ? device.name : device.model,
                       device.serial.empty() ? "none" : device.serial, formatIec(device.size),
                       device.path);
}

Expected<void> checkEraseGuards(const device::Device& device,
                                const std::string& typedConfirmation) {
    if (device.holdsRootFilesystem()) {
        return fail(ErrorCode::PermissionDenied,
                    trText("Maintenance",
                           "{} holds the running system's root filesystem; refusing to "
                           "erase it")
                        .format(device.path));
    }
    std::string mounted;
    auto addMounts = [&](const std::vector<device::Mount>& mounts, const std::string& name) {
        for (const auto& mount : mounts) {
            mounted += (mounted.empty() ? "" : ", ") +
                       trText("Maintenance", "{} at {}").format(name, mount.mountPoint);
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
            held += (held.empty() ? "" : ", ") +
                    trText("Maintenance", "{} on {}").format(holder.displayName, partition.name);
        }
    }
    if (!mounted.empty()) {
        return fail(ErrorCode::Busy,
                    trText("Maintenance", "{} is in use: mounted {}; unmount it first")
                        .format(device.path, mounted));
    }
    if (!held.empty()) {
        return fail(ErrorCode::Busy, trText("Maintenance", "{} is in use by {}; close those first")
                                         .format(device.path, held));
    }
    if (device.readOnly) {
        return fail(ErrorCode::PermissionDenied,
                    trText("Maintenance", "{} is read-only").format(device.path));
    }
    if (typedConfirmation != confirmationWord(device)) {
        return fail(ErrorCode::InvalidArgument,
                    trText("Maintenance",
                           "the confirmation '{}' does not match the model '{}': nothing "
                           "was erased")
                        .format(typedConfirmation, confirmationWord(device)));
    }
    return {};
}

} // namespace ssdk::maintenance::erase
