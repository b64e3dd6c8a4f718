#pragma once

#include <memory>

#include <QList>
#include <QObject>
#include <QStringList>
#include <QThread>

#include "core/perf/sampler.h"

class QTimer;

namespace ssdk::app {

class DriveListModel;

// Samples the stat counters of a list of block devices on the thread it lives on (a
// perf::Sampler over source, e.g. Platform::makeStatSource) and emits the total (read +
// write) rate of each.
class DriveActivitySampler : public QObject {
    Q_OBJECT
public:
    explicit DriveActivitySampler(std::unique_ptr<perf::StatSource> source);
    ~DriveActivitySampler() override;

public slots:
    // Samples `devices` (kernel names) every intervalMs from now on; empty stops.
    void watch(const QStringList& devices, int intervalMs);

signals:
    // One entry per device that has a rate this time (present with a previous reading).
    void sampled(const QStringList& devices, const QList<double>& bytesPerS);

private:
    void tick();

    struct State;
    std::unique_ptr<State> m_state;
    QTimer* m_timer = nullptr;
};

// Feeds a DriveListModel's sparklines: a DriveActivitySampler on its own thread samples
// every listed drive each intervalMs and the GUI thread only appends one number per drive
// to the model's bounded history (the model repaints just the rows whose line changed).
class DriveActivity : public QObject {
    Q_OBJECT
public:
    static constexpr int kDefaultIntervalMs = 1000;

    // source: the counters to sample (AppServices::platform()->makeStatSource(root)).
    DriveActivity(DriveListModel* model, std::unique_ptr<perf::StatSource> source,
                  QObject* parent = nullptr, int intervalMs = kDefaultIntervalMs);
    ~DriveActivity() override;

private:
    void devicesChanged();
    void onSampled(const QStringList& devices, const QList<double>& bytesPerS);

    DriveListModel* m_model;
    int m_intervalMs;
    QThread m_thread;
    DriveActivitySampler* m_sampler = nullptr;
    QStringList m_watched;
};

} // namespace ssdk::app
