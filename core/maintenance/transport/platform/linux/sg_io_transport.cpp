#include "core/maintenance/transport/platform/linux/sg_io_transport.h"

#include <array>
#include <cerrno>
#include <fcntl.h>
#include <limits>
#include <scsi/sg.h>
#include <sys/ioctl.h>

namespace ssdk::maintenance::transport {

Expected<SgIoTransport> SgIoTransport::open(const std::string& devicePath) {
    UniqueFd fd(::open(devicePath.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    if (!fd.valid()) {
        return failErrno(errno, "opening " + devicePath + " for SG_IO");
    }
    return SgIoTransport(std::move(fd));
}

Expected<ScsiReply> SgIoTransport::execute(std::span<const std::uint8_t> cdb,
                                           DataDirection direction, std::span<std::uint8_t> buffer,
                                           std::chrono::milliseconds timeout) {
    std::array<std::uint8_t, 64> sense{};
    sg_io_hdr_t header{};
    header.interface_id = 'S';
    header.cmdp = const_cast<unsigned char*>(cdb.data());
    header.cmd_len = static_cast<unsigned char>(cdb.size());
    header.sbp = sense.data();
    header.mx_sb_len = static_cast<unsigned char>(sense.size());
    switch (direction) {
    case DataDirection::None:
        header.dxfer_direction = SG_DXFER_NONE;
        break;
    case DataDirection::FromDevice:
        header.dxfer_direction = SG_DXFER_FROM_DEV;
        break;
    case DataDirection::ToDevice:
        header.dxfer_direction = SG_DXFER_TO_DEV;
        break;
    }
    if (direction != DataDirection::None) {
        header.dxferp = buffer.data();
        header.dxfer_len = static_cast<unsigned>(buffer.size());
    }
    const auto ms = timeout.count();
    header.timeout = ms > std::numeric_limits<unsigned>::max()
                         ? std::numeric_limits<unsigned>::max()
                         : static_cast<unsigned>(ms);
    if (::ioctl(m_fd.get(), SG_IO, &header) != 0) {
        return failErrno(errno, "SG_IO");
    }
    ScsiReply reply;
    reply.status = header.status;
    reply.hostStatus = static_cast<std::uint8_t>(header.host_status);
    // DRIVER_SENSE (08h) only says sense data is present; it is not a failure.
    reply.driverStatus = static_cast<std::uint8_t>(header.driver_status & ~0x08U);
    reply.sense.assign(sense.begin(), sense.begin() + header.sb_len_wr);
    return reply;
}

} // namespace ssdk::maintenance::transport
