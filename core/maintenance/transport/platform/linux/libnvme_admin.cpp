// NvmeAdmin on Linux: libnvme's nvme_admin_passthru (NVME_IOCTL_ADMIN_CMD) on an NVMe
// controller node (/dev/nvme0) or namespace node (/dev/nvme0n1); both take admin commands.

#include <cerrno>
#include <fcntl.h>
#include <libnvme.h>
#include <limits>
#include <optional>

#include "core/base/unique_fd.h"
#include "core/maintenance/transport/nvme_commands.h"

namespace ssdk::maintenance::transport {

namespace {

__u32 timeoutMs(std::chrono::milliseconds timeout) {
    constexpr auto max = std::numeric_limits<__u32>::max();
    const auto ms = timeout.count();
    if (ms <= 0) {
        return 0; // the kernel's default admin timeout
    }
    return static_cast<std::uint64_t>(ms) > max ? max : static_cast<__u32>(ms);
}

class LibnvmeAdmin final : public NvmeAdmin {
public:
    explicit LibnvmeAdmin(UniqueFd fd)
        : m_fd(std::move(fd)) {}

    Expected<std::uint32_t> namespaceId() override {
        if (!m_nsid) {
            // NVME_IOCTL_ID: only namespace nodes answer it; a controller node says ENOTTY.
            __u32 nsid = 0;
            if (nvme_get_nsid(m_fd.get(), &nsid) != 0) {
                return failErrno(errno, "reading the namespace id");
            }
            m_nsid = nsid;
        }
        return *m_nsid;
    }

    Expected<NvmeCompletion> submit(const NvmeAdminCommand& command,
                                    std::span<std::uint8_t> data) override {
        if (auto fits = checkDataTransfer(command, data.size()); !fits) {
            return std::unexpected(fits.error());
        }
        __u32 result = 0;
        // The kernel moves the data the way the opcode's bits 1:0 say (checked above).
        const int rc = nvme_admin_passthru(
            m_fd.get(), command.opcode, 0, 0, command.nsid, 0, 0, command.cdw10, command.cdw11,
            command.cdw12, command.cdw13, command.cdw14, command.cdw15,
            static_cast<__u32>(data.size()), data.empty() ? nullptr : data.data(), 0, nullptr,
            timeoutMs(command.timeout), &result);
        if (rc < 0) {
            return failErrno(errno, "NVMe admin command " + std::to_string(command.opcode));
        }
        // rc > 0 is the completion's 15-bit status field (the phase bit shifted out).
        return NvmeCompletion{static_cast<std::uint16_t>(rc), result};
    }

private:
    UniqueFd m_fd;
    std::optional<std::uint32_t> m_nsid;
};

} // namespace

Expected<std::unique_ptr<NvmeAdmin>> openNvmeAdmin(const std::string& path) {
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid()) {
        return failErrno(errno, "opening " + path);
    }
    return std::make_unique<LibnvmeAdmin>(std::move(fd));
}

} // namespace ssdk::maintenance::transport
