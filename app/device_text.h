#pragma once

#include <QString>
#include <QStringList>

#include "core/device/device.h"

namespace ssdk::app {

// Human-readable text for device fields, shared by the drive list, the pages and tooltips.

QString toQString(const std::string& text);
// "NVMe", "SATA", "USB", "Loop", "Device mapper", …
QString busDisplayName(device::Bus bus);
// The model, or the kernel name when sysfs has no model.
QString deviceTitle(const device::Device& device);
// "500 GB · 465.8 GiB"
QString capacityText(Bytes size);
// "500 GB (465.8 GiB, 500107862016 bytes)"
QString capacityDetailText(Bytes size);
// "/boot/efi, /media/ada/My Stick"; empty when there are none.
QString mountPointsText(const std::vector<device::Mount>& mounts);
// "luks-data (dm)"; empty when there are none.
QString holdersText(const std::vector<device::Holder>& holders);
// "GPT", "MBR (DOS)", or empty.
QString partitionTableText(const std::string& type);
// What a device without partitions holds: "No partitions — the whole device is unallocated.",
// "No partition table — the whole device holds an ext4 filesystem, mounted at /.", …
QString wholeDeviceText(const device::Device& device);
// The filesystem type on a whole device: probed, else from its mount; empty when unknown.
QString wholeDeviceFilesystemType(const device::Device& device);
// A few lines describing a device, for tooltips.
QString deviceToolTip(const device::Device& device);

} // namespace ssdk::app
