#include "app/pages/overview_page.h"

#include <QCoreApplication>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include "app/device_text.h"
#include "app/theme.h"
#include "app/widgets/badge.h"
#include "app/widgets/drive_icons.h"
#include "app/widgets/partition_bar.h"

namespace ssdk::app {

using device::Device;
using device::Partition;

namespace {

constexpr int kHeaderIconSize = 56;

enum Column {
    NumberColumn,
    NameColumn,
    StartColumn,
    SizeColumn,
    FilesystemColumn,
    LabelColumn,
    MountsColumn,
    HoldersColumn,
    ColumnCount
};

QLabel* makeLabel(const QString& text, const char* role, QWidget* parent = nullptr) {
    auto* label = new QLabel(text, parent);
    label->setProperty("role", QString::fromLatin1(role));
    return label;
}

QFrame* makeCard() {
    auto* card = new QFrame;
    card->setProperty("role", QStringLiteral("card"));
    return card;
}

QString orDash(const QString& text) {
    return text.isEmpty() ? QStringLiteral("—") : text;
}

QString yesNo(bool value) {
    return value ? QCoreApplication::translate("OverviewPage", "Yes")
                 : QCoreApplication::translate("OverviewPage", "No");
}

QIcon swatch(const QColor& color) {
    QPixmap pixmap(12, 12);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(color);
    painter.drawRoundedRect(QRectF(0, 0, 12, 12), 3, 3);
    return QIcon(pixmap);
}

QString sectorText(std::uint32_t bytes) {
    return bytes % 1024 == 0 && bytes >= 4096 ? QStringLiteral("%1 KiB").arg(bytes / 1024)
                                              : QStringLiteral("%1 B").arg(bytes);
}

} // namespace

OverviewPage::OverviewPage(QWidget* parent)
    : DevicePage(parent) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_stack = new QStackedWidget;
    outer->addWidget(m_stack);

    auto* empty = makeLabel(tr("Select a drive on the left to see its details."), "empty");
    empty->setObjectName(QStringLiteral("overview.empty"));
    empty->setAlignment(Qt::AlignCenter);
    m_stack->addWidget(empty);

    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(20, 18, 20, 20);
    layout->setSpacing(14);
    layout->addWidget(buildHeader());
    layout->addWidget(buildPartitionsCard());
    auto* details = new QHBoxLayout;
    details->setSpacing(14);
    details->addWidget(buildIdentityCard(), 1);
    details->addWidget(buildCapabilitiesCard(), 1);
    layout->addLayout(details);
    layout->addStretch(1);

    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(content);
    m_stack->addWidget(scroll);
    setDevice(nullptr);
}

QWidget* OverviewPage::buildHeader() {
    auto* card = makeCard();
    auto* row = new QHBoxLayout(card);
    row->setContentsMargins(18, 14, 18, 14);
    row->setSpacing(16);
    m_icon = new QLabel;
    m_icon->setFixedSize(kHeaderIconSize, kHeaderIconSize);
    row->addWidget(m_icon);

    auto* text = new QVBoxLayout;
    text->setSpacing(2);
    m_title = makeLabel({}, "title");
    m_title->setObjectName(QStringLiteral("overview.title"));
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_subtitle = makeLabel({}, "subtitle");
    m_subtitle->setObjectName(QStringLiteral("overview.subtitle"));
    text->addStretch(1);
    text->addWidget(m_title);
    text->addWidget(m_subtitle);
    text->addStretch(1);
    row->addLayout(text, 1);

    m_labBadge = new Badge(tr("LAB"), labBadgeStyle());
    m_labBadge->setToolTip(tr("An SSD Keeper lab drive: a loop device over a sparse image file, "
                              "safe for destructive experiments."));
    m_systemBadge = new Badge(tr("SYSTEM"), systemBadgeStyle());
    m_systemBadge->setToolTip(tr("Holds the root filesystem: destructive features refuse it."));
    m_inUseBadge = new Badge(tr("IN USE"), systemBadgeStyle());
    m_inUseBadge->setToolTip(tr("Mounted, or held by another block device."));
    row->addWidget(m_labBadge, 0, Qt::AlignTop);
    row->addWidget(m_systemBadge, 0, Qt::AlignTop);
    row->addWidget(m_inUseBadge, 0, Qt::AlignTop);
    return card;
}

QLabel* OverviewPage::addField(QFormLayout* form, const QString& title, const QString& name) {
    auto* value = new QLabel;
    value->setObjectName(QStringLiteral("overview.") + name);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    value->setWordWrap(true);
    value->setMinimumWidth(80);
    auto* label = makeLabel(title, "field");
    label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    form->addRow(label, value);
    return value;
}

// The rows only some drives have are taken out of the form and added back, in their order at
// its end, rather than hidden: in Qt 6.4 a QFormLayout row hidden and shown again inside a
// scroll area comes back 0 px high (tests/gui/test_layout.cpp saw it going from a disk to a
// lab drive).
void OverviewPage::showOptionalRows(const std::array<bool, 4>& shown) {
    const std::array<QLabel*, 4> fields{m_lab, m_backing, m_filesystem, m_mounts};
    for (QLabel* field : fields) {
        if (m_identityForm->indexOf(field) >= 0) {
            QWidget* title = m_identityForm->labelForField(field);
            const auto taken = m_identityForm->takeRow(field);
            delete taken.labelItem;
            delete taken.fieldItem;
            title->hide();
            field->hide();
            m_optionalTitles[field] = title;
        }
    }
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (shown[i]) {
            QWidget* title = m_optionalTitles.value(fields[i]);
            m_identityForm->addRow(title, fields[i]);
            title->show();
            fields[i]->show();
        }
    }
}

void OverviewPage::setField(QLabel* label, const QString& value) {
    label->setText(orDash(value));
}

QWidget* OverviewPage::buildIdentityCard() {
    auto* card = makeCard();
    auto* layout = new QVBoxLayout(card);
    layout->setContentsMargins(18, 14, 18, 14);
    layout->setSpacing(10);
    layout->addWidget(makeLabel(tr("Identity"), "section"));
    m_identityForm = new QFormLayout;
    m_identityForm->setHorizontalSpacing(16);
    m_identityForm->setVerticalSpacing(7);
    m_identityForm->setLabelAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_identityForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_model = addField(m_identityForm, tr("Model"), QStringLiteral("model"));
    m_vendor = addField(m_identityForm, tr("Vendor"), QStringLiteral("vendor"));
    m_serial = addField(m_identityForm, tr("Serial number"), QStringLiteral("serial"));
    m_firmware = addField(m_identityForm, tr("Firmware"), QStringLiteral("firmware"));
    m_wwn = addField(m_identityForm, tr("WWN"), QStringLiteral("wwn"));
    m_bus = addField(m_identityForm, tr("Bus"), QStringLiteral("bus"));
    m_path = addField(m_identityForm, tr("Device"), QStringLiteral("path"));
    m_devno = addField(m_identityForm, tr("Device number"), QStringLiteral("devno"));
    m_lab = addField(m_identityForm, tr("Lab drive"), QStringLiteral("lab"));
    m_backing = addField(m_identityForm, tr("Backing file"), QStringLiteral("backing"));
    m_filesystem = addField(m_identityForm, tr("Filesystem"), QStringLiteral("filesystem"));
    m_mounts = addField(m_identityForm, tr("Mounted at"), QStringLiteral("mounts"));
    layout->addLayout(m_identityForm);
    layout->addStretch(1);
    return card;
}

QWidget* OverviewPage::buildCapabilitiesCard() {
    auto* card = makeCard();
    auto* layout = new QVBoxLayout(card);
    layout->setContentsMargins(18, 14, 18, 14);
    layout->setSpacing(10);
    layout->addWidget(makeLabel(tr("Capacity and capabilities"), "section"));
    auto* form = new QFormLayout;
    form->setHorizontalSpacing(16);
    form->setVerticalSpacing(7);
    form->setLabelAlignment(Qt::AlignLeft | Qt::AlignTop);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_capacity = addField(form, tr("Capacity"), QStringLiteral("capacity"));
    m_sectors = addField(form, tr("Sector size"), QStringLiteral("sectors"));
    m_media = addField(form, tr("Media"), QStringLiteral("media"));
    m_removable = addField(form, tr("Removable"), QStringLiteral("removable"));
    m_readOnly = addField(form, tr("Read-only"), QStringLiteral("readOnly"));
    m_discard = addField(form, tr("TRIM / discard"), QStringLiteral("discard"));
    m_table = addField(form, tr("Partition table"), QStringLiteral("table"));
    m_holders = addField(form, tr("Held by"), QStringLiteral("holders"));
    layout->addLayout(form);
    layout->addStretch(1);
    return card;
}

QWidget* OverviewPage::buildPartitionsCard() {
    auto* card = makeCard();
    auto* layout = new QVBoxLayout(card);
    layout->setContentsMargins(18, 14, 18, 14);
    layout->setSpacing(10);
    auto* heading = new QHBoxLayout;
    heading->addWidget(makeLabel(tr("Partitions"), "section"));
    heading->addStretch(1);
    m_layoutSummary = makeLabel({}, "muted");
    m_layoutSummary->setObjectName(QStringLiteral("overview.layoutSummary"));
    heading->addWidget(m_layoutSummary);
    layout->addLayout(heading);
    m_partitionBar = new PartitionBar;
    m_partitionBar->setObjectName(QStringLiteral("overview.partitionBar"));
    layout->addWidget(m_partitionBar);

    m_partitionTable = new QTableWidget(0, ColumnCount);
    m_partitionTable->setObjectName(QStringLiteral("overview.partitions"));
    m_partitionTable->setAccessibleName(tr("Partitions"));
    m_partitionTable->setHorizontalHeaderLabels({tr("#"), tr("Partition"), tr("Start"), tr("Size"),
                                                 tr("Filesystem"), tr("Label"), tr("Mounted at"),
                                                 tr("Held by")});
    m_partitionTable->verticalHeader()->hide();
    m_partitionTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_partitionTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_partitionTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_partitionTable->setShowGrid(false);
    m_partitionTable->setAlternatingRowColors(true);
    m_partitionTable->setWordWrap(false);
    m_partitionTable->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_partitionTable->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_partitionTable->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_partitionTable->horizontalHeader()->setHighlightSections(false);
    m_partitionTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_partitionTable->horizontalHeader()->setSectionResizeMode(MountsColumn, QHeaderView::Stretch);
    m_partitionTable->horizontalHeader()->setMinimumSectionSize(36);
    m_partitionTable->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    layout->addWidget(m_partitionTable);

    m_partitionsEmpty = makeLabel({}, "muted");
    m_partitionsEmpty->setObjectName(QStringLiteral("overview.partitionsEmpty"));
    m_partitionsEmpty->setWordWrap(true);
    layout->addWidget(m_partitionsEmpty);

    connect(m_partitionBar, &PartitionBar::partitionClicked, this,
            [this](int index) { m_partitionTable->selectRow(index); });
    connect(m_partitionTable, &QTableWidget::itemSelectionChanged, this, [this] {
        const auto rows = m_partitionTable->selectionModel()->selectedRows();
        m_partitionBar->setHighlightedPartition(rows.isEmpty() ? -1 : rows.first().row());
    });
    return card;
}

void OverviewPage::fillPartitionTable(const Device& device) {
    m_partitionTable->clearContents();
    m_partitionTable->setRowCount(static_cast<int>(device.partitions.size()));
    for (std::size_t i = 0; i < device.partitions.size(); ++i) {
        const Partition& partition = device.partitions[i];
        const int row = static_cast<int>(i);
        auto set = [&](int column, const QString& text, const QString& toolTip = {}) {
            auto* item = new QTableWidgetItem(text);
            if (!toolTip.isEmpty()) {
                item->setToolTip(toolTip);
            }
            m_partitionTable->setItem(row, column, item);
            return item;
        };
        set(NumberColumn, QString::number(partition.number))
            ->setIcon(swatch(filesystemColor(partition.filesystem)));
        set(NameColumn, toQString(partition.name), toQString(partition.path));
        set(StartColumn, sizeText(partition.start),
            tr("%1 bytes")
                .arg(QLocale::system().toString(static_cast<qulonglong>(partition.start.value))));
        set(SizeColumn, sizeText(partition.size), capacityDetailText(partition.size));
        const QString type =
            partition.filesystem ? toQString(partition.filesystem->type) : QString();
        const QString uuid =
            partition.filesystem ? toQString(partition.filesystem->uuid) : QString();
        set(FilesystemColumn, orDash(type), uuid.isEmpty() ? QString() : tr("UUID %1").arg(uuid));
        const QString label =
            partition.filesystem ? toQString(partition.filesystem->label) : QString();
        set(LabelColumn, orDash(label),
            partition.partitionLabel.empty()
                ? QString()
                : tr("Partition name: %1").arg(toQString(partition.partitionLabel)));
        const QString mounts = mountPointsText(partition.mounts);
        set(MountsColumn, orDash(mounts), mounts);
        set(HoldersColumn, orDash(holdersText(partition.holders)));
    }
    m_partitionTable->resizeRowsToContents();
    int height = m_partitionTable->horizontalHeader()->sizeHint().height() +
                 2 * m_partitionTable->frameWidth();
    for (int row = 0; row < m_partitionTable->rowCount(); ++row) {
        height += m_partitionTable->rowHeight(row);
    }
    m_partitionTable->setFixedHeight(height);
}

void OverviewPage::setDevice(const Device* device) {
    if (device == nullptr) {
        m_stack->setCurrentIndex(0);
        m_partitionBar->setDevice(nullptr);
        return;
    }
    m_stack->setCurrentIndex(1);
    const Device& d = *device;

    m_icon->setPixmap(driveIcon(d.bus, d.rotational, kHeaderIconSize, devicePixelRatioF()));
    m_title->setText(deviceTitle(d));
    m_subtitle->setText(
        QStringList{toQString(d.path), busDisplayName(d.bus), capacityText(d.size)}.join(
            QStringLiteral(" · ")));
    m_labBadge->setVisible(d.isLab());
    m_systemBadge->setVisible(d.holdsRootFilesystem());
    m_inUseBadge->setVisible(!d.holdsRootFilesystem() && d.inUse());

    setField(m_model, toQString(d.model));
    setField(m_vendor, toQString(d.vendor));
    setField(m_serial, toQString(d.serial));
    setField(m_firmware, toQString(d.firmware));
    setField(m_wwn, toQString(d.wwn));
    setField(m_bus, busDisplayName(d.bus));
    setField(m_path, toQString(d.path));
    setField(m_devno, toQString(d.devno));
    setField(m_lab, d.labName ? toQString(*d.labName) : QString());
    setField(m_backing, toQString(d.loopBackingFile));
    if (d.filesystem) {
        QString text = toQString(d.filesystem->type);
        if (!d.filesystem->label.empty()) {
            text += QStringLiteral(" “%1”").arg(toQString(d.filesystem->label));
        }
        setField(m_filesystem, text);
    }
    setField(m_mounts, mountPointsText(d.mounts));
    showOptionalRows(
        {d.isLab(), !d.loopBackingFile.empty(), d.filesystem.has_value(), !d.mounts.empty()});

    setField(m_capacity,
             tr("%1\n%2 bytes")
                 .arg(capacityText(d.size),
                      QLocale::system().toString(static_cast<qulonglong>(d.size.value))));
    setField(m_sectors,
             tr("%1 logical · %2 physical")
                 .arg(sectorText(d.logicalSectorSize), sectorText(d.physicalSectorSize)));
    setField(m_media, d.rotational ? tr("Rotational (HDD)") : tr("Non-rotational (SSD / flash)"));
    setField(m_removable, yesNo(d.removable));
    setField(m_readOnly, yesNo(d.readOnly));
    setField(m_discard, d.supportsDiscard()
                            ? tr("Supported · granularity %1 · up to %2 per request")
                                  .arg(sizeText(d.discardGranularity), sizeText(d.discardMaxBytes))
                            : tr("Not supported"));
    setField(m_table,
             d.partitionTableType.empty() ? tr("None") : partitionTableText(d.partitionTableType));
    setField(m_holders, d.holders.empty() ? tr("None") : holdersText(d.holders));

    m_partitionBar->setDevice(&d);
    const auto count = d.partitions.size();
    QStringList summary;
    if (!d.partitionTableType.empty()) {
        summary << partitionTableText(d.partitionTableType);
    }
    if (count > 0 || !d.partitionTableType.empty()) {
        summary << (count == 1 ? tr("1 partition") : tr("%1 partitions").arg(count));
    } else {
        summary << tr("No partition table");
    }
    m_layoutSummary->setText(summary.join(QStringLiteral(" · ")));

    const QString emptyText = d.partitions.empty() ? wholeDeviceText(d) : QString();
    m_partitionsEmpty->setText(emptyText);
    m_partitionsEmpty->setVisible(!emptyText.isEmpty());
    m_partitionTable->setVisible(!d.partitions.empty());
    fillPartitionTable(d);
}

} // namespace ssdk::app
