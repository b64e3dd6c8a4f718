#pragma once

#include <string>

#include "core/base/unique_fd.h"
#include "core/firmware/nvme_admin.h"

namespace ssdk::firmware {

// NvmeAdmin through libnvme's nvme_admin_passthru on an NVMe block or controller node.
class LibnvmeAdmin : public NvmeAdmin {
public:
    static Expected<std::unique_ptr<NvmeAdmin>> open(const std::string& path);

    Expected<AdminReply> submit(const AdminCommand& command, std::span<std::uint8_t> data,
                                bool toDevice) override;

private:
    explicit LibnvmeAdmin(UniqueFd fd)
        : m_fd(std::move(fd)) {}
    UniqueFd m_fd;
};

} // namespace ssdk::firmware
