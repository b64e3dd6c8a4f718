#include "core/overprovision/planner.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <numeric>

#include "core/base/translate.h"
#include "core/overprovision/filesystem_tool.h"

namespace ssdk::overprovision {

namespace {

std::uint64_t alignDown(std::uint64_t value, std::uint64_t alignment) {
    return value / alignment * alignment;
}

double percentOf(Bytes part, Bytes whole) {
    return whole.value == 0
               ? 0.0
               : static_cast<double>(part.value) * 100.0 / static_cast<double>(whole.value);
}

// Where the last partition may end: GPT keeps its backup header and entries (up to 16 KiB and
// one sector) at the end of the disk.
Bytes lastUsableEnd(const device::Device& device) {
    if (device.partitionTableType == "gpt") {
        return device.size - Bytes::kib(16) - Bytes(device.logicalSectorSize);
    }
    return device.size;
}

// Why the filesystem (or what holds the partition) cannot be resized by SSD Keeper; empty when
// it can.
std::string unsupportedReason(const device::Partition& partition) {
    const std::string type = partition.filesystem ? partition.filesystem->type : "";
    const std::string who = partition.path;
    if (type == "crypto_LUKS" ||
        (!partition.holders.empty() &&
         partition.holders.front().kind == device::Holder::Kind::DeviceMapper &&
         type != "LVM2_member")) {
        return who + " is encrypted (LUKS): shrink the filesystem inside it and the LUKS mapping "
                     "(cryptsetup resize) yourself first, then shrink the partition with a "
                     "partition editor";
    }
    if (type == "LVM2_member") {
        return who + " is an LVM physical volume: shrink a logical volume and its filesystem, "
                     "then pvresize the volume, before the partition can shrink";
    }
    if (type == "linux_raid_member" ||
        (!partition.holders.empty() &&
         partition.holders.front().kind == device::Holder::Kind::Md)) {
        return who + " is a RAID member: shrink the array (mdadm --grow --size) and its "
                     "filesystem first, on every member";
    }
    if (!partition.holders.empty()) {
        return who + " is held by " + partition.holders.front().displayName + ": release it first";
    }
    if (type == "xfs") {
        return who + " holds XFS, which cannot shrink: back it up, recreate it smaller and "
                     "restore";
    }
    if (type == "vfat" || type == "exfat") {
        return who + " holds " + type +
               ", and no shrink tool for it is installed: SSD Keeper "
               "does not shrink FAT filesystems";
    }
    if (isSupportedFilesystem(type)) {
        return {};
    }
    return who + " at the end of the disk holds " +
           (type.empty() ? std::string("no filesystem SSD Keeper knows") : "\"" + type + "\"") +
           ", which it cannot shrink, and it does not move partitions: shrink or remove it "
           "with a partition editor";
}

// "resize2fs accepts no less than 1.49 GiB (resize2fs -P)" (or "will not shrink it at all"
// when that is its whole size), or for an estimate "it needs at least 1.10 GiB (1.00 GiB:
// in use + 25 % …, plus a 100 MiB margin)".
std::string describeMinimum(const FilesystemUsage& usage, Bytes margin) {
    const std::string source = usage.minimumSource.empty() ? usage.source : usage.minimumSource;
    if (usage.minimumExact) {
        std::string tool = source.substr(0, source.find(' '));
        if (tool.empty()) {
            tool = "its resize tool";
        }
        if (usage.minimumSize >= usage.size) {
            return fmt::format("{} will not shrink it at all ({}: {}, its whole size)", tool,
                               source, formatIec(usage.minimumSize));
        }
        return fmt::format("{} accepts no less than {} ({})", tool, formatIec(usage.minimumSize),
                           source);
    }
    return fmt::format("it needs at least {} ({}: {}, plus a {} margin)",
                       formatIec(usage.minimumSize + margin), formatIec(usage.minimumSize), source,
                       formatIec(margin));
}

// "in use: 784 MiB (dumpe2fs -h: blocks − free − overhead, as df counts)".
std::string describeInUse(const FilesystemUsage& usage) {
    return fmt::format("in use: {} ({})", formatIec(usage.used),
                       usage.usedSource.empty() ? usage.source : usage.usedSource);
}

} // namespace

std::optional<FactoryOverprovision> factoryOverprovisionFor(Bytes userCapacity) {
    if (userCapacity.value == 0) {
        return std::nullopt;
    }
    std::uint64_t nand = Bytes::gib(1).value;
    while (nand < userCapacity.value && nand < (std::uint64_t{1} << 62)) {
        nand <<= 1;
    }
    FactoryOverprovision factory{Bytes(nand), userCapacity,
                                 percentOf(Bytes(nand) - userCapacity, userCapacity)};
    if (factory.percent > 30.0) {
        return std::nullopt;
    }
    return factory;
}

std::optional<FactoryOverprovision> estimateFactoryOverprovision(const device::Device& device) {
    using device::Bus;
    switch (device.bus) {
    case Bus::Nvme:
    case Bus::Sata:
    case Bus::Scsi:
    case Bus::Usb:
    case Bus::Mmc:
        break;
    default:
        return std::nullopt;
    }
    if (device.rotational) {
        return std::nullopt;
    }
    return factoryOverprovisionFor(device.size);
}

int lastPartitionIndex(const device::Device& device) {
    int last = -1;
    for (std::size_t i = 0; i < device.partitions.size(); ++i) {
        const auto& partition = device.partitions[i];
        if (last < 0 || (partition.start + partition.size).value >
                            (device.partitions[static_cast<std::size_t>(last)].start +
                             device.partitions[static_cast<std::size_t>(last)].size)
                                .value) {
            last = static_cast<int>(i);
        }
    }
    return last;
}

Bytes safetyMargin(const FilesystemUsage& usage) {
    if (usage.minimumExact) {
        return Bytes(0);
    }
    return std::max(Bytes::mib(8), Bytes(usage.minimumSize.value / 10));
}

Expected<Plan> plan(const device::Device& device, const std::optional<FilesystemUsage>& usage,
                    double sparePercent, const PlanOptions& options) {
    if (!(sparePercent >= 0.0 && sparePercent <= kMaximumSparePercent)) {
        return fail(ErrorCode::InvalidArgument, fmt::format("spare area must be 0–{} %, not {}",
                                                            kMaximumSparePercent, sparePercent));
    }
    Plan result;
    result.devicePath = device.path;
    result.diskSize = device.size;
    result.factory = estimateFactoryOverprovision(device);
    result.requestedPercent = sparePercent;
    result.requestedSpare = Bytes(static_cast<std::uint64_t>(
        std::ceil(static_cast<double>(device.size.value) * sparePercent / 100.0)));
    result.alignment = kPartitionAlignment;
    if (device.discardGranularity.value > 0) {
        result.alignment =
            Bytes(std::lcm(kPartitionAlignment.value, device.discardGranularity.value));
    }
    result.usage = usage;

    auto refuse = [&result](std::string reason) { result.refusals.push_back(std::move(reason)); };

    if (device.holdsRootFilesystem()) {
        refuse(trText("SpareArea",
                      "{} holds the running system (\"/\" is mounted from it): boot from "
                      "another system, e.g. a live USB stick, to change its partitions")
                   .format(device.path));
    }
    if (device.readOnly) {
        refuse(trText("SpareArea", "{} is read-only").format(device.path));
    }
    if (device.partitionTableType != "gpt" && device.partitionTableType != "dos") {
        refuse(device.partitionTableType.empty()
                   ? trText("SpareArea",
                            "{} has no partition table: spare area is made by shrinking "
                            "the last partition")
                         .format(device.path)
                   : trText("SpareArea",
                            "{} has a \"{}\" partition table; only GPT and MBR are supported")
                         .format(device.path, device.partitionTableType));
    }
    result.partitionIndex = lastPartitionIndex(device);
    if (result.partitionIndex < 0) {
        if (device.partitionTableType == "gpt" || device.partitionTableType == "dos") {
            refuse(trText("SpareArea", "{} has no partitions: all of it is unallocated already")
                       .format(device.path));
        }
        return result;
    }
    const auto& partition = device.partitions[static_cast<std::size_t>(result.partitionIndex)];
    result.partitionNumber = partition.number;
    result.partitionPath = partition.path;
    result.filesystemType = partition.filesystem ? partition.filesystem->type : "";
    if (!partition.mounts.empty()) {
        result.mountPoint = partition.mounts.front().mountPoint;
    }
    result.partitionStart = partition.start;
    result.oldPartitionSize = partition.size;
    const Bytes oldEnd = partition.start + partition.size;
    result.currentSpare = device.size.value > oldEnd.value ? device.size - oldEnd : Bytes(0);
    // Up to the alignment at the end is the GPT backup area and rounding, not spare.
    if (result.currentSpare <= kPartitionAlignment) {
        result.currentSpare = Bytes(0);
    }
    result.currentSparePercent = percentOf(result.currentSpare, device.size);

    const std::uint64_t usableEnd = lastUsableEnd(device).value;
    const std::uint64_t wantedEnd = device.size.value > result.requestedSpare.value
                                        ? device.size.value - result.requestedSpare.value
                                        : 0;
    const std::uint64_t newEnd = alignDown(std::min(usableEnd, wantedEnd), result.alignment.value);
    if (newEnd <= partition.start.value + kPartitionAlignment.value) {
        refuse(trText("SpareArea", "{} % spare leaves no room for {}")
                   .format(sparePercent, partition.path));
        return result;
    }
    result.newPartitionSize = Bytes(newEnd) - partition.start;
    result.newSpare = device.size - Bytes(newEnd);
    if (newEnd < oldEnd.value) {
        result.direction = Direction::Shrink;
        result.changedStart = Bytes(newEnd);
        result.changedLength = oldEnd - Bytes(newEnd);
    } else if (newEnd > oldEnd.value) {
        result.direction = Direction::Grow;
        result.changedStart = oldEnd;
        result.changedLength = Bytes(newEnd) - oldEnd;
    } else {
        result.newPartitionSize = partition.size;
    }

    if (auto reason = unsupportedReason(partition); !reason.empty()) {
        refuse(reason);
    }
    const bool mounted = !partition.mounts.empty();
    if (result.direction == Direction::Shrink && mounted &&
        isExtFilesystem(result.filesystemType)) {
        result.unmountOffered = partition.mounts.size() == 1 && !device.holdsRootFilesystem();
        result.mountUsers = options.mountUsers;
        if (!options.unmountAndRemount || !result.unmountOffered) {
            refuse(
                trText("SpareArea", "{} is mounted at {}: {} shrinks only unmounted; {} (growing "
                                    "works while mounted)")
                    .format(partition.path, result.mountPoint, result.filesystemType,
                            (result.unmountOffered
                                 ? trText("SpareArea",
                                          "choose \"Unmount, shrink and remount\" (op apply "
                                          "--unmount), or unmount it yourself")
                                       .str()
                                 : trText("SpareArea",
                                          "it is mounted in {} places: unmount it and SSD Keeper "
                                          "will shrink it")
                                       .format(partition.mounts.size()))));
        } else if (!options.mountUsers.empty()) {
            std::string users;
            for (const auto& user : options.mountUsers) {
                users += (users.empty() ? "" : ", ") + user;
            }
            refuse(
                trText(
                    "SpareArea",
                    "{} ({}) is in use and cannot be unmounted for the shrink: close what holds it "
                    "open ({})")
                    .format(partition.path, result.mountPoint, users));
        } else {
            result.unmountAndRemount = true;
            result.notes.push_back(
                trText(
                    "SpareArea",
                    "{} is unmounted from {} for the shrink and mounted there again with the same "
                    "options; a crash in between is finished or rolled back "
                    "from the journal")
                    .format(partition.path, result.mountPoint));
        }
    }
    if (result.direction == Direction::Shrink && mounted && result.filesystemType == "ntfs") {
        refuse(trText("SpareArea", "{} is mounted at {}: ntfs shrinks only unmounted; unmount it "
                                   "and SSD Keeper will shrink it")
                   .format(partition.path, result.mountPoint));
    }
    if (result.direction == Direction::Grow && mounted && result.filesystemType == "ntfs") {
        refuse(
            trText("SpareArea",
                   "{} is mounted at {}: ntfsresize works only on unmounted NTFS; unmount it first")
                .format(partition.path, result.mountPoint));
    }
    if (result.direction != Direction::None && result.filesystemType == "btrfs" && !mounted) {
        refuse(trText("SpareArea", "{} holds btrfs, which resizes only while mounted: mount it "
                                   "first")
                   .format(partition.path));
    }
    if (result.direction == Direction::None) {
        refuse(trText("SpareArea", "{} already leaves {} unallocated at the end: nothing to change")
                   .format(device.path, formatIec(result.currentSpare)));
    }
    if (!usage && result.refusals.empty()) {
        refuse(
            trText("SpareArea", "the used space of {} could not be read").format(partition.path));
    }
    if (usage && result.direction == Direction::Shrink) {
        result.margin = safetyMargin(*usage);
        result.requiredSize = usage->minimumSize + result.margin;
        if (result.requiredSize > result.newPartitionSize) {
            refuse(trText("SpareArea", "{} is too full for {} % spare: it would get {}, but {}; {}")
                       .format(partition.path, sparePercent, formatIec(result.newPartitionSize),
                               describeMinimum(*usage, result.margin), describeInUse(*usage)));
        } else if (usage->used.value > result.newPartitionSize.value / 10 * 9) {
            result.notes.push_back(
                trText("SpareArea", "{} will be {:.0f} % full afterwards ({} in use in {})")
                    .format(partition.path, percentOf(usage->used, result.newPartitionSize),
                            formatIec(usage->used), formatIec(result.newPartitionSize)));
        }
    }
    if (!device.supportsDiscard()) {
        result.notes.push_back(trText("SpareArea",
                                      "{} does not accept discards (TRIM): the space is "
                                      "left unallocated, but the controller is not told "
                                      "it is free")
                                   .format(device.path));
    }
    if (!result.factory) {
        result.notes.push_back(
            trText("SpareArea", "factory over-provisioning is unknown for this drive").str());
    }
    result.possible = result.refusals.empty();
    return result;
}

std::string_view toString(Direction direction) {
    switch (direction) {
    case Direction::Shrink:
        return "shrink";
    case Direction::Grow:
        return "grow";
    case Direction::None:
        break;
    }
    return "none";
}

std::string Plan::describe() const {
    std::string text;
    if (factory) {
        text += fmt::format("Factory over-provisioning: {:.2f} % (about {} of NAND for {} of "
                            "user capacity).\n",
                            factory->percent, formatIec(factory->rawNand),
                            formatIec(factory->userCapacity));
    }
    text += fmt::format("Spare area now: {} ({:.1f} %) unallocated at the end.\n",
                        formatIec(currentSpare), currentSparePercent);
    if (partitionIndex >= 0 && direction != Direction::None) {
        text += fmt::format("{:.0f} % spare: {} ({}) {} from {} to {}, by {}; filesystem "
                            "{} {}.\n",
                            requestedPercent, partitionPath,
                            filesystemType.empty() ? "no filesystem" : filesystemType,
                            direction == Direction::Shrink ? "shrinks" : "grows",
                            formatIec(oldPartitionSize), formatIec(newPartitionSize),
                            formatIec(changedLength),
                            direction == Direction::Shrink ? "shrinks to" : "grows to",
                            formatIec(newPartitionSize));
        if (usage && direction == Direction::Shrink && requiredSize <= newPartitionSize) {
            text += fmt::format("Data fits: {}; {}; it gets {}.\n", describeMinimum(*usage, margin),
                                describeInUse(*usage), formatIec(newPartitionSize));
        }
        if (direction == Direction::Shrink) {
            text += fmt::format("The freed {} at {} is discarded (TRIM) so the drive can use "
                                "it as spare area; ends aligned to {}.\n",
                                formatIec(changedLength), formatIec(changedStart),
                                formatIec(alignment));
        }
    }
    for (const auto& reason : refusals) {
        text += "Cannot: " + reason + ".\n";
    }
    for (const auto& note : notes) {
        text += "Note: " + note + ".\n";
    }
    return text;
}

Json toJson(const Plan& plan) {
    Json json{{"device", plan.devicePath},
              {"disk_size", plan.diskSize.value},
              {"current_spare", plan.currentSpare.value},
              {"current_spare_percent", plan.currentSparePercent},
              {"requested_percent", plan.requestedPercent},
              {"requested_spare", plan.requestedSpare.value},
              {"alignment", plan.alignment.value},
              {"partition", nullptr},
              {"direction", toString(plan.direction)},
              {"changed_start", plan.changedStart.value},
              {"changed_length", plan.changedLength.value},
              {"new_spare", plan.newSpare.value},
              {"margin", plan.margin.value},
              {"required_size", plan.requiredSize.value},
              {"unmount_offered", plan.unmountOffered},
              {"unmount_and_remount", plan.unmountAndRemount},
              {"mount_users", plan.mountUsers},
              {"possible", plan.possible},
              {"refusals", plan.refusals},
              {"notes", plan.notes},
              {"factory", nullptr},
              {"filesystem_usage", nullptr}};
    if (plan.factory) {
        json["factory"] = Json{{"raw_nand", plan.factory->rawNand.value},
                               {"user_capacity", plan.factory->userCapacity.value},
                               {"percent", plan.factory->percent}};
    }
    if (plan.partitionIndex >= 0) {
        json["partition"] = Json{
            {"number", plan.partitionNumber},         {"path", plan.partitionPath},
            {"filesystem", plan.filesystemType},      {"mount_point", plan.mountPoint},
            {"start", plan.partitionStart.value},     {"old_size", plan.oldPartitionSize.value},
            {"new_size", plan.newPartitionSize.value}};
    }
    if (plan.usage) {
        json["filesystem_usage"] = toJson(*plan.usage);
    }
    return json;
}

} // namespace ssdk::overprovision
