#include "app/widgets/throughput_chart.h"

#include <algorithm>
#include <cmath>

#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include "app/theme.h"
#include "app/widgets/chart_axes.h"

namespace ssdk::app {

ThroughputChart::ThroughputChart(QWidget* parent)
    : QWidget(parent) {
    setAccessibleName(tr("Throughput chart"));
    setAccessibleDescription(tr("Read and write MB/s and IOPS of the last minutes"));
    auto* chart = new QChart;
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    m_read = new QLineSeries;
    m_read->setName(tr("Read MB/s"));
    m_read->setPen(QPen(theme::kChartRead, 2));
    m_write = new QLineSeries;
    m_write->setName(tr("Write MB/s"));
    m_write->setPen(QPen(theme::kChartWrite, 2));
    m_iops = new QLineSeries;
    m_iops->setName(tr("IOPS"));
    m_iops->setPen(QPen(theme::kChartQuiet, 1, Qt::DashLine));
    chart->addSeries(m_read);
    chart->addSeries(m_write);
    chart->addSeries(m_iops);
    m_axisX = new QValueAxis;
    m_axisX->setTitleText(tr("Seconds"));
    m_axisX->setLabelFormat(QStringLiteral("%d"));
    m_axisMb = new QValueAxis;
    m_axisMb->setTitleText(tr("MB/s"));
    m_axisMb->setLabelFormat(QStringLiteral("%.0f"));
    m_axisIops = new QValueAxis;
    m_axisIops->setTitleText(tr("IOPS"));
    m_axisIops->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(m_axisX, Qt::AlignBottom);
    chart->addAxis(m_axisMb, Qt::AlignLeft);
    chart->addAxis(m_axisIops, Qt::AlignRight);
    for (auto* series : {m_read, m_write}) {
        series->attachAxis(m_axisX);
        series->attachAxis(m_axisMb);
    }
    m_iops->attachAxis(m_axisX);
    m_iops->attachAxis(m_axisIops);
    m_view = new QChartView(chart);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setObjectName(QStringLiteral("performance.chart"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    setMinimumHeight(220);
    refresh();
}

void ThroughputChart::addPoint(double timeS, double readBytesPerS, double writeBytesPerS,
                               double iops) {
    m_points.push_back({timeS, readBytesPerS / 1e6, writeBytesPerS / 1e6, iops});
    // Keep the longest window (10 min) so switching windows shows history.
    while (!m_points.empty() && m_points.front().timeS < timeS - 600) {
        m_points.pop_front();
    }
}

void ThroughputChart::clear() {
    m_points.clear();
    refresh();
}

void ThroughputChart::setWindowSeconds(int seconds) {
    m_windowS = seconds;
    refresh();
}

void ThroughputChart::refresh() {
    if (!isVisible()) {
        m_behind = true;
        return;
    }
    redraw();
}

void ThroughputChart::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_behind) {
        redraw();
    }
}

void ThroughputChart::redraw() {
    m_behind = false;
    const double end = m_points.empty() ? 0 : m_points.back().timeS;
    const double start = std::max(0.0, end - m_windowS);
    QList<QPointF> read, write, iops;
    double maxMb = 0, maxIops = 0;
    for (const auto& p : m_points) {
        if (p.timeS < start) {
            continue;
        }
        read.append({p.timeS, p.read});
        write.append({p.timeS, p.write});
        iops.append({p.timeS, p.iops});
        maxMb = std::max({maxMb, p.read, p.write});
        maxIops = std::max(maxIops, p.iops);
    }
    m_read->replace(read);
    m_write->replace(write);
    m_iops->replace(iops);
    setTicksEvery(*m_axisX, std::max(0.0, end - m_windowS), std::max(end, double(m_windowS)),
                  niceTickStep(m_windowS, 6));
    // Floors keep an idle graph's axes readable (0…10 MB/s, 0…100 IOPS).
    setNiceRange(*m_axisMb, 0, std::max(10.0, maxMb * 1.1));
    setNiceRange(*m_axisIops, 0, std::max(100.0, maxIops * 1.1));
}

} // namespace ssdk::app
