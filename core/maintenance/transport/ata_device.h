#pragma once
// ATA commands SSD Keeper sends to SATA drives, over a ScsiTransport with ATA PASS-THROUGH
// (16): IDENTIFY DEVICE, the security erase sequence and SANITIZE. Each method checks the
// returned registers and turns an aborted command into an error naming it.

#include <chrono>
#include <functional>
#include <string>

#include "core/maintenance/identify.h"
#include "core/maintenance/transport/ata_passthrough.h"

namespace ssdk::maintenance::transport {

namespace ata {
inline constexpr std::uint8_t kIdentifyDevice = 0xEC;
inline constexpr std::uint8_t kSecuritySetPassword = 0xF1;
inline constexpr std::uint8_t kSecurityErasePrepare = 0xF3;
inline constexpr std::uint8_t kSecurityEraseUnit = 0xF4;
inline constexpr std::uint8_t kSecurityDisablePassword = 0xF6;
inline constexpr std::uint8_t kSanitizeDevice = 0xB4;
inline constexpr std::uint16_t kSanitizeStatusExt = 0x0000;
inline constexpr std::uint16_t kSanitizeCryptoScrambleExt = 0x0011;
inline constexpr std::uint16_t kSanitizeBlockEraseExt = 0x0012;
inline constexpr std::uint64_t kCryptoScrambleKey = 0x43727970; // "Cryp"
inline constexpr std::uint64_t kBlockEraseKey = 0x426B4572;     // "BkEr"
} // namespace ata

enum class SanitizeAction { CryptoScramble, BlockErase };

struct SanitizeStatus {
    bool inProgress = false;
    bool completedOk = false;
    double fraction = 0.0; // progress indicator / 65536
};

class AtaDevice {
public:
    explicit AtaDevice(ScsiTransport& transport)
        : m_transport(transport) {}

    Expected<AtaIdentify> identify();

    // The whole SECURITY ERASE UNIT sequence of ACS-4 7.x: SET PASSWORD (user, high), ERASE
    // PREPARE, ERASE UNIT (normal or enhanced) with the same password. A drive that aborts
    // PREPARE or ERASE UNIT after the password was set gets SECURITY DISABLE PASSWORD so it is
    // not left with a password (and locked at the next power cycle). The caller checks the
    // frozen/locked state first (identify()). eraseTimeout bounds ERASE UNIT.
    // passwordSet: the drive already has `password` (left by an interrupted erase): SET
    // PASSWORD is skipped and the sequence starts at ERASE PREPARE.
    Expected<void> securityErase(const std::string& password, bool enhanced,
                                 std::chrono::milliseconds eraseTimeout, bool passwordSet = false);

    Expected<void> sanitizeStart(SanitizeAction action);
    Expected<SanitizeStatus> sanitizeStatus();

private:
    Expected<AtaResult> send(const AtaPassThrough& command, DataDirection direction,
                             std::span<std::uint8_t> buffer, std::chrono::milliseconds timeout,
                             const char* name);
    Expected<void> securityPasswordCommand(std::uint8_t command, const std::string& password,
                                           std::uint16_t control, std::chrono::milliseconds timeout,
                                           const char* name);

    ScsiTransport& m_transport;
};

} // namespace ssdk::maintenance::transport
