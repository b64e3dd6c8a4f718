#include "core/firmware/platform/linux/libnvme_admin.h"

#include <cerrno>
#include <fcntl.h>
#include <libnvme.h>

namespace ssdk::firmware {

namespace {
// Firmware commits may take a while (MTFA allows up to 6553 s, drives take seconds).
constexpr __u32 kTimeoutMs = 120'000;
} // namespace

Expected<std::unique_ptr<NvmeAdmin>> LibnvmeAdmin::open(const std::string& path) {
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid()) {
        return failErrno(errno, "opening " + path);
    }
    return std::unique_ptr<NvmeAdmin>(new LibnvmeAdmin(std::move(fd)));
}

Expected<AdminReply> LibnvmeAdmin::submit(const AdminCommand& command, std::span<std::uint8_t> data,
                                          bool /*toDevice*/) {
    // The kernel takes the direction from the opcode's low bits; libnvme passes the buffer.
    __u32 result = 0;
    const int rc =
        nvme_admin_passthru(m_fd.get(), command.opcode, 0, 0, command.nsid, 0, 0, command.cdw10,
                            command.cdw11, command.cdw12, 0, 0, 0, static_cast<__u32>(data.size()),
                            data.empty() ? nullptr : data.data(), 0, nullptr, kTimeoutMs, &result);
    if (rc < 0) {
        return failErrno(errno, "NVMe admin command " + std::to_string(command.opcode));
    }
    AdminReply reply;
    reply.status = static_cast<std::uint16_t>(rc & 0x7FF);
    reply.result = result;
    return reply;
}

} // namespace ssdk::firmware
