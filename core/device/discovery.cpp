#include "core/device/discovery.h"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <functional>

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

class DeviceReader {
public:
    DeviceReader(const SysfsRoot& root, const FsProber& prober,
                 const std::vector<MountInfoEntry>& mounts)
        : m_root(root)
        , m_prober(prober)
        , m_mounts(mounts) {}

    Expected<Device> read(const std::string& name) const;

private:
    void readIdentity(Device& device, const fs::path& base) const;
    std::vector<Holder> readHolders(const fs::path& dir) const;
    std::vector<Mount> mountsOf(const std::string& devno, const std::string& path) const;
    std::string attr(const fs::path& path) const {
        return trimmed(m_root.tryString(path).value_or(""));
    }

    const SysfsRoot& m_root;
    const FsProber& m_prober;
    const std::vector<MountInfoEntry>& m_mounts;
};

void DeviceReader::readIdentity(Device& device, const fs::path& base) const {
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

    std::error_code ec;
    const auto resolved = fs::canonical(base, ec);
    device.bus = classifyBus(name, ec ? std::string() : resolved.string());

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
    readIdentity(device, base);

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

} // namespace

Discovery::Discovery(SysfsRoot root, std::shared_ptr<FsProber> fsProber)
    : m_root(std::move(root))
    , m_fsProber(std::move(fsProber)) {}

Expected<std::vector<Device>> Discovery::discover() const {
    const auto mountText = m_root.readString(m_root.proc() / "self" / "mountinfo");
    if (!mountText) {
        return std::unexpected(Error(mountText.error()).addContext("listing mounts"));
    }
    const auto mounts = parseMountInfo(*mountText);
    const DeviceReader reader(m_root, *m_fsProber, mounts);

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
    std::string name(nameOrPath);
    if (name.starts_with('/')) {
        std::error_code ec;
        const auto target = m_root.isLive() ? fs::canonical(name, ec) : fs::path(name);
        if (ec) {
            return fail(ErrorCode::NotFound, fmt::format("{} does not exist", nameOrPath));
        }
        if (target.parent_path() != "/dev") {
            return fail(ErrorCode::InvalidArgument,
                        fmt::format("{} is not a block device node under /dev", nameOrPath));
        }
        name = target.filename().string();
    }
    const fs::path classEntry = m_root.sys() / "class" / "block" / name;
    if (m_root.tryU64(classEntry / "partition")) {
        // A partition's sysfs directory sits inside its disk's directory.
        std::error_code ec;
        const auto resolved = fs::canonical(classEntry, ec);
        if (!ec) {
            name = resolved.parent_path().filename().string();
        }
    }
    auto devices = discover();
    if (!devices) {
        return std::unexpected(devices.error());
    }
    for (auto& device : *devices) {
        if (device.name == name) {
            return std::move(device);
        }
    }
    return fail(ErrorCode::NotFound, fmt::format("no block device named '{}'", nameOrPath));
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
                state += ',' + entry;
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
