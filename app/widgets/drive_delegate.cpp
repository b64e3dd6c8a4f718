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

// The sparkline: total MB/s of the last DriveListModel::kActivityLength samples, newest at
// the right edge, scaled to its own maximum (at least 1 MB/s, so idle noise stays flat).
void paintSparkline(QPainter& painter, const QRect& rect, const QList<double>& history,
                    const QFont& font) {
    painter.setPen(QPen(theme::kBorder, 1));
    painter.drawLine(rect.bottomLeft(), rect.bottomRight());
    const double peak = history.isEmpty() ? 0 : *std::ranges::max_element(history);
    if (peak <= 0) {
        return;
    }
    const double scale = std::max(peak, 1e6);
    const double step =
        static_cast<double>(rect.width()) / double(DriveListModel::kActivityLength - 1);
    QPolygonF line;
    line.reserve(history.size());
    const auto first = DriveListModel::kActivityLength - history.size();
    for (qsizetype i = 0; i < history.size(); ++i) {
        line.append(QPointF(rect.left() + static_cast<double>(first + i) * step,
                            rect.bottom() - history[i] / scale * (rect.height() - 1)));
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
    QFont small = font;
    small.setPointSizeF(std::max(6.0, font.pointSizeF() * 0.75));
    painter.setFont(small);
    const QString label =
        QStringLiteral("%1 MB/s").arg(history.back() / 1e6, 0, 'f', history.back() < 10e6 ? 1 : 0);
    // The label sits over the line's top; a veil keeps it readable where they cross.
    const QRect labelRect =
        QFontMetrics(small).boundingRect(rect, Qt::AlignRight | Qt::AlignTop, label);
    painter.fillRect(labelRect.adjusted(-2, 0, 0, 0), QColor(255, 255, 255, 190));
    painter.setPen(theme::kMutedText);
    painter.drawText(rect, Qt::AlignRight | Qt::AlignTop, label);
}

} // namespace

QSize DriveDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex&) const {
    const QFontMetrics metrics(option.font);
    const int textHeight = 3 * metrics.height() + 2 * kPadding + 6;
    return {std::max(option.rect.width(), 220), std::max(kRowHeight, textHeight)};
}

void DriveDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                          const QModelIndex& index) const {
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);

    const QRect card = option.rect.adjusted(kMargin, 3, -kMargin, -3);
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
    const QRect iconRect(card.left() + kPadding, card.center().y() - kIconSize / 2 + 1, kIconSize,
                         kIconSize);
    painter->drawPixmap(iconRect, driveIcon(bus, rotational, kIconSize, dpr));

    const int textLeft = iconRect.right() + 12;
    const int textRight = card.right() - kPadding;
    // The sparkline takes the right end of the title and path lines.
    const int sparkWidth = std::min(kSparklineWidth, std::max(0, (textRight - textLeft) / 3));
    const int linesRight = textRight - sparkWidth - (sparkWidth > 0 ? 8 : 0);

    QFont titleFont = option.font;
    titleFont.setBold(true);
    const QFontMetrics titleMetrics(titleFont);
    const QFontMetrics metrics(option.font);
    const int lineHeight = metrics.height();
    const int width = std::max(0, linesRight - textLeft);
    const int top = card.top() + (card.height() - titleMetrics.height() - 2 * lineHeight - 4) / 2;
    if (sparkWidth > 0) {
        paintSparkline(
            *painter,
            QRect(textRight - sparkWidth + 1, top, sparkWidth, titleMetrics.height() + lineHeight),
            index.data(DriveListModel::ActivityRole).value<QList<double>>(), option.font);
    }

    painter->setPen(theme::kText);
    painter->setFont(titleFont);
    painter->drawText(
        QRect(textLeft, top, width, titleMetrics.height()), Qt::AlignLeft | Qt::AlignVCenter,
        titleMetrics.elidedText(index.data(Qt::DisplayRole).toString(), Qt::ElideRight, width));

    painter->setFont(option.font);
    painter->setPen(theme::kMutedText);
    const QString path = index.data(DriveListModel::PathRole).toString();
    const QString labName = index.data(DriveListModel::LabNameRole).toString();
    const QString second = path + QStringLiteral(" · ") +
                           (labName.isEmpty() ? index.data(DriveListModel::BusNameRole).toString()
                                              : tr("lab “%1”").arg(labName));
    const int secondTop = top + titleMetrics.height() + 2;
    painter->drawText(QRect(textLeft, secondTop, width, lineHeight),
                      Qt::AlignLeft | Qt::AlignVCenter,
                      metrics.elidedText(second, Qt::ElideRight, width));

    // Badges share the capacity line, right-aligned; the capacity is elided to leave room.
    std::vector<std::pair<QString, BadgeStyle>> badges;
    if (index.data(DriveListModel::IsLabRole).toBool()) {
        badges.emplace_back(tr("LAB"), labBadgeStyle());
    }
    if (index.data(DriveListModel::IsSystemRole).toBool()) {
        badges.emplace_back(tr("SYSTEM"), systemBadgeStyle());
    }
    const int thirdTop = secondTop + lineHeight + 2;
    int badgeRight = textRight;
    for (auto it = badges.rbegin(); it != badges.rend(); ++it) {
        const auto& [text, style] = *it;
        const QSize size = badgeSize(option.font, text);
        const QRect rect(badgeRight - size.width(), thirdTop + (lineHeight - size.height()) / 2,
                         size.width(), size.height());
        paintBadge(*painter, rect, text, style, option.font);
        badgeRight = rect.left() - 4;
    }
    const int capacityWidth = std::max(0, badgeRight - textLeft - 4);
    painter->setFont(option.font);
    painter->setPen(theme::kMutedText);
    painter->drawText(QRect(textLeft, thirdTop, capacityWidth, lineHeight),
                      Qt::AlignLeft | Qt::AlignVCenter,
                      metrics.elidedText(index.data(DriveListModel::CapacityRole).toString(),
                                         Qt::ElideRight, capacityWidth));
    painter->restore();
}

} // namespace ssdk::app
