#pragma once

#include <array>

#include <QHash>

#include "app/pages/device_page.h"

class QFormLayout;
class QLabel;
class QStackedWidget;
class QTableWidget;

namespace ssdk::app {

class Badge;
class PartitionBar;

// Identity, capacity, capabilities and the partition layout of the selected drive.
// Value labels have object names "overview.<field>" (model, serial, firmware, vendor, wwn, bus,
// path, devno, lab, backing, mounts, filesystem, capacity, sectors, media, removable, readOnly,
// discard, table, holders) so tests and accessibility tools can find them.
class OverviewPage : public DevicePage {
    Q_OBJECT
public:
    explicit OverviewPage(QWidget* parent = nullptr);

    void setDevice(const device::Device* device) override;

    PartitionBar* partitionBar() const { return m_partitionBar; }
    QTableWidget* partitionTable() const { return m_partitionTable; }

private:
    QWidget* buildHeader();
    QWidget* buildIdentityCard();
    QWidget* buildCapabilitiesCard();
    QWidget* buildPartitionsCard();
    QLabel* addField(QFormLayout* form, const QString& title, const QString& name);
    void setField(QLabel* label, const QString& value);
    void showOptionalRows(const std::array<bool, 4>& shown);
    void fillPartitionTable(const device::Device& device);

    QStackedWidget* m_stack = nullptr;
    QLabel* m_icon = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_subtitle = nullptr;
    Badge* m_labBadge = nullptr;
    Badge* m_systemBadge = nullptr;
    Badge* m_inUseBadge = nullptr;

    QLabel* m_layoutSummary = nullptr;
    PartitionBar* m_partitionBar = nullptr;

    QFormLayout* m_identityForm = nullptr;
    QLabel* m_model = nullptr;
    QLabel* m_serial = nullptr;
    QLabel* m_firmware = nullptr;
    QLabel* m_vendor = nullptr;
    QLabel* m_wwn = nullptr;
    QLabel* m_bus = nullptr;
    QLabel* m_path = nullptr;
    QLabel* m_devno = nullptr;
    QLabel* m_lab = nullptr;
    QLabel* m_backing = nullptr;
    QLabel* m_mounts = nullptr;
    QLabel* m_filesystem = nullptr;
    // The titles of the optional rows above while they are out of the form.
    QHash<QLabel*, QWidget*> m_optionalTitles;

    QLabel* m_capacity = nullptr;
    QLabel* m_sectors = nullptr;
    QLabel* m_media = nullptr;
    QLabel* m_removable = nullptr;
    QLabel* m_readOnly = nullptr;
    QLabel* m_discard = nullptr;
    QLabel* m_table = nullptr;
    QLabel* m_holders = nullptr;

    QTableWidget* m_partitionTable = nullptr;
    QLabel* m_partitionsEmpty = nullptr;
};

} // namespace ssdk::app
