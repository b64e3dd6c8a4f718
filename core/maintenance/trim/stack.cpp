#include "core/maintenance/trim/stack.h"

#include <cctype>
#include <filesystem>
#include <sys/stat.h>

#include "core/device/devno.h"
#include "core/device/mountinfo.h"
#include "core/maintenance/transport/nvme_admin.h"
#include "core/maintenance/transport/nvme_commands.h"

namespace ssdk::maintenance::trim {

namespace fs = std::filesystem;

namespace {

std::vector<device::MountInfoEntry> readMounts(const SysfsRoot& root) {
    auto text = root.tryString(root.proc() / "self" / "mountinfo");
    return text ? device::parseMountInfo(*text) : std::vector<device::MountInfoEntry>{};
}

std::optional<std::string> nameForDevno(const SysfsRoot& root, const std::string& devno) {
    for (const auto& disk : root.list(root.sys() / "block")) {
        const fs::path dir = root.sys() / "block" / disk;
        if (root.tryString(dir / "dev") == devno) {
            return disk;
        }
        for (const auto& entry : root.list(dir)) {
            if (entry.starts_with(disk) && root.tryString(dir / entry / "dev") == devno) {
                return entry;
            }
        }
    }
    return std::nullopt;
}

std::string resolvedSysfsPath(const fs::path& dir) {
    std::error_code ec;
    const fs::path resolved = fs::canonical(dir, ec);
    return ec ? dir.string() : resolved.string();
}

std::string busOf(const std::string& sysPath) {
    if (sysPath.find("/virtual/block/loop") != std::string::npos) {
        return "loop";
    }
    if (sysPath.find("/nvme/") != std::string::npos) {
        return "nvme";
    }
    if (sysPath.find("/usb") != std::string::npos) {
        return "usb";
    }
    if (sysPath.find("/ata") != std::string::npos) {
        return "sata";
    }
    if (sysPath.find("/virtio") != std::string::npos) {
        return "virtio";
    }
    if (sysPath.find("/virtual/") != std::string::npos) {
        return "virtual";
    }
    return "scsi";
}

// "…/ata3/host2/…" → 3
std::optional<std::string> ataPort(const std::string& sysPath) {
    const auto pos = sysPath.find("/ata");
    if (pos == std::string::npos) {
        return std::nullopt;
    }
    auto end = pos + 4;
    while (end < sysPath.size() && std::isdigit(static_cast<unsigned char>(sysPath[end]))) {
        ++end;
    }
    if (end == pos + 4) {
        return std::nullopt;
    }
    return sysPath.substr(pos + 4, end - pos - 4);
}

std::string fsTypeHolding(const std::vector<device::MountInfoEntry>& mounts,
                          const std::string& file) {
    std::size_t best = 0;
    std::string type = "unknown";
    for (const auto& mount : mounts) {
        const std::string& mp = mount.mountPoint;
        const bool under =
            mp == "/" || file == mp ||
            (file.starts_with(mp) && file.size() > mp.size() && file[mp.size()] == '/');
        if (under && mp.size() >= best) {
            best = mp.size();
            type = mount.fsType;
        }
    }
    return type;
}

void fillDriveFacts(const SysfsRoot& root, const std::string& disk, const fs::path& dir,
                    const StackOptions& options, DriveFacts& drive) {
    const std::string sysPath = resolvedSysfsPath(dir);
    drive.bus = busOf(sysPath);
    if (drive.bus == "sata") {
        if (auto port = ataPort(sysPath)) {
            const fs::path ataDev = root.sys() / "class" / "ata_device" / ("dev" + *port + ".0");
            if (auto text = root.tryString(ataDev / "id")) {
                if (auto bytes = parseAtaIdHexText(*text)) {
                    if (auto id = parseAtaIdentify(*bytes)) {
                        drive.ata = *id;
                    }
                }
            }
            drive.libataTrimMode = root.tryString(ataDev / "trim");
        }
    }
    if (drive.bus == "sata" || drive.bus == "usb" || drive.bus == "scsi") {
        for (const auto& entry : root.list(dir / "device" / "scsi_disk")) {
            drive.provisioningMode =
                root.tryString(dir / "device" / "scsi_disk" / entry / "provisioning_mode");
        }
        if (drive.bus != "sata") {
            if (auto page = root.tryString(dir / "device" / "vpd_pgb2")) {
                const auto* bytes = reinterpret_cast<const std::uint8_t*>(page->data());
                if (auto parsed = parseScsiProvisioningVpd({bytes, page->size()})) {
                    drive.scsiProvisioning = *parsed;
                }
            }
        }
    }
    if (drive.bus == "nvme" && options.nvmeIdentify) {
        if (auto id = options.nvmeIdentify("/dev/" + disk)) {
            drive.nvmeController = id->first;
            drive.nvmeNamespace = id->second;
        }
    }
}

BlockLayer readQueue(const SysfsRoot& root, const fs::path& queueDir, BlockLayer layer) {
    layer.discardGranularity = Bytes(root.tryU64(queueDir / "discard_granularity").value_or(0));
    layer.discardMaxBytes = Bytes(root.tryU64(queueDir / "discard_max_bytes").value_or(0));
    layer.discardMaxHwBytes = Bytes(root.tryU64(queueDir / "discard_max_hw_bytes").value_or(0));
    return layer;
}

// The devices directly below a stacked device: slaves/, or (recorded trees without it) the
// devices listing it in holders/.
std::vector<std::string> lowerDevices(const SysfsRoot& root, const std::string& name,
                                      const fs::path& dir) {
    auto slaves = root.list(dir / "slaves");
    if (!slaves.empty()) {
        return slaves;
    }
    for (const auto& disk : root.list(root.sys() / "block")) {
        const fs::path diskDir = root.sys() / "block" / disk;
        for (const auto& held : root.list(diskDir / "holders")) {
            if (held == name) {
                return {disk};
            }
        }
        for (const auto& entry : root.list(diskDir)) {
            if (!entry.starts_with(disk)) {
                continue;
            }
            for (const auto& held : root.list(diskDir / entry / "holders")) {
                if (held == name) {
                    return {entry};
                }
            }
        }
    }
    return {};
}

} // namespace

fs::path blockSysfsDir(const SysfsRoot& root, const std::string& name) {
    const fs::path direct = root.sys() / "block" / name;
    std::error_code ec;
    if (fs::exists(direct, ec)) {
        return direct;
    }
    for (const auto& disk : root.list(root.sys() / "block")) {
        if (name.starts_with(disk) &&
            fs::exists(root.sys() / "block" / disk / name / "partition", ec)) {
            return root.sys() / "block" / disk / name;
        }
    }
    return {};
}

NvmeIdentifyReader liveNvmeIdentifyReader() {
    return [](const std::string& path) -> std::optional<std::pair<NvmeController, NvmeNamespace>> {
        auto nvme = transport::openNvmeAdmin(path);
        if (!nvme) {
            return std::nullopt;
        }
        auto ctrlBytes = transport::identifyController(**nvme);
        auto nsBytes = transport::identifyNamespace(**nvme);
        if (!ctrlBytes || !nsBytes) {
            return std::nullopt;
        }
        auto ctrl = parseNvmeIdentifyController(*ctrlBytes);
        auto ns = parseNvmeIdentifyNamespace(*nsBytes);
        if (!ctrl || !ns) {
            return std::nullopt;
        }
        return std::make_pair(*ctrl, *ns);
    };
}

Expected<StackSnapshot> snapshotStack(const std::string& target, const SysfsRoot& root,
                                      const StackOptions& options) {
    StackSnapshot snapshot;
    snapshot.target = target;
    snapshot.timer = options.timer;
    snapshot.nowEpochSeconds = options.nowEpochSeconds;
    const auto mounts = readMounts(root);
    std::string name;
    if (target.starts_with("/dev/")) {
        std::error_code ec;
        fs::path node = root.isLive() ? fs::canonical(target, ec) : fs::path(target);
        if (ec) {
            return fail(ErrorCode::NotFound, "no device " + target);
        }
        struct stat st {};
        if (root.isLive() && ::stat(node.c_str(), &st) == 0 && S_ISBLK(st.st_mode)) {
            auto found = nameForDevno(root, device::devnoText(st.st_rdev));
            name = found.value_or(node.filename().string());
        } else {
            name = node.filename().string();
        }
    } else if (target.starts_with('/')) {
        std::string mountPoint = target;
        if (root.isLive()) {
            std::error_code ec;
            mountPoint = fs::canonical(target, ec).string();
            if (ec) {
                return fail(ErrorCode::NotFound, "no such mount point " + target);
            }
        }
        const device::MountInfoEntry* found = nullptr;
        for (const auto& mount : mounts) {
            if (mount.mountPoint == mountPoint) {
                found = &mount; // the last one is the visible one
            }
        }
        if (found == nullptr) {
            return fail(ErrorCode::InvalidArgument,
                        target + " is not a mount point (give the filesystem's mount point)");
        }
        snapshot.filesystem = FilesystemFacts{found->mountPoint, found->fsType,
                                              found->mountOptions + "," + found->superOptions};
        auto deviceName = nameForDevno(root, found->devno);
        if (!deviceName) {
            return fail(ErrorCode::Unsupported, target + " is not on a block device (" +
                                                    found->fsType + " " + found->source + ")");
        }
        name = *deviceName;
    } else {
        name = target;
    }
    fs::path dir = blockSysfsDir(root, name);
    if (dir.empty()) {
        return fail(ErrorCode::NotFound, "no block device " + name);
    }
    // Walk down the stack to the disk.
    for (int depth = 0; depth < 16; ++depth) {
        BlockLayer layer;
        layer.name = name;
        if (root.tryString(dir / "partition")) {
            layer.kind = BlockLayer::Kind::Partition;
            snapshot.layers.push_back(readQueue(root, dir.parent_path() / "queue", layer));
            name = dir.parent_path().filename().string();
            dir = dir.parent_path();
            continue;
        }
        if (name.starts_with("dm-")) {
            layer.dmName = root.tryString(dir / "dm" / "name").value_or(name);
            const std::string uuid = root.tryString(dir / "dm" / "uuid").value_or("");
            if (uuid.starts_with("CRYPT-") || layer.dmName.starts_with("luks-")) {
                layer.kind = BlockLayer::Kind::DmCrypt;
            } else if (uuid.starts_with("LVM-")) {
                layer.kind = BlockLayer::Kind::Lvm;
            } else {
                layer.kind = BlockLayer::Kind::DmOther;
            }
        } else if (name.starts_with("md")) {
            layer.kind = BlockLayer::Kind::Md;
            layer.mdLevel = root.tryString(dir / "md" / "level").value_or("md");
        } else if (name.starts_with("loop")) {
            layer.kind = BlockLayer::Kind::Loop;
            layer.loopBackingFile = root.tryString(dir / "loop" / "backing_file").value_or("");
            layer.loopBackingFsType = fsTypeHolding(mounts, layer.loopBackingFile);
            snapshot.layers.push_back(readQueue(root, dir / "queue", layer));
            snapshot.drive.bus = "loop";
            return snapshot;
        } else {
            layer.kind = BlockLayer::Kind::Disk;
            snapshot.layers.push_back(readQueue(root, dir / "queue", layer));
            fillDriveFacts(root, name, dir, options, snapshot.drive);
            return snapshot;
        }
        snapshot.layers.push_back(readQueue(root, dir / "queue", layer));
        auto lower = lowerDevices(root, name, dir);
        if (lower.empty()) {
            return snapshot; // a virtual target with nothing below (e.g. dm-zero)
        }
        name = lower.front();
        dir = blockSysfsDir(root, name);
        if (dir.empty()) {
            return snapshot;
        }
    }
    return snapshot;
}

} // namespace ssdk::maintenance::trim
