#pragma once
// The one NVMe admin command interface the firmware code goes through. The real one is
// libnvme's admin passthrough on the namespace node (platform/linux/libnvme_admin.h); tests
// use a scripted fake that checks every command's opcode and dwords.

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include "core/base/error.h"
#include "core/firmware/nvme_firmware.h"

namespace ssdk::firmware {

struct AdminReply {
    std::uint16_t status = 0; // NVMe status field: SCT << 8 | SC (0 = success)
    std::uint32_t result = 0; // completion dword 0
};

class NvmeAdmin {
public:
    virtual ~NvmeAdmin() = default;
    // Sends command; data is read into (Identify, Get Log Page) or sent from (Download).
    // A controller that completes the command with an error status is not an Error here:
    // the reply carries the status. Errors: Io/PermissionDenied when it could not be sent.
    virtual Expected<AdminReply> submit(const AdminCommand& command, std::span<std::uint8_t> data,
                                        bool toDevice) = 0;
};

using NvmeAdminFactory = std::function<Expected<std::unique_ptr<NvmeAdmin>>(const std::string&)>;

// Reads Identify Controller and the slot log through admin; used by info and update.
Expected<NvmeFirmwareCaps> readFirmwareCaps(NvmeAdmin& admin);
Expected<NvmeSlotLog> readSlotLog(NvmeAdmin& admin);

} // namespace ssdk::firmware
