#include "app/device_text.h"

#include <algorithm>
#include <cmath>

#include <QCoreApplication>
#include <QLocale>

#include "core/smart/health_json.h"

namespace ssdk::app {

namespace {

// lupdate files these tr() calls under the namespace's name.
QString tr(const char* text) {
    return QCoreApplication::translate("ssdk::app", text);
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

QString sizeText(Bytes size) {
    return toQString(formatIec(size));
}

QString measuredSizeText(double bytes) {
    return sizeText(Bytes(static_cast<std::uint64_t>(std::llround(std::max(bytes, 0.0)))));
}

QString capacityText(Bytes size) {
    return sizeText(size);
}

QString capacityDetailText(Bytes size) {
    return tr("%1 (%2 bytes)")
        .arg(sizeText(size), QLocale::system().toString(static_cast<qulonglong>(size.value)));
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

QString durationText(double hours) {
    const auto duration = smart::friendlyDuration(hours);
    switch (duration.unit) {
    case smart::FriendlyDuration::Unit::Hours:
        return duration.value == 1 ? tr("1 hour")
                                   : tr("%1 hours").arg(QLocale().toString(duration.value, 'f', 0));
    case smart::FriendlyDuration::Unit::Days:
        return tr("%1 days").arg(QLocale().toString(duration.value, 'f', 0));
    case smart::FriendlyDuration::Unit::Years:
        break;
    }
    return tr("%1 years").arg(QLocale().toString(duration.value, 'f', 1));
}

QString readingTimeText(const QDateTime& when, const QDateTime& now) {
    const QDateTime local = when.toLocalTime();
    if (local.date() == now.toLocalTime().date()) {
        return local.toString(QStringLiteral("HH:mm:ss"));
    }
    return local.toString(QStringLiteral("yyyy-MM-dd HH:mm"));
}

} // namespace ssdk::app
