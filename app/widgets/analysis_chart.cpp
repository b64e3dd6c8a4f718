#include "app/widgets/analysis_chart.h"

#include <algorithm>
#include <cmath>

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include "app/device_text.h"
#include "app/theme.h"
#include "app/widgets/chart_axes.h"
#include "core/perf/analysis.h"
#include "core/perf/series.h"

namespace ssdk::app {

namespace {
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0; // the written axis, as sizeText counts
// The runs of a comparison, in the current scheme's chart colours.
QColor runColour(std::size_t run) {
    const QColor* colours[] = {&theme::kChartRead, &theme::kChartWrite, &theme::kChartExtra,
                               &theme::kLab};
    return *colours[run % 4];
}
} // namespace

AnalysisChart::AnalysisChart(QWidget* parent)
    : QWidget(parent) {
    setAccessibleName(tr("Benchmark analysis chart"));
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
    if (result.preset == "trim-recovery") {
        clear();
        showTrimRecovery(result, label);
        return;
    }
    if (result.preset == "consistency") {
        if (m_runs.empty()) {
            clear(); // an SLC or trim-recovery chart is replaced, runs are overlaid
        }
        m_runs.push_back({label, perf::consistencyReport(result)});
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
    setAccessibleDescription(chart->title());
    auto* axisX = new QValueAxis;
    axisX->setTitleText(tr("Time (s)"));
    axisX->setLabelFormat(QStringLiteral("%d"));
    auto* axisY = new QLogValueAxis;
    axisY->setTitleText(tr("IOPS"));
    axisY->setBase(10);
    axisY->setLabelFormat(QStringLiteral("%.0f")); // 100000, not 1e+05
    axisY->setMinorTickCount(-1);
    chart->addAxis(axisX, Qt::AlignBottom);
    chart->addAxis(axisY, Qt::AlignLeft);
    double maxX = 1, minY = 1e12, maxY = 1;
    QStringList verdicts;
    for (std::size_t i = 0; i < m_runs.size(); ++i) {
        const auto& run = m_runs[i];
        const auto& iops = run.report.iops;
        auto* series = new QScatterSeries;
        series->setName(run.label);
        series->setMarkerSize(6);
        series->setColor(runColour(i));
        series->setBorderColor(runColour(i));
        for (std::size_t s = 0; s < iops.size(); ++s) {
            if (iops[s] <= 0) {
                continue; // a log axis cannot show 0
            }
            series->append(static_cast<double>(s + 1), iops[s]);
            maxX = std::max(maxX, static_cast<double>(s + 1));
            minY = std::min(minY, iops[s]);
            maxY = std::max(maxY, iops[s]);
        }
        chart->addSeries(series);
        series->attachAxis(axisX);
        series->attachAxis(axisY);
        const auto& report = run.report;
        const auto& state = report.state;
        if (!report.enoughRounds) {
            verdicts << tr("%1: steady state not judged — SNIA PTS needs 5 rounds of %2 s, the "
                           "run has %3 s")
                            .arg(run.label)
                            .arg(report.roundS)
                            .arg(iops.size());
            continue;
        }
        verdicts << tr("%1: %2 (last 5 rounds of %3 s: mean %4 IOPS, range %5%, slope %6%)")
                        .arg(run.label,
                             state.reached ? tr("steady state reached") : tr("not steady"))
                        .arg(report.roundS)
                        .arg(state.mean, 0, 'f', 0)
                        .arg(state.mean > 0 ? 100 * state.range / state.mean : 0, 0, 'f', 1)
                        .arg(state.mean > 0 ? 100 * state.slopeExcursion / state.mean : 0, 0, 'f',
                             1);
    }
    // One tick per SNIA round (or per few rounds on a long run), so the rounds read off the
    // time axis.
    unsigned roundS = 1;
    for (const auto& run : m_runs) {
        roundS = std::max(roundS, run.report.roundS);
    }
    const double step =
        roundS * std::max(1.0, std::round(niceTickStep(std::ceil(maxX / roundS), 10)));
    setTicksEvery(*axisX, 0, std::ceil(maxX / step) * step, step);
    // From the decade below the slowest second to 1, 2 or 5 × 10^k above the fastest: the
    // decades are labelled, and the top is not a decade of empty space.
    const double top = maxY * 1.1;
    const double decade = std::pow(10, std::floor(std::log10(top)));
    const double multiple = top <= 2 * decade ? 2 : top <= 5 * decade ? 5 : 10;
    axisY->setRange(std::pow(10, std::floor(std::log10(std::max(1.0, minY)))), multiple * decade);
    m_verdict->setText(verdicts.join(QStringLiteral("\n")));
}

void AnalysisChart::showSlc(const perf::BenchResult& result, const QString& label) {
    QChart* chart = m_view->chart();
    chart->setTitle(tr("SLC cache probe — sequential write, %1").arg(label));
    setAccessibleDescription(chart->title());
    const auto samples = perf::slcProbeSamples(result);
    const auto slc = perf::detectSlcCache(samples);
    auto* speed = new QLineSeries;
    speed->setName(tr("Write MB/s"));
    speed->setPen(QPen(theme::kChartWrite, 2));
    double written = 0, maxMb = 1;
    for (const auto& s : samples) {
        written += s.bytesPerS * s.intervalS;
        speed->append(written / kGiB, s.bytesPerS / 1e6);
        maxMb = std::max(maxMb, s.bytesPerS / 1e6);
    }
    auto* axisX = new QValueAxis;
    axisX->setTitleText(tr("Written (GiB)"));
    auto* axisY = new QValueAxis;
    axisY->setTitleText(tr("MB/s"));
    chart->addAxis(axisX, Qt::AlignBottom);
    chart->addAxis(axisY, Qt::AlignLeft);
    chart->addSeries(speed);
    speed->attachAxis(axisX);
    speed->attachAxis(axisY);
    setNiceRange(*axisX, 0, std::max(written / kGiB, 1e-3));
    setNiceRange(*axisY, 0, maxMb * 1.1);
    if (slc.dropFound) {
        auto* marker = new QLineSeries;
        marker->setName(tr("Cache %1").arg(measuredSizeText(slc.cacheBytes)));
        marker->setPen(QPen(theme::kSystem, 1, Qt::DashLine));
        marker->append(slc.cacheBytes / kGiB, 0);
        marker->append(slc.cacheBytes / kGiB, axisY->max());
        chart->addSeries(marker);
        marker->attachAxis(axisX);
        marker->attachAxis(axisY);
        m_verdict->setText(tr("Cache: %1 written at %2 MB/s, then %3 MB/s")
                               .arg(measuredSizeText(slc.cacheBytes))
                               .arg(slc.burstBytesPerS / 1e6, 0, 'f', 0)
                               .arg(slc.postCacheBytesPerS / 1e6, 0, 'f', 0));
    } else {
        m_verdict->setText(tr("No drop found: the cache is larger than the %1 written "
                              "(%2 MB/s throughout)")
                               .arg(measuredSizeText(written))
                               .arg(slc.burstBytesPerS / 1e6, 0, 'f', 0));
    }
}

void AnalysisChart::showTrimRecovery(const perf::BenchResult& result, const QString& label) {
    QChart* chart = m_view->chart();
    chart->setTitle(tr("TRIM recovery — sequential write, %1").arg(label));
    setAccessibleDescription(chart->title());
    const auto report = perf::trimRecoveryReport(result);
    auto* set = new QBarSet(tr("Sequential write MB/s"));
    set->setColor(theme::kChartRead);
    *set << report.freshBytesPerS / 1e6 << report.dirtyBytesPerS / 1e6
         << report.afterTrimBytesPerS / 1e6;
    auto* series = new QBarSeries;
    series->append(set);
    series->setLabelsVisible(true);
    series->setLabelsFormat(QStringLiteral("@value"));
    series->setLabelsPrecision(4);
    chart->addSeries(series);
    auto* axisX = new QBarCategoryAxis;
    axisX->append({tr("Fresh"), tr("Dirty (after torture)"), tr("After TRIM")});
    auto* axisY = new QValueAxis;
    axisY->setTitleText(tr("MB/s"));
    const double top =
        std::max({report.freshBytesPerS, report.dirtyBytesPerS, report.afterTrimBytesPerS, 1e6}) /
        1e6;
    setNiceRange(*axisY, 0, top * 1.1);
    chart->addAxis(axisX, Qt::AlignBottom);
    chart->addAxis(axisY, Qt::AlignLeft);
    series->attachAxis(axisX);
    series->attachAxis(axisY);
    m_verdict->setText(report.complete
                           ? tr("After TRIM the drive writes at %1% of its fresh speed (dirty: "
                                "%2%)")
                                 .arg(100 * report.recoveredFraction, 0, 'f', 0)
                                 .arg(report.freshBytesPerS > 0
                                          ? 100 * report.dirtyBytesPerS / report.freshBytesPerS
                                          : 0,
                                      0, 'f', 0)
                           : tr("The result lacks a fresh, dirty or after-TRIM measurement"));
}

} // namespace ssdk::app
