#include "core/smart/report.h"

namespace ssdk::smart {

std::string_view toString(Protocol protocol) {
    switch (protocol) {
    case Protocol::Ata:
        return "ATA";
    case Protocol::Nvme:
        return "NVMe";
    case Protocol::Scsi:
        return "SCSI";
    case Protocol::Unknown:
        break;
    }
    return "unknown";
}

std::string_view toString(ReportSource source) {
    return source == ReportSource::Smartctl ? "smartctl" : "libatasmart";
}

const std::vector<NvmeWarningBit>& nvmeCriticalWarningBits() {
    static const std::vector<NvmeWarningBit> bits{
        {0x01, "nvme-spare-below-threshold", "available spare is below its threshold"},
        {0x02, "nvme-temperature-threshold", "temperature is outside its thresholds"},
        {0x04, "nvme-reliability-degraded",
         "NVM subsystem reliability is degraded by media or internal errors"},
        {0x08, "nvme-read-only", "media has been placed in read-only mode"},
        {0x10, "nvme-volatile-backup-failed", "volatile memory backup device has failed"},
        {0x20, "nvme-pmr-read-only", "persistent memory region is read-only or unreliable"},
    };
    return bits;
}

const AtaAttribute* SmartReport::attribute(std::uint8_t id) const {
    for (const auto& attribute : attributes) {
        if (attribute.id == id) {
            return &attribute;
        }
    }
    return nullptr;
}

} // namespace ssdk::smart
