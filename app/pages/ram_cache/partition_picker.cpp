#include "app/pages/ram_cache/partition_picker.h"

#include <algorithm>

#include "app/device_text.h"
#include "app/pages/ram_cache/units.h"

namespace ssdk::app::ramcache {

namespace {

// "/dev/loop0p1 · 1.00 GiB · ext4 · /mnt/demo"
QString partitionLabel(const std::string& path, const std::optional<device::Filesystem>& fs,
                       const std::vector<device::Mount>& mounts, Bytes size) {
    QString text = toQString(path) + QStringLiteral(" · ") + iec(size.value);
    if (fs) {
        text += QStringLiteral(" · ") + toQString(fs->type);
    }
    if (!mounts.empty()) {
        text += QStringLiteral(" · ") + toQString(mounts.front().mountPoint);
    }
    return text;
}

} // namespace

PartitionPicker::PartitionPicker(QWidget* parent)
    : QComboBox(parent) {
    setObjectName("ramcache.partition");
}

void PartitionPicker::setDevice(const device::Device* device) {
    const QString previous = selected();
    blockSignals(true);
    clear();
    if (device != nullptr) {
        for (const auto& partition : device->partitions) {
            addItem(partitionLabel(partition.path, partition.filesystem, partition.mounts,
                                   partition.size),
                    toQString(partition.path));
        }
        if (device->partitions.empty()) {
            addItem(partitionLabel(device->path, device->filesystem, device->mounts, device->size),
                    toQString(device->path));
        }
    }
    setCurrentIndex(std::max(findData(previous), 0));
    blockSignals(false);
}

QString PartitionPicker::selected() const {
    return currentData().toString();
}

} // namespace ssdk::app::ramcache
