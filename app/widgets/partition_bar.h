#pragma once

#include <optional>
#include <vector>

#include <QColor>
#include <QWidget>

#include "core/device/device.h"

namespace ssdk::app {

struct PartitionSegment {
    enum class Kind {
        Partition,   // device.partitions[partitionIndex]
        WholeDevice, // no partition table, but a filesystem, mount or holder on the disk
        Unallocated, // space no partition covers
    };
    Kind kind = Kind::Partition;
    int partitionIndex = -1;
    Bytes start;
    Bytes size;
    int x = 0; // pixels from the bar's left edge
    int width = 0;
};

// Unallocated ranges smaller than this (alignment lead-ins, GPT backup areas) are not shown.
inline constexpr Bytes kMinimumShownUnallocated = Bytes::mib(16);

// Lays the device out on a bar `width` pixels wide, to scale: bytes [a, b) of a disk of size S
// cover pixels [round(a·width/S), round(b·width/S)). Partitions narrower than
// minPartitionWidth are widened to it so they stay visible, pushing what follows to the
// right but never past `width`. Segments come sorted by position. Pure.
std::vector<PartitionSegment> layoutPartitionSegments(const device::Device& device, int width,
                                                      int minPartitionWidth = 0);

// The colour of a partition or whole-device filesystem, chosen by filesystem type.
QColor filesystemColor(const std::optional<device::Filesystem>& filesystem);

// The disk drawn to scale as coloured partition segments, hatched unallocated space, labels
// where they fit, and a tooltip per segment. Clicking a partition emits partitionClicked.
class PartitionBar : public QWidget {
    Q_OBJECT
public:
    explicit PartitionBar(QWidget* parent = nullptr);

    // Copies what it draws; nullptr clears the bar.
    void setDevice(const device::Device* device);
    // The partition drawn highlighted (index into Device::partitions), or -1.
    void setHighlightedPartition(int index);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // The segments as drawn at the current width.
    std::vector<PartitionSegment> segments() const;
    // The segment under a point in widget coordinates; -1 when none.
    int segmentAt(const QPoint& position) const;
    // What hovering over a segment shows.
    QString toolTipFor(const PartitionSegment& segment) const;

signals:
    void partitionClicked(int partitionIndex);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    QRect barRect() const;
    void paintSegment(QPainter& painter, const PartitionSegment& segment, const QRect& rect) const;

    std::optional<device::Device> m_device;
    int m_hoveredSegment = -1;
    int m_highlightedPartition = -1;
};

} // namespace ssdk::app
