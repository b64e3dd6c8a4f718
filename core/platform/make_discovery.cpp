#include "core/platform/platform.h"

namespace ssdk::platform {

device::Discovery Platform::makeDiscovery(SysfsRoot root) const {
    auto prober = makeFsProber(root);
    return device::Discovery(std::move(root), std::move(prober));
}

} // namespace ssdk::platform
