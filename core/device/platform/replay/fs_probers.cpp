#include "core/device/discovery.h"
#include "core/device/udev_prober.h"

namespace ssdk::device {

// Replay has no device nodes to probe: only what the tree recorded in udev's database.
std::shared_ptr<FsProber> makeSystemFsProber(const SysfsRoot& root) {
    return std::make_shared<UdevDatabaseProber>(root.run());
}

} // namespace ssdk::device
