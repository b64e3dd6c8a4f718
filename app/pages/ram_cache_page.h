#pragma once

#include <deque>
#include <memory>
#include <optional>

#include <QElapsedTimer>
#include <QStringList>

#include "app/pages/device_page.h"
#include "core/base/json.h"

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QMessageBox;
class QPushButton;
class QRadioButton;
class QSlider;
class QSpinBox;
class QTimer;
class QChart;
class QChartView;
class QLineSeries;
class QValueAxis;

namespace ssdk::cachectl {
class CacheManager;
}

namespace ssdk::app {

class HelperCaller;
class TraceRecordCalls;
class WhatIfPanel;

// How the RAM Cache page reaches the cache verbs (helper/cache_verbs.h): through the helper,
// or, in tests, straight to a CacheManager over fake backends. One call at a time; finished()
// arrives on the GUI thread.
class CacheCalls : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    virtual bool isBusy() const = 0;
    virtual bool call(const QString& verb, Json args) = 0;
signals:
    void finished(const QString& verb, bool ok, const QString& error, const ssdk::Json& result);
};

// Through ssdkeeper-helper (pkexec) with HelperCaller.
class HelperCacheCalls final : public CacheCalls {
    Q_OBJECT
public:
    explicit HelperCacheCalls(QObject* parent = nullptr);
    bool isBusy() const override;
    bool call(const QString& verb, Json args) override;

private:
    HelperCaller* m_caller;
};

// In-process over a CacheManager (fake backends in tests; answers on the next event loop turn).
class ManagerCacheCalls final : public CacheCalls {
    Q_OBJECT
public:
    ManagerCacheCalls(cachectl::CacheManager& manager, Json ram, QObject* parent = nullptr);
    bool isBusy() const override { return false; }
    bool call(const QString& verb, Json args) override;

private:
    cachectl::CacheManager& m_manager;
    Json m_ram;
};

// The RAM Cache page: turn a RAM cache on for a partition of the selected drive over one of
// the backends (greyed out with the reason when it cannot run here), size it against the
// machine's RAM (RAPID's rule suggested), pick compression and write mode, watch hit ratio,
// dirty data and RAM used live, flush, and see what more or less RAM would buy on a recorded
// trace (the simulator's miss-ratio curve).
class RamCachePage final : public DevicePage {
    Q_OBJECT
public:
    // calls, recordCalls: nullptr = through the helper.
    explicit RamCachePage(CacheCalls* calls = nullptr, TraceRecordCalls* recordCalls = nullptr,
                          QWidget* parent = nullptr);
    ~RamCachePage() override;

    void setDevice(const device::Device* device) override;
    // Replays a trace (a path and a simulator format name) for the what-if curve, off the GUI
    // thread (WhatIfPanel::loadTrace).
    void loadTrace(const QString& path, const QString& format);
    // Asks for backends, RAM and caches again.
    void refresh();

signals:
    void whatIfReady(); // the curve of the last loadTrace is drawn (or its error shown)

private:
    void build(TraceRecordCalls* recordCalls);
    void send(const QString& verb, Json args);
    void pump();
    void onFinished(const QString& verb, bool ok, const QString& error, const Json& result);
    void applyProbe(const Json& result);
    void applyStatus(const Json& result);
    void updateSizeLabel();
    void updateControls();
    void onToggled(bool on);
    void addSample(const Json& stats);
    // Power safety and "at next boot" (docs/ram-cache.md#power-safety, #at-next-boot).
    void buildSafety(QFormLayout* form);
    // Sequential cutoff and writeback percent (docs/ram-cache.md#tuning): each set only when
    // its box is ticked, and only for a backend with that knob.
    QWidget* buildTuning();
    void updateTuning(const Json& backend, const std::optional<Json>& active);
    void addTuning(Json& args) const;
    void applySafety(const std::optional<Json>& active);
    void confirmAtNextBoot(const Json& fstab, Json args);
    QString selectedPartition() const;
    std::optional<Json> activeCache() const; // the cache of the selected partition

    CacheCalls* m_calls;
    std::deque<std::pair<QString, Json>> m_queue;
    bool m_waiting = false;

    QString m_devicePath;
    bool m_systemDisk = false; // holds "/": never cached (the helper refuses it too)
    QStringList m_partitions;
    Json m_backends = Json::array();
    Json m_caches = Json::array();
    std::uint64_t m_totalRam = 0;
    std::uint64_t m_availableRam = 0;
    std::uint64_t m_suggested = 0;

    QLabel* m_summary;
    QComboBox* m_partition;
    QCheckBox* m_enable;
    QComboBox* m_backend;
    QLabel* m_backendReason;
    QSlider* m_size;
    QLabel* m_sizeLabel;
    QPushButton* m_suggest;
    QComboBox* m_compression;
    QLabel* m_ratio;
    QRadioButton* m_writeThrough;
    QRadioButton* m_writeBack;
    QLabel* m_writeBackWarning;
    QCheckBox* m_cutoffSet;
    QSpinBox* m_cutoff; // KiB
    QCheckBox* m_percentSet;
    QSpinBox* m_percent;
    QCheckBox* m_applyNow;
    QCheckBox* m_atNextBoot;
    QCheckBox* m_powerSafe;
    QLabel* m_safetyState;
    QMessageBox* m_bootConfirm = nullptr; // the fstab diff, while it is shown
    Json m_bootArgs;                      // the cache.enable the diff was asked for
    QPushButton* m_flush;
    QLabel* m_message;
    QLabel* m_statsLabel;
    QChartView* m_chartView;
    QLineSeries* m_hitSeries;
    QLineSeries* m_dirtySeries;
    QLineSeries* m_ramSeries;
    QValueAxis* m_timeAxis;
    QValueAxis* m_bytesAxis;
    QElapsedTimer m_clock;
    QTimer* m_poll;

    WhatIfPanel* m_whatIf;
};

} // namespace ssdk::app
