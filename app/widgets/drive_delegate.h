#pragma once

#include <QRect>
#include <QString>
#include <QStyledItemDelegate>

namespace ssdk::app {

// Paints a DriveListModel row as a card: the bus icon, the title (the lab drive's name, else
// the model or kernel name; elided in the middle when it must be, the full text is in the
// tool tip), the /dev path and kind, the capacity, LAB / SYSTEM badges and a sparkline of the
// drive's recent throughput (ActivityRole) with its MB/s under it. An idle drive (no I/O in
// the whole history) has no sparkline at all. Reads only the model's roles.
class DriveDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    static constexpr int kIconSize = 40;
    static constexpr int kRowHeight = 70;
    static constexpr int kSparklineWidth = 60;

    // Where a row's parts go and the texts as drawn (elided to fit); paint() draws exactly
    // this. graph and rate are empty when the drive has been idle.
    struct RowLayout {
        QRect card, icon;
        QRect title, second, capacity;
        QRect graph, rate; // the sparkline and, under it, its "12.3 MB/s"
        QString titleText, secondText, rateText;
    };

    using QStyledItemDelegate::QStyledItemDelegate;

    RowLayout layoutRow(const QStyleOptionViewItem& option, const QModelIndex& index) const;
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace ssdk::app
