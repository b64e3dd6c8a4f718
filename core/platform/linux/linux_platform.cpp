#include "core/platform/linux/linux_platform.h"

#include "core/rpc/client.h"

namespace ssdk::platform {

ProcessRunner& LinuxPlatform::processRunner() {
    return m_processRunner;
}

std::shared_ptr<device::FsProber> LinuxPlatform::makeFsProber(const SysfsRoot& root) const {
    return device::makeSystemFsProber(root);
}

std::unique_ptr<overprovision::DiskEditor> LinuxPlatform::makeDiskEditor(ProcessRunner& runner,
                                                                         SysfsRoot root) const {
    return std::make_unique<overprovision::LinuxDiskEditor>(runner, std::move(root));
}

maintenance::erase::TransportFactory LinuxPlatform::transports() const {
    return maintenance::erase::systemTransports();
}

std::unique_ptr<perf::StatSource> LinuxPlatform::makeStatSource(SysfsRoot root) const {
    return std::make_unique<perf::SysfsStatSource>(std::move(root));
}

std::shared_ptr<rpc::Transport> LinuxPlatform::makeHelperSession() const {
    return std::make_shared<rpc::HelperClient>();
}

} // namespace ssdk::platform
