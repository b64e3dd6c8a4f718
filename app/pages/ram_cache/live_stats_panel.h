#pragma once

#include <optional>

#include <QElapsedTimer>
#include <QGroupBox>

#include "core/cachectl/verbs.h"

class QLabel;
class QLineSeries;
class QPushButton;
class QTimer;
class QValueAxis;

namespace ssdk::app::ramcache {

// "Live": the running cache's hit ratio, dirty data and RAM used, as a line of figures and on
// a chart of the last two minutes, asked for every second while a cache runs (pollDue), and
// the Flush button.
class LiveStatsPanel final : public QGroupBox {
    Q_OBJECT
public:
    explicit LiveStatsPanel(QWidget* parent = nullptr);

    // The selected partition's cache from cache.status (nullopt: none): its statistics are
    // added to the chart, and polling runs while there is one.
    void showCache(const std::optional<cachectl::CacheStatus>& active);
    // A new cache: the chart starts again from 0 s.
    void restart();
    void setFlushEnabled(bool enabled);

signals:
    void flushClicked();
    void pollDue(); // a second went by with a cache running: time to ask for its statistics

private:
    void addSample(const cachectl::CacheStats& stats);

    QLabel* m_statsLabel;
    QPushButton* m_flush;
    QLineSeries* m_hitSeries;
    QLineSeries* m_dirtySeries;
    QLineSeries* m_ramSeries;
    QValueAxis* m_timeAxis;
    QValueAxis* m_bytesAxis;
    QElapsedTimer m_clock;
    QTimer* m_poll;
};

} // namespace ssdk::app::ramcache
