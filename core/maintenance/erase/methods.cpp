#include "core/maintenance/erase/methods.h"

#include <array>
#include <fmt/format.h>

namespace ssdk::maintenance::erase {

namespace {

struct MethodInfo {
    Method method;
    std::string_view name;
    std::string_view text;
};

constexpr std::array<MethodInfo, 11> kMethods{{
    {Method::NvmeSanitizeCrypto, "nvme-sanitize-crypto",
     "NVMe Sanitize, crypto erase: the media key is replaced, every namespace and cache"},
    {Method::NvmeSanitizeBlock, "nvme-sanitize-block",
     "NVMe Sanitize, block erase: every flash block is erased, caches included"},
    {Method::NvmeFormatCrypto, "nvme-format-crypto",
     "NVMe Format with Secure Erase Setting 2 (cryptographic erase)"},
    {Method::NvmeFormatUserData, "nvme-format",
     "NVMe Format with Secure Erase Setting 1 (user data erase)"},
    {Method::AtaSanitizeCrypto, "ata-sanitize-crypto", "ATA SANITIZE CRYPTO SCRAMBLE"},
    {Method::AtaSanitizeBlock, "ata-sanitize-block", "ATA SANITIZE BLOCK ERASE"},
    {Method::AtaSecurityEraseEnhanced, "ata-security-erase-enhanced",
     "ATA SECURITY ERASE UNIT, enhanced mode (reallocated blocks too)"},
    {Method::AtaSecurityErase, "ata-security-erase", "ATA SECURITY ERASE UNIT, normal mode"},
    {Method::BlkSecDiscard, "secdiscard",
     "Secure discard of every block (BLKSECDISCARD; eMMC/SD mostly)"},
    {Method::BlkDiscard, "discard",
     "Discard of every block (BLKDISCARD): fast, but the flash may keep copies until garbage "
     "collection"},
    {Method::BlkZeroOut, "zeroout",
     "Zeros written to every block (BLKZEROOUT): the last resort; spare flash is not reached"},
}};

std::string ataFrozenReason() {
    return "the drive's security is frozen (the BIOS issued SECURITY FREEZE LOCK at boot): "
           "suspend and resume the machine (systemctl suspend) or hot-plug the drive to "
           "unfreeze it, then try again";
}

} // namespace

std::string_view toString(Method method) {
    for (const auto& info : kMethods) {
        if (info.method == method) {
            return info.name;
        }
    }
    return "unknown";
}

std::optional<Method> methodFromString(std::string_view name) {
    for (const auto& info : kMethods) {
        if (info.name == name) {
            return info.method;
        }
    }
    return std::nullopt;
}

std::string_view describe(Method method) {
    for (const auto& info : kMethods) {
        if (info.method == method) {
            return info.text;
        }
    }
    return "";
}

bool expectsZeros(Method method) {
    return method == Method::BlkZeroOut;
}

std::vector<MethodOption> listMethods(const EraseCapabilities& caps) {
    std::vector<MethodOption> options;
    auto add = [&](Method method, bool available, std::string reason,
                   std::optional<std::chrono::minutes> estimate = std::nullopt) {
        options.push_back({method, available, std::move(reason), estimate});
    };
    // NVMe
    {
        const bool nvme = caps.bus == "nvme";
        const auto* ctrl = caps.nvme ? &*caps.nvme : nullptr;
        const std::string notNvme =
            nvme ? "the controller's identify data could not be read" : "not an NVMe drive";
        auto nvmeOption = [&](Method method, bool supported, const char* what) {
            if (ctrl == nullptr) {
                add(method, false, notNvme);
            } else {
                add(method, supported,
                    supported ? ""
                              : fmt::format("the controller does not "
                                            "support {}",
                                            what));
            }
        };
        nvmeOption(Method::NvmeSanitizeCrypto, ctrl && ctrl->sanitizeCrypto,
                   "sanitize crypto erase (SANICAP bit 0)");
        nvmeOption(Method::NvmeSanitizeBlock, ctrl && ctrl->sanitizeBlock,
                   "sanitize block erase (SANICAP bit 1)");
        nvmeOption(Method::NvmeFormatCrypto,
                   ctrl && ctrl->formatSupported && ctrl->cryptoEraseSupported,
                   "cryptographic erase in Format NVM (FNA bit 2)");
        nvmeOption(Method::NvmeFormatUserData, ctrl && ctrl->formatSupported,
                   "Format NVM (OACS bit 1)");
    }
    // ATA
    {
        const AtaIdentify* ata = caps.ata ? &*caps.ata : nullptr;
        std::string none =
            caps.bus == "sata" || caps.bus == "usb" || caps.bus == "scsi"
                ? (caps.ataUnavailableReason.empty() ? std::string("no ATA IDENTIFY data")
                                                     : caps.ataUnavailableReason)
                : std::string("not an ATA drive");
        const bool locked = ata && ata->security.locked;
        const std::string lockedReason = "the drive is locked by a user password: unlock it "
                                         "(hdparm --security-unlock) before erasing";
        auto sanitize = [&](Method method, bool supported, const char* what) {
            if (ata == nullptr) {
                add(method, false, none);
            } else if (locked) {
                add(method, false, lockedReason);
            } else {
                add(method, supported,
                    supported ? ""
                              : fmt::format("SANITIZE {} not supported "
                                            "(IDENTIFY word 59)",
                                            what));
            }
        };
        sanitize(Method::AtaSanitizeCrypto, ata && ata->sanitizeCryptoScramble, "CRYPTO SCRAMBLE");
        sanitize(Method::AtaSanitizeBlock, ata && ata->sanitizeBlockErase, "BLOCK ERASE");
        auto security = [&](Method method, bool enhanced) {
            if (ata == nullptr) {
                add(method, false, none);
                return;
            }
            const AtaSecurity& sec = ata->security;
            const auto minutes = enhanced ? sec.enhancedEraseMinutes : sec.normalEraseMinutes;
            std::optional<std::chrono::minutes> estimate;
            if (minutes) {
                estimate = std::chrono::minutes(*minutes);
            }
            if (!sec.supported) {
                add(method, false, "the security feature set is not supported (word 128)");
            } else if ((sec.enabled || sec.locked) && caps.knownAtaPassword && !sec.frozen &&
                       !sec.countExpired && (!enhanced || sec.enhancedEraseSupported)) {
                add(method, true,
                    "the drive still has the temporary password of an interrupted erase; "
                    "erasing again uses it",
                    estimate);
            } else if (sec.locked) {
                add(method, false, lockedReason);
            } else if (sec.frozen) {
                add(method, false, ataFrozenReason(), estimate);
            } else if (sec.enabled) {
                add(method, false,
                    "a user password is already set; SSD Keeper only erases "
                    "drives without one");
            } else if (sec.countExpired) {
                add(method, false, "the password attempt counter expired: power-cycle the drive");
            } else if (enhanced && !sec.enhancedEraseSupported) {
                add(method, false, "enhanced erase is not supported (word 128 bit 5)");
            } else {
                add(method, true,
                    minutes ? fmt::format("the drive estimates {} minutes", *minutes) : "",
                    estimate);
            }
        };
        security(Method::AtaSecurityEraseEnhanced, true);
        security(Method::AtaSecurityErase, false);
    }
    add(Method::BlkSecDiscard, caps.bus == "mmc" && caps.discard,
        caps.bus == "mmc" ? "" : "only eMMC/SD devices implement secure discard");
    add(Method::BlkDiscard, caps.discard,
        caps.discard ? "" : "the device does not accept discards");
    add(Method::BlkZeroOut, caps.size.value > 0, caps.size.value > 0 ? "" : "empty device");
    return options;
}

Expected<Method> chooseMethod(const EraseCapabilities& caps, std::string_view requested) {
    const auto options = listMethods(caps);
    if (requested == "auto") {
        for (const MethodOption& option : options) {
            if (option.available) {
                return option.method;
            }
        }
        return fail(ErrorCode::Unsupported, "no erase method is available for this device");
    }
    const auto method = methodFromString(requested);
    if (!method) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("unknown erase method '{}'", requested));
    }
    for (const MethodOption& option : options) {
        if (option.method == *method) {
            if (!option.available) {
                return fail(ErrorCode::Unsupported,
                            fmt::format("{} is not available: {}", requested, option.reason));
            }
            return *method;
        }
    }
    return fail(ErrorCode::Internal, "method missing from the list");
}

Json toJson(const std::vector<MethodOption>& options) {
    Json array = Json::array();
    for (const MethodOption& option : options) {
        array.push_back(Json{{"method", std::string(toString(option.method))},
                             {"description", std::string(describe(option.method))},
                             {"available", option.available},
                             {"reason", option.reason},
                             {"estimate_minutes",
                              option.estimate ? Json(option.estimate->count()) : Json(nullptr)}});
    }
    return array;
}

} // namespace ssdk::maintenance::erase
