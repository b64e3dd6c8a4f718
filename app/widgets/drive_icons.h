#pragma once

#include <QColor>
#include <QPixmap>

#include "core/device/device.h"

namespace ssdk::app {

// The colour that identifies a bus in icons.
QColor busColor(device::Bus bus);

// A drawn icon for a drive on this bus (an M.2 stick for NVMe, a 2.5" case for SATA, a platter
// when rotational, a USB stick, an SD card, a RAM module for zram, …). size is in
// device-independent pixels; the pixmap has devicePixelRatio set. Results are cached.
QPixmap driveIcon(device::Bus bus, bool rotational, int size, qreal devicePixelRatio = 1.0);

} // namespace ssdk::app
