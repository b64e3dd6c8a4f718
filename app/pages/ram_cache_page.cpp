#include "app/pages/ram_cache_page.h"

#include <QFrame>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include "app/device_text.h"
#include "app/pages/ram_cache/benefit_panel.h"
#include "app/pages/ram_cache/cache_controller.h"
#include "app/pages/ram_cache/live_stats_panel.h"
#include "app/pages/ram_cache/settings_form.h"
#include "app/pages/ram_cache/tuning_box.h"
#include "app/widgets/what_if_panel.h"

namespace ssdk::app {

RamCachePage::RamCachePage(HelperCaller* caller, TraceRecordCalls* recordCalls, QWidget* parent)
    : DevicePage(parent)
    , m_controller(new ramcache::CacheController(caller, this)) {
    build(recordCalls);
    connectParts();
    updateControls();
    refresh();
}

RamCachePage::~RamCachePage() = default;

void RamCachePage::build(TraceRecordCalls* recordCalls) {
    auto* outer = new QVBoxLayout(this);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    outer->addWidget(scroll);
    auto* content = new QWidget;
    scroll->setWidget(content);
    auto* layout = new QVBoxLayout(content);

    m_summary = new QLabel;
    m_summary->setObjectName("ramcache.summary");
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    m_form = new ramcache::SettingsForm;
    layout->addWidget(m_form);
    m_tuning = new ramcache::TuningBox;
    layout->addWidget(m_tuning);
    m_live = new ramcache::LiveStatsPanel;
    layout->addWidget(m_live);
    m_benefit = new ramcache::BenefitPanel(m_controller);
    layout->addWidget(m_benefit);
    m_whatIf = new WhatIfPanel(recordCalls);
    layout->addWidget(m_whatIf);
    m_message = new QLabel;
    m_message->setObjectName("ramcache.message");
    m_message->setWordWrap(true);
    layout->addWidget(m_message);
    layout->addStretch(1);
}

void RamCachePage::connectParts() {
    using ramcache::CacheController;
    connect(m_controller, &CacheController::probed, this,
            [this](const cachectl::ProbeReply& reply) { m_form->setProbe(reply); });
    connect(m_controller, &CacheController::probeFailed, m_form,
            &ramcache::SettingsForm::setProbeFailed);
    connect(m_controller, &CacheController::statusArrived, this, &RamCachePage::applyStatus);
    connect(m_controller, &CacheController::cacheStarted, m_live,
            &ramcache::LiveStatsPanel::restart);
    connect(m_controller, &CacheController::message, m_message, &QLabel::setText);
    connect(m_controller, &CacheController::enableDropped, this,
            [this] { m_form->setEnableChecked(false); });
    connect(m_controller, &CacheController::callDone, this, &RamCachePage::updateControls);
    connect(m_whatIf, &WhatIfPanel::ready, this, &RamCachePage::whatIfReady);
    connect(m_benefit, &ramcache::BenefitPanel::compareClicked, this, [this] {
        m_benefit->setTarget(benefitTarget());
        if (auto settings = benefitSettings(); settings) {
            m_benefit->start(*settings);
        }
    });
    // The form and the knobs are the comparison's while it runs.
    connect(m_benefit, &ramcache::BenefitPanel::runningChanged, this, [this](bool running) {
        m_form->setEnabled(!running);
        m_tuning->setEnabled(!running);
        updateControls();
    });

    using ramcache::SettingsForm;
    connect(m_form, &SettingsForm::selectionChanged, this, &RamCachePage::updateControls);
    connect(m_form, &SettingsForm::enableClicked, this, &RamCachePage::onEnableClicked);
    connect(m_form, &SettingsForm::modeToggled, this, [this](bool writeBack) {
        if (auto active = activeCache(); active) {
            m_controller->setMode(active->record.active.plan.origin,
                                  writeBack ? cachectl::CacheMode::WriteBack
                                            : cachectl::CacheMode::WriteThrough);
        }
    });
    connect(m_form, &SettingsForm::powerSafeClicked, this, [this](bool on) {
        if (auto active = activeCache(); active) {
            m_controller->setPolicy(active->record.active.plan.origin, on);
        }
    });
    connect(m_tuning, &ramcache::TuningBox::changed, this, &RamCachePage::updateControls);
    connect(m_live, &ramcache::LiveStatsPanel::pollDue, m_controller, &CacheController::pollStatus);
    connect(m_live, &ramcache::LiveStatsPanel::flushClicked, this, [this] {
        if (auto active = activeCache(); active) {
            m_live->setFlushEnabled(false);
            m_controller->flush(active->record.active.plan.origin);
        }
    });
}

void RamCachePage::refresh() {
    m_controller->probe();
    m_controller->status();
}

bool RamCachePage::isLoading() const {
    return m_controller->isWaiting();
}

void RamCachePage::setDevice(const device::Device* device) {
    m_device.reset();
    if (device != nullptr) {
        m_device = *device;
    }
    m_form->setDevice(device);
    if (device == nullptr) {
        m_summary->setText(tr("Select a drive."));
    } else if (device->holdsRootFilesystem()) {
        m_summary->setText(tr("%1 holds the running system (/): SSD Keeper does not stack a "
                              "cache under it. Select another drive.")
                               .arg(toQString(device->path)));
    } else {
        m_summary->setText(
            tr("Keep the most used blocks of %1 in RAM (RAPID-style): reads that hit come from "
               "memory, and in write-back mode writes are absorbed and written back in larger "
               "chunks.")
                .arg(toQString(device->path)));
    }
    updateControls();
}

void RamCachePage::applyStatus(const cachectl::StatusReply& reply) {
    m_caches = reply.caches;
    const auto active = activeCache();
    m_form->showCache(active);
    m_live->showCache(active);
}

void RamCachePage::updateControls() {
    m_whatIf->setRecordTarget(m_form->selectedPartition());
    const auto active = activeCache();
    m_form->updateControls(active);
    m_live->setFlushEnabled(active.has_value() && !m_controller->isWaiting());
    m_tuning->update(m_form->selectedBackend(), active);
    m_benefit->setTarget(benefitTarget());
    m_benefit->setSettings(benefitSettings());
}

void RamCachePage::onEnableClicked(bool on) {
    m_message->clear();
    if (!on) {
        if (auto active = activeCache(); active) {
            m_controller->disable(active->record.active.plan.origin);
        }
        return;
    }
    auto request = m_form->enableRequest();
    if (!request) {
        m_form->setEnableChecked(false);
        m_message->setText(request.error());
        return;
    }
    m_tuning->addTo(*request);
    m_controller->enable(*request);
}

std::optional<cachectl::CacheStatus> RamCachePage::activeCache() const {
    const std::string selected = m_form->selectedPartition().toStdString();
    for (const auto& cache : m_caches) {
        if (!selected.empty() && cache.record.active.plan.origin == selected) {
            return cache;
        }
    }
    return std::nullopt;
}

ramcache::BenefitPanel::Target RamCachePage::benefitTarget() const {
    ramcache::BenefitPanel::Target target;
    target.partition = m_form->selectedPartition();
    if (!m_device || target.partition.isEmpty()) {
        return target;
    }
    target.driveKey = toQString(m_device->serial.empty() ? m_device->name : m_device->serial);
    if (const auto active = activeCache(); active) {
        const auto& record = active->record;
        target.scheduled = record.phase == cachectl::CachePhase::Scheduled;
        if (record.mount) {
            target.mountPoint = toQString(record.mount->mountPoint);
        }
        const auto& plan = record.active.plan;
        cachectl::EnableRequest current;
        current.device = plan.origin;
        current.backend = record.active.backend;
        current.size = plan.cacheBytes;
        current.compression = plan.compression;
        current.mode = plan.mode;
        if (!plan.cacheDevice.empty()) {
            current.cacheDevice = plan.cacheDevice;
        }
        current.applyNow = true;
        current.powerSafe = record.power.safeOnBattery;
        current.sequentialCutoff = plan.sequentialCutoff;
        current.writebackPercent = plan.writebackPercent;
        target.current = current;
        return target;
    }
    const std::string selected = target.partition.toStdString();
    const std::vector<device::Mount>* mounts =
        m_device->partitions.empty() && m_device->path == selected ? &m_device->mounts : nullptr;
    for (const auto& partition : m_device->partitions) {
        if (partition.path == selected) {
            mounts = &partition.mounts;
        }
    }
    if (mounts != nullptr && !mounts->empty()) {
        target.mountPoint = toQString(mounts->front().mountPoint);
    }
    return target;
}

std::expected<cachectl::EnableRequest, QString> RamCachePage::benefitSettings() const {
    const auto* backend = m_form->selectedBackend();
    if (backend == nullptr || !backend->probe.available) {
        return std::unexpected(tr("Pick a backend that can run here."));
    }
    auto request = m_form->settingsRequest();
    m_tuning->addTo(request);
    return request;
}

void RamCachePage::loadTrace(const QString& path, const QString& format) {
    m_whatIf->loadTrace(path, format);
}

} // namespace ssdk::app
