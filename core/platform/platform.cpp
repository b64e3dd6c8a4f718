#include "core/platform/platform.h"

#include <cstdlib>

// The one choice of an OS: CMake's SSDK_PLATFORM defines SSDK_PLATFORM_REPLAY for the replay
// platform's libraries (cmake/SsdkTargets.cmake).
#if defined(SSDK_PLATFORM_REPLAY)
#include "core/platform/replay/replay_platform.h"
#elif defined(__linux__)
#include "core/platform/linux/linux_platform.h"
#else
#error "no Platform for this operating system: add platform/<os>/ and its line in makePlatform"
#endif

namespace ssdk::platform {

std::unique_ptr<Platform> makePlatform() {
#if defined(SSDK_PLATFORM_REPLAY)
    if (const char* recordings = std::getenv(kReplayRecordingsVariable); recordings != nullptr) {
        return std::make_unique<ReplayPlatform>(recordings);
    }
    return std::make_unique<ReplayPlatform>();
#elif defined(__linux__)
    return std::make_unique<LinuxPlatform>();
#endif
}

} // namespace ssdk::platform
