#include "core/device/device_json.h"

namespace ssdk::device {

namespace {

Json toJson(const std::optional<Filesystem>& filesystem) {
    if (!filesystem) {
        return nullptr;
    }
    return Json{
        {"type", filesystem->type}, {"label", filesystem->label}, {"uuid", filesystem->uuid}};
}

Json toJson(const std::vector<Mount>& mounts) {
    Json array = Json::array();
    for (const auto& mount : mounts) {
        array.push_back(Json{{"mount_point", mount.mountPoint},
                             {"fs_type", mount.fsType},
                             {"options", mount.options}});
    }
    return array;
}

Json toJson(const std::vector<Holder>& holders) {
    Json array = Json::array();
    for (const auto& holder : holders) {
        array.push_back(Json{{"kind", toString(holder.kind)},
                             {"name", holder.name},
                             {"display_name", holder.displayName}});
    }
    return array;
}

} // namespace

Json toJson(const Partition& partition) {
    return Json{
        {"name", partition.name},
        {"path", partition.path},
        {"number", partition.number},
        {"start", partition.start.value},
        {"size", partition.size.value},
        {"filesystem", toJson(partition.filesystem)},
        {"partition_uuid", partition.partitionUuid},
        {"partition_label", partition.partitionLabel},
        {"partition_type", partition.partitionType},
        {"read_only", partition.readOnly},
        {"mounts", toJson(partition.mounts)},
        {"holders", toJson(partition.holders)},
    };
}

Json toJson(const Device& device) {
    Json partitions = Json::array();
    for (const auto& partition : device.partitions) {
        partitions.push_back(toJson(partition));
    }
    return Json{
        {"name", device.name},
        {"path", device.path},
        {"devno", device.devno},
        {"bus", toString(device.bus)},
        {"model", device.model},
        {"serial", device.serial},
        {"firmware", device.firmware},
        {"vendor", device.vendor},
        {"wwn", device.wwn},
        {"size", device.size.value},
        {"logical_sector_size", device.logicalSectorSize},
        {"physical_sector_size", device.physicalSectorSize},
        {"rotational", device.rotational},
        {"removable", device.removable},
        {"read_only", device.readOnly},
        {"discard", Json{{"supported", device.supportsDiscard()},
                         {"granularity", device.discardGranularity.value},
                         {"max_bytes", device.discardMaxBytes.value}}},
        {"partition_table", device.partitionTableType},
        {"filesystem", toJson(device.filesystem)},
        {"partitions", std::move(partitions)},
        {"mounts", toJson(device.mounts)},
        {"holders", toJson(device.holders)},
        {"loop_backing_file", device.loopBackingFile},
        {"lab", device.labName ? Json{{"name", *device.labName}} : Json(nullptr)},
        {"system_disk", device.holdsRootFilesystem()},
        {"in_use", device.inUse()},
    };
}

} // namespace ssdk::device
