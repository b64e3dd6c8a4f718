#include "app/widgets/drive_delegate.h"

#include <utility>
#include <vector>

#include <QFontMetrics>
#include <QPainter>
#include <QPainterPath>

#include "app/models/drive_list_model.h"
#include "app/theme.h"
#include "app/widgets/badge.h"
#include "app/widgets/drive_icons.h"

namespace ssdk::app {

namespace {

constexpr int kMargin = 8;   // between the row's edge and its card
constexpr int kPadding = 10; // inside the card

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

    QFont titleFont = option.font;
    titleFont.setBold(true);
    const QFontMetrics titleMetrics(titleFont);
    const QFontMetrics metrics(option.font);
    const int lineHeight = metrics.height();
    const int width = std::max(0, textRight - textLeft);
    const int top = card.top() + (card.height() - titleMetrics.height() - 2 * lineHeight - 4) / 2;

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
