#include "core/firmware/update_paths.h"

#include <algorithm>
#include <fmt/format.h>

namespace ssdk::firmware {

namespace {

constexpr std::chrono::seconds kFwupdTimeout{30};

std::string firstLine(const std::string& text) {
    const auto end = text.find('\n');
    return end == std::string::npos ? text : text.substr(0, end);
}

bool hasFlag(const Json& device, std::string_view flag) {
    if (!device.contains("Flags") || !device["Flags"].is_array()) {
        return false;
    }
    return std::any_of(device["Flags"].begin(), device["Flags"].end(), [&](const Json& f) {
        return f.is_string() && f.get<std::string>() == flag;
    });
}

// fwupd names a device by its serial where the plugin reads one (nvme, ata), else by name.
const Json* findFwupdDevice(const Json& devices, const DriveFirmwareFacts& facts) {
    for (const auto& device : devices) {
        const std::string serial = device.value("Serial", "");
        if (!facts.serial.empty() && serial == facts.serial) {
            return &device;
        }
    }
    for (const auto& device : devices) {
        const std::string name = device.value("Name", "");
        if (!facts.model.empty() && name == facts.model) {
            return &device;
        }
    }
    return nullptr;
}

} // namespace

PathStatus NvmeImagePath::probe(const DriveFirmwareFacts& facts) {
    PathStatus status{"nvme-image", "NVMe image you supply (Firmware Download + Commit)"};
    if (facts.device == nullptr || facts.device->bus != device::Bus::Nvme) {
        status.reason = "only NVMe drives take a firmware image through SSD Keeper";
        return status;
    }
    if (!facts.nvme) {
        status.reason = "the controller's firmware capabilities could not be read: " +
                        (facts.nvmeError.empty() ? std::string("unknown") : facts.nvmeError);
        return status;
    }
    if (!facts.nvme->downloadCommitSupported) {
        status.reason = "the controller does not support Firmware Download and Commit (OACS "
                        "bit 2 is clear)";
        return status;
    }
    if (!facts.slots) {
        status.reason = "the firmware slot log could not be read, so the slots cannot be "
                        "checked: " +
                        facts.nvmeError;
        return status;
    }
    const NvmeFirmwareCaps& caps = *facts.nvme;
    if (caps.slots == 0) {
        status.reason = "the controller reports no firmware slots";
        return status;
    }
    if (caps.slots == 1 && caps.slot1ReadOnly) {
        status.reason = "the only firmware slot is read-only";
        return status;
    }
    status.available = true;
    status.reason = fmt::format(
        "{} slot{}{}; downloads in chunks of {} KiB{}; {}", caps.slots, caps.slots == 1 ? "" : "s",
        caps.slot1ReadOnly ? " (slot 1 read-only)" : "", caps.chunkBytes() / 1024,
        caps.granularityStated() ? " (FWUG)" : " (no granularity stated)",
        caps.activationWithoutReset ? "activation without reset is supported"
                                    : "activation needs a reset");
    return status;
}

PathStatus AtaMicrocodePath::probe(const DriveFirmwareFacts& facts) {
    PathStatus status{"ata-microcode", "ATA DOWNLOAD MICROCODE"};
    if (!facts.ata) {
        status.reason = "not an ATA drive, or its IDENTIFY data is not available";
    } else if (!facts.ata->supported) {
        status.reason = "the drive does not support DOWNLOAD MICROCODE";
    } else {
        status.reason = "not offered: SATA vendor images come wrapped in the vendor's tool, "
                        "which checks model and revision; SSD Keeper cannot prove an image is "
                        "safe for this drive";
    }
    return status;
}

PathStatus FwupdPath::probe(const DriveFirmwareFacts& facts) {
    PathStatus status{"fwupd", "fwupd / LVFS"};
    auto run = m_runner.run({.argv = {"fwupdmgr", "get-devices", "--json"},
                             .timeout = kFwupdTimeout,
                             .environment = {{"LC_ALL", "C"}}});
    if (!run) {
        status.reason = run.error().code() == ErrorCode::ToolMissing
                            ? "fwupd is not installed (no fwupdmgr)"
                            : "fwupdmgr could not run: " + run.error().describe();
        return status;
    }
    if (!run->succeeded()) {
        const std::string why =
            firstLine(run->standardError.empty() ? run->standardOutput : run->standardError);
        status.reason = "the fwupd daemon is not available: " +
                        (why.empty() ? fmt::format("fwupdmgr exited {}", run->exitCode) : why);
        return status;
    }
    auto json = parseJson(run->standardOutput, "fwupdmgr get-devices --json");
    if (!json || !json->contains("Devices") || !(*json)["Devices"].is_array()) {
        status.reason = "fwupdmgr answered something that is not its device list";
        return status;
    }
    const Json* device = findFwupdDevice((*json)["Devices"], facts);
    if (device == nullptr) {
        status.reason = "fwupd does not list this drive (no plugin or no LVFS support for it)";
        return status;
    }
    status.fwupdDeviceId = device->value("DeviceId", "");
    if (!hasFlag(*device, "updatable")) {
        status.reason = "fwupd lists this drive but cannot update it";
        return status;
    }
    auto releases =
        m_runner.run({.argv = {"fwupdmgr", "get-releases", status.fwupdDeviceId, "--json"},
                      .timeout = kFwupdTimeout,
                      .environment = {{"LC_ALL", "C"}}});
    if (releases && releases->succeeded()) {
        if (auto list = parseJson(releases->standardOutput, "fwupdmgr get-releases --json");
            list && list->contains("Releases") && (*list)["Releases"].is_array()) {
            for (const auto& release : (*list)["Releases"]) {
                std::string uri = release.value("Uri", "");
                if (uri.empty() && release.contains("Locations") &&
                    release["Locations"].is_array() && !release["Locations"].empty() &&
                    release["Locations"][0].is_string()) {
                    uri = release["Locations"][0].get<std::string>();
                }
                status.releases.push_back(
                    {release.value("Version", ""), release.value("Summary", ""), uri});
            }
        }
    }
    status.available = true;
    status.reason = fmt::format("fwupd can update this drive; LVFS lists {} release{}. Install "
                                "with `fwupdmgr update {}`",
                                status.releases.size(), status.releases.size() == 1 ? "" : "s",
                                status.fwupdDeviceId);
    return status;
}

std::vector<PathStatus> probeAllPaths(const DriveFirmwareFacts& facts, ProcessRunner& runner) {
    NvmeImagePath nvme;
    FwupdPath fwupd(runner);
    AtaMicrocodePath ata;
    return {nvme.probe(facts), fwupd.probe(facts), ata.probe(facts)};
}

Json toJson(const PathStatus& status) {
    Json releases = Json::array();
    for (const auto& r : status.releases) {
        releases.push_back({{"version", r.version}, {"summary", r.summary}, {"uri", r.uri}});
    }
    return Json{{"id", status.id},
                {"title", status.title},
                {"available", status.available},
                {"reason", status.reason},
                {"fwupd_device_id", status.fwupdDeviceId},
                {"releases", releases}};
}

} // namespace ssdk::firmware
