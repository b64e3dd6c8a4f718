#pragma once
// The narrow interface every ATA command goes through: one SCSI CDB with an optional data
// buffer, answered with SCSI status and sense bytes. Linux implements it with SG_IO
// (platform/linux/sg_io_transport.h); tests use a scripted fake that checks each CDB.

#include <chrono>
#include <cstdint>
#include <span>
#include <vector>

#include "core/base/error.h"

namespace ssdk::maintenance::transport {

enum class DataDirection { None, FromDevice, ToDevice };

struct ScsiReply {
    std::uint8_t status = 0;         // SCSI status: 0 GOOD, 2 CHECK CONDITION
    std::uint8_t hostStatus = 0;     // SG_IO host_status: non-zero when the HBA/bridge failed it
    std::uint8_t driverStatus = 0;   // SG_IO driver_status
    std::vector<std::uint8_t> sense; // sense data as returned (may be empty)
};

class ScsiTransport {
public:
    virtual ~ScsiTransport() = default;
    // Sends cdb; for FromDevice the reply data lands in buffer, for ToDevice buffer is sent.
    // Errors: Io when the request could not be submitted at all (ioctl failure).
    virtual Expected<ScsiReply> execute(std::span<const std::uint8_t> cdb, DataDirection direction,
                                        std::span<std::uint8_t> buffer,
                                        std::chrono::milliseconds timeout) = 0;
};

} // namespace ssdk::maintenance::transport
