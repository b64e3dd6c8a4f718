#include "app/app_services.h"

#include "app/device_text.h"

namespace ssdk::app {

AppServices::AppServices(SysfsRoot root, std::shared_ptr<rpc::Transport> helper,
                         std::shared_ptr<platform::Platform> system)
    : m_root(std::move(root))
    , m_platform(system ? std::move(system) : platform::makePlatform())
    , m_helper(helper ? std::move(helper) : m_platform->makeHelperSession()) {}

QString AppServices::recordedRoot() const {
    return m_root.isLive() ? QString() : toQString(m_root.sys().parent_path().string());
}

device::Discovery AppServices::makeDiscovery() const {
    return m_platform->makeDiscovery(m_root);
}

} // namespace ssdk::app
