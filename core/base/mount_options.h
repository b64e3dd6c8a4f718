#pragma once

#include <string>
#include <string_view>

#include "core/base/error.h"

namespace ssdk {

// The options for a mount the privileged helper makes: `options` ("rw,relatime,errors=
// remount-ro", as recorded from mountinfo) with suid/dev/exec-style escalations removed and
// "nosuid,nodev" always added. Refuses options a mount helper would act on ("x-…",
// "helper=…", "uhelper=…") and anything but [A-Za-z0-9_=.:/+-] between the commas, so a
// recorded option can never run a program or make a device or set-uid file usable.
Expected<std::string> helperMountOptions(std::string_view options);

} // namespace ssdk
