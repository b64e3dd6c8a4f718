#pragma once

#include <memory>

#include <QString>

#include "core/base/sysfs_root.h"
#include "core/device/discovery.h"
#include "core/platform/platform.h"
#include "core/rpc/transport.h"

namespace ssdk::app {

// What the GUI's parts share, made once in main (DESIGN.md: "Each program builds its services
// once in main"): the machine or recorded tree shown, the Platform (the OS's implementations of
// the areas' seams), and the one helper session every page runs its privileged verbs on, so opening
// the window and visiting every page starts at most one ssdkeeper-helper (and asks pkexec once). A
// long verb on one page holds the others' calls until it ends; each page's Cancel stops only its
// own call (rpc::Transport).
class AppServices {
public:
    // root: this machine (SysfsRoot()) or a recorded tree (--sysfs-root). helper: the session
    // to share; nullptr = the platform's helper session, started on the first call. system:
    // the Platform; nullptr = makePlatform().
    explicit AppServices(SysfsRoot root = SysfsRoot(),
                         std::shared_ptr<rpc::Transport> helper = nullptr,
                         std::shared_ptr<platform::Platform> system = nullptr);

    const SysfsRoot& root() const { return m_root; }
    bool isLive() const { return m_root.isLive(); }
    // The recorded tree's directory (DIR of DIR/sys), empty for this machine.
    QString recordedRoot() const;
    // Discovery of root() with the platform's filesystem prober.
    device::Discovery makeDiscovery() const;
    const std::shared_ptr<rpc::Transport>& helper() const { return m_helper; }
    const std::shared_ptr<platform::Platform>& platform() const { return m_platform; }

private:
    SysfsRoot m_root;
    std::shared_ptr<platform::Platform> m_platform;
    std::shared_ptr<rpc::Transport> m_helper;
};

} // namespace ssdk::app
