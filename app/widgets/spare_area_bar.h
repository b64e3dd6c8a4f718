#pragma once

#include <vector>

#include <QColor>
#include <QString>
#include <QWidget>

#include "app/theme.h"
#include "core/device/device.h"
#include "core/overprovision/planner.h"

namespace ssdk::app {

// One stretch of a drive as the spare-area bar draws it, in bytes of the drive (factory spare
// lies past the user capacity: it is NAND the host never addresses).
struct SpareBarSegment {
    enum class Kind { Partition, Unallocated, UserSpare, FactorySpare };
    Kind kind = Kind::Partition;
    Bytes start;
    Bytes size;
    double usedFraction = -1; // share of a partition in use; -1 when unknown
    QColor color;
    QString label;
};

struct SpareBarModel {
    Bytes total; // user capacity plus factory spare where known
    std::vector<SpareBarSegment> segments;
};

// The drive before (after = false) or after the plan: partitions (the planned one with its
// used share), gaps, unallocated space at the end as user spare, and factory spare. Pure.
SpareBarModel spareBarModel(const device::Device& device, const overprovision::Plan& plan,
                            bool after);

// A to-scale bar of a SpareBarModel with labels where they fit and tooltips.
class SpareAreaBar : public QWidget {
    Q_OBJECT
public:
    explicit SpareAreaBar(QWidget* parent = nullptr);

    void setModel(SpareBarModel model);
    const SpareBarModel& model() const { return m_model; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    // Pixel spans of the segments at the current width.
    std::vector<QRect> segmentRects() const;

    SpareBarModel m_model;
};

// Colours of the bar, shared with the page's legend.
namespace spare_colors {
inline const QColor& kUserSpare = theme::kChartExtra;
inline const QColor kFactorySpare{0x94, 0xa3, 0xb8};
inline const QColor& kUnallocated = theme::kNeutralBackground;
} // namespace spare_colors

} // namespace ssdk::app
