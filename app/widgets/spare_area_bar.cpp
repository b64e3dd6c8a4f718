#include "app/widgets/spare_area_bar.h"

#include <algorithm>

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include "app/device_text.h"
#include "app/theme.h"
#include "app/widgets/partition_bar.h"

namespace ssdk::app {

namespace {

constexpr int kBarHeight = 34;

} // namespace

SpareBarModel spareBarModel(const device::Device& device, const overprovision::Plan& plan,
                            bool after) {
    SpareBarModel model;
    model.total = device.size;
    std::vector<const device::Partition*> partitions;
    for (const auto& partition : device.partitions) {
        partitions.push_back(&partition);
    }
    std::sort(partitions.begin(), partitions.end(),
              [](const auto* a, const auto* b) { return a->start < b->start; });
    Bytes position(0);
    for (const auto* partition : partitions) {
        const bool planned = partition->number == plan.partitionNumber && plan.partitionIndex >= 0;
        Bytes size = partition->size;
        if (planned && after && plan.direction != overprovision::Direction::None) {
            size = plan.newPartitionSize;
        }
        if (partition->start.value > position.value + kMinimumShownUnallocated.value) {
            model.segments.push_back({SpareBarSegment::Kind::Unallocated, position,
                                      partition->start - position, -1, spare_colors::kUnallocated,
                                      QObject::tr("unallocated")});
        }
        SpareBarSegment segment{
            SpareBarSegment::Kind::Partition,       partition->start,          size, -1,
            filesystemColor(partition->filesystem), toQString(partition->name)};
        if (planned && plan.usage && size.value > 0) {
            segment.usedFraction = std::min(1.0, static_cast<double>(plan.usage->used.value) /
                                                     static_cast<double>(size.value));
        }
        model.segments.push_back(segment);
        position = std::max(position, partition->start + size);
    }
    if (device.size.value > position.value) {
        const Bytes rest = device.size - position;
        // Up to 1 MiB at the end is the GPT backup area and alignment, not spare.
        if (rest > overprovision::kPartitionAlignment) {
            model.segments.push_back({SpareBarSegment::Kind::UserSpare, position, rest, -1,
                                      spare_colors::kUserSpare, QObject::tr("spare (you)")});
        }
    }
    if (plan.factory && plan.factory->rawNand > device.size) {
        const Bytes extra = plan.factory->rawNand - device.size;
        model.segments.push_back({SpareBarSegment::Kind::FactorySpare, device.size, extra, -1,
                                  spare_colors::kFactorySpare, QObject::tr("factory spare")});
        model.total = plan.factory->rawNand;
    }
    return model;
}

SpareAreaBar::SpareAreaBar(QWidget* parent)
    : QWidget(parent) {
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setAccessibleName(tr("Spare area layout"));
}

void SpareAreaBar::setModel(SpareBarModel model) {
    m_model = std::move(model);
    QStringList parts;
    for (const SpareBarSegment& segment : m_model.segments) {
        parts << (segment.label.isEmpty()
                      ? sizeText(segment.size)
                      : segment.label + QLatin1Char(' ') + sizeText(segment.size));
    }
    setAccessibleDescription(parts.join(QStringLiteral(", ")));
    update();
}

QSize SpareAreaBar::sizeHint() const {
    return {600, kBarHeight + 2};
}
QSize SpareAreaBar::minimumSizeHint() const {
    return {200, kBarHeight + 2};
}

std::vector<QRect> SpareAreaBar::segmentRects() const {
    std::vector<QRect> rects;
    const QRect bar = rect().adjusted(1, 1, -1, -1);
    if (m_model.total.value == 0) {
        return rects;
    }
    const auto toX = [&](Bytes offset) {
        return bar.left() + static_cast<int>(static_cast<double>(offset.value) * bar.width() /
                                                 static_cast<double>(m_model.total.value) +
                                             0.5);
    };
    for (const auto& segment : m_model.segments) {
        const int left = toX(segment.start);
        const int right = std::max(left + 2, toX(segment.start + segment.size));
        rects.emplace_back(left, bar.top(), right - left, bar.height());
    }
    return rects;
}

bool SpareAreaBar::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const auto rects = segmentRects();
        for (std::size_t i = 0; i < rects.size(); ++i) {
            if (rects[i].contains(help->pos())) {
                const auto& segment = m_model.segments[i];
                QString text = segment.label + QStringLiteral(": ") + sizeText(segment.size);
                if (segment.usedFraction >= 0) {
                    text += tr(", %1 % used").arg(segment.usedFraction * 100.0, 0, 'f', 0);
                }
                QToolTip::showText(help->globalPos(), text, this);
                return true;
            }
        }
        QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void SpareAreaBar::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing, false);
    const QRect bar = rect().adjusted(1, 1, -1, -1);
    painter.fillRect(bar, theme::kTrack);
    const auto rects = segmentRects();
    for (std::size_t i = 0; i < rects.size(); ++i) {
        const auto& segment = m_model.segments[i];
        const QRect r = rects[i];
        switch (segment.kind) {
        case SpareBarSegment::Kind::Partition: {
            painter.fillRect(r, theme::faded(segment.color, 0.6));
            if (segment.usedFraction >= 0) {
                QRect used = r;
                used.setWidth(std::max(1, static_cast<int>(r.width() * segment.usedFraction)));
                painter.fillRect(used, segment.color);
            } else {
                painter.fillRect(r, segment.color);
            }
            break;
        }
        case SpareBarSegment::Kind::Unallocated:
            painter.fillRect(r, QBrush(theme::kHatch, Qt::BDiagPattern));
            break;
        case SpareBarSegment::Kind::UserSpare:
            painter.fillRect(r, theme::faded(segment.color, 0.65));
            painter.fillRect(r, QBrush(segment.color, Qt::BDiagPattern));
            break;
        case SpareBarSegment::Kind::FactorySpare:
            painter.fillRect(r, theme::faded(segment.color, 0.45));
            painter.fillRect(r, QBrush(segment.color.darker(130), Qt::Dense6Pattern));
            break;
        }
        painter.setPen(theme::kCard);
        painter.drawLine(r.topRight(), r.bottomRight());
        const QString label = segment.label + QStringLiteral(" ") + sizeText(segment.size);
        const QFontMetrics metrics(font());
        painter.setPen(segment.kind == SpareBarSegment::Kind::Partition ? QColor(Qt::white)
                                                                        : theme::kText);
        if (metrics.horizontalAdvance(label) + 8 < r.width()) {
            painter.drawText(r, Qt::AlignCenter, label);
        } else if (metrics.horizontalAdvance(segment.label) + 8 < r.width()) {
            painter.drawText(r, Qt::AlignCenter, segment.label);
        }
    }
    painter.setPen(theme::kBorder);
    painter.drawRect(bar.adjusted(0, 0, -1, -1));
}

} // namespace ssdk::app
