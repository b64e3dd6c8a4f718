#include "core/device/device.h"

#include <algorithm>

namespace ssdk::device {

std::string_view toString(Bus bus) {
    switch (bus) {
    case Bus::Nvme:
        return "nvme";
    case Bus::Sata:
        return "sata";
    case Bus::Scsi:
        return "scsi";
    case Bus::Usb:
        return "usb";
    case Bus::Virtio:
        return "virtio";
    case Bus::Mmc:
        return "mmc";
    case Bus::Loop:
        return "loop";
    case Bus::Zram:
        return "zram";
    case Bus::DeviceMapper:
        return "dm";
    case Bus::Md:
        return "md";
    case Bus::Unknown:
        break;
    }
    return "unknown";
}

std::string_view toString(Holder::Kind kind) {
    switch (kind) {
    case Holder::Kind::DeviceMapper:
        return "dm";
    case Holder::Kind::Md:
        return "md";
    case Holder::Kind::Bcache:
        return "bcache";
    case Holder::Kind::Other:
        break;
    }
    return "other";
}

namespace {

bool mountsRoot(const std::vector<Mount>& mounts) {
    return std::ranges::any_of(mounts, [](const Mount& m) { return m.mountPoint == "/"; });
}

} // namespace

bool Device::holdsRootFilesystem() const {
    return systemDisk || mountsRoot(mounts) ||
           std::ranges::any_of(partitions, [](const Partition& p) { return mountsRoot(p.mounts); });
}

bool Device::inUse() const {
    return !mounts.empty() || !holders.empty() ||
           std::ranges::any_of(partitions, [](const Partition& p) {
               return !p.mounts.empty() || !p.holders.empty();
           });
}

std::optional<std::string> labNameFromBackingFile(std::string_view backingFile) {
    static constexpr std::string_view kDeleted = " (deleted)";
    static constexpr std::string_view kDirectory = "/ssdkeeper/lab/";
    static constexpr std::string_view kExtension = ".img";
    if (backingFile.ends_with(kDeleted)) {
        backingFile.remove_suffix(kDeleted.size());
    }
    const auto dir = backingFile.rfind(kDirectory);
    if (dir == std::string_view::npos || !backingFile.ends_with(kExtension)) {
        return std::nullopt;
    }
    const auto name = backingFile.substr(
        dir + kDirectory.size(), backingFile.size() - dir - kDirectory.size() - kExtension.size());
    if (name.empty() || name.find('/') != std::string_view::npos) {
        return std::nullopt;
    }
    return std::string(name);
}

} // namespace ssdk::device
