#include "core/firmware/power.h"

#include <algorithm>

namespace ssdk::firmware {

namespace {
std::string firstLine(std::string text) {
    text.erase(std::find(text.begin(), text.end(), '\n'), text.end());
    return text;
}
} // namespace

PowerState readPowerState(const SysfsRoot& root) {
    const auto dir = root.sys() / "class" / "power_supply";
    std::string battery;
    std::string offlineMains;
    for (const auto& name : root.list(dir)) {
        const std::string type = firstLine(root.tryString(dir / name / "type").value_or(""));
        if (type == "Mains" || type == "USB") {
            if (root.tryU64(dir / name / "online").value_or(0) == 1) {
                return {true, "mains adapter " + name + " online"};
            }
            offlineMains = name;
        } else if (type == "Battery" && battery.empty()) {
            const std::string status =
                firstLine(root.tryString(dir / name / "status").value_or("unknown"));
            battery = name + " (" + status + ")";
        }
    }
    if (!battery.empty()) {
        return {false, "running on battery " + battery + "; connect the mains adapter"};
    }
    if (!offlineMains.empty()) {
        return {false, "mains adapter " + offlineMains + " is offline"};
    }
    return {true, "no battery: mains power assumed"};
}

} // namespace ssdk::firmware
