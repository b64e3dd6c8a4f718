#pragma once
// NVMe admin commands SSD Keeper needs for erasure, behind an interface so the selection and
// sequencing logic is tested with a fake. The real implementation uses libnvme
// (platform/linux/libnvme_transport.h) on the namespace's block node (/dev/nvme0n1).

#include <array>
#include <chrono>
#include <cstdint>

#include "core/base/error.h"

namespace ssdk::maintenance::transport {

// NVMe Format NVM Secure Erase Settings (SES).
enum class NvmeSecureErase : std::uint8_t { None = 0, UserData = 1, Cryptographic = 2 };
// NVMe Sanitize actions (SANACT) SSD Keeper uses.
enum class NvmeSanitizeAction : std::uint8_t { BlockErase = 2, CryptoErase = 4 };

// The sanitize status log (log page 81h), the fields used here.
struct NvmeSanitizeLog {
    std::uint16_t progress = 0;  // SPROG: fraction × 65536 of the running sanitize
    std::uint8_t lastStatus = 0; // SSTAT bits 2:0: 0 never, 1 completed, 2 in progress, 3 failed
};

class NvmeTransport {
public:
    virtual ~NvmeTransport() = default;
    virtual Expected<std::array<std::uint8_t, 4096>> identifyController() = 0;
    virtual Expected<std::array<std::uint8_t, 4096>> identifyNamespace() = 0;
    // Formats the namespace with its current LBA format and the given SES.
    virtual Expected<void> format(std::uint8_t lbaFormat, NvmeSecureErase ses,
                                  std::chrono::milliseconds timeout) = 0;
    virtual Expected<void> sanitize(NvmeSanitizeAction action) = 0;
    virtual Expected<NvmeSanitizeLog> sanitizeLog() = 0;
};

} // namespace ssdk::maintenance::transport
