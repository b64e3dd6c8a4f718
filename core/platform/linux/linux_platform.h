#pragma once

#include "core/base/system_process_runner.h"
#include "core/platform/platform.h"

namespace ssdk::platform {

// Linux: fork/exec, udev + libblkid, libfdisk + block ioctls, SG_IO + libnvme,
// /sys/class/block/<name>/stat, and ssdkeeper-helper through pkexec (directly when root).
class LinuxPlatform final : public Platform {
public:
    ProcessRunner& processRunner() override;
    std::shared_ptr<device::FsProber> makeFsProber(const SysfsRoot& root) const override;
    std::unique_ptr<overprovision::DiskEditor> makeDiskEditor(ProcessRunner& runner,
                                                              SysfsRoot root) const override;
    maintenance::erase::TransportFactory transports() const override;
    std::unique_ptr<perf::StatSource> makeStatSource(SysfsRoot root) const override;
    std::shared_ptr<rpc::Transport> makeHelperSession() const override;

private:
    SystemProcessRunner m_processRunner;
};

} // namespace ssdk::platform
