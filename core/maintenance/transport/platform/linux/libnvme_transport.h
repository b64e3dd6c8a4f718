#pragma once

#include <string>

#include "core/base/unique_fd.h"
#include "core/maintenance/transport/nvme_transport.h"

namespace ssdk::maintenance::transport {

// NvmeTransport through libnvme's ioctl wrappers on a namespace block node.
class LibnvmeTransport : public NvmeTransport {
public:
    // Opens the node and asks the kernel for its namespace id (NVME_IOCTL_ID).
    static Expected<LibnvmeTransport> open(const std::string& namespacePath);

    Expected<std::array<std::uint8_t, 4096>> identifyController() override;
    Expected<std::array<std::uint8_t, 4096>> identifyNamespace() override;
    Expected<void> format(std::uint8_t lbaFormat, NvmeSecureErase ses,
                          std::chrono::milliseconds timeout) override;
    Expected<void> sanitize(NvmeSanitizeAction action) override;
    Expected<NvmeSanitizeLog> sanitizeLog() override;

private:
    LibnvmeTransport(UniqueFd fd, std::uint32_t nsid)
        : m_fd(std::move(fd))
        , m_nsid(nsid) {}
    UniqueFd m_fd;
    std::uint32_t m_nsid;
};

} // namespace ssdk::maintenance::transport
