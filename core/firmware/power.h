#pragma once
// Is the machine on mains power? Read from /sys/class/power_supply: a Mains (or USB) supply
// that is online means yes; batteries without an online mains supply mean no; no supply
// at all (desktops, servers, VMs) counts as mains.

#include <string>

#include "core/base/sysfs_root.h"

namespace ssdk::firmware {

struct PowerState {
    bool onMains = true;
    std::string detail; // "mains adapter AC online", "running on battery BAT0 (Discharging)", …
};

PowerState readPowerState(const SysfsRoot& root);

} // namespace ssdk::firmware
