#pragma once

#include <expected>
#include <optional>
#include <vector>

#include "app/helper_caller.h"
#include "app/pages/device_page.h"
#include "app/pages/ram_cache/benefit_panel.h"
#include "core/cachectl/verbs.h"

class QLabel;

namespace ssdk::app {

class TraceRecordCalls;
class WhatIfPanel;

namespace ramcache {
class BenefitPanel;
class CacheController;
class LiveStatsPanel;
class SettingsForm;
class TuningBox;
} // namespace ramcache

// The RAM Cache page: turn a RAM cache on for a partition of the selected drive over one of
// the backends (greyed out with the reason when it cannot run here), size it against the
// machine's RAM (RAPID's rule suggested), pick compression and write mode, watch hit ratio,
// dirty data and RAM used live, flush, and see what more or less RAM would buy on a recorded
// trace (the simulator's miss-ratio curve), and measure what the cache buys on the partition
// (a short benchmark without and with it). Composed of the parts in app/pages/ram_cache/:
// the settings form, the tuning knobs, the live statistics and the controller that sends the
// cache verbs; the page passes the selected drive and the verbs' answers between them.
class RamCachePage final : public DevicePage {
    Q_OBJECT
public:
    // caller: how the cache verbs (core/cachectl/verbs.h) are reached, taken over by the
    // page; recordCalls: the what-if panel's. nullptr = through the helper process.
    explicit RamCachePage(HelperCaller* caller = nullptr, TraceRecordCalls* recordCalls = nullptr,
                          QWidget* parent = nullptr);
    ~RamCachePage() override;

    void setDevice(const device::Device* device) override;
    bool isLoading() const override;
    // Replays a trace (a path and a simulator format name) for the what-if curve, off the GUI
    // thread (WhatIfPanel::loadTrace).
    void loadTrace(const QString& path, const QString& format);
    // Asks for backends, RAM and caches again.
    void refresh();

signals:
    void whatIfReady(); // the curve of the last loadTrace is drawn (or its error shown)

private:
    void build(TraceRecordCalls* recordCalls);
    void connectParts();
    void applyStatus(const cachectl::StatusReply& reply);
    void updateControls();
    void onEnableClicked(bool on);
    // The cache of the selected partition.
    std::optional<cachectl::CacheStatus> activeCache() const;
    // What the comparison measures: the selected partition, where it is mounted, its cache.
    ramcache::BenefitPanel::Target benefitTarget() const;
    // The form's settings with the tuning knobs, or why a cache cannot be enabled with them.
    std::expected<cachectl::EnableRequest, QString> benefitSettings() const;

    std::vector<cachectl::CacheStatus> m_caches;
    std::optional<device::Device> m_device;

    ramcache::CacheController* m_controller;
    QLabel* m_summary;
    ramcache::SettingsForm* m_form;
    ramcache::TuningBox* m_tuning;
    ramcache::LiveStatsPanel* m_live;
    ramcache::BenefitPanel* m_benefit;
    WhatIfPanel* m_whatIf;
    QLabel* m_message;
};

} // namespace ssdk::app
