#pragma once

#include <memory>
#include <utility>
#include <vector>

#include <QByteArray>
#include <QFutureWatcher>
#include <QGroupBox>
#include <QString>

#include "core/base/json.h"

class QChartView;
class QComboBox;
class QLabel;
class QLineSeries;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace ssdk::app {

class HelperCaller;

// How the what-if panel records a block trace: the helper's trace.record verb
// (helper/trace_verbs.h), or a fake in tests. One recording at a time; progress() and
// finished() arrive on the GUI thread.
class TraceRecordCalls : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    // Starts recording device for `seconds`; false while a recording runs.
    virtual bool record(const QString& device, unsigned seconds) = 0;
    // Ends the recording early; finished() still arrives, with what was recorded so far.
    virtual void stop() = 0;
signals:
    void progress(double fraction, const QString& text);
    // result: the verb's answer ({requests, reads, writes, seconds, stopped_early, truncated,
    // header, …}); trace: the recorded lines. The recording (the simulator's "blocks" format)
    // is result's header followed by them.
    void finished(bool ok, const QString& error, const ssdk::Json& result, const QByteArray& trace);
};

// Through ssdkeeper-helper (pkexec), on a helper process of its own so the page's cache calls
// go on while it records.
class HelperTraceRecordCalls final : public TraceRecordCalls {
    Q_OBJECT
public:
    explicit HelperTraceRecordCalls(QObject* parent = nullptr);
    bool record(const QString& device, unsigned seconds) override;
    void stop() override;

private:
    HelperCaller* m_caller;
    // The running recording's lines, appended on the helper caller's pool thread and read
    // here once its finished() arrived.
    std::shared_ptr<QByteArray> m_lines;
};

// One point of the what-if curve: hit ratio of the default policy and of LRU at a cache size.
struct WhatIfPoint {
    std::uint64_t cacheBytes = 0;
    double hitRatio = 0.0;
    double lruHitRatio = 0.0;
};

// "What would more RAM buy?": replays a block trace through the cache's policy and LRU over
// cache sizes (the simulator's miss-ratio curve) and draws both. The trace is a file the user
// opens (any simulator format) or one recorded here from the selected device for a chosen
// time (saved under <state>/ssdkeeper/traces, then replayed). Replays run off the GUI thread.
class WhatIfPanel final : public QGroupBox {
    Q_OBJECT
public:
    // calls: nullptr = through the helper.
    explicit WhatIfPanel(TraceRecordCalls* calls = nullptr, QWidget* parent = nullptr);
    ~WhatIfPanel() override;

    // The device or partition "Record" traces; empty disables recording.
    void setRecordTarget(const QString& device);
    // Replays a trace (a path and a simulator format name), off the GUI thread.
    void loadTrace(const QString& path, const QString& format);

signals:
    void ready(); // the curve of the last loadTrace is drawn (or its error shown)

private:
    void onRecordClicked();
    void onRecorded(bool ok, const QString& error, const Json& result, const QByteArray& trace);
    void showCurve(const QString& error, const std::vector<WhatIfPoint>& points);
    void updateRecordControls();

    TraceRecordCalls* m_calls;
    QString m_target;
    bool m_recording = false;
    bool m_replaying = false;
    QString m_source; // what the curve replays, said before its summary

    QComboBox* m_format;
    QPushButton* m_open;
    QSpinBox* m_seconds;
    QPushButton* m_record;
    QProgressBar* m_progress;
    QLabel* m_label;
    QChartView* m_view;
    QLineSeries* m_ours;
    QLineSeries* m_lru;
    QFutureWatcher<std::pair<QString, std::vector<WhatIfPoint>>> m_watcher;
};

} // namespace ssdk::app
