#include "core/device/platform/linux/fs_probers.h"

#include <blkid/blkid.h>
#include <fstream>
#include <map>

#include "core/device/discovery.h"

namespace ssdk::device {

namespace {

void fillFromProperties(ProbeResult& result, const std::map<std::string, std::string>& props) {
    auto get = [&props](const char* key) -> std::string {
        auto it = props.find(key);
        return it == props.end() ? std::string() : it->second;
    };
    if (auto type = get("TYPE"); !type.empty()) {
        result.filesystem = Filesystem{type, get("LABEL"), get("UUID")};
    }
    result.partitionTableType = get("PTTYPE");
    result.partitionUuid = get("PART_ENTRY_UUID");
    result.partitionLabel = get("PART_ENTRY_NAME");
    result.partitionType = get("PART_ENTRY_TYPE");
}

void mergeInto(std::string& target, const std::string& candidate) {
    if (target.empty()) {
        target = candidate;
    }
}

} // namespace

UdevDatabaseProber::UdevDatabaseProber(std::filesystem::path runDir)
    : m_dataDir(std::move(runDir) / "udev" / "data") {}

ProbeResult UdevDatabaseProber::probe(const std::string& /*devPath*/,
                                      const std::string& devno) const {
    std::ifstream in(m_dataDir / ("b" + devno));
    std::map<std::string, std::string> props;
    std::string line;
    // "E:ID_FS_TYPE=ext4" lines carry the properties blkid gave udev.
    static constexpr std::string_view kPrefix = "E:ID_";
    while (std::getline(in, line)) {
        if (!line.starts_with(kPrefix)) {
            continue;
        }
        const auto eq = line.find('=');
        if (eq == std::string::npos) {
            continue;
        }
        auto key = line.substr(kPrefix.size(), eq - kPrefix.size());
        if (key.starts_with("FS_")) {
            key = key.substr(3);
        } else if (key == "PART_TABLE_TYPE") {
            key = "PTTYPE";
        }
        props[key] = line.substr(eq + 1);
    }
    ProbeResult result;
    fillFromProperties(result, props);
    return result;
}

ProbeResult BlkidProber::probe(const std::string& devPath, const std::string& /*devno*/) const {
    ProbeResult result;
    blkid_probe probe = blkid_new_probe_from_filename(devPath.c_str());
    if (probe == nullptr) {
        return result;
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
    fillFromProperties(result, props);
    return result;
}

ChainProber::ChainProber(std::vector<std::shared_ptr<FsProber>> probers)
    : m_probers(std::move(probers)) {}

ProbeResult ChainProber::probe(const std::string& devPath, const std::string& devno) const {
    ProbeResult merged;
    for (const auto& prober : m_probers) {
        const ProbeResult result = prober->probe(devPath, devno);
        if (!merged.filesystem && result.filesystem) {
            merged.filesystem = result.filesystem;
        }
        mergeInto(merged.partitionTableType, result.partitionTableType);
        mergeInto(merged.partitionUuid, result.partitionUuid);
        mergeInto(merged.partitionLabel, result.partitionLabel);
        mergeInto(merged.partitionType, result.partitionType);
    }
    return merged;
}

std::shared_ptr<FsProber> makeSystemFsProber(const SysfsRoot& root) {
    auto udev = std::make_shared<UdevDatabaseProber>(root.run());
    if (!root.isLive()) {
        return udev;
    }
    return std::make_shared<ChainProber>(
        std::vector<std::shared_ptr<FsProber>>{udev, std::make_shared<BlkidProber>()});
}

} // namespace ssdk::device
