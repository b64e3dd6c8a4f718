#pragma once

#include <QDateTime>
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
// Every size the app shows, written one way: binary units, three significant digits ("409 MiB",
// "2.00 GiB", "466 GiB"), the same text as ssdkeeperctl's (formatIec), so one partition reads
// the same on every page and in the CLI.
QString sizeText(Bytes size);
// A byte count measured as a double (a benchmark's analysis), rounded to whole bytes: sizeText().
QString measuredSizeText(double bytes);
// A drive's capacity in the drive list and on the pages: sizeText(), "466 GiB".
QString capacityText(Bytes size);
// "466 GiB (500,107,862,016 bytes)"
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
// A span of time in smart::friendlyDuration's unit and figures (the CLI shows the same):
// "5 hours", "17 days", "2.1 years".
QString durationText(double hours);
// When a reading was taken: "14:03:22" today, "2026-11-27 14:03" on another day.
QString readingTimeText(const QDateTime& when, const QDateTime& now);
// A few lines describing a device, for tooltips.
QString deviceToolTip(const device::Device& device);

} // namespace ssdk::app
