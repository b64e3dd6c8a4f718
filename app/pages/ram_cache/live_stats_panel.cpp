#include "app/pages/ram_cache/live_stats_panel.h"

#include <algorithm>

#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QStringList>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>

#include "app/device_text.h"
#include "app/pages/ram_cache/units.h"

namespace ssdk::app::ramcache {

namespace {

constexpr int kChartSeconds = 120;

} // namespace

LiveStatsPanel::LiveStatsPanel(QWidget* parent)
    : QGroupBox(tr("Live"), parent) {
    auto* layout = new QVBoxLayout(this);
    auto* row = new QHBoxLayout;
    m_statsLabel = new QLabel(tr("No cache is active on this drive."));
    m_statsLabel->setObjectName("ramcache.stats");
    m_statsLabel->setWordWrap(true);
    m_flush = new QPushButton(tr("Flush"));
    m_flush->setObjectName("ramcache.flush");
    m_flush->setToolTip(tr("Write every dirty block to the drive now"));
    row->addWidget(m_statsLabel, 1);
    row->addWidget(m_flush);
    layout->addLayout(row);

    auto* chart = new QChart;
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->setAlignment(Qt::AlignBottom);
    m_hitSeries = new QLineSeries;
    m_hitSeries->setName(tr("Hit ratio (%)"));
    m_dirtySeries = new QLineSeries;
    m_dirtySeries->setName(tr("Dirty (MiB)"));
    m_ramSeries = new QLineSeries;
    m_ramSeries->setName(tr("RAM used (MiB)"));
    for (auto* series : {m_hitSeries, m_dirtySeries, m_ramSeries}) {
        chart->addSeries(series);
    }
    m_timeAxis = new QValueAxis;
    m_timeAxis->setTitleText(tr("seconds"));
    m_timeAxis->setRange(0, kChartSeconds);
    m_timeAxis->setLabelFormat(QStringLiteral("%d"));
    auto* percentAxis = new QValueAxis;
    percentAxis->setRange(0, 100);
    percentAxis->setLabelFormat(QStringLiteral("%d %%"));
    m_bytesAxis = new QValueAxis;
    m_bytesAxis->setRange(0, 64);
    m_bytesAxis->setLabelFormat(QStringLiteral("%d MiB"));
    chart->addAxis(m_timeAxis, Qt::AlignBottom);
    chart->addAxis(percentAxis, Qt::AlignLeft);
    chart->addAxis(m_bytesAxis, Qt::AlignRight);
    for (auto* series : {m_hitSeries, m_dirtySeries, m_ramSeries}) {
        series->attachAxis(m_timeAxis);
        series->attachAxis(series == m_hitSeries ? percentAxis : m_bytesAxis);
    }
    auto* view = new QChartView(chart);
    view->setObjectName("ramcache.chart");
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(220);
    layout->addWidget(view);

    m_poll = new QTimer(this);
    m_poll->setInterval(1000);
    connect(m_poll, &QTimer::timeout, this, &LiveStatsPanel::pollDue);
    connect(m_flush, &QPushButton::clicked, this, &LiveStatsPanel::flushClicked);
    m_clock.start();
}

void LiveStatsPanel::showCache(const std::optional<cachectl::CacheStatus>& active) {
    if (!active) {
        m_poll->stop();
        m_statsLabel->setText(tr("No cache is active on this drive."));
        return;
    }
    if (active->stats) {
        addSample(*active->stats);
    } else {
        m_statsLabel->setText(tr("Statistics unavailable: %1").arg(toQString(active->statsError)));
    }
    if (!m_poll->isActive()) {
        m_poll->start();
    }
}

void LiveStatsPanel::restart() {
    m_hitSeries->clear();
    m_dirtySeries->clear();
    m_ramSeries->clear();
    m_clock.restart();
}

void LiveStatsPanel::setFlushEnabled(bool enabled) {
    m_flush->setEnabled(enabled);
}

void LiveStatsPanel::addSample(const cachectl::CacheStats& stats) {
    const double t = static_cast<double>(m_clock.elapsed()) / 1000.0;
    const double hit = stats.hitRatio() * 100.0;
    const double dirty = static_cast<double>(stats.dirtyBytes) / kMiB;
    const double ram = static_cast<double>(stats.ramUsedBytes) / kMiB;
    m_hitSeries->append(t, hit);
    m_dirtySeries->append(t, dirty);
    m_ramSeries->append(t, ram);
    for (auto* series : {m_hitSeries, m_dirtySeries, m_ramSeries}) {
        while (series->count() > 0 && series->at(0).x() < t - kChartSeconds) {
            series->remove(0);
        }
    }
    m_timeAxis->setRange(std::max(0.0, t - kChartSeconds), std::max<double>(t, kChartSeconds));
    double top = 64;
    for (auto* series : {m_dirtySeries, m_ramSeries}) {
        for (const auto& point : series->points()) {
            top = std::max(top, point.y() * 1.1);
        }
    }
    m_bytesAxis->setRange(0, top);
    m_statsLabel->setText(tr("Hit ratio %1 % (%2 hits, %3 misses) · dirty %4 · RAM used %5 of %6")
                              .arg(hit, 0, 'f', 1)
                              .arg(stats.hits)
                              .arg(stats.misses)
                              .arg(iec(stats.dirtyBytes))
                              .arg(iec(stats.ramUsedBytes))
                              .arg(iec(stats.cacheBytes)));
    QStringList tuning;
    if (stats.sequentialCutoff) {
        const auto cutoff = *stats.sequentialCutoff;
        tuning << tr("sequential cutoff %1").arg(cutoff == 0 ? tr("off") : iec(cutoff));
    }
    if (stats.writebackPercent) {
        tuning << tr("writeback percent %1").arg(*stats.writebackPercent);
    }
    if (!tuning.isEmpty()) {
        m_statsLabel->setText(m_statsLabel->text() + QStringLiteral(" · ") +
                              tuning.join(QStringLiteral(" · ")));
    }
}

} // namespace ssdk::app::ramcache
