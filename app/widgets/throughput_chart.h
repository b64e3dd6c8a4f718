#pragma once

#include <deque>

#include <QWidget>

class QChart;
class QChartView;
class QLineSeries;
class QValueAxis;

namespace ssdk::app {

// Live throughput graph (Qt Charts): read and write MB/s on the left axis, IOPS on the right,
// over a sliding window (60 s or 10 min). Points are buffered by addPoint() and pushed to
// the series in one replace() per refresh, so a 10 Hz feed costs one redraw per refresh.
class ThroughputChart : public QWidget {
    Q_OBJECT
public:
    explicit ThroughputChart(QWidget* parent = nullptr);

    // timeS: seconds since monitoring started; rates in bytes/s and I/O per second.
    void addPoint(double timeS, double readBytesPerS, double writeBytesPerS, double iops);
    void clear();
    void setWindowSeconds(int seconds);
    int windowSeconds() const { return m_windowS; }
    // Redraws from the buffered points (the page calls it a few times per second). While the
    // chart is hidden it only notes that it is behind, and redraws when shown: a redraw lays
    // the axes out again, tens of milliseconds on the GUI thread.
    void refresh();
    int pointCount() const { return static_cast<int>(m_points.size()); }

protected:
    void showEvent(QShowEvent* event) override;

private:
    void redraw();

    struct Point {
        double timeS, read, write, iops;
    };
    std::deque<Point> m_points;
    int m_windowS = 60;
    bool m_behind = false;
    QChartView* m_view = nullptr;
    QLineSeries* m_read = nullptr;
    QLineSeries* m_write = nullptr;
    QLineSeries* m_iops = nullptr;
    QValueAxis* m_axisX = nullptr;
    QValueAxis* m_axisMb = nullptr;
    QValueAxis* m_axisIops = nullptr;
};

} // namespace ssdk::app
