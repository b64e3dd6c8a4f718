#include <fstream>
#include <map>

#include "core/device/discovery.h"

namespace ssdk::device {

namespace {

// The filesystem facts recorded with a tree: udev's database under <run>/udev/data, whose
// "E:ID_FS_TYPE=ext4" lines carry what blkid told udev.
class RecordedUdevProber final : public FsProber {
public:
    explicit RecordedUdevProber(std::filesystem::path dataDir)
        : m_dataDir(std::move(dataDir)) {}

    ProbeResult probe(const std::string& /*devPath*/, const std::string& devno) const override {
        std::ifstream in(m_dataDir / ("b" + devno));
        std::map<std::string, std::string, std::less<>> props;
        for (std::string line; std::getline(in, line);) {
            if (const auto eq = line.find('='); line.starts_with("E:ID_") && eq != line.npos) {
                props[line.substr(5, eq - 5)] = line.substr(eq + 1);
            }
        }
        const auto get = [&props](std::string_view key) {
            const auto it = props.find(key);
            return it == props.end() ? std::string() : it->second;
        };
        ProbeResult result;
        if (auto type = get("FS_TYPE"); !type.empty()) {
            result.filesystem = Filesystem{type, get("FS_LABEL"), get("FS_UUID")};
        }
        result.partitionTableType = get("PART_TABLE_TYPE");
        result.partitionUuid = get("PART_ENTRY_UUID");
        result.partitionLabel = get("PART_ENTRY_NAME");
        result.partitionType = get("PART_ENTRY_TYPE");
        return result;
    }

private:
    std::filesystem::path m_dataDir;
};

} // namespace

// Replay has no device nodes to probe: only what the tree recorded.
std::shared_ptr<FsProber> makeSystemFsProber(const SysfsRoot& root) {
    return std::make_shared<RecordedUdevProber>(root.run() / "udev" / "data");
}

} // namespace ssdk::device
