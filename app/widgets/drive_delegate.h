#pragma once

#include <QStyledItemDelegate>

namespace ssdk::app {

// Paints a DriveListModel row as a card: the bus icon, the title (model or name), the /dev
// path and bus, the capacity, LAB / SYSTEM badges and a sparkline of the drive's recent
// throughput (ActivityRole). Reads only the model's roles.
class DriveDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    static constexpr int kIconSize = 40;
    static constexpr int kRowHeight = 70;
    static constexpr int kSparklineWidth = 64;

    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace ssdk::app
