#pragma once

#include <QWidget>

#include "core/device/device.h"

namespace ssdk::app {

// An area page on the right of the main window (Overview, Health, Performance, …). The main
// window forwards the selected drive to every page it hosts.
class DevicePage : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;

    // The selected drive, or nullptr when none is selected. The pointer is valid only during
    // the call: pages copy what they keep. Called again after every rescan.
    virtual void setDevice(const device::Device* device) = 0;

    // True while the page is still reading what it shows for the selected drive (a helper
    // call, a background read): --screenshot waits until it is false.
    virtual bool isLoading() const { return false; }
};

} // namespace ssdk::app
