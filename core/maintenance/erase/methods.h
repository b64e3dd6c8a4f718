#pragma once
// Secure erase methods, strongest first, and which of them a drive supports. Pure.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/bytes.h"
#include "core/base/error.h"
#include "core/base/json.h"
#include "core/maintenance/identify.h"

namespace ssdk::maintenance::erase {

enum class Method {
    NvmeSanitizeCrypto,
    NvmeSanitizeBlock,
    NvmeFormatCrypto,
    NvmeFormatUserData,
    AtaSanitizeCrypto,
    AtaSanitizeBlock,
    AtaSecurityEraseEnhanced,
    AtaSecurityErase,
    BlkSecDiscard,
    BlkDiscard,
    BlkZeroOut,
};

// "nvme-sanitize-crypto", "nvme-sanitize-block", "nvme-format-crypto", "nvme-format",
// "ata-sanitize-crypto", "ata-sanitize-block", "ata-security-erase-enhanced",
// "ata-security-erase", "secdiscard", "discard", "zeroout"
std::string_view toString(Method method);
std::optional<Method> methodFromString(std::string_view name);
std::string_view describe(Method method); // a line for people
// Methods that leave every block reading as zeros (so verification expects zeros).
bool expectsZeros(Method method);

// What is known about the drive for choosing a method.
struct EraseCapabilities {
    std::string bus; // "nvme", "sata", "usb", "scsi", "loop", …
    std::optional<NvmeController> nvme;
    std::optional<NvmeNamespace> nvmeNamespace;
    std::optional<AtaIdentify> ata;
    std::string ataUnavailableReason; // why no IDENTIFY came back (e.g. a USB bridge blocks it)
    bool discard = false;             // the queue accepts discards
    bool writeZeroes = false;         // the queue has write_zeroes_max_bytes > 0
    // The temporary ATA password an interrupted erase of this drive left (from its journal):
    // with it, a drive that still has that password can be security-erased again.
    bool knownAtaPassword = false;
    Bytes size;
};

struct MethodOption {
    Method method;
    bool available = false;
    std::string reason; // why not, or a note when available
    std::optional<std::chrono::minutes> estimate;
};

// Every method in order of strength with availability and reasons.
std::vector<MethodOption> listMethods(const EraseCapabilities& caps);

// "auto": the first available; otherwise the requested one when available.
// Errors: Unsupported naming why (frozen, locked, not supported, bridge).
Expected<Method> chooseMethod(const EraseCapabilities& caps, std::string_view requested);

Json toJson(const std::vector<MethodOption>& options);

} // namespace ssdk::maintenance::erase
