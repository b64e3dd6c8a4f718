#pragma once

#include <optional>

#include <QGroupBox>

#include "core/cachectl/verbs.h"

class QCheckBox;
class QSpinBox;

namespace ssdk::app::ramcache {

// "Advanced": the sequential cutoff and the writeback percent (docs/ram-cache.md#tuning), each
// sent only when its box is ticked, and only to a backend with that knob; the tool tips say
// why a knob is greyed out.
class TuningBox final : public QGroupBox {
    Q_OBJECT
public:
    explicit TuningBox(QWidget* parent = nullptr);

    // Follows the selected backend's knobs, or shows what the running cache was asked for
    // (fixed while it runs: changed by turning it off and on).
    void update(const cachectl::BackendReport* backend,
                const std::optional<cachectl::CacheStatus>& active);
    // The ticked knobs into request.
    void addTo(cachectl::EnableRequest& request) const;

signals:
    void changed(); // a box was ticked or unticked

private:
    QCheckBox* m_cutoffSet;
    QSpinBox* m_cutoff; // KiB
    QCheckBox* m_percentSet;
    QSpinBox* m_percent;
};

} // namespace ssdk::app::ramcache
