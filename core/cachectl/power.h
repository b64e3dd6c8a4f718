#pragma once
// Power safety of write-back caches (docs/ram-cache.md#power-safety). A write-back RAM cache
// holds writes the drive has not seen; on battery, before suspend and at shutdown they are
// flushed, and — where the user asked for it (always at shutdown, when the RAM is about to be
// lost) — the cache switches itself to write-through. It switches back on mains power or
// resume when a power event, not the user, made it write-through. Pure decisions here; the
// manager applies them, udev/systemd units (resources/) deliver the events.
#include <optional>
#include <string>
#include <string_view>

#include "core/base/error.h"
#include "core/base/json.h"
#include "core/cachectl/backend.h"

namespace ssdk::cachectl {

enum class PowerEvent { Battery, Ac, Suspend, Resume, Shutdown };

std::string_view toString(PowerEvent event);
Expected<PowerEvent> parsePowerEvent(std::string_view text); // "battery", "ac", "suspend", …

// The user's choice and what power events did about it; journaled with each cache.
struct PowerPolicy {
    // "On battery or before suspend: flush and switch to write-through".
    bool safeOnBattery = false;
    // Set while a power event holds a write-back cache in write-through: "battery", "suspend"
    // or "shutdown"; empty when the mode is the user's.
    std::string switchedBy;
};

Json toJson(const PowerPolicy& policy);
PowerPolicy powerPolicyFromJson(const Json& json); // missing keys: the defaults

struct PowerDecision {
    bool flush = false;
    std::optional<CacheMode> mode; // switch to this mode
    std::string switchedBy;        // the policy's switchedBy afterwards
    std::string reason;            // one sentence for logs and reports; empty: nothing to do
    bool acts() const { return flush || mode.has_value(); }
};

// What to do with a cache now in `mode` on `event`. onBattery: the machine runs on battery
// after the event (used on resume and when the policy is changed).
PowerDecision decidePower(CacheMode mode, const PowerPolicy& policy, PowerEvent event,
                          bool onBattery);

} // namespace ssdk::cachectl
