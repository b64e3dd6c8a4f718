#include "core/firmware/fwupd.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <fmt/format.h>

#include "core/firmware/update_paths.h"

namespace ssdk::firmware {

namespace {

// The fwupd plugins that manage drives and read the serial number from the drive itself.
constexpr std::array<std::string_view, 4> kStoragePlugins{"nvme", "ata", "scsi", "emmc"};

std::string trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\n");
    if (first == std::string_view::npos) {
        return {};
    }
    const auto last = text.find_last_not_of(" \t\n");
    return std::string(text.substr(first, last - first + 1));
}

// Lower case with runs of spaces collapsed: fwupd and the kernel pad model strings differently.
std::string normalized(std::string_view text) {
    std::string out;
    bool space = false;
    for (const char c : trimmed(text)) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            space = true;
            continue;
        }
        if (space && !out.empty()) {
            out += ' ';
        }
        space = false;
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

// fwupd's ATA plugin may move the vendor out of the model ("Samsung SSD 870 EVO 2TB" becomes
// vendor "Samsung", name "SSD 870 EVO 2TB"); the NVMe plugin keeps the whole model.
bool modelAgrees(const FwupdDevice& device, const std::string& model) {
    const std::string name = normalized(device.name);
    const std::string wanted = normalized(model);
    if (name.empty() || wanted.empty()) {
        return true;
    }
    if (name == wanted || normalized(device.vendor + " " + device.name) == wanted) {
        return true;
    }
    return wanted.size() > name.size() && wanted.ends_with(" " + name);
}

bool isStoragePlugin(const std::string& plugin) {
    return std::find(kStoragePlugins.begin(), kStoragePlugins.end(), plugin) !=
           kStoragePlugins.end();
}

} // namespace

bool FwupdDevice::hasFlag(std::string_view flag) const {
    return std::find(flags.begin(), flags.end(), flag) != flags.end();
}

FwupdMatch matchFwupdDevice(const std::vector<FwupdDevice>& devices,
                            const DriveFirmwareFacts& facts) {
    FwupdMatch match;
    const std::string serial = trimmed(facts.serial);
    if (serial.empty()) {
        match.reason = "the drive reports no serial number, so it cannot be matched to an fwupd "
                       "device without guessing";
        return match;
    }
    std::vector<const FwupdDevice*> candidates;
    std::string otherModel;
    for (const auto& device : devices) {
        if (trimmed(device.serial) != serial || !isStoragePlugin(device.plugin)) {
            continue;
        }
        if (!modelAgrees(device, facts.model)) {
            otherModel = device.name;
            continue;
        }
        candidates.push_back(&device);
    }
    if (candidates.size() == 1) {
        match.device = *candidates.front();
    } else if (candidates.size() > 1) {
        match.reason = fmt::format("fwupd lists {} drives with serial {}; SSD Keeper does not "
                                   "pick one",
                                   candidates.size(), serial);
    } else if (!otherModel.empty()) {
        match.reason = fmt::format("fwupd lists serial {} as \"{}\", not \"{}\"; not the same "
                                   "drive as far as SSD Keeper can prove",
                                   serial, otherModel, facts.model);
    } else {
        match.reason = fmt::format("fwupd does not manage this drive (no device of its nvme, "
                                   "ata or scsi plugins has serial {})",
                                   serial);
    }
    return match;
}

std::vector<FwupdRelease> offeredReleases(const std::vector<FwupdRelease>& releases) {
    std::vector<FwupdRelease> offered;
    std::copy_if(releases.begin(), releases.end(), std::back_inserter(offered),
                 [](const FwupdRelease& r) { return r.isUpgrade && !r.isDowngrade; });
    return offered;
}

std::string noReleaseReason(const std::vector<FwupdRemote>& remotes) {
    std::vector<std::string> enabled, stale;
    for (const auto& remote : remotes) {
        if (!remote.enabled) {
            continue;
        }
        enabled.push_back(remote.id);
        if (remote.kind == "download" && !remote.hasMetadata) {
            stale.push_back(remote.id);
        }
    }
    if (enabled.empty()) {
        return "no fwupd remote is enabled (LVFS is enabled with `fwupdmgr enable-remote lvfs`)";
    }
    if (!stale.empty() && stale.size() == enabled.size()) {
        return fmt::format("no metadata: the enabled remote{} {} {} never been refreshed "
                           "(`fwupdmgr refresh` needs network access)",
                           stale.size() == 1 ? "" : "s", fmt::join(stale, ", "),
                           stale.size() == 1 ? "has" : "have");
    }
    return fmt::format("the enabled remote{} ({}) {} no firmware for this drive",
                       enabled.size() == 1 ? "" : "s", fmt::join(enabled, ", "),
                       enabled.size() == 1 ? "has" : "have");
}

Expected<FwupdInstallOutcome> installWithFwupd(FwupdService& service,
                                               const FwupdInstallRequest& request,
                                               const FwupdProgressFn& progress,
                                               const std::atomic<bool>* cancel) {
    if (request.deviceId.empty()) {
        return fail(ErrorCode::InvalidArgument, "no fwupd device id");
    }
    if (!request.cabPath.empty() && !request.version.empty()) {
        return fail(ErrorCode::InvalidArgument, "give either a release version or a .cab file");
    }
    auto devices = service.devices();
    if (!devices) {
        return std::unexpected(devices.error());
    }
    const auto device = std::find_if(devices->begin(), devices->end(), [&](const FwupdDevice& d) {
        return d.id == request.deviceId;
    });
    if (device == devices->end()) {
        return fail(ErrorCode::NotFound, "fwupd no longer lists device " + request.deviceId);
    }
    if (!device->hasFlag("updatable")) {
        return fail(ErrorCode::Unsupported,
                    fmt::format("fwupd cannot update {}{}", device->name,
                                device->updateError.empty() ? "" : ": " + device->updateError));
    }
    if (cancel != nullptr && cancel->load()) {
        return fail(ErrorCode::Cancelled, "cancelled before fwupd started");
    }
    FwupdInstallOutcome outcome{device->id, device->name, device->version, "", ""};
    Expected<void> installed;
    if (!request.cabPath.empty()) {
        outcome.installed = request.cabPath;
        installed = service.installCabinet(device->id, request.cabPath, progress, cancel);
    } else {
        auto releases = service.releases(device->id);
        if (!releases) {
            return std::unexpected(
                Error(releases.error()).addContext("listing fwupd releases for " + device->name));
        }
        const auto offered = offeredReleases(*releases);
        if (offered.empty()) {
            return fail(ErrorCode::NotFound,
                        fmt::format("fwupd offers no upgrade for {} (it runs {})", device->name,
                                    device->version));
        }
        const auto chosen =
            request.version.empty()
                ? offered.begin()
                : std::find_if(offered.begin(), offered.end(),
                               [&](const FwupdRelease& r) { return r.version == request.version; });
        if (chosen == offered.end()) {
            std::vector<std::string> versions;
            for (const auto& r : offered) {
                versions.push_back(r.version);
            }
            return fail(ErrorCode::InvalidArgument,
                        fmt::format("fwupd does not offer {} as an upgrade for {} (version {}); "
                                    "it offers: {}",
                                    request.version, device->name, device->version,
                                    fmt::join(versions, ", ")));
        }
        outcome.installed = chosen->version;
        installed = service.installRelease(device->id, chosen->version, progress, cancel);
    }
    if (!installed) {
        return std::unexpected(
            Error(installed.error()).addContext("installing firmware on " + device->name));
    }
    if (auto after = service.devices()) {
        for (const auto& d : *after) {
            if (d.id == device->id) {
                outcome.versionAfter = d.version;
            }
        }
    }
    return outcome;
}

Json toJson(const FwupdRelease& release) {
    return Json{{"version", release.version},      {"summary", release.summary},
                {"remote", release.remoteId},      {"uri", release.uri},
                {"size_bytes", release.sizeBytes}, {"is_upgrade", release.isUpgrade}};
}

Json toJson(const FwupdInstallOutcome& outcome) {
    return Json{{"fwupd_device_id", outcome.deviceId},
                {"name", outcome.name},
                {"version_before", outcome.versionBefore},
                {"version_after", outcome.versionAfter},
                {"installed", outcome.installed}};
}

} // namespace ssdk::firmware
