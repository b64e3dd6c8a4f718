#pragma once

#include <vector>

#include <QWidget>

#include "core/perf/bench_result.h"
#include "core/perf/report.h"

class QChartView;
class QLabel;

namespace ssdk::app {

// The review charts of saved results: consistency runs as a log-scale IOPS-per-second
// scatter (several runs overlaid, one colour each) with the SNIA steady-state verdict, or an
// SLC probe as MB/s against GiB written with the detected cache size marked, or the TRIM
// recovery table (fresh / dirty / after TRIM) as bars.
class AnalysisChart : public QWidget {
    Q_OBJECT
public:
    explicit AnalysisChart(QWidget* parent = nullptr);

    // Consistency results are overlaid; an SLC or trim-recovery result replaces what is shown.
    void addResult(const perf::BenchResult& result, const QString& label);
    void clear();
    QString verdictText() const;
    int runCount() const { return static_cast<int>(m_runs.size()); }

private:
    void showConsistency();
    void showSlc(const perf::BenchResult& result, const QString& label);
    void showTrimRecovery(const perf::BenchResult& result, const QString& label);

    struct Run {
        QString label;
        perf::ConsistencyReport report;
    };
    std::vector<Run> m_runs;
    QChartView* m_view = nullptr;
    QLabel* m_verdict = nullptr;
};

} // namespace ssdk::app
