#include "app/widgets/analysis_chart.h"

#include <algorithm>
#include <cmath>

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include "core/perf/analysis.h"
#include "core/perf/series.h"

namespace ssdk::app {

namespace {
const QColor kRunColours[] = {QColor(0x25, 0x63, 0xeb), QColor(0xdc, 0x26, 0x26),
                              QColor(0x16, 0xa3, 0x4a), QColor(0xd9, 0x77, 0x06)};
} // namespace

AnalysisChart::AnalysisChart(QWidget* parent)
    : QWidget(parent) {
    m_view = new QChartView(new QChart);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setObjectName(QStringLiteral("performance.analysisChart"));
    m_verdict = new QLabel;
    m_verdict->setWordWrap(true);
    m_verdict->setObjectName(QStringLiteral("performance.verdict"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_verdict);
    setMinimumHeight(240);
}

void AnalysisChart::clear() {
    m_runs.clear();
    m_view->chart()->removeAllSeries();
    for (auto* axis : m_view->chart()->axes()) {
        m_view->chart()->removeAxis(axis);
        delete axis;
    }
    m_verdict->clear();
}

QString AnalysisChart::verdictText() const {
    return m_verdict->text();
}

void AnalysisChart::addResult(const perf::BenchResult& result, const QString& label) {
    if (result.preset == "slc") {
        clear();
        showSlc(result, label);
        return;
    }
    if (result.preset == "consistency") {
        m_runs.push_back({label, perf::consistencyIops(result)});
        showConsistency();
    }
}

void AnalysisChart::showConsistency() {
    QChart* chart = m_view->chart();
    chart->removeAllSeries();
    for (auto* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
    chart->setTitle(tr("4K random write QD32 — IOPS every second (log scale)"));
    auto* axisX = new QValueAxis;
    axisX->setTitleText(tr("Time (s)"));
    axisX->setLabelFormat(QStringLiteral("%d"));
    auto* axisY = new QLogValueAxis;
    axisY->setTitleText(tr("IOPS"));
    axisY->setBase(10);
    axisY->setLabelFormat(QStringLiteral("%g"));
    axisY->setMinorTickCount(-1);
    chart->addAxis(axisX, Qt::AlignBottom);
    chart->addAxis(axisY, Qt::AlignLeft);
    double maxX = 1, minY = 1e12, maxY = 1;
    QStringList verdicts;
    for (std::size_t i = 0; i < m_runs.size(); ++i) {
        const auto& run = m_runs[i];
        auto* series = new QScatterSeries;
        series->setName(run.label);
        series->setMarkerSize(6);
        series->setColor(kRunColours[i % 4]);
        series->setBorderColor(kRunColours[i % 4]);
        for (std::size_t s = 0; s < run.iops.size(); ++s) {
            if (run.iops[s] <= 0) {
                continue; // a log axis cannot show 0
            }
            series->append(static_cast<double>(s + 1), run.iops[s]);
            maxX = std::max(maxX, static_cast<double>(s + 1));
            minY = std::min(minY, run.iops[s]);
            maxY = std::max(maxY, run.iops[s]);
        }
        chart->addSeries(series);
        series->attachAxis(axisX);
        series->attachAxis(axisY);
        const auto state = perf::steadyState(run.iops);
        verdicts << tr("%1: %2 (last 5 s: mean %3 IOPS, range %4%, slope %5%)")
                        .arg(run.label,
                             state.reached ? tr("steady state reached") : tr("not steady"))
                        .arg(state.mean, 0, 'f', 0)
                        .arg(state.mean > 0 ? 100 * state.range / state.mean : 0, 0, 'f', 1)
                        .arg(state.mean > 0 ? 100 * state.slopeExcursion / state.mean : 0, 0, 'f',
                             1);
    }
    axisX->setRange(0, maxX + 1);
    axisY->setRange(std::pow(10, std::floor(std::log10(std::max(1.0, minY)))),
                    std::pow(10, std::ceil(std::log10(maxY * 1.01))));
    m_verdict->setText(verdicts.join(QStringLiteral("\n")));
}

void AnalysisChart::showSlc(const perf::BenchResult& result, const QString& label) {
    QChart* chart = m_view->chart();
    chart->setTitle(tr("SLC cache probe — sequential write, %1").arg(label));
    const auto samples = perf::slcProbeSamples(result);
    const auto slc = perf::detectSlcCache(samples);
    auto* speed = new QLineSeries;
    speed->setName(tr("Write MB/s"));
    speed->setPen(QPen(QColor(0xdc, 0x26, 0x26), 2));
    double written = 0, maxMb = 1;
    for (const auto& s : samples) {
        written += s.bytesPerS * s.intervalS;
        speed->append(written / 1e9, s.bytesPerS / 1e6);
        maxMb = std::max(maxMb, s.bytesPerS / 1e6);
    }
    auto* axisX = new QValueAxis;
    axisX->setTitleText(tr("Written (GB)"));
    auto* axisY = new QValueAxis;
    axisY->setTitleText(tr("MB/s"));
    axisY->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(axisX, Qt::AlignBottom);
    chart->addAxis(axisY, Qt::AlignLeft);
    chart->addSeries(speed);
    speed->attachAxis(axisX);
    speed->attachAxis(axisY);
    axisX->setRange(0, std::max(written / 1e9, 1e-3));
    axisY->setRange(0, maxMb * 1.15);
    if (slc.dropFound) {
        auto* marker = new QLineSeries;
        marker->setName(tr("Cache %1 GB").arg(slc.cacheBytes / 1e9, 0, 'f', 3));
        marker->setPen(QPen(QColor(0x47, 0x55, 0x69), 1, Qt::DashLine));
        marker->append(slc.cacheBytes / 1e9, 0);
        marker->append(slc.cacheBytes / 1e9, maxMb * 1.15);
        chart->addSeries(marker);
        marker->attachAxis(axisX);
        marker->attachAxis(axisY);
        m_verdict->setText(tr("Cache: %1 GB written at %2 MB/s, then %3 MB/s")
                               .arg(slc.cacheBytes / 1e9, 0, 'f', 3)
                               .arg(slc.burstBytesPerS / 1e6, 0, 'f', 0)
                               .arg(slc.postCacheBytesPerS / 1e6, 0, 'f', 0));
    } else {
        m_verdict->setText(tr("No drop found: the cache is larger than the %1 GB written "
                              "(%2 MB/s throughout)")
                               .arg(written / 1e9, 0, 'f', 3)
                               .arg(slc.burstBytesPerS / 1e6, 0, 'f', 0));
    }
}

} // namespace ssdk::app
