#include "core/firmware/update_paths.h"

#include <algorithm>
#include <fmt/format.h>

#include "core/firmware/verbs.h"

namespace ssdk::firmware {

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
    if (!facts.slotLog) {
        status.reason = "the firmware slot log could not be read, so the slots cannot be "
                        "checked: " +
                        facts.nvmeError;
        return status;
    }
    const NvmeFirmwareCaps& caps = *facts.nvme;
    if (caps.slotCount == 0) {
        status.reason = "the controller reports no firmware slots";
        return status;
    }
    if (caps.slotCount == 1 && caps.slot1ReadOnly) {
        status.reason = "the only firmware slot is read-only";
        return status;
    }
    status.available = true;
    status.reason = fmt::format(
        "{} slot{}{}; downloads in chunks of {} KiB{}; {}", caps.slotCount,
        caps.slotCount == 1 ? "" : "s", caps.slot1ReadOnly ? " (slot 1 read-only)" : "",
        caps.chunkBytes() / 1024, caps.granularityStated() ? " (FWUG)" : " (no granularity stated)",
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

namespace {

// The fwupd path for the fwupd device that is the drive: updatable, and the upgrades offered.
PathStatus fwupdDeviceStatus(FwupdService& service, const FwupdDevice& device) {
    PathStatus status{"fwupd", "fwupd / LVFS"};
    status.fwupdDeviceId = device.id;
    status.fwupdDeviceName = device.name;
    status.fwupdVersion = device.version;
    if (!device.hasFlag("updatable")) {
        status.reason =
            fmt::format("fwupd manages this drive ({} plugin) but cannot update it{}",
                        device.plugin, device.updateError.empty() ? "" : ": " + device.updateError);
        return status;
    }
    auto releases = service.releases(device.id);
    if (!releases) {
        status.reason =
            "fwupd could not list releases for this drive: " + releases.error().message();
        return status;
    }
    status.releases = offeredReleases(*releases);
    if (status.releases.empty()) {
        std::string why;
        if (releases->empty()) {
            auto remotes = service.remotes();
            why = remotes ? noReleaseReason(*remotes)
                          : "fwupd's remotes could not be read: " + remotes.error().message();
        } else {
            why = fmt::format("none of its {} release{} is newer than {}", releases->size(),
                              releases->size() == 1 ? "" : "s", device.version);
        }
        status.reason = fmt::format("fwupd manages this drive (version {}) but offers no "
                                    "upgrade: {}. A .cab file you supply can still be installed "
                                    "(fwupd checks it is made for this drive)",
                                    device.version, why);
        return status;
    }
    status.available = true;
    status.reason =
        fmt::format("fwupd offers {} upgrade{} for this drive (it runs {})", status.releases.size(),
                    status.releases.size() == 1 ? "" : "s", device.version);
    return status;
}

} // namespace

PathStatus FwupdPath::probe(const DriveFirmwareFacts& facts) {
    auto devices = m_service.devices();
    if (!devices) {
        return {"fwupd", "fwupd / LVFS", false, devices.error().message()};
    }
    const FwupdMatch match = matchFwupdDevice(*devices, facts);
    if (!match.device) {
        return {"fwupd", "fwupd / LVFS", false, match.reason};
    }
    return fwupdDeviceStatus(m_service, *match.device);
}

PathStatus probeFwupdDevice(FwupdService& service, const std::string& deviceId) {
    auto devices = service.devices();
    if (!devices) {
        return {"fwupd", "fwupd / LVFS", false, devices.error().message()};
    }
    for (const auto& device : *devices) {
        if (device.id == deviceId) {
            return fwupdDeviceStatus(service, device);
        }
    }
    return {"fwupd", "fwupd / LVFS", false, "fwupd no longer lists device " + deviceId};
}

std::vector<PathStatus> probeAllPaths(const DriveFirmwareFacts& facts, FwupdService* fwupd) {
    NvmeImagePath nvme;
    AtaMicrocodePath ata;
    if (fwupd == nullptr) {
        return {nvme.probe(facts), ata.probe(facts)};
    }
    FwupdPath fwupdPath(*fwupd);
    return {nvme.probe(facts), fwupdPath.probe(facts), ata.probe(facts)};
}

Json toJson(const PathStatus& status) {
    Json releases = Json::array();
    for (const auto& r : status.releases) {
        releases.push_back(toJson(r));
    }
    return Json{{"id", status.id},
                {"title", status.title},
                {"available", status.available},
                {"reason", status.reason},
                {"fwupd_device_id", status.fwupdDeviceId},
                {"fwupd_device_name", status.fwupdDeviceName},
                {"fwupd_version", status.fwupdVersion},
                {"releases", releases}};
}

PathStatus readPathStatus(const ResultReader& reader) {
    PathStatus status;
    status.id = reader.string("id");
    status.title = reader.string("title");
    status.available = reader.boolean("available");
    status.reason = reader.string("reason");
    status.fwupdDeviceId = reader.string("fwupd_device_id");
    status.fwupdDeviceName = reader.string("fwupd_device_name");
    status.fwupdVersion = reader.string("fwupd_version");
    for (const auto& release : reader.objects("releases")) {
        status.releases.push_back(readRelease(release));
    }
    return status;
}

} // namespace ssdk::firmware
