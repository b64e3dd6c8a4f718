#pragma once
// Everything SSD Keeper knows about one drive's firmware: the running revision, the NVMe
// slots and update capabilities or the ATA DOWNLOAD MICROCODE modes, known problems of that
// model and revision, and which update paths are offered (and why not).

#include <optional>
#include <string>
#include <vector>

#include "core/base/json.h"
#include "core/base/sysfs_root.h"
#include "core/device/device.h"
#include "core/firmware/known_issues.h"
#include "core/firmware/update_paths.h"
#include "core/maintenance/transport/nvme_admin.h"

namespace ssdk::firmware {

struct FirmwareInfo {
    device::Device device;
    DriveFirmwareFacts facts; // facts.device points at device above after readFirmwareInfo
    std::string ataError;
    std::vector<Finding> knownIssues;
    std::string catalogError; // the catalog or drive database could not be read
    std::vector<PathStatus> paths;
};

struct InfoSources {
    maintenance::transport::NvmeAdminFactory nvme; // empty: NVMe facts are not read
    FwupdService* fwupd = nullptr;                 // null: the fwupd path is not probed
    const KnownIssueCatalog* catalog = nullptr;
    const smart::DriveDatabase* driveDb = nullptr;
};

// The 512-byte ATA IDENTIFY data libata keeps in sysfs for a SATA disk, if any.
std::optional<std::vector<std::uint8_t>> readAtaIdentify(const SysfsRoot& root,
                                                         const device::Device& device);

// Never fails as a whole: each missing part says why in its error field.
FirmwareInfo readFirmwareInfo(const device::Device& device, const SysfsRoot& root,
                              const InfoSources& sources);

// The live system: openNvmeAdmin (libnvme), fwupd on the system bus, the installed catalog and
// drivedb.h.
FirmwareInfo readFirmwareInfo(const device::Device& device);

Json toJson(const FirmwareInfo& info);
// firmware.info's result read back (the rules of the results' readers, verbs.h): the device
// has its path and bus only, facts.device is null, and NVMe caps have no model, serial or
// firmware (toJson writes them as the facts').
Expected<FirmwareInfo> firmwareInfoFromJson(const Json& json);

} // namespace ssdk::firmware
