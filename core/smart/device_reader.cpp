#include "core/smart/device_reader.h"

namespace ssdk::smart {

std::optional<std::string> noSmartReason(const device::Device& device) {
    using device::Bus;
    switch (device.bus) {
    case Bus::Loop:
        return device.path + " is a loop device" +
               (device.isLab() ? " (lab drive '" + *device.labName + "')" : std::string()) +
               " backed by a file: it has no SMART or identify data";
    case Bus::Zram:
        return device.path + " is a compressed RAM disk (zram): it has no SMART";
    case Bus::DeviceMapper:
        return device.path + " is a device-mapper volume: read SMART from the disks below it";
    case Bus::Md:
        return device.path + " is a software RAID array: read SMART from its member disks";
    case Bus::Virtio:
        return device.path + " is a virtio disk of a virtual machine: it has no SMART";
    default:
        return std::nullopt;
    }
}

Expected<RawReport> captureDevice(const device::Device& device,
                                  const std::vector<SmartSource*>& sources, ReadOptions options) {
    if (auto reason = noSmartReason(device)) {
        return fail(ErrorCode::Unsupported, *reason);
    }
    options.usbBridge = device.bus == device::Bus::Usb;
    std::optional<Error> firstFailure;
    std::vector<std::string> unavailable;
    for (SmartSource* source : sources) {
        if (source->name() == "libatasmart" && device.bus != device::Bus::Sata &&
            device.bus != device::Bus::Usb) {
            continue; // libatasmart only speaks ATA
        }
        const Availability availability = source->availability();
        if (!availability.available) {
            unavailable.push_back(std::string(source->name()) + ": " + availability.reason);
            continue;
        }
        auto raw = source->capture(device.path, options);
        if (raw) {
            return raw;
        }
        if (raw.error().code() == ErrorCode::Unsupported) {
            unavailable.push_back(raw.error().describe());
            continue;
        }
        if (!firstFailure) {
            firstFailure = raw.error();
        }
    }
    if (firstFailure) {
        return std::unexpected(*firstFailure);
    }
    std::string why;
    for (const auto& reason : unavailable) {
        why += (why.empty() ? "" : "; ") + reason;
    }
    return fail(ErrorCode::Unsupported, why.empty() ? "no SMART source is available" : why);
}

} // namespace ssdk::smart
