#pragma once

#include <string>

#include "core/base/unique_fd.h"
#include "core/maintenance/transport/scsi_transport.h"

namespace ssdk::maintenance::transport {

// ScsiTransport over the SG_IO ioctl of a block device node (/dev/sdX); works for libata
// disks and for USB bridges that pass SCSI commands through.
class SgIoTransport : public ScsiTransport {
public:
    // Opens the node read-only with O_NONBLOCK (SG_IO needs no write access for this).
    static Expected<SgIoTransport> open(const std::string& devicePath);

    Expected<ScsiReply> execute(std::span<const std::uint8_t> cdb, DataDirection direction,
                                std::span<std::uint8_t> buffer,
                                std::chrono::milliseconds timeout) override;

private:
    explicit SgIoTransport(UniqueFd fd)
        : m_fd(std::move(fd)) {}
    UniqueFd m_fd;
};

} // namespace ssdk::maintenance::transport
