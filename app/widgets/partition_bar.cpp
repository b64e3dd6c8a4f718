#include "app/widgets/partition_bar.h"

#include <algorithm>
#include <cmath>

#include <QFontMetrics>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include "app/device_text.h"
#include "app/theme.h"

namespace ssdk::app {

using device::Device;
using device::Partition;

namespace {

constexpr int kBarHeight = 46;
constexpr int kScaleGap = 4;
constexpr int kMinimumDrawnPartition = 4;

// Pixels for a byte offset on a bar of `width` pixels for a disk of `total` bytes.
int pixelFor(Bytes offset, Bytes total, int width) {
    if (total.value == 0) {
        return 0;
    }
    const long double fraction = static_cast<long double>(std::min(offset, total).value) /
                                 static_cast<long double>(total.value);
    return static_cast<int>(std::lround(fraction * width));
}

bool isDark(const QColor& color) {
    return 0.299 * color.redF() + 0.587 * color.greenF() + 0.114 * color.blueF() < 0.62;
}

} // namespace

std::vector<PartitionSegment> layoutPartitionSegments(const Device& device, int width,
                                                      int minPartitionWidth) {
    std::vector<PartitionSegment> segments;
    if (width <= 0 || device.size.value == 0) {
        return segments;
    }
    const Bytes total = device.size;
    if (device.partitions.empty()) {
        PartitionSegment whole;
        const bool used = device.filesystem || !device.mounts.empty() || !device.holders.empty();
        whole.kind =
            used ? PartitionSegment::Kind::WholeDevice : PartitionSegment::Kind::Unallocated;
        whole.size = total;
        whole.width = width;
        segments.push_back(whole);
        return segments;
    }

    std::vector<int> order(device.partitions.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        order[i] = static_cast<int>(i);
    }
    std::ranges::stable_sort(
        order, {}, [&](int i) { return device.partitions[static_cast<std::size_t>(i)].start; });

    int drawnUpTo = 0; // pixels already covered
    Bytes coveredUpTo; // bytes already covered by partitions
    auto addUnallocated = [&](Bytes from, Bytes to) {
        if (to <= from || (to - from) < kMinimumShownUnallocated) {
            return;
        }
        const int left = std::max(pixelFor(from, total, width), drawnUpTo);
        const int right = std::min(pixelFor(to, total, width), width);
        if (right <= left) {
            return;
        }
        PartitionSegment gap;
        gap.kind = PartitionSegment::Kind::Unallocated;
        gap.start = from;
        gap.size = to - from;
        gap.x = left;
        gap.width = right - left;
        segments.push_back(gap);
        drawnUpTo = right;
    };

    for (const int index : order) {
        const Partition& partition = device.partitions[static_cast<std::size_t>(index)];
        const Bytes start = std::min(partition.start, total);
        const Bytes end = std::min(partition.start + partition.size, total);
        addUnallocated(coveredUpTo, start);
        const int left = std::min(std::max(pixelFor(start, total, width), drawnUpTo), width);
        const int right =
            std::min(std::max(pixelFor(end, total, width), left + minPartitionWidth), width);
        PartitionSegment segment;
        segment.kind = PartitionSegment::Kind::Partition;
        segment.partitionIndex = index;
        segment.start = partition.start;
        segment.size = partition.size;
        segment.x = left;
        segment.width = right - left;
        segments.push_back(segment);
        drawnUpTo = std::max(drawnUpTo, right);
        coveredUpTo = std::max(coveredUpTo, end);
    }
    addUnallocated(coveredUpTo, total);
    return segments;
}

QColor filesystemColor(const std::optional<device::Filesystem>& filesystem) {
    const std::string type = filesystem ? filesystem->type : std::string();
    if (type == "ext4" || type == "ext3" || type == "ext2") {
        return {0x3b, 0x82, 0xf6};
    }
    if (type == "xfs") {
        return {0x63, 0x66, 0xf1};
    }
    if (type == "btrfs") {
        return {0xf9, 0x73, 0x16};
    }
    if (type == "vfat" || type == "fat" || type == "msdos") {
        return {0x10, 0xb9, 0x81};
    }
    if (type == "ntfs" || type == "ntfs3") {
        return {0x0e, 0xa5, 0xe9};
    }
    if (type == "exfat") {
        return {0xea, 0xb3, 0x08};
    }
    if (type == "crypto_LUKS") {
        return {0x8b, 0x5c, 0xf6};
    }
    if (type == "LVM2_member") {
        return {0xb4, 0x53, 0x09};
    }
    if (type == "swap") {
        return {0xef, 0x44, 0x44};
    }
    if (type == "linux_raid_member") {
        return {0x06, 0xb6, 0xd4};
    }
    if (type == "zfs_member") {
        return {0x65, 0xa3, 0x0d};
    }
    if (type == "f2fs") {
        return {0xec, 0x48, 0x99};
    }
    return {0x94, 0xa3, 0xb8};
}

PartitionBar::PartitionBar(QWidget* parent)
    : QWidget(parent) {
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setAccessibleName(tr("Partition layout"));
    setAccessibleDescription(tr("No drive"));
}

void PartitionBar::setDevice(const Device* device) {
    m_device = device != nullptr ? std::optional<Device>(*device) : std::nullopt;
    m_hoveredSegment = -1;
    m_highlightedPartition = -1;
    if (device == nullptr) {
        setAccessibleDescription(tr("No drive"));
    } else {
        QStringList parts;
        for (const device::Partition& partition : device->partitions) {
            parts << QStringLiteral("%1 %2 %3")
                         .arg(toQString(partition.name),
                              partition.filesystem ? toQString(partition.filesystem->type)
                                                   : tr("no filesystem"),
                              sizeText(partition.size));
        }
        setAccessibleDescription(
            parts.isEmpty() ? tr("No partitions, %1").arg(sizeText(device->size))
                            : tr("%n partitions: %1", nullptr, static_cast<int>(parts.size()))
                                  .arg(parts.join(QStringLiteral(", "))));
    }
    update();
}

void PartitionBar::setHighlightedPartition(int index) {
    if (m_highlightedPartition != index) {
        m_highlightedPartition = index;
        update();
    }
}

QSize PartitionBar::sizeHint() const {
    return {600, kBarHeight + kScaleGap + fontMetrics().height()};
}

QSize PartitionBar::minimumSizeHint() const {
    return {120, kBarHeight + kScaleGap + fontMetrics().height()};
}

QRect PartitionBar::barRect() const {
    return {0, 0, width(), kBarHeight};
}

std::vector<PartitionSegment> PartitionBar::segments() const {
    if (!m_device) {
        return {};
    }
    return layoutPartitionSegments(*m_device, barRect().width(), kMinimumDrawnPartition);
}

int PartitionBar::segmentAt(const QPoint& position) const {
    if (!barRect().contains(position)) {
        return -1;
    }
    const auto all = segments();
    for (std::size_t i = 0; i < all.size(); ++i) {
        if (position.x() >= all[i].x && position.x() < all[i].x + all[i].width) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

QString PartitionBar::toolTipFor(const PartitionSegment& segment) const {
    const auto range = [&] {
        return tr("%1 – %2").arg(sizeText(segment.start), sizeText(segment.start + segment.size));
    };
    switch (segment.kind) {
    case PartitionSegment::Kind::Unallocated:
        return tr("<b>Unallocated</b><br>%1<br>%2").arg(capacityDetailText(segment.size), range());
    case PartitionSegment::Kind::WholeDevice:
        return tr("<b>%1</b><br>%2")
            .arg(wholeDeviceText(*m_device).toHtmlEscaped(), capacityDetailText(segment.size));
    case PartitionSegment::Kind::Partition:
        break;
    }
    const Partition& partition =
        m_device->partitions[static_cast<std::size_t>(segment.partitionIndex)];
    QStringList lines;
    lines << QStringLiteral("<b>%1</b>").arg(toQString(partition.path).toHtmlEscaped());
    lines << capacityDetailText(partition.size);
    lines << tr("Starts at %1").arg(sizeText(partition.start));
    if (partition.filesystem) {
        QString fs = toQString(partition.filesystem->type).toHtmlEscaped();
        if (!partition.filesystem->label.empty()) {
            fs +=
                QStringLiteral(" “%1”").arg(toQString(partition.filesystem->label).toHtmlEscaped());
        }
        lines << tr("Filesystem: %1").arg(fs);
    }
    if (!partition.partitionLabel.empty()) {
        lines << tr("Partition name: %1").arg(toQString(partition.partitionLabel).toHtmlEscaped());
    }
    if (const QString mounts = mountPointsText(partition.mounts); !mounts.isEmpty()) {
        lines << tr("Mounted at %1").arg(mounts.toHtmlEscaped());
    }
    if (const QString holders = holdersText(partition.holders); !holders.isEmpty()) {
        lines << tr("Held by %1").arg(holders.toHtmlEscaped());
    }
    return lines.join(QStringLiteral("<br>"));
}

bool PartitionBar::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int index = segmentAt(help->pos());
        if (index >= 0) {
            QToolTip::showText(help->globalPos(),
                               toolTipFor(segments()[static_cast<std::size_t>(index)]), this);
        } else {
            QToolTip::hideText();
            event->ignore();
        }
        return true;
    }
    return QWidget::event(event);
}

void PartitionBar::mouseMoveEvent(QMouseEvent* event) {
    const int index = segmentAt(event->position().toPoint());
    if (index != m_hoveredSegment) {
        m_hoveredSegment = index;
        update();
    }
}

void PartitionBar::mousePressEvent(QMouseEvent* event) {
    const int index = segmentAt(event->position().toPoint());
    if (index < 0 || event->button() != Qt::LeftButton) {
        return;
    }
    const PartitionSegment segment = segments()[static_cast<std::size_t>(index)];
    if (segment.kind == PartitionSegment::Kind::Partition) {
        emit partitionClicked(segment.partitionIndex);
    }
}

void PartitionBar::leaveEvent(QEvent*) {
    if (m_hoveredSegment != -1) {
        m_hoveredSegment = -1;
        update();
    }
}

void PartitionBar::paintSegment(QPainter& painter, const PartitionSegment& segment,
                                const QRect& rect) const {
    QString title;
    QString detail;
    QColor fill;
    switch (segment.kind) {
    case PartitionSegment::Kind::Unallocated:
        painter.fillRect(rect, theme::kTrack);
        painter.fillRect(rect, QBrush(theme::kHatch, Qt::BDiagPattern));
        title = tr("Unallocated");
        detail = sizeText(segment.size);
        break;
    case PartitionSegment::Kind::WholeDevice: {
        const QString type = wholeDeviceFilesystemType(*m_device);
        fill = type.isEmpty() ? filesystemColor(std::nullopt)
                              : filesystemColor(device::Filesystem{type.toStdString(), {}, {}});
        painter.fillRect(rect, fill);
        title = type.isEmpty() ? tr("Whole device") : type;
        if (m_device->filesystem && !m_device->filesystem->label.empty()) {
            title += QStringLiteral(" “%1”").arg(toQString(m_device->filesystem->label));
        }
        QStringList parts{sizeText(segment.size)};
        if (const QString mounts = mountPointsText(m_device->mounts); !mounts.isEmpty()) {
            parts << tr("mounted at %1").arg(mounts);
        } else if (const QString holders = holdersText(m_device->holders); !holders.isEmpty()) {
            parts << tr("held by %1").arg(holders);
        }
        detail = parts.join(QStringLiteral(" · "));
        break;
    }
    case PartitionSegment::Kind::Partition: {
        const Partition& partition =
            m_device->partitions[static_cast<std::size_t>(segment.partitionIndex)];
        fill = filesystemColor(partition.filesystem);
        painter.fillRect(rect, fill);
        title = toQString(partition.name);
        QStringList parts;
        if (partition.filesystem) {
            parts << toQString(partition.filesystem->type);
            if (!partition.filesystem->label.empty()) {
                parts << QStringLiteral("“%1”").arg(toQString(partition.filesystem->label));
            }
        }
        parts << sizeText(partition.size);
        detail = parts.join(QStringLiteral(" · "));
        break;
    }
    }

    const QRect textRect = rect.adjusted(8, 4, -6, -4);
    if (textRect.width() < 24) {
        return;
    }
    const QColor textColor =
        fill.isValid() && isDark(fill) ? QColor(Qt::white) : QColor(theme::kText);
    QFont titleFont = font();
    titleFont.setBold(true);
    const QFontMetrics titleMetrics(titleFont);
    const QFontMetrics detailMetrics(font());
    painter.setPen(textColor);
    const int blockHeight = titleMetrics.height() + detailMetrics.height();
    const int top = textRect.top() + (textRect.height() - blockHeight) / 2;
    const QString elidedTitle = titleMetrics.elidedText(title, Qt::ElideRight, textRect.width());
    painter.setFont(titleFont);
    painter.drawText(QRect(textRect.left(), top, textRect.width(), titleMetrics.height()),
                     Qt::AlignLeft | Qt::AlignVCenter, elidedTitle);
    const QString elidedDetail = detailMetrics.elidedText(detail, Qt::ElideRight, textRect.width());
    if (elidedDetail.size() > 3) {
        painter.setFont(font());
        painter.drawText(QRect(textRect.left(), top + titleMetrics.height(), textRect.width(),
                               detailMetrics.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, elidedDetail);
    }
}

void PartitionBar::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QRect bar = barRect();
    QPainterPath track;
    track.addRoundedRect(QRectF(bar).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
    painter.fillPath(track, theme::kTrack);

    const auto all = segments();
    painter.save();
    painter.setClipPath(track);
    for (std::size_t i = 0; i < all.size(); ++i) {
        const PartitionSegment& segment = all[i];
        const QRect rect(bar.left() + segment.x, bar.top(), segment.width, bar.height());
        paintSegment(painter, segment, rect);
        const bool highlighted = static_cast<int>(i) == m_hoveredSegment ||
                                 (segment.kind == PartitionSegment::Kind::Partition &&
                                  segment.partitionIndex == m_highlightedPartition);
        if (highlighted) {
            painter.fillRect(rect, QColor(255, 255, 255, 40));
            painter.setPen(QPen(theme::kText, 2));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(QRectF(rect).adjusted(1, 1, -1, -1));
        }
        if (segment.x > 0) {
            painter.fillRect(QRect(rect.left() - 1, rect.top(), 2, rect.height()), Qt::white);
        }
    }
    painter.restore();
    painter.setPen(QPen(theme::kBorder, 1));
    painter.setBrush(Qt::NoBrush);
    painter.drawPath(track);

    if (!m_device) {
        return;
    }
    painter.setPen(theme::kMutedText);
    if (all.empty()) {
        painter.drawText(bar, Qt::AlignCenter, tr("0 bytes"));
    }
    painter.setFont(font());
    const QRect scale(0, bar.bottom() + 1 + kScaleGap, width(), fontMetrics().height());
    painter.drawText(scale, Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("0"));
    painter.drawText(scale, Qt::AlignRight | Qt::AlignVCenter, capacityText(m_device->size));
}

} // namespace ssdk::app
