#pragma once

#include <vector>

#include <QAbstractListModel>
#include <QHash>
#include <QList>

#include "core/device/device.h"

namespace ssdk::app {

// The drives of the last discovery, one row each, in discovery order. For screen readers,
// Qt::AccessibleTextRole names a drive (the lab drive's name, else its title) and
// Qt::AccessibleDescriptionRole says the rest: path, kind, size, lab/system/in use, and its
// activity now ("idle" or "12.3 MB/s now"). The drive's health is on the Health page.
class DriveListModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role {
        NameRole = Qt::UserRole + 1, // QString: kernel name, "nvme0n1"
        PathRole,                    // QString: "/dev/nvme0n1"
        BusRole,                     // int: device::Bus
        BusNameRole,                 // QString: "NVMe"
        CapacityRole,                // QString: "466 GiB"
        SizeRole,                    // qulonglong: bytes
        IsLabRole,                   // bool
        LabNameRole,                 // QString; empty when not a lab drive
        IsSystemRole,                // bool: holds the root filesystem
        RotationalRole,              // bool
        ActivityRole,                // QList<double>: recent read+write bytes/s, oldest first
    };

    // Samples kept per drive for its sparkline (one per DriveActivity interval).
    static constexpr qsizetype kActivityLength = 60;

    explicit DriveListModel(QObject* parent = nullptr);

    // Replaces the list. When the same drives come back in the same order only their data
    // changes (views keep selection and scroll position); otherwise the model is reset.
    void setDevices(std::vector<device::Device> devices);
    const std::vector<device::Device>& devices() const { return m_devices; }
    // Null when row is out of range. Valid until the next setDevices().
    const device::Device* deviceAt(int row) const;
    // The row of the drive with that kernel name (nvme0n1) or, failing that, that lab drive
    // name; -1 when there is none.
    int rowOfName(const QString& name) const;
    // Appends a throughput sample (bytes/s) to the drive's history, dropping the oldest past
    // kActivityLength, and signals dataChanged for that row's ActivityRole (and its accessible
    // description) only when its sparkline changes (an idle drive's flat line does not repaint).
    // Unknown names are ignored; a drive's history is forgotten when it leaves the list.
    void addActivity(const QString& name, double bytesPerS);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

private:
    QString accessibleDescription(const device::Device& device) const;

    std::vector<device::Device> m_devices;
    QHash<QString, QList<double>> m_activity; // by kernel name
};

} // namespace ssdk::app
