#include "core/platform/platform.h"

#if defined(__linux__)
#include "core/platform/linux/linux_platform.h"
#else
#error "no Platform for this operating system: add platform/<os>/ and its line in makePlatform"
#endif

namespace ssdk::platform {

device::Discovery Platform::makeDiscovery(SysfsRoot root) const {
    auto prober = makeFsProber(root);
    return device::Discovery(std::move(root), std::move(prober));
}

std::unique_ptr<Platform> makePlatform() {
#if defined(__linux__)
    return std::make_unique<LinuxPlatform>();
#endif
}

} // namespace ssdk::platform
