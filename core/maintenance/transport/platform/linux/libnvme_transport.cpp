#include "core/maintenance/transport/platform/linux/libnvme_transport.h"

#include <cerrno>
#include <cstring>
#include <endian.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <libnvme.h>
#include <limits>

namespace ssdk::maintenance::transport {

namespace {

// libnvme returns -1 with errno for ioctl failures, or a positive NVMe status code.
Expected<void> check(int rc, const char* what) {
    if (rc < 0) {
        return failErrno(errno, what);
    }
    if (rc > 0) {
        return fail(ErrorCode::Unsupported,
                    fmt::format("{}: the controller returned NVMe status {:#x}", what, rc));
    }
    return {};
}

} // namespace

Expected<LibnvmeTransport> LibnvmeTransport::open(const std::string& namespacePath) {
    UniqueFd fd(::open(namespacePath.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid()) {
        return failErrno(errno, "opening " + namespacePath);
    }
    __u32 nsid = 0;
    if (auto ok = check(nvme_get_nsid(fd.get(), &nsid), "reading the namespace id"); !ok) {
        return std::unexpected(ok.error());
    }
    return LibnvmeTransport(std::move(fd), nsid);
}

Expected<std::array<std::uint8_t, 4096>> LibnvmeTransport::identifyController() {
    nvme_id_ctrl ctrl{};
    static_assert(sizeof(ctrl) == 4096);
    if (auto ok = check(nvme_identify_ctrl(m_fd.get(), &ctrl), "Identify Controller"); !ok) {
        return std::unexpected(ok.error());
    }
    std::array<std::uint8_t, 4096> bytes{};
    std::memcpy(bytes.data(), &ctrl, bytes.size());
    return bytes;
}

Expected<std::array<std::uint8_t, 4096>> LibnvmeTransport::identifyNamespace() {
    nvme_id_ns ns{};
    static_assert(sizeof(ns) == 4096);
    if (auto ok = check(nvme_identify_ns(m_fd.get(), m_nsid, &ns), "Identify Namespace"); !ok) {
        return std::unexpected(ok.error());
    }
    std::array<std::uint8_t, 4096> bytes{};
    std::memcpy(bytes.data(), &ns, bytes.size());
    return bytes;
}

Expected<void> LibnvmeTransport::format(std::uint8_t lbaFormat, NvmeSecureErase ses,
                                        std::chrono::milliseconds timeout) {
    __u32 result = 0;
    nvme_format_nvm_args args{};
    args.result = &result;
    args.args_size = sizeof(args);
    args.fd = m_fd.get();
    const auto ms = timeout.count();
    args.timeout = ms > std::numeric_limits<__u32>::max() ? std::numeric_limits<__u32>::max()
                                                          : static_cast<__u32>(ms);
    args.nsid = m_nsid;
    args.mset = NVME_FORMAT_MSET_SEPARATE;
    args.pi = NVME_FORMAT_PI_DISABLE;
    args.pil = NVME_FORMAT_PIL_LAST;
    args.ses = static_cast<nvme_cmd_format_ses>(ses);
    args.lbaf = static_cast<__u8>(lbaFormat & 0x0F);
    args.lbafu = static_cast<__u8>(lbaFormat >> 4);
    return check(nvme_format_nvm(&args), "Format NVM");
}

Expected<void> LibnvmeTransport::sanitize(NvmeSanitizeAction action) {
    __u32 result = 0;
    nvme_sanitize_nvm_args args{};
    args.result = &result;
    args.args_size = sizeof(args);
    args.fd = m_fd.get();
    args.timeout = 0;
    args.sanact = static_cast<nvme_sanitize_sanact>(action);
    return check(nvme_sanitize_nvm(&args), "Sanitize");
}

Expected<NvmeSanitizeLog> LibnvmeTransport::sanitizeLog() {
    nvme_sanitize_log_page page{};
    if (auto ok = check(nvme_get_log_sanitize(m_fd.get(), false, &page), "Sanitize Status log");
        !ok) {
        return std::unexpected(ok.error());
    }
    NvmeSanitizeLog log;
    log.progress = le16toh(page.sprog);
    log.lastStatus = static_cast<std::uint8_t>(le16toh(page.sstat) & 0x07);
    return log;
}

} // namespace ssdk::maintenance::transport
