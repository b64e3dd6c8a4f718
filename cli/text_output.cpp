#include "cli/text_output.h"

#include <algorithm>
#include <fmt/format.h>

namespace ssdk::cli {

using device::Device;
using device::Partition;

namespace {

std::string orDash(const std::string& text) {
    return text.empty() ? "-" : text;
}

// One unit for every size, as the GUI writes it: "466 GiB".
std::string capacity(Bytes size) {
    return formatIec(size);
}

std::string notesFor(const Device& device) {
    std::vector<std::string> notes;
    if (device.labName) {
        notes.push_back("lab drive '" + *device.labName + "'");
    }
    if (device.holdsRootFilesystem()) {
        notes.push_back("system disk");
    } else if (device.inUse()) {
        notes.push_back("in use");
    }
    if (device.removable) {
        notes.push_back("removable");
    }
    if (device.readOnly) {
        notes.push_back("read-only");
    }
    std::string text;
    for (const auto& note : notes) {
        text += (text.empty() ? "" : ", ") + note;
    }
    return orDash(text);
}

std::string joinMounts(const std::vector<device::Mount>& mounts) {
    std::string text;
    for (const auto& mount : mounts) {
        text += (text.empty() ? "" : ", ") + mount.mountPoint;
    }
    return orDash(text);
}

std::string joinHolders(const std::vector<device::Holder>& holders) {
    std::string text;
    for (const auto& holder : holders) {
        text += (text.empty() ? "" : ", ") + holder.displayName + " (" +
                std::string(toString(holder.kind)) + ")";
    }
    return orDash(text);
}

std::string discardText(const Device& device) {
    if (!device.supportsDiscard()) {
        return "not supported";
    }
    return fmt::format("supported (granularity {}, up to {} per request)",
                       formatIec(device.discardGranularity), formatIec(device.discardMaxBytes));
}

} // namespace

std::string formatTable(const std::vector<std::vector<std::string>>& rows) {
    std::vector<std::size_t> widths;
    for (const auto& row : rows) {
        widths.resize(std::max(widths.size(), row.size()));
        for (std::size_t i = 0; i < row.size(); ++i) {
            widths[i] = std::max(widths[i], row[i].size());
        }
    }
    std::string out;
    for (const auto& row : rows) {
        std::string line;
        for (std::size_t i = 0; i < row.size(); ++i) {
            line += i + 1 == row.size() ? row[i] : fmt::format("{:<{}}  ", row[i], widths[i]);
        }
        out += line + '\n';
    }
    return out;
}

std::string formatDeviceTable(const std::vector<Device>& devices) {
    if (devices.empty()) {
        return "No block devices found.\n";
    }
    std::vector<std::vector<std::string>> rows{
        {"DEVICE", "BUS", "SIZE", "MODEL", "SERIAL", "FIRMWARE", "TRIM", "NOTES"}};
    for (const auto& device : devices) {
        rows.push_back({device.path, std::string(toString(device.bus)), capacity(device.size),
                        orDash(device.model), orDash(device.serial), orDash(device.firmware),
                        device.supportsDiscard() ? "yes" : "no", notesFor(device)});
    }
    return formatTable(rows);
}

std::string formatDeviceDetails(const Device& device) {
    std::vector<std::vector<std::string>> fields{
        {"Device:", device.path + " (" + device.devno + ")"},
        {"Bus:", std::string(toString(device.bus))},
        {"Model:", orDash(device.model)},
        {"Vendor:", orDash(device.vendor)},
        {"Serial:", orDash(device.serial)},
        {"Firmware:", orDash(device.firmware)},
        {"WWN:", orDash(device.wwn)},
        {"Capacity:", capacity(device.size)},
        {"Sectors:", fmt::format("{} B logical, {} B physical", device.logicalSectorSize,
                                 device.physicalSectorSize)},
        {"Media:", device.rotational ? "rotational" : "non-rotational (solid state)"},
        {"TRIM/discard:", discardText(device)},
        {"Partition table:", orDash(device.partitionTableType)},
        {"Notes:", notesFor(device)},
    };
    if (!device.loopBackingFile.empty()) {
        fields.push_back({"Backing file:", device.loopBackingFile});
    }
    if (device.filesystem) {
        fields.push_back({"Filesystem:", device.filesystem->type + " " + device.filesystem->label});
    }
    if (!device.mounts.empty()) {
        fields.push_back({"Mounted at:", joinMounts(device.mounts)});
    }
    if (!device.holders.empty()) {
        fields.push_back({"Held by:", joinHolders(device.holders)});
    }
    std::string out = formatTable(fields);
    if (device.partitions.empty()) {
        return out + "\nNo partitions.\n";
    }
    std::vector<std::vector<std::string>> rows{
        {"#", "PARTITION", "START", "SIZE", "FILESYSTEM", "LABEL", "MOUNTED AT", "HELD BY"}};
    for (const Partition& part : device.partitions) {
        rows.push_back({std::to_string(part.number), part.path, formatIec(part.start),
                        formatIec(part.size), part.filesystem ? part.filesystem->type : "-",
                        part.filesystem ? orDash(part.filesystem->label) : "-",
                        joinMounts(part.mounts), joinHolders(part.holders)});
    }
    return out + "\n" + formatTable(rows);
}

} // namespace ssdk::cli
