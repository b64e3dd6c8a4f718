#include "core/firmware/nvme_admin.h"

#include <array>

namespace ssdk::firmware {

Expected<NvmeFirmwareCaps> readFirmwareCaps(NvmeAdmin& admin) {
    std::array<std::uint8_t, 4096> data{};
    auto reply = admin.submit(identifyControllerCommand(), data, false);
    if (!reply) {
        return std::unexpected(reply.error().addContext("Identify Controller"));
    }
    if (reply->status != 0) {
        return fail(ErrorCode::Unsupported,
                    "Identify Controller failed: " + describeStatus(reply->status));
    }
    return parseFirmwareCaps(data);
}

Expected<NvmeSlotLog> readSlotLog(NvmeAdmin& admin) {
    std::array<std::uint8_t, 512> data{};
    auto reply = admin.submit(slotLogCommand(), data, false);
    if (!reply) {
        return std::unexpected(reply.error().addContext("reading the firmware slot log"));
    }
    if (reply->status != 0) {
        return fail(ErrorCode::Unsupported,
                    "the firmware slot log could not be read: " + describeStatus(reply->status));
    }
    return parseFirmwareSlotLog(data);
}

} // namespace ssdk::firmware
