#include "app/widgets/drive_delegate.h"

#include <algorithm>
#include <utility>
#include <vector>

#include <QFontMetrics>
#include <QPainter>
#include <QPainterPath>
#include <QPolygonF>

#include "app/models/drive_list_model.h"
#include "app/theme.h"
#include "app/widgets/badge.h"
#include "app/widgets/drive_icons.h"

namespace ssdk::app {

namespace {

constexpr int kMargin = 8;   // between the row's edge and its card
constexpr int kPadding = 10; // inside the card

// A smaller font for the sparkline's rate.
QFont rateFont(const QFont& font) {
    QFont small = font;
    small.setPointSizeF(std::max(6.0, font.pointSizeF() * 0.75));
    return small;
}

bool idle(const QList<double>& history) {
    return std::ranges::all_of(history, [](double value) { return value <= 0; });
}

// The sparkline: total MB/s of the last DriveListModel::kActivityLength samples, newest at
// the right edge, scaled to its own maximum (at least 1 MB/s, so idle noise stays flat).
// Everything stays inside rect.
void paintSparkline(QPainter& painter, const QRect& rect, const QList<double>& history) {
    const double peak = *std::ranges::max_element(history);
    painter.save();
    painter.setClipRect(rect);
    painter.setPen(QPen(theme::kBorder, 1));
    painter.drawLine(rect.bottomLeft(), rect.bottomRight());
    const double scale = std::max(peak, 1e6);
    const double step =
        static_cast<double>(rect.width() - 1) / double(DriveListModel::kActivityLength - 1);
    // Half the pen's width inside the top, so the peak is not clipped.
    const double height = rect.height() - 2;
    QPolygonF line;
    line.reserve(history.size());
    const auto first = DriveListModel::kActivityLength - history.size();
    for (qsizetype i = 0; i < history.size(); ++i) {
        line.append(QPointF(rect.left() + static_cast<double>(first + i) * step,
                            rect.bottom() - history[i] / scale * height));
    }
    QPainterPath area;
    area.moveTo(line.front().x(), rect.bottom());
    for (const QPointF& point : line) {
        area.lineTo(point);
    }
    area.lineTo(line.back().x(), rect.bottom());
    QColor fill = theme::kAccent;
    fill.setAlpha(40);
    painter.fillPath(area, fill);
    painter.setPen(QPen(theme::kAccent, 1.5));
    painter.drawPolyline(line);
    painter.restore();
}

} // namespace

QSize DriveDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex&) const {
    const QFontMetrics metrics(option.font);
    const int textHeight = 3 * metrics.height() + 2 * kPadding + 6;
    return {std::max(option.rect.width(), 220), std::max(kRowHeight, textHeight)};
}

DriveDelegate::RowLayout DriveDelegate::layoutRow(const QStyleOptionViewItem& option,
                                                  const QModelIndex& index) const {
    RowLayout row;
    row.card = option.rect.adjusted(kMargin, 3, -kMargin, -3);
    row.icon = QRect(row.card.left() + kPadding, row.card.center().y() - kIconSize / 2 + 1,
                     kIconSize, kIconSize);
    const int textLeft = row.icon.right() + 12;
    const int textRight = row.card.right() - kPadding;
    // The sparkline's column takes the right end of the title and path lines, idle or not,
    // so the texts do not move when a drive wakes.
    const int sparkWidth = std::min(kSparklineWidth, std::max(0, (textRight - textLeft) / 3));
    const int linesRight = textRight - sparkWidth - (sparkWidth > 0 ? 8 : 0);

    QFont titleFont = option.font;
    titleFont.setBold(true);
    const QFontMetrics titleMetrics(titleFont);
    const QFontMetrics metrics(option.font);
    const int lineHeight = metrics.height();
    const int width = std::max(0, linesRight - textLeft);
    const int top =
        row.card.top() + (row.card.height() - titleMetrics.height() - 2 * lineHeight - 4) / 2;

    // A lab drive is known by its name (its model is the same for all of them).
    const QString labName = index.data(DriveListModel::LabNameRole).toString();
    const QString title = labName.isEmpty() ? index.data(Qt::DisplayRole).toString() : labName;
    row.title = QRect(textLeft, top, width, titleMetrics.height());
    row.titleText = titleMetrics.elidedText(title, Qt::ElideMiddle, width);

    const QString second =
        index.data(DriveListModel::PathRole).toString() + QStringLiteral(" · ") +
        (labName.isEmpty() ? index.data(DriveListModel::BusNameRole).toString() : tr("lab drive"));
    row.second = QRect(textLeft, row.title.bottom() + 3, width, lineHeight);
    row.secondText = metrics.elidedText(second, Qt::ElideRight, width);
    row.capacity = QRect(textLeft, row.second.bottom() + 3, textRight - textLeft, lineHeight);

    const auto history = index.data(DriveListModel::ActivityRole).value<QList<double>>();
    if (sparkWidth > 0 && !idle(history)) {
        // The graph over the title and path lines, its rate under it: never on top of each
        // other.
        const QFontMetrics rateMetrics(rateFont(option.font));
        const int columnHeight = row.second.bottom() - top + 1;
        const int left = textRight - sparkWidth + 1;
        row.graph = QRect(left, top, sparkWidth, columnHeight - rateMetrics.height() - 1);
        row.rate = QRect(left, row.graph.bottom() + 2, sparkWidth, rateMetrics.height());
        const double last = history.back();
        row.rateText = rateMetrics.elidedText(
            tr("%1 MB/s").arg(last / 1e6, 0, 'f', last < 10e6 ? 1 : 0), Qt::ElideRight, sparkWidth);
    }
    return row;
}

void DriveDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                          const QModelIndex& index) const {
    const RowLayout row = layoutRow(option, index);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);

    const QRect& card = row.card;
    const bool selected = option.state.testFlag(QStyle::State_Selected);
    const bool hovered = option.state.testFlag(QStyle::State_MouseOver);
    if (selected || hovered) {
        QPainterPath path;
        path.addRoundedRect(QRectF(card), 6, 6);
        painter->fillPath(path, selected ? theme::kSelection : theme::kHover);
        if (selected) {
            painter->fillRect(QRect(card.left(), card.top() + 10, 3, card.height() - 20),
                              theme::kAccent);
        }
    }

    const auto bus = static_cast<device::Bus>(index.data(DriveListModel::BusRole).toInt());
    const bool rotational = index.data(DriveListModel::RotationalRole).toBool();
    const qreal dpr = painter->device() != nullptr ? painter->device()->devicePixelRatioF() : 1.0;
    painter->drawPixmap(row.icon, driveIcon(bus, rotational, kIconSize, dpr));

    if (!row.graph.isEmpty()) {
        paintSparkline(*painter, row.graph,
                       index.data(DriveListModel::ActivityRole).value<QList<double>>());
        painter->setFont(rateFont(option.font));
        painter->setPen(theme::kMutedText);
        painter->drawText(row.rate, Qt::AlignRight | Qt::AlignVCenter, row.rateText);
    }

    QFont titleFont = option.font;
    titleFont.setBold(true);
    painter->setPen(theme::kText);
    painter->setFont(titleFont);
    painter->drawText(row.title, Qt::AlignLeft | Qt::AlignVCenter, row.titleText);

    painter->setFont(option.font);
    painter->setPen(theme::kMutedText);
    painter->drawText(row.second, Qt::AlignLeft | Qt::AlignVCenter, row.secondText);

    // Badges share the capacity line, right-aligned; the capacity is elided to leave room.
    std::vector<std::pair<QString, BadgeStyle>> badges;
    if (index.data(DriveListModel::IsLabRole).toBool()) {
        badges.emplace_back(tr("LAB"), labBadgeStyle());
    }
    if (index.data(DriveListModel::IsSystemRole).toBool()) {
        badges.emplace_back(tr("SYSTEM"), systemBadgeStyle());
    }
    const QFontMetrics metrics(option.font);
    const int lineHeight = row.capacity.height();
    int badgeRight = row.capacity.right();
    for (auto it = badges.rbegin(); it != badges.rend(); ++it) {
        const auto& [text, style] = *it;
        const QSize size = badgeSize(option.font, text);
        const QRect rect(badgeRight - size.width() + 1,
                         row.capacity.top() + (lineHeight - size.height()) / 2, size.width(),
                         size.height());
        paintBadge(*painter, rect, text, style, option.font);
        badgeRight = rect.left() - 4;
    }
    const int capacityWidth = std::max(0, badgeRight - row.capacity.left() - 4);
    painter->setFont(option.font);
    painter->setPen(theme::kMutedText);
    painter->drawText(QRect(row.capacity.left(), row.capacity.top(), capacityWidth, lineHeight),
                      Qt::AlignLeft | Qt::AlignVCenter,
                      metrics.elidedText(index.data(DriveListModel::CapacityRole).toString(),
                                         Qt::ElideRight, capacityWidth));
    painter->restore();
}

} // namespace ssdk::app
