#include "core/base/platform/replay/unavailable.h"
#include "core/maintenance/transport/nvme_admin.h"
#include "core/maintenance/transport/platform/linux/sg_io_transport.h"

namespace ssdk::maintenance::transport {

// The replay platform sends no command to a drive. SgIoTransport stays declared under
// platform/linux/ because erase's systemTransports() names it; here it never opens.
Expected<std::unique_ptr<NvmeAdmin>> openNvmeAdmin(const std::string& path) {
    return std::unexpected(replay::unavailable("NVMe admin commands to " + path));
}

Expected<SgIoTransport> SgIoTransport::open(const std::string& devicePath) {
    return std::unexpected(replay::unavailable("SCSI commands to " + devicePath));
}

Expected<ScsiReply> SgIoTransport::execute(std::span<const std::uint8_t> /*cdb*/,
                                           DataDirection /*direction*/,
                                           std::span<std::uint8_t> /*buffer*/,
                                           std::chrono::milliseconds /*timeout*/) {
    return std::unexpected(replay::unavailable("SCSI commands"));
}

} // namespace ssdk::maintenance::transport
