#include "core/base/log.h"
#include "core/cachectl/cache_manager.h"

// CacheManager's power safety: what battery, suspend and shutdown events do to each cache
// (docs/ram-cache.md#power-safety).
namespace ssdk::cachectl {

namespace {

// A switch to write-through writes every dirty block back itself (Backend::setMode), in a way
// that keeps new writes from dirtying blocks meanwhile; a write-back flush before it would
// only chase the writes that keep coming.
bool drainsBySwitch(const PowerDecision& decision) {
    return decision.mode == CacheMode::WriteThrough;
}

} // namespace

PowerOutcome CacheManager::applyPower(CacheRecord& record, PowerEvent event, bool onBattery) {
    const auto decision = decidePower(record.active.plan.mode, record.power, event, onBattery);
    PowerOutcome outcome{record.active.plan.name, record.active.plan.origin, decision.reason, ""};
    auto backend = backendOf(record);
    if (!backend) {
        outcome.error = backend.error().describe();
        return outcome;
    }
    if (decision.flush) {
        (void)m_env.run({"blockdev", "--flushbufs", record.active.cachedDevice});
        if (!drainsBySwitch(decision)) {
            if (auto flushed = (*backend)->flush(record.active); !flushed) {
                outcome.error = flushed.error().describe();
            }
        }
    }
    if (decision.mode && outcome.error.empty()) {
        if (auto changed = (*backend)->setMode(record.active, *decision.mode); !changed) {
            outcome.error = changed.error().describe();
        }
    }
    if (outcome.error.empty()) {
        record.power.switchedBy = decision.switchedBy;
    }
    if (auto saved = save(record); !saved && outcome.error.empty()) {
        outcome.error = saved.error().describe();
    }
    if (!outcome.error.empty()) {
        log::get("cachectl")->error("{} on {}: {}", toString(event), outcome.name, outcome.error);
    } else if (!outcome.action.empty()) {
        log::get("cachectl")->info("{}: {}", outcome.name, outcome.action);
    }
    return outcome;
}

std::vector<PowerOutcome> CacheManager::powerEvent(PowerEvent event, bool onBattery) {
    std::vector<PowerOutcome> outcomes;
    for (const auto& status : status()) {
        CacheRecord record = status.record;
        if (record.phase == CachePhase::Active) {
            outcomes.push_back(applyPower(record, event, onBattery));
        }
    }
    return outcomes;
}

Expected<CacheRecord> CacheManager::setPowerPolicy(const std::string& device, bool safeOnBattery,
                                                   bool onBattery) {
    auto record = find(device);
    if (!record) {
        return std::unexpected(record.error());
    }
    record->power.safeOnBattery = safeOnBattery;
    std::optional<PowerDecision> decision;
    if (record->phase == CachePhase::Active) {
        const bool heldByPower =
            record->power.switchedBy == "battery" || record->power.switchedBy == "suspend";
        if (!safeOnBattery && heldByPower) {
            decision = decidePower(record->active.plan.mode, record->power, PowerEvent::Ac, false);
        } else if (safeOnBattery && onBattery) {
            decision =
                decidePower(record->active.plan.mode, record->power, PowerEvent::Battery, true);
        }
    }
    if (decision && decision->acts()) {
        auto backend = backendOf(*record);
        if (!backend) {
            return std::unexpected(backend.error());
        }
        if (decision->flush && !drainsBySwitch(*decision)) {
            if (auto flushed = (*backend)->flush(record->active); !flushed) {
                return std::unexpected(flushed.error());
            }
        }
        if (decision->mode) {
            if (auto changed = (*backend)->setMode(record->active, *decision->mode); !changed) {
                return std::unexpected(changed.error());
            }
        }
        record->power.switchedBy = decision->switchedBy;
    }
    return commit(*record);
}

} // namespace ssdk::cachectl
