#include "app/app_services.h"

#include "app/device_text.h"
#include "core/rpc/client.h"

namespace ssdk::app {

AppServices::AppServices(SysfsRoot root, std::shared_ptr<rpc::Transport> helper)
    : m_root(std::move(root))
    , m_helper(helper ? std::move(helper) : std::make_shared<rpc::HelperClient>()) {}

QString AppServices::recordedRoot() const {
    return m_root.isLive() ? QString() : toQString(m_root.sys().parent_path().string());
}

device::Discovery AppServices::makeDiscovery() const {
    return device::Discovery(m_root, device::makeSystemFsProber(m_root));
}

} // namespace ssdk::app
