#include "core/device/udev_prober.h"

#include <fstream>

namespace ssdk::device {

ProbeResult probeResultFromBlkidProperties(const std::map<std::string, std::string>& props) {
    auto get = [&props](const char* key) -> std::string {
        auto it = props.find(key);
        return it == props.end() ? std::string() : it->second;
    };
    ProbeResult result;
    if (auto type = get("TYPE"); !type.empty()) {
        result.filesystem = Filesystem{type, get("LABEL"), get("UUID")};
    }
    result.partitionTableType = get("PTTYPE");
    result.partitionUuid = get("PART_ENTRY_UUID");
    result.partitionLabel = get("PART_ENTRY_NAME");
    result.partitionType = get("PART_ENTRY_TYPE");
    return result;
}

UdevDatabaseProber::UdevDatabaseProber(std::filesystem::path runDir)
    : m_dataDir(std::move(runDir) / "udev" / "data") {}

bool UdevDatabaseProber::hasEntry(const std::string& devno) const {
    std::error_code error;
    return !devno.empty() && std::filesystem::is_regular_file(m_dataDir / ("b" + devno), error);
}

ProbeResult UdevDatabaseProber::probe(const std::string& /*devPath*/,
                                      const std::string& devno) const {
    std::ifstream in(m_dataDir / ("b" + devno));
    std::map<std::string, std::string> props;
    std::string line;
    static constexpr std::string_view kPrefix = "E:ID_";
    while (std::getline(in, line)) {
        if (!line.starts_with(kPrefix)) {
            continue;
        }
        const auto eq = line.find('=');
        if (eq == std::string::npos) {
            continue;
        }
        // udev's names for blkid's: ID_FS_TYPE is TYPE, ID_PART_TABLE_TYPE is PTTYPE.
        auto key = line.substr(kPrefix.size(), eq - kPrefix.size());
        if (key.starts_with("FS_")) {
            key = key.substr(3);
        } else if (key == "PART_TABLE_TYPE") {
            key = "PTTYPE";
        }
        props[key] = line.substr(eq + 1);
    }
    return probeResultFromBlkidProperties(props);
}

} // namespace ssdk::device
