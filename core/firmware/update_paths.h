#pragma once
// The ways a drive's firmware can be updated, each behind one interface whose probe() says
// whether it is offered for this drive and, when not, why. A path that cannot be proven safe
// on the drive is not offered.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/json.h"
#include "core/device/device.h"
#include "core/firmware/ata_microcode.h"
#include "core/firmware/fwupd.h"
#include "core/firmware/nvme_firmware.h"

namespace ssdk::firmware {

class ResultReader;

// What probing found out about the drive, shared by the paths.
struct DriveFirmwareFacts {
    const device::Device* device = nullptr;
    std::string model, serial, revision;
    std::optional<NvmeFirmwareCaps> nvme;
    std::optional<NvmeSlotLog> slotLog;
    std::string nvmeError; // why the NVMe facts are missing
    std::optional<AtaMicrocode> ata;
};

struct PathStatus {
    std::string id;    // "nvme-image", "fwupd", "ata-microcode"
    std::string title; // for people
    bool available = false;
    std::string reason; // why not available, or what it offers
    std::string fwupdDeviceId, fwupdDeviceName, fwupdVersion;
    std::vector<FwupdRelease> releases; // fwupd: only the releases it flags as upgrades
};

class UpdatePath {
public:
    virtual ~UpdatePath() = default;
    virtual PathStatus probe(const DriveFirmwareFacts& facts) = 0;
};

// The NVMe Firmware Download/Commit path for an image the user supplies.
class NvmeImagePath final : public UpdatePath {
public:
    PathStatus probe(const DriveFirmwareFacts& facts) override;
};

// ATA DOWNLOAD MICROCODE: reported, never offered (vendor images are wrapped in vendor tools
// that check model and revision; SSD Keeper cannot prove an image is safe for the drive).
class AtaMicrocodePath final : public UpdatePath {
public:
    PathStatus probe(const DriveFirmwareFacts& facts) override;
};

// fwupd through libfwupd: the daemon's device that is this drive (matchFwupdDevice) and the
// releases fwupd flags as upgrades for it. Offered only when there is at least one.
class FwupdPath final : public UpdatePath {
public:
    explicit FwupdPath(FwupdService& service)
        : m_service(service) {}
    PathStatus probe(const DriveFirmwareFacts& facts) override;

private:
    FwupdService& m_service;
};

// The fwupd path for a device fwupd already matched to the drive (by its fwupd id): read again
// after an install.
PathStatus probeFwupdDevice(FwupdService& service, const std::string& deviceId);

// The three paths above; fwupd only when a service is given.
std::vector<PathStatus> probeAllPaths(const DriveFirmwareFacts& facts, FwupdService* fwupd);

Json toJson(const PathStatus& status);
// toJson(PathStatus) read back, by the readers of the results (verbs.h).
PathStatus readPathStatus(const ResultReader& reader);

} // namespace ssdk::firmware
