#include "core/cachectl/power.h"

namespace ssdk::cachectl {

std::string_view toString(PowerEvent event) {
    switch (event) {
    case PowerEvent::Battery:
        return "battery";
    case PowerEvent::Ac:
        return "ac";
    case PowerEvent::Suspend:
        return "suspend";
    case PowerEvent::Resume:
        return "resume";
    case PowerEvent::Shutdown:
        return "shutdown";
    }
    return "battery";
}

Expected<PowerEvent> parsePowerEvent(std::string_view text) {
    for (auto event : {PowerEvent::Battery, PowerEvent::Ac, PowerEvent::Suspend, PowerEvent::Resume,
                       PowerEvent::Shutdown}) {
        if (text == toString(event)) {
            return event;
        }
    }
    return fail(ErrorCode::InvalidArgument, "unknown power event '" + std::string(text) +
                                                "' (battery, ac, suspend, resume or shutdown)");
}

Json toJson(const PowerPolicy& policy) {
    return Json{{"safe_on_battery", policy.safeOnBattery}, {"switched_by", policy.switchedBy}};
}

PowerPolicy powerPolicyFromJson(const Json& json) {
    PowerPolicy policy;
    if (json.is_object()) {
        policy.safeOnBattery = json.value("safe_on_battery", false);
        policy.switchedBy = json.value("switched_by", "");
    }
    return policy;
}

PowerDecision decidePower(CacheMode mode, const PowerPolicy& policy, PowerEvent event,
                          bool onBattery) {
    PowerDecision decision;
    decision.switchedBy = policy.switchedBy;
    const bool writeBack = mode == CacheMode::WriteBack;
    const std::string name(toString(event));
    switch (event) {
    case PowerEvent::Battery:
    case PowerEvent::Suspend:
        if (!writeBack) {
            return decision;
        }
        decision.flush = true;
        if (policy.safeOnBattery) {
            decision.mode = CacheMode::WriteThrough;
            decision.switchedBy = name;
            decision.reason = "flushed and switched to write-through (" + name + ")";
        } else {
            decision.reason = "flushed; stays write-back (" + name + ")";
        }
        return decision;
    case PowerEvent::Shutdown:
        // The RAM is about to be lost whatever the policy: nothing may stay dirty between
        // this flush and the teardown.
        if (!writeBack) {
            return decision;
        }
        decision.flush = true;
        decision.mode = CacheMode::WriteThrough;
        decision.switchedBy = name;
        decision.reason = "flushed and switched to write-through (shutdown)";
        return decision;
    case PowerEvent::Ac:
    case PowerEvent::Resume: {
        if (policy.switchedBy.empty() || writeBack) {
            decision.switchedBy.clear();
            return decision;
        }
        const bool stayOnBattery = event == PowerEvent::Resume && onBattery && policy.safeOnBattery;
        if (stayOnBattery) {
            decision.switchedBy = "battery";
            decision.reason.clear();
            return decision;
        }
        decision.mode = CacheMode::WriteBack;
        decision.switchedBy.clear();
        decision.reason = "back to write-back (" + name + ")";
        return decision;
    }
    }
    return decision;
}

} // namespace ssdk::cachectl
