#include "core/device/platform/linux/fs_probers.h"

#include <blkid/blkid.h>
#include <map>

#include "core/device/discovery.h"
#include "core/device/udev_prober.h"

namespace ssdk::device {

ProbeResult BlkidProber::probe(const std::string& devPath, const std::string& /*devno*/) const {
    blkid_probe probe = blkid_new_probe_from_filename(devPath.c_str());
    if (probe == nullptr) {
        return {};
    }
    blkid_probe_enable_superblocks(probe, 1);
    blkid_probe_set_superblocks_flags(probe,
                                      BLKID_SUBLKS_LABEL | BLKID_SUBLKS_UUID | BLKID_SUBLKS_TYPE);
    blkid_probe_enable_partitions(probe, 1);
    blkid_probe_set_partitions_flags(probe, BLKID_PARTS_ENTRY_DETAILS);
    std::map<std::string, std::string> props;
    if (blkid_do_safeprobe(probe) == 0) {
        const int count = blkid_probe_numof_values(probe);
        for (int i = 0; i < count; ++i) {
            const char* name = nullptr;
            const char* data = nullptr;
            std::size_t length = 0;
            if (blkid_probe_get_value(probe, i, &name, &data, &length) == 0) {
                props[name] = data;
            }
        }
    }
    blkid_free_probe(probe);
    return probeResultFromBlkidProperties(props);
}

UdevOrBlkidProber::UdevOrBlkidProber(std::filesystem::path runDir)
    : m_udev(std::move(runDir)) {}

ProbeResult UdevOrBlkidProber::probe(const std::string& devPath, const std::string& devno) const {
    return m_udev.hasEntry(devno) ? m_udev.probe(devPath, devno) : m_blkid.probe(devPath, devno);
}

std::shared_ptr<FsProber> makeSystemFsProber(const SysfsRoot& root) {
    if (!root.isLive()) {
        return std::make_shared<UdevDatabaseProber>(root.run());
    }
    return std::make_shared<UdevOrBlkidProber>(root.run());
}

} // namespace ssdk::device
