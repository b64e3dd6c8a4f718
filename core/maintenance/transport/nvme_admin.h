#pragma once
// The one NVMe admin-command seam: erase (Identify, Format NVM, Sanitize, the sanitize log)
// and firmware (Identify, the slot log, Firmware Image Download and Commit) build commands
// with the functions of nvme_commands.h and core/firmware/nvme_firmware.h and send them
// through this interface. The live one is openNvmeAdmin (Linux: libnvme's admin passthrough,
// platform/linux/libnvme_admin.cpp); tests use a scripted fake that checks every command.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include "core/base/error.h"

namespace ssdk::maintenance::transport {

// Which way the command's data moves. NVMe encodes it in the opcode's bits 1:0 (00b none,
// 01b host to controller, 10b controller to host); checkDataTransfer
// (nvme_commands.h) holds the two together.
enum class NvmeDataDirection : std::uint8_t { None, FromDevice, ToDevice };

// One admin command as the controller sees it (CDW2/3 and metadata are never used here).
struct NvmeAdminCommand {
    std::uint8_t opcode = 0;
    std::uint32_t nsid = 0;
    std::uint32_t cdw10 = 0, cdw11 = 0, cdw12 = 0, cdw13 = 0, cdw14 = 0, cdw15 = 0;
    NvmeDataDirection direction = NvmeDataDirection::None;
    // How long to wait for the completion; 0 = the kernel's default admin timeout
    // (nvme_core.admin_timeout, 60 s unless changed). Linux caps it at 2^32 - 1 ms.
    std::chrono::milliseconds timeout{0};

    bool operator==(const NvmeAdminCommand&) const = default;
};

struct NvmeCompletion {
    // The completion's status field as the controller set it, unmasked: SCT << 8 | SC in bits
    // 10:0 (0 = success), CRD in 12:11, More in 13, DNR in 14. Callers mask what they judge.
    std::uint16_t status = 0;
    std::uint32_t result = 0; // completion dword 0 (command-specific)
};

class NvmeAdmin {
public:
    virtual ~NvmeAdmin() = default;
    // The namespace the opened node is, asked of the kernel the first time it is needed: a
    // controller node (/dev/nvme0) has none and answers an error (Linux: Unsupported, "reading
    // the namespace id: Inappropriate ioctl for device"); commands that need none still work.
    virtual Expected<std::uint32_t> namespaceId() = 0;
    // Sends command and waits for its completion. data is filled by a FromDevice command, sent
    // by a ToDevice one and empty for None; its size is the transfer length. A controller that
    // completes the command with an error status is no Error here: the completion carries the
    // status. Errors: InvalidArgument when data does not fit the command (checkDataTransfer);
    // Io, PermissionDenied, … (from errno) when the command could not be sent or completed.
    virtual Expected<NvmeCompletion> submit(const NvmeAdminCommand& command,
                                            std::span<std::uint8_t> data) = 0;
};

// Opens a device node for admin commands; the caller owns what it returns.
using NvmeAdminFactory =
    std::function<Expected<std::unique_ptr<NvmeAdmin>>(const std::string& path)>;

// The live system's NvmeAdmin on path: a controller node (/dev/nvme0) or a namespace node
// (/dev/nvme0n1). Each OS implements it under platform/<os>/ (Linux: libnvme). Errors: those
// of opening the node (NotFound, PermissionDenied, …).
Expected<std::unique_ptr<NvmeAdmin>> openNvmeAdmin(const std::string& path);

} // namespace ssdk::maintenance::transport
