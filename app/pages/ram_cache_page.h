#pragma once

#include <deque>
#include <memory>
#include <optional>

#include <QElapsedTimer>
#include <QStringList>

#include "app/helper_caller.h"
#include "app/pages/device_page.h"
#include "core/base/json.h"
#include "core/cachectl/verbs.h"

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

namespace ssdk::app {

class TraceRecordCalls;
class WhatIfPanel;

// The RAM Cache page: turn a RAM cache on for a partition of the selected drive over one of
// the backends (greyed out with the reason when it cannot run here), size it against the
// machine's RAM (RAPID's rule suggested), pick compression and write mode, watch hit ratio,
// dirty data and RAM used live, flush, and see what more or less RAM would buy on a recorded
// trace (the simulator's miss-ratio curve).
class RamCachePage final : public DevicePage {
    Q_OBJECT
public:
    // caller: how the cache verbs (core/cachectl/verbs.h) are reached, taken over by the
    // page; recordCalls: the what-if panel's. nullptr = through the helper process.
    explicit RamCachePage(HelperCaller* caller = nullptr, TraceRecordCalls* recordCalls = nullptr,
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
    // One cache verb waiting for its turn: the CacheClient call, and what to do with its
    // answer (the typed reply's JSON, read back typed by `done`).
    struct PendingCall {
        QString verb;
        HelperCaller::Work work;
        std::function<Expected<void>(const Json&)> done;
    };

    void build(TraceRecordCalls* recordCalls);
    void send(PendingCall call);
    void sendStatus();
    void pump();
    void onFinished(const QString& verb, const HelperCaller::Outcome& outcome);
    // After a change went through: say so and ask for the caches again.
    void changed(const QString& message);
    void applyProbe(const cachectl::ProbeReply& reply);
    void applyStatus(const cachectl::StatusReply& reply);
    void applyEnabled(const cachectl::EnableReply& reply);
    void updateSizeLabel();
    void updateControls();
    void onToggled(bool on);
    void sendEnable(const cachectl::EnableRequest& request);
    void addSample(const cachectl::CacheStats& stats);
    // Power safety and "at next boot" (docs/ram-cache.md#power-safety, #at-next-boot).
    void buildSafety(QFormLayout* form);
    // Sequential cutoff and writeback percent (docs/ram-cache.md#tuning): each set only when
    // its box is ticked, and only for a backend with that knob.
    QWidget* buildTuning();
    void updateTuning(const cachectl::BackendReport* backend,
                      const std::optional<cachectl::CacheStatus>& active);
    void addTuning(cachectl::EnableRequest& request) const;
    void applySafety(const std::optional<cachectl::CacheStatus>& active);
    void confirmAtNextBoot(const cachectl::FstabPreview& fstab, cachectl::EnableRequest request);
    QString selectedPartition() const;
    // The cache of the selected partition.
    std::optional<cachectl::CacheStatus> activeCache() const;
    const cachectl::BackendReport* selectedBackend() const;

    HelperCaller* m_caller;
    std::deque<PendingCall> m_queue;
    std::function<Expected<void>(const Json&)> m_done; // of the call running now
    bool m_waiting = false;

    QString m_devicePath;
    bool m_systemDisk = false; // holds "/": never cached (the helper refuses it too)
    QStringList m_partitions;
    std::vector<cachectl::BackendReport> m_backends;
    std::vector<cachectl::CacheStatus> m_caches;
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
    QMessageBox* m_bootConfirm = nullptr;  // the fstab diff, while it is shown
    cachectl::EnableRequest m_bootRequest; // the cache.enable the diff was asked for
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
