#pragma once

#include <QComboBox>
#include <QString>

#include "core/device/device.h"

namespace ssdk::app::ramcache {

// The partitions of the selected drive (the drive itself when it has none), each with its
// size, filesystem and mount point; the path is each item's data.
class PartitionPicker final : public QComboBox {
    Q_OBJECT
public:
    explicit PartitionPicker(QWidget* parent = nullptr);

    // Lists device's partitions (nullptr: none), keeping the one selected before when it is
    // still there; without a currentIndexChanged.
    void setDevice(const device::Device* device);
    // The selected path; empty when there is none.
    QString selected() const;
};

} // namespace ssdk::app::ramcache
