#include "app/pages/ram_cache/tuning_box.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>

#include "app/device_text.h"
#include "app/pages/ram_cache/units.h"

namespace ssdk::app::ramcache {

TuningBox::TuningBox(QWidget* parent)
    : QGroupBox(tr("Advanced"), parent) {
    auto* form = new QFormLayout(this);
    m_cutoffSet = new QCheckBox(tr("Sequential cutoff"));
    m_cutoffSet->setObjectName("ramcache.sequentialCutoffSet");
    m_cutoff = new QSpinBox;
    m_cutoff->setObjectName("ramcache.sequentialCutoff");
    m_cutoff->setRange(0, static_cast<int>(cachectl::kMaxSequentialCutoff / kKiB));
    m_cutoff->setSingleStep(512);
    m_cutoff->setValue(4096); // bcache's and the engine's default, 4 MiB
    m_cutoff->setSuffix(tr(" KiB"));
    m_cutoff->setSpecialValueText(tr("0 (never bypass)"));
    m_cutoff->setMaximumWidth(200);
    form->addRow(m_cutoffSet, m_cutoff);
    m_percentSet = new QCheckBox(tr("Writeback percent"));
    m_percentSet->setObjectName("ramcache.writebackPercentSet");
    m_percent = new QSpinBox;
    m_percent->setObjectName("ramcache.writebackPercent");
    m_percent->setRange(0, 100);
    m_percent->setValue(10); // bcache's default
    m_percent->setSuffix(tr(" %"));
    m_percent->setMaximumWidth(200);
    form->addRow(m_percentSet, m_percent);
    auto* note = new QLabel(tr("Unticked: the backend's default."));
    note->setWordWrap(true);
    form->addRow(note);
    for (auto* box : {m_cutoffSet, m_percentSet}) {
        connect(box, &QCheckBox::toggled, this, &TuningBox::changed);
    }
}

void TuningBox::update(const cachectl::BackendReport* backend,
                       const std::optional<cachectl::CacheStatus>& active) {
    const cachectl::Capabilities capabilities =
        backend != nullptr ? backend->capabilities : cachectl::Capabilities{};
    struct Knob {
        QCheckBox* set;
        QSpinBox* value;
        bool supported;
        std::string reason;
        std::optional<std::uint64_t> asked; // what the running cache was asked for
        QString help;
    };
    std::optional<std::uint64_t> askedPercent;
    if (active && active->record.active.plan.writebackPercent) {
        askedPercent = *active->record.active.plan.writebackPercent;
    }
    const Knob knobs[] = {
        {m_cutoffSet, m_cutoff, capabilities.sequentialCutoff,
         capabilities.noSequentialCutoffReason,
         active ? active->record.active.plan.sequentialCutoff : std::nullopt,
         tr("Sequential reads and writes longer than this bypass the cache (bcache's "
            "sequential_cutoff). 0: nothing bypasses it.")},
        {m_percentSet, m_percent, capabilities.writebackPercent,
         capabilities.noWritebackPercentReason, askedPercent,
         tr("bcache keeps writing back until dirty data is below this share of the cache "
            "(write-back only).")},
    };
    for (const auto& knob : knobs) {
        QString tip = knob.help;
        if (!knob.supported && backend != nullptr) {
            tip += QLatin1Char('\n') + tr("Not with %1: %2")
                                           .arg(toQString(backend->name),
                                                knob.reason.empty() ? tr("it has no such setting")
                                                                    : toQString(knob.reason));
        }
        for (QWidget* widget :
             {static_cast<QWidget*>(knob.set), static_cast<QWidget*>(knob.value)}) {
            widget->setToolTip(tip);
        }
        knob.set->blockSignals(true);
        if (active) {
            // What the running cache was asked for; changed by turning it off and on.
            knob.set->setChecked(knob.asked.has_value());
            if (knob.asked) {
                knob.value->setValue(
                    static_cast<int>(knob.value == m_cutoff ? *knob.asked / kKiB : *knob.asked));
            }
        } else if (!knob.supported) {
            knob.set->setChecked(false);
        }
        knob.set->blockSignals(false);
        knob.set->setEnabled(knob.supported && !active);
        knob.value->setEnabled(knob.supported && !active && knob.set->isChecked());
    }
}

void TuningBox::addTo(cachectl::EnableRequest& request) const {
    if (m_cutoffSet->isEnabled() && m_cutoffSet->isChecked()) {
        request.sequentialCutoff = static_cast<std::uint64_t>(m_cutoff->value()) * kKiB;
    }
    if (m_percentSet->isEnabled() && m_percentSet->isChecked()) {
        request.writebackPercent = static_cast<unsigned>(m_percent->value());
    }
}

} // namespace ssdk::app::ramcache
