#include "app/models/drive_list_model.h"

#include <algorithm>

#include "app/device_text.h"

namespace ssdk::app {

using device::Device;

DriveListModel::DriveListModel(QObject* parent)
    : QAbstractListModel(parent) {}

void DriveListModel::setDevices(std::vector<Device> devices) {
    const bool sameDrives = std::ranges::equal(
        devices, m_devices, [](const Device& a, const Device& b) { return a.name == b.name; });
    if (sameDrives) {
        m_devices = std::move(devices);
        if (!m_devices.empty()) {
            emit dataChanged(index(0), index(rowCount() - 1));
        }
        return;
    }
    beginResetModel();
    m_devices = std::move(devices);
    for (auto it = m_activity.begin(); it != m_activity.end();) {
        if (rowOfName(it.key()) < 0) {
            it = m_activity.erase(it);
        } else {
            ++it;
        }
    }
    endResetModel();
}

void DriveListModel::addActivity(const QString& name, double bytesPerS) {
    const std::string wanted = name.toStdString();
    const auto it = std::ranges::find(m_devices, wanted, &Device::name);
    if (it == m_devices.end()) {
        return;
    }
    QList<double>& history = m_activity[name];
    const bool wasFlat = std::ranges::all_of(history, [](double v) { return v == 0; });
    history.append(std::max(0.0, bytesPerS));
    if (history.size() > kActivityLength) {
        history.removeFirst();
    }
    if (wasFlat && bytesPerS <= 0) {
        return;
    }
    const QModelIndex changed = index(static_cast<int>(it - m_devices.begin()));
    emit dataChanged(changed, changed, {ActivityRole, Qt::AccessibleDescriptionRole});
}

QString DriveListModel::accessibleDescription(const Device& device) const {
    QStringList parts{toQString(device.path), busDisplayName(device.bus),
                      capacityText(device.size)};
    if (device.labName) {
        parts << tr("lab drive");
    }
    if (device.holdsRootFilesystem()) {
        parts << tr("system disk");
    } else if (device.inUse()) {
        parts << tr("in use");
    }
    const QList<double> history = m_activity.value(toQString(device.name));
    if (history.isEmpty() || history.back() <= 0) {
        parts << tr("idle");
    } else {
        parts << tr("%1 MB/s now").arg(history.back() / 1e6, 0, 'f', history.back() < 10e6 ? 1 : 0);
    }
    return parts.join(QStringLiteral(", "));
}

const Device* DriveListModel::deviceAt(int row) const {
    if (row < 0 || row >= rowCount()) {
        return nullptr;
    }
    return &m_devices[static_cast<std::size_t>(row)];
}

int DriveListModel::rowOfName(const QString& name) const {
    const std::string wanted = name.toStdString();
    auto it = std::ranges::find(m_devices, wanted, &Device::name);
    if (it == m_devices.end()) {
        it = std::ranges::find(m_devices, std::optional<std::string>(wanted), &Device::labName);
    }
    return it == m_devices.end() ? -1 : static_cast<int>(it - m_devices.begin());
}

int DriveListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_devices.size());
}

QVariant DriveListModel::data(const QModelIndex& index, int role) const {
    const Device* device = index.isValid() ? deviceAt(index.row()) : nullptr;
    if (device == nullptr) {
        return {};
    }
    switch (role) {
    case Qt::DisplayRole:
        return deviceTitle(*device);
    case Qt::ToolTipRole:
        return deviceToolTip(*device);
    case Qt::AccessibleTextRole:
        return device->labName ? tr("Lab drive %1").arg(toQString(*device->labName))
                               : deviceTitle(*device);
    case Qt::AccessibleDescriptionRole:
        return accessibleDescription(*device);
    case NameRole:
        return toQString(device->name);
    case PathRole:
        return toQString(device->path);
    case BusRole:
        return static_cast<int>(device->bus);
    case BusNameRole:
        return busDisplayName(device->bus);
    case CapacityRole:
        return capacityText(device->size);
    case SizeRole:
        return static_cast<qulonglong>(device->size.value);
    case IsLabRole:
        return device->isLab();
    case LabNameRole:
        return device->labName ? toQString(*device->labName) : QString();
    case IsSystemRole:
        return device->holdsRootFilesystem();
    case RotationalRole:
        return device->rotational;
    case ActivityRole:
        return QVariant::fromValue(m_activity.value(toQString(device->name)));
    default:
        return {};
    }
}

QHash<int, QByteArray> DriveListModel::roleNames() const {
    auto names = QAbstractListModel::roleNames();
    names.insert(NameRole, "name");
    names.insert(PathRole, "path");
    names.insert(BusRole, "bus");
    names.insert(BusNameRole, "busName");
    names.insert(CapacityRole, "capacity");
    names.insert(SizeRole, "size");
    names.insert(IsLabRole, "isLab");
    names.insert(LabNameRole, "labName");
    names.insert(IsSystemRole, "isSystem");
    names.insert(RotationalRole, "rotational");
    names.insert(ActivityRole, "activity");
    return names;
}

} // namespace ssdk::app
