#include "core/device/discovery.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <fmt/format.h>
#include <functional>
#include <map>

#include "core/base/log.h"
#include "core/device/mountinfo.h"

namespace ssdk::device {

namespace fs = std::filesystem;

namespace {

constexpr unsigned kRamDiskMajor = 1;

std::string trimmed(std::string text) {
    const auto first = text.find_first_not_of(" \t\n");
    if (first == std::string::npos) {
        return {};
    }
    const auto last = text.find_last_not_of(" \t\n");
    return text.substr(first, last - first + 1);
}

unsigned majorOf(std::string_view devno) {
    unsigned major = 0;
    std::from_chars(devno.data(), devno.data() + devno.size(), major);
    return major;
}

// The bus from the kernel name and the resolved sysfs path, which records how the device
// hangs off the machine (…/usb2/2-1/…/host6/target6:0:0/…, …/ata3/host2/…, …/virtio1/…).
Bus classifyBus(std::string_view name, std::string_view devicePath) {
    const auto starts = [&](std::string_view prefix) { return name.starts_with(prefix); };
    const auto contains = [&](std::string_view part) {
        return devicePath.find(part) != std::string_view::npos;
    };
    if (starts("loop")) {
        return Bus::Loop;
    }
    if (starts("zram")) {
        return Bus::Zram;
    }
    if (starts("dm-")) {
        return Bus::DeviceMapper;
    }
    if (starts("md")) {
        return Bus::Md;
    }
    if (starts("nvme")) {
        return Bus::Nvme;
    }
    if (starts("mmcblk")) {
        return Bus::Mmc;
    }
    if (contains("/usb")) {
        return Bus::Usb;
    }
    if (contains("/ata")) {
        return Bus::Sata;
    }
    if (starts("vd") || (contains("/virtio") && !contains("/target"))) {
        return Bus::Virtio;
    }
    if (contains("/target") || starts("sd") || starts("sr")) {
        return Bus::Scsi;
    }
    return Bus::Unknown;
}

// Orders real drives before virtual ones, then by name with numbers compared as numbers.
int busRank(Bus bus) {
    switch (bus) {
    case Bus::Nvme:
    case Bus::Sata:
    case Bus::Scsi:
    case Bus::Usb:
    case Bus::Virtio:
    case Bus::Mmc:
    case Bus::Unknown:
        return 0;
    case Bus::Md:
    case Bus::DeviceMapper:
        return 1;
    case Bus::Loop:
    case Bus::Zram:
        break;
    }
    return 2;
}

bool naturalLess(std::string_view a, std::string_view b) {
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() && j < b.size()) {
        const bool da = std::isdigit(static_cast<unsigned char>(a[i])) != 0;
        const bool db = std::isdigit(static_cast<unsigned char>(b[j])) != 0;
        if (da && db) {
            std::uint64_t x = 0;
            std::uint64_t y = 0;
            auto ra = std::from_chars(a.data() + i, a.data() + a.size(), x);
            auto rb = std::from_chars(b.data() + j, b.data() + b.size(), y);
            if (x != y) {
                return x < y;
            }
            i = static_cast<std::size_t>(ra.ptr - a.data());
            j = static_cast<std::size_t>(rb.ptr - b.data());
            continue;
        }
        if (a[i] != b[j]) {
            return a[i] < b[j];
        }
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

std::string attribute(const SysfsRoot& root, const fs::path& path) {
    return trimmed(root.tryString(path).value_or(""));
}

// The bus and the identity strings of the whole device at base (<sys>/block/NAME).
void readIdentity(const SysfsRoot& root, Device& device, const fs::path& base) {
    std::error_code ec;
    const auto resolved = fs::canonical(base, ec);
    device.bus = classifyBus(device.name, ec ? std::string() : resolved.string());
    const auto attr = [&root](const fs::path& path) { return attribute(root, path); };
    const fs::path dev = base / "device";
    switch (device.bus) {
    case Bus::Nvme:
        // block/nvme0n1/device is the controller (nvme0): model, serial, firmware_rev.
        device.model = attr(dev / "model");
        device.serial = attr(dev / "serial");
        device.firmware = attr(dev / "firmware_rev");
        device.wwn = attr(base / "wwid");
        break;
    case Bus::Sata:
    case Bus::Scsi:
    case Bus::Usb:
        // SCSI-style INQUIRY strings; libata reports "ATA" as the vendor of every SATA drive.
        device.vendor = attr(dev / "vendor");
        device.model = attr(dev / "model");
        device.firmware = attr(dev / "rev");
        device.wwn = attr(dev / "wwid");
        device.serial = attr(base / "serial");
        if (device.vendor == "ATA") {
            device.vendor.clear();
        }
        break;
    case Bus::Mmc:
        device.model = attr(dev / "name");
        device.serial = attr(dev / "serial");
        device.firmware = attr(dev / "fwrev");
        break;
    case Bus::Virtio:
        device.serial = attr(base / "serial");
        device.model = "Virtio block device";
        break;
    case Bus::Loop:
        device.loopBackingFile = attr(base / "loop" / "backing_file");
        device.labName = labNameFromBackingFile(device.loopBackingFile);
        device.model = device.labName ? "SSD Keeper lab drive" : "Loop device";
        break;
    case Bus::Zram:
        device.model = "Compressed RAM disk (zram)";
        break;
    case Bus::DeviceMapper:
        device.model = "Device-mapper: " + attr(base / "dm" / "name");
        break;
    case Bus::Md:
        device.model = "Software RAID (" + attr(base / "md" / "level") + ")";
        break;
    case Bus::Unknown:
        device.model = attr(dev / "model");
        break;
    }
}

class DeviceReader {
public:
    DeviceReader(const SysfsRoot& root, const FsProber& prober,
                 const std::vector<MountInfoEntry>& mounts)
        : m_root(root)
        , m_prober(prober)
        , m_mounts(mounts)
        , m_systemDisks(systemDiskNames(root, mounts)) {}

    Expected<Device> read(const std::string& name) const;

private:
    std::vector<Holder> readHolders(const fs::path& dir) const;
    std::vector<Mount> mountsOf(const std::string& devno, const std::string& path) const;
    std::string attr(const fs::path& path) const { return attribute(m_root, path); }

    const SysfsRoot& m_root;
    const FsProber& m_prober;
    const std::vector<MountInfoEntry>& m_mounts;
    std::set<std::string> m_systemDisks;
};

std::vector<Holder> DeviceReader::readHolders(const fs::path& dir) const {
    std::vector<Holder> holders;
    for (const auto& name : m_root.list(dir)) {
        Holder holder{Holder::Kind::Other, name, name};
        if (name.starts_with("dm-")) {
            holder.kind = Holder::Kind::DeviceMapper;
            const auto dmName = attr(m_root.sys() / "block" / name / "dm" / "name");
            if (!dmName.empty()) {
                holder.displayName = dmName;
            }
        } else if (name.starts_with("md")) {
            holder.kind = Holder::Kind::Md;
        } else if (name.starts_with("bcache")) {
            holder.kind = Holder::Kind::Bcache;
        }
        holders.push_back(std::move(holder));
    }
    return holders;
}

std::vector<Mount> DeviceReader::mountsOf(const std::string& devno, const std::string& path) const {
    std::vector<Mount> result;
    for (const auto& entry : m_mounts) {
        if (entry.devno == devno || entry.source == path) {
            result.push_back(Mount{entry.mountPoint, entry.fsType, entry.mountOptions});
        }
    }
    return result;
}

Expected<Device> DeviceReader::read(const std::string& name) const {
    const fs::path base = m_root.sys() / "block" / name;
    Device device;
    device.name = name;
    device.path = "/dev/" + name;
    auto devno = m_root.readString(base / "dev");
    if (!devno) {
        return std::unexpected(devno.error());
    }
    device.devno = *devno;
    auto sectors = m_root.readU64(base / "size");
    if (!sectors) {
        return std::unexpected(sectors.error());
    }
    device.size = Bytes::sectors512(*sectors);
    device.systemDisk = m_systemDisks.contains(name);

    const fs::path queue = base / "queue";
    device.logicalSectorSize =
        static_cast<std::uint32_t>(m_root.tryU64(queue / "logical_block_size").value_or(512));
    device.physicalSectorSize =
        static_cast<std::uint32_t>(m_root.tryU64(queue / "physical_block_size").value_or(512));
    device.rotational = m_root.tryU64(queue / "rotational").value_or(0) != 0;
    device.discardGranularity = Bytes(m_root.tryU64(queue / "discard_granularity").value_or(0));
    device.discardMaxBytes = Bytes(m_root.tryU64(queue / "discard_max_bytes").value_or(0));
    device.removable = m_root.tryU64(base / "removable").value_or(0) != 0;
    device.readOnly = m_root.tryU64(base / "ro").value_or(0) != 0;
    readIdentity(m_root, device, base);

    const ProbeResult probed = m_prober.probe(device.path, device.devno);
    device.filesystem = probed.filesystem;
    device.partitionTableType = probed.partitionTableType;
    device.mounts = mountsOf(device.devno, device.path);
    device.holders = readHolders(base / "holders");

    for (const auto& entry : m_root.list(base)) {
        const fs::path partDir = base / entry;
        const auto number = m_root.tryU64(partDir / "partition");
        if (!number) {
            continue;
        }
        Partition part;
        part.name = entry;
        part.path = "/dev/" + entry;
        part.number = static_cast<std::uint32_t>(*number);
        part.start = Bytes::sectors512(m_root.tryU64(partDir / "start").value_or(0));
        part.size = Bytes::sectors512(m_root.tryU64(partDir / "size").value_or(0));
        part.readOnly = m_root.tryU64(partDir / "ro").value_or(0) != 0;
        const auto partDevno = attr(partDir / "dev");
        const ProbeResult partProbe = m_prober.probe(part.path, partDevno);
        part.filesystem = partProbe.filesystem;
        part.partitionUuid = partProbe.partitionUuid;
        part.partitionLabel = partProbe.partitionLabel;
        part.partitionType = partProbe.partitionType;
        part.mounts = mountsOf(partDevno, part.path);
        part.holders = readHolders(partDir / "holders");
        device.partitions.push_back(std::move(part));
    }
    std::ranges::sort(device.partitions, {}, &Partition::number);
    return device;
}

// lsblk's default view: no RAM disks, no loop devices with nothing attached.
bool listedByDefault(const SysfsRoot& root, const std::string& name) {
    const fs::path base = root.sys() / "block" / name;
    const auto devno = root.tryString(base / "dev");
    if (!devno || majorOf(*devno) == kRamDiskMajor) {
        return false;
    }
    if (name.starts_with("loop") && !fs::exists(base / "loop" / "backing_file")) {
        return false;
    }
    return true;
}

// The whole device a kernel block name belongs to: a partition's disk (its sysfs directory
// sits inside the disk's), else the name itself.
std::string wholeDeviceOf(const SysfsRoot& root, const std::string& name) {
    const fs::path classEntry = root.sys() / "class" / "block" / name;
    if (root.tryU64(classEntry / "partition")) {
        std::error_code ec;
        const auto resolved = fs::canonical(classEntry, ec);
        if (!ec) {
            return resolved.parent_path().filename().string();
        }
    }
    return name;
}

// The mount table, parsed.
Expected<std::vector<MountInfoEntry>> readMounts(const SysfsRoot& root) {
    const auto mountText = root.readString(root.proc() / "self" / "mountinfo");
    if (!mountText) {
        return std::unexpected(Error(mountText.error()).addContext("listing mounts"));
    }
    return parseMountInfo(*mountText);
}

// The kernel name of a path or name given by a caller, the way find() takes it; nothing when it
// is not a node directly under /dev.
Expected<std::string> kernelNameOf(const SysfsRoot& root, std::string_view nameOrPath) {
    std::string name(nameOrPath);
    if (name.starts_with('/')) {
        std::error_code ec;
        const auto target = root.isLive() ? fs::canonical(name, ec) : fs::path(name);
        if (ec) {
            return fail(ErrorCode::NotFound, fmt::format("{} does not exist", nameOrPath));
        }
        if (target.parent_path() != "/dev" || (root.isLive() && !fs::is_block_file(target, ec))) {
            return fail(ErrorCode::InvalidArgument,
                        fmt::format("{} is not a block device", nameOrPath));
        }
        name = target.filename().string();
    }
    return name;
}

// Finds the kernel block names behind mount sources and swap areas, and walks each down
// through "slaves" to the disks.
class SystemDiskWalk {
public:
    explicit SystemDiskWalk(const SysfsRoot& root)
        : m_root(root) {
        for (const auto& name : root.list(root.sys() / "class" / "block")) {
            const fs::path entry = root.sys() / "class" / "block" / name;
            if (auto devno = root.tryString(entry / "dev")) {
                m_byDevno.emplace(trimmed(*devno), name);
            }
            if (auto dmName = root.tryString(entry / "dm" / "name")) {
                m_byDmName.emplace(trimmed(*dmName), name);
            }
        }
    }

    // A filesystem or swap area by its device number (mountinfo's, may be an anonymous 0:N
    // for btrfs) and its source path ("/dev/mapper/vg-root", "/dev/sda2", "/dev/dm-0").
    void addSource(const std::string& devno, std::string_view source) {
        if (const auto it = m_byDevno.find(devno); it != m_byDevno.end()) {
            walk(it->second, 0);
            return;
        }
        if (!source.starts_with("/dev/")) {
            return;
        }
        static constexpr std::string_view kMapper = "/dev/mapper/";
        if (source.starts_with(kMapper)) {
            if (const auto it = m_byDmName.find(source.substr(kMapper.size()));
                it != m_byDmName.end()) {
                walk(it->second, 0);
                return;
            }
        }
        std::string name;
        if (m_root.isLive()) {
            std::error_code ec;
            const auto target = fs::canonical(fs::path(source), ec);
            if (ec || target.parent_path() != "/dev") {
                return;
            }
            name = target.filename().string();
        } else {
            name = fs::path(source).filename().string();
        }
        if (m_root.tryString(m_root.sys() / "class" / "block" / name / "dev")) {
            walk(name, 0);
        }
    }

    std::set<std::string> take() { return std::move(m_found); }

private:
    // The stack is a DAG a few levels deep; the bounds only guard against a corrupt tree.
    static constexpr int kMaxDepth = 16;
    static constexpr std::size_t kMaxVisits = 1024;

    void walk(const std::string& name, int depth) {
        if (depth > kMaxDepth || ++m_visits > kMaxVisits || name.find('/') != std::string::npos) {
            return;
        }
        const std::string whole = wholeDeviceOf(m_root, name);
        if (!m_found.insert(whole).second) {
            return;
        }
        for (const auto& slave : m_root.list(m_root.sys() / "class" / "block" / whole / "slaves")) {
            walk(slave, depth + 1);
        }
    }

    const SysfsRoot& m_root;
    std::map<std::string, std::string, std::less<>> m_byDevno;
    std::map<std::string, std::string, std::less<>> m_byDmName;
    std::set<std::string> m_found;
    std::size_t m_visits = 0;
};

// The mount whose mount point holds path: the longest mount point that is path or a parent
// directory of it.
const MountInfoEntry* mountHolding(const std::vector<MountInfoEntry>& mounts,
                                   std::string_view path) {
    const MountInfoEntry* best = nullptr;
    for (const auto& entry : mounts) {
        const std::string_view point = entry.mountPoint;
        const bool holds = point == "/" ? path.starts_with('/')
                                        : path == point || (path.starts_with(point) &&
                                                            path.size() > point.size() &&
                                                            path[point.size()] == '/');
        if (holds && (best == nullptr || point.size() >= best->mountPoint.size())) {
            best = &entry;
        }
    }
    return best;
}

} // namespace

std::set<std::string> systemDiskNames(const SysfsRoot& root,
                                      const std::vector<MountInfoEntry>& mounts) {
    static constexpr std::array<std::string_view, 4> kSystemMountPoints{"/", "/usr", "/boot",
                                                                        "/boot/efi"};
    SystemDiskWalk walk(root);
    for (const auto& entry : mounts) {
        if (std::ranges::find(kSystemMountPoints, entry.mountPoint) != kSystemMountPoints.end()) {
            walk.addSource(entry.devno, entry.source);
        }
    }
    // /proc/swaps: a header, then "Filename Type Size Used Priority", the file name escaped
    // as in mountinfo.
    const std::string swaps = root.tryString(root.proc() / "swaps").value_or("");
    std::size_t start = swaps.find('\n');
    while (start != std::string::npos && start < swaps.size()) {
        const auto end = std::min(swaps.find('\n', start + 1), swaps.size());
        const std::string_view line = std::string_view(swaps).substr(start + 1, end - start - 1);
        start = end;
        const auto nameEnd = line.find_first_of(" \t");
        if (line.empty() || nameEnd == 0) {
            continue;
        }
        const std::string file = unescapeMountField(line.substr(0, nameEnd));
        const auto rest =
            nameEnd == std::string_view::npos ? std::string_view() : line.substr(nameEnd);
        const bool isFile = rest.find("file") != std::string_view::npos;
        if (!isFile) {
            walk.addSource("", file);
        } else if (const auto* holder = mountHolding(mounts, file)) {
            walk.addSource(holder->devno, holder->source);
        }
    }
    return walk.take();
}

Discovery::Discovery(SysfsRoot root, std::shared_ptr<FsProber> fsProber)
    : m_root(std::move(root))
    , m_fsProber(std::move(fsProber)) {}

Expected<std::vector<Device>> Discovery::discover() const {
    const auto mounts = readMounts(m_root);
    if (!mounts) {
        return std::unexpected(mounts.error());
    }
    const DeviceReader reader(m_root, *m_fsProber, *mounts);

    std::vector<Device> devices;
    for (const auto& name : m_root.list(m_root.sys() / "block")) {
        if (!listedByDefault(m_root, name)) {
            continue;
        }
        auto device = reader.read(name);
        if (!device) {
            // A device that vanished between listing and reading is a hot-unplug, not an error.
            log::get("device")->info("skipping {}: {}", name, device.error().describe());
            continue;
        }
        devices.push_back(std::move(*device));
    }
    std::ranges::sort(devices, [](const Device& a, const Device& b) {
        const int ra = busRank(a.bus);
        const int rb = busRank(b.bus);
        return ra != rb ? ra < rb : naturalLess(a.name, b.name);
    });
    return devices;
}

Expected<Device> Discovery::find(std::string_view nameOrPath) const {
    auto given = kernelNameOf(m_root, nameOrPath);
    if (!given) {
        return std::unexpected(given.error());
    }
    const std::string name = wholeDeviceOf(m_root, *given);
    const auto mounts = readMounts(m_root);
    if (!mounts) {
        return std::unexpected(mounts.error());
    }
    // Only the device asked for is read (and probed): probing the others would read from
    // drives nobody asked about, waking them.
    const DeviceReader reader(m_root, *m_fsProber, *mounts);
    const bool plainName =
        !name.empty() && name.find('/') == std::string::npos && name != "." && name != "..";
    if (plainName && listedByDefault(m_root, name)) {
        return reader.read(name);
    }
    // A lab drive's name ("ssdkeeperctl lab create --name demo") names it too, as in the GUI:
    // told by the loop device's backing file in sysfs, without opening any device.
    for (const auto& candidate : m_root.list(m_root.sys() / "block")) {
        if (!candidate.starts_with("loop") || !listedByDefault(m_root, candidate)) {
            continue;
        }
        const auto backingFile =
            attribute(m_root, m_root.sys() / "block" / candidate / "loop" / "backing_file");
        if (labNameFromBackingFile(backingFile) == name) {
            return reader.read(candidate);
        }
    }
    return fail(ErrorCode::NotFound,
                fmt::format("no block device or lab drive named '{}'", nameOrPath));
}

std::string Discovery::describeDrive(std::string_view nameOrPath) const {
    const auto given = kernelNameOf(m_root, nameOrPath);
    if (!given || given->empty() || given->find('/') != std::string::npos || *given == "." ||
        *given == "..") {
        return {};
    }
    Device device;
    device.name = wholeDeviceOf(m_root, *given);
    const fs::path base = m_root.sys() / "block" / device.name;
    if (!m_root.tryString(base / "dev")) {
        return {};
    }
    readIdentity(m_root, device, base);
    if (device.model.empty()) {
        return device.serial;
    }
    return device.serial.empty() ? device.model : device.model + " (" + device.serial + ")";
}

std::string Discovery::changeToken() const {
    std::string state;
    for (const auto& name : m_root.list(m_root.sys() / "block")) {
        const fs::path base = m_root.sys() / "block" / name;
        state += name;
        state += ':';
        state += m_root.tryString(base / "size").value_or("-");
        state += m_root.tryString(base / "loop" / "backing_file").value_or("");
        for (const auto& entry : m_root.list(base)) {
            if (entry.starts_with(name)) {
                // A partition resized in place (spare area, a partition editor) keeps its name.
                state += ',' + entry + '=' +
                         m_root.tryString(base / entry / "start").value_or("-") + '+' +
                         m_root.tryString(base / entry / "size").value_or("-");
                for (const auto& holder : m_root.list(base / entry / "holders")) {
                    state += '>' + holder;
                }
            }
        }
        for (const auto& holder : m_root.list(base / "holders")) {
            state += '>' + holder;
        }
        state += ';';
    }
    state += m_root.tryString(m_root.proc() / "self" / "mountinfo").value_or("");
    return fmt::format("{:016x}", std::hash<std::string>{}(state));
}

} // namespace ssdk::device
