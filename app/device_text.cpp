#include "app/device_text.h"

#include <QCoreApplication>
#include <QLocale>

namespace ssdk::app {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("DeviceText", text);
}

} // namespace

QString toQString(const std::string& text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString busDisplayName(device::Bus bus) {
    using device::Bus;
    switch (bus) {
    case Bus::Nvme:
        return QStringLiteral("NVMe");
    case Bus::Sata:
        return QStringLiteral("SATA");
    case Bus::Scsi:
        return QStringLiteral("SCSI/SAS");
    case Bus::Usb:
        return QStringLiteral("USB");
    case Bus::Virtio:
        return QStringLiteral("VirtIO");
    case Bus::Mmc:
        return QStringLiteral("MMC/SD");
    case Bus::Loop:
        return tr("Loop");
    case Bus::Zram:
        return QStringLiteral("zram");
    case Bus::DeviceMapper:
        return tr("Device mapper");
    case Bus::Md:
        return QStringLiteral("md RAID");
    case Bus::Unknown:
        break;
    }
    return tr("Unknown");
}

QString deviceTitle(const device::Device& device) {
    return toQString(device.model.empty() ? device.name : device.model);
}

QString capacityText(Bytes size) {
    return toQString(formatSi(size)) + QStringLiteral(" · ") + toQString(formatIec(size));
}

QString capacityDetailText(Bytes size) {
    return tr("%1 (%2, %3 bytes)")
        .arg(toQString(formatSi(size)), toQString(formatIec(size)),
             QLocale::system().toString(static_cast<qulonglong>(size.value)));
}

QString mountPointsText(const std::vector<device::Mount>& mounts) {
    QStringList points;
    for (const auto& mount : mounts) {
        points << toQString(mount.mountPoint);
    }
    return points.join(QStringLiteral(", "));
}

QString holdersText(const std::vector<device::Holder>& holders) {
    QStringList names;
    for (const auto& holder : holders) {
        names << QStringLiteral("%1 (%2)").arg(toQString(holder.displayName),
                                               toQString(std::string(toString(holder.kind))));
    }
    return names.join(QStringLiteral(", "));
}

QString partitionTableText(const std::string& type) {
    if (type == "gpt") {
        return QStringLiteral("GPT");
    }
    if (type == "dos") {
        return tr("MBR (DOS)");
    }
    return toQString(type);
}

QString wholeDeviceFilesystemType(const device::Device& device) {
    if (device.filesystem && !device.filesystem->type.empty()) {
        return toQString(device.filesystem->type);
    }
    for (const auto& mount : device.mounts) {
        if (!mount.fsType.empty()) {
            return toQString(mount.fsType);
        }
    }
    return {};
}

QString wholeDeviceText(const device::Device& device) {
    if (device.size.value == 0) {
        return tr("The device reports a size of 0 bytes: no medium, or not set up yet.");
    }
    const QString type = wholeDeviceFilesystemType(device);
    const QString mounts = mountPointsText(device.mounts);
    if (!type.isEmpty()) {
        return mounts.isEmpty()
                   ? tr("No partition table — the whole device holds a %1 filesystem.").arg(type)
                   : tr("No partition table — the whole device holds a %1 filesystem, mounted at "
                        "%2.")
                         .arg(type, mounts);
    }
    if (!mounts.isEmpty()) {
        return tr("No partition table — the whole device is mounted at %1.").arg(mounts);
    }
    if (!device.holders.empty()) {
        return tr("No partitions — the whole device is used by %1.")
            .arg(holdersText(device.holders));
    }
    return tr("No partitions — the whole device is unallocated.");
}

QString deviceToolTip(const device::Device& device) {
    QStringList lines;
    lines << QStringLiteral("<b>%1</b>").arg(deviceTitle(device).toHtmlEscaped());
    lines << QStringLiteral("%1 · %2").arg(toQString(device.path).toHtmlEscaped(),
                                           busDisplayName(device.bus));
    lines << capacityDetailText(device.size);
    if (device.labName) {
        lines << tr("Lab drive “%1”").arg(toQString(*device.labName).toHtmlEscaped());
    }
    if (device.holdsRootFilesystem()) {
        lines << tr("System disk: holds the root filesystem");
    } else if (device.inUse()) {
        lines << tr("In use: mounted or held by another device");
    }
    return lines.join(QStringLiteral("<br>"));
}

} // namespace ssdk::app
