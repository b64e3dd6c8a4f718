#include "core/maintenance/trim/audit.h"

#include <fmt/format.h>

namespace ssdk::maintenance::trim {

namespace {

constexpr std::int64_t kRecentTrimSeconds = 8 * 24 * 3600; // the timer runs weekly

bool hasOption(const std::string& options, std::string_view option) {
    std::size_t pos = 0;
    while (pos <= options.size()) {
        const auto comma = options.find(',', pos);
        const auto end = comma == std::string::npos ? options.size() : comma;
        if (std::string_view(options).substr(pos, end - pos) == option) {
            return true;
        }
        if (comma == std::string::npos) {
            break;
        }
        pos = comma + 1;
    }
    return false;
}

std::string_view layerName(BlockLayer::Kind kind) {
    switch (kind) {
    case BlockLayer::Kind::Partition:
        return "partition";
    case BlockLayer::Kind::Loop:
        return "loop";
    case BlockLayer::Kind::DmCrypt:
        return "dm-crypt";
    case BlockLayer::Kind::Lvm:
        return "lvm";
    case BlockLayer::Kind::DmOther:
        return "dm";
    case BlockLayer::Kind::Md:
        return "md";
    case BlockLayer::Kind::Disk:
        return "queue";
    }
    return "queue";
}

AuditLayer auditBlockLayer(const BlockLayer& layer) {
    AuditLayer out{std::string(layerName(layer.kind)), layer.name, LayerStatus::Passes, {}};
    const bool accepts = layer.discardMaxBytes.value > 0 && layer.discardGranularity.value > 0;
    const std::string limits =
        fmt::format("discard_granularity {}, discard_max_bytes {}", layer.discardGranularity.value,
                    layer.discardMaxBytes.value);
    switch (layer.kind) {
    case BlockLayer::Kind::DmCrypt:
        out.detail = accepts ? fmt::format("dm-crypt '{}' passes discards (allow_discards is "
                                           "set); {}",
                                           layer.dmName, limits)
                             : fmt::format("dm-crypt '{}' drops discards: it was opened without "
                                           "allow_discards (cryptsetup --allow-discards, or "
                                           "'discard' in /etc/crypttab)",
                                           layer.dmName);
        break;
    case BlockLayer::Kind::Lvm:
        out.detail = accepts ? fmt::format("LVM volume '{}' passes discards from the filesystem; "
                                           "space freed by lvremove/lvreduce is discarded only "
                                           "with issue_discards = 1 in lvm.conf; {}",
                                           layer.dmName, limits)
                             : fmt::format("LVM volume '{}' does not accept discards (a layer "
                                           "below it refuses them)",
                                           layer.dmName);
        break;
    case BlockLayer::Kind::DmOther:
        out.detail = fmt::format("device-mapper '{}': {}", layer.dmName,
                                 accepts ? limits : "does not accept discards");
        break;
    case BlockLayer::Kind::Md:
        out.detail = accepts ? fmt::format("md {} passes discards; {}", layer.mdLevel, limits)
                             : fmt::format("md {} does not accept discards (a member device "
                                           "refuses them, or raid456 without "
                                           "devices_handle_discard_safely)",
                                           layer.mdLevel);
        break;
    case BlockLayer::Kind::Loop:
        if (!accepts) {
            out.detail = "the loop device does not accept discards (discard_max_bytes is 0)";
        } else if (!filesystemPunchesHoles(layer.loopBackingFsType)) {
            out.status = LayerStatus::Warning;
            out.detail = fmt::format("discards become hole punches in {} on {}, which may not "
                                     "support FALLOC_FL_PUNCH_HOLE: they can fail or be "
                                     "dropped there",
                                     layer.loopBackingFile, layer.loopBackingFsType);
            return out;
        } else {
            out.detail = fmt::format("discards become hole punches in {} ({}); {}",
                                     layer.loopBackingFile, layer.loopBackingFsType, limits);
        }
        break;
    case BlockLayer::Kind::Partition:
        out.detail = accepts ? limits : "the partition's queue refuses discards";
        break;
    case BlockLayer::Kind::Disk:
        if (accepts) {
            out.detail = limits;
        } else if (layer.discardMaxHwBytes.value > 0) {
            out.detail = fmt::format("discards are switched off in the kernel queue "
                                     "(discard_max_bytes was set to 0; the hardware allows {})",
                                     layer.discardMaxHwBytes.value);
        } else {
            out.detail = "the kernel queue does not accept discards (discard_max_hw_bytes 0: "
                         "the driver found no TRIM/UNMAP/deallocate support)";
        }
        break;
    }
    if (!accepts) {
        out.status = LayerStatus::Blocks;
    }
    return out;
}

void auditDrive(const DriveFacts& drive, std::vector<AuditLayer>& layers, TrimAudit& audit) {
    if (drive.bus == "usb") {
        AuditLayer bridge{"usb-bridge", "", LayerStatus::Info, {}};
        if (drive.provisioningMode == "full" || drive.provisioningMode == "disabled") {
            bridge.status = LayerStatus::Blocks;
            bridge.detail = fmt::format(
                "the USB bridge reports no UNMAP support (provisioning_mode {}): the kernel "
                "sends no discards; some bridges do translate UNMAP after "
                "`echo unmap > .../scsi_disk/*/provisioning_mode`",
                *drive.provisioningMode);
        } else if (drive.provisioningMode) {
            bridge.status = LayerStatus::Passes;
            bridge.detail = "the USB bridge translates discards (provisioning_mode " +
                            *drive.provisioningMode + ")";
        } else {
            bridge.detail = "a USB bridge sits between the host and the drive; whether it "
                            "translates UNMAP to TRIM shows in the queue limits";
        }
        layers.push_back(bridge);
    }
    if (drive.libataTrimMode) {
        AuditLayer libata{"libata", "", LayerStatus::Passes, {}};
        const std::string& mode = *drive.libataTrimMode;
        if (mode == "unsupported") {
            libata.status = LayerStatus::Blocks;
            libata.detail = "libata does not send TRIM to this drive";
        } else if (mode == "unqueued") {
            libata.status = LayerStatus::Info;
            libata.detail = "TRIM is sent unqueued (non-NCQ): the drive lacks queued TRIM or "
                            "a libata quirk (NO_NCQ_TRIM) turned it off for this model";
        } else {
            libata.detail = "libata sends " + mode + " TRIM";
        }
        layers.push_back(libata);
    }
    AuditLayer layer{"drive", "", LayerStatus::Info, {}};
    if (drive.ata) {
        const AtaIdentify& ata = *drive.ata;
        layer.name = ata.model;
        layer.status = ata.trimSupported ? LayerStatus::Passes : LayerStatus::Blocks;
        if (ata.deterministicTrim && ata.zeroAfterTrim) {
            audit.readAfterTrim = ReadAfterTrim::Zeros;
        } else if (ata.deterministicTrim) {
            audit.readAfterTrim = ReadAfterTrim::Deterministic;
        }
        layer.detail =
            fmt::format("ATA DATA SET MANAGEMENT TRIM {} (IDENTIFY word 169); "
                        "deterministic read after TRIM (DRAT, word 69 bit 14): {}; "
                        "zeros after TRIM (RZAT, word 69 bit 5): {}",
                        ata.trimSupported ? "supported" : "NOT supported",
                        ata.deterministicTrim ? "yes" : "no", ata.zeroAfterTrim ? "yes" : "no");
    } else if (drive.nvmeController) {
        layer.name = drive.nvmeController->model;
        layer.status =
            drive.nvmeController->dsmSupported ? LayerStatus::Passes : LayerStatus::Blocks;
        std::string reads = "not reported";
        if (drive.nvmeNamespace) {
            if (drive.nvmeNamespace->deallocateReads == 1) {
                reads = "zeros";
                audit.readAfterTrim = ReadAfterTrim::Zeros;
            } else if (drive.nvmeNamespace->deallocateReads == 2) {
                reads = "ones (0xFF)";
                audit.readAfterTrim = ReadAfterTrim::Ones;
            }
        }
        layer.detail =
            fmt::format("NVMe Dataset Management (ONCS bit 2) {}; deallocated "
                        "blocks read as {} (DLFEAT)",
                        drive.nvmeController->dsmSupported ? "supported" : "NOT supported", reads);
    } else if (drive.scsiProvisioning) {
        const ScsiProvisioning& p = *drive.scsiProvisioning;
        layer.status =
            (p.unmap || p.writeSame16 || p.writeSame10) ? LayerStatus::Passes : LayerStatus::Blocks;
        if (p.readZeroes == 1) {
            audit.readAfterTrim = ReadAfterTrim::Zeros;
        }
        layer.detail = fmt::format("SCSI logical block provisioning: UNMAP (LBPU) {}, WRITE "
                                   "SAME(16) with UNMAP (LBPWS) {}; unmapped blocks read as "
                                   "zeros (LBPRZ): {}",
                                   p.unmap ? "yes" : "no", p.writeSame16 ? "yes" : "no",
                                   p.readZeroes == 1 ? "yes" : "no");
    } else if (drive.bus == "loop") {
        layer.name = "loop";
        layer.status = LayerStatus::Passes;
        audit.readAfterTrim = ReadAfterTrim::Zeros;
        layer.detail = "a lab drive: a discarded range becomes a hole in the image, which "
                       "reads back as zeros";
    } else {
        layer.detail = "the drive's own TRIM capability could not be read (needs root for "
                       "identify data, or the bus has none); the queue limits are what the "
                       "driver found";
        layers.push_back(layer);
        return;
    }
    layers.push_back(layer);
}

} // namespace

std::string_view toString(LayerStatus status) {
    switch (status) {
    case LayerStatus::Passes:
        return "passes";
    case LayerStatus::Blocks:
        return "blocks";
    case LayerStatus::Warning:
        return "warning";
    case LayerStatus::Info:
        return "info";
    }
    return "info";
}

std::string_view toString(ReadAfterTrim value) {
    switch (value) {
    case ReadAfterTrim::Zeros:
        return "zeros";
    case ReadAfterTrim::Ones:
        return "ones";
    case ReadAfterTrim::Deterministic:
        return "deterministic";
    case ReadAfterTrim::Unspecified:
        return "unspecified";
    }
    return "unspecified";
}

bool filesystemPunchesHoles(const std::string& fsType) {
    for (const char* known : {"ext4", "ext3", "ext2", "xfs", "btrfs", "tmpfs", "f2fs", "ocfs2",
                              "gfs2", "zfs", "bcachefs", "nfs4", "ceph"}) {
        if (fsType == known) {
            return true;
        }
    }
    return false;
}

TrimAudit auditTrim(const StackSnapshot& snapshot) {
    TrimAudit audit;
    audit.target = snapshot.target;
    if (snapshot.filesystem) {
        const FilesystemFacts& fs = *snapshot.filesystem;
        AuditLayer layer{"filesystem", fs.fsType + " at " + fs.mountPoint, LayerStatus::Info, {}};
        const bool online = hasOption(fs.options, "discard") ||
                            hasOption(fs.options, "discard=async") ||
                            hasOption(fs.options, "discard=sync");
        if (fs.fsType == "fuseblk" || fs.fsType == "ntfs-3g" || fs.fsType == "fuse") {
            layer.status = LayerStatus::Blocks;
            layer.detail = "a FUSE filesystem (e.g. ntfs-3g) does not implement FITRIM or "
                           "online discard: freed space is never trimmed";
        } else if (online) {
            layer.status = LayerStatus::Passes;
            layer.detail = "mounted with online discard: freed blocks are trimmed as they are "
                           "freed";
            audit.filesystemDiscards = true;
        } else {
            layer.status = LayerStatus::Warning;
            layer.detail = "no online discard: freed space is trimmed only by fstrim (manual "
                           "or fstrim.timer)";
        }
        audit.layers.push_back(layer);
        AuditLayer schedule{"schedule", "fstrim.timer", LayerStatus::Info, {}};
        const TimerFacts& timer = snapshot.timer;
        if (!timer.available) {
            schedule.detail = "fstrim.timer status unavailable: " + timer.unavailableReason;
        } else if (!timer.enabled) {
            schedule.status = online ? LayerStatus::Info : LayerStatus::Warning;
            schedule.detail = "fstrim.timer is not enabled";
        } else if (timer.lastTriggerEpochSeconds &&
                   snapshot.nowEpochSeconds - *timer.lastTriggerEpochSeconds <=
                       kRecentTrimSeconds) {
            schedule.status = LayerStatus::Passes;
            schedule.detail =
                fmt::format("fstrim.timer is enabled and ran {} hours ago",
                            (snapshot.nowEpochSeconds - *timer.lastTriggerEpochSeconds) / 3600);
            audit.filesystemDiscards =
                audit.filesystemDiscards || layer.status != LayerStatus::Blocks;
        } else {
            schedule.status = LayerStatus::Warning;
            schedule.detail = "fstrim.timer is enabled but has not run in the last 8 days";
        }
        audit.layers.push_back(schedule);
    }
    bool blocked = false;
    for (const BlockLayer& layer : snapshot.layers) {
        AuditLayer out = auditBlockLayer(layer);
        blocked = blocked || out.status == LayerStatus::Blocks;
        audit.layers.push_back(std::move(out));
    }
    std::vector<AuditLayer> driveLayers;
    auditDrive(snapshot.drive, driveLayers, audit);
    for (AuditLayer& layer : driveLayers) {
        blocked = blocked || layer.status == LayerStatus::Blocks;
        audit.layers.push_back(std::move(layer));
    }
    audit.reachesDrive = !blocked;
    const AuditLayer* stopper = nullptr;
    for (const AuditLayer& layer : audit.layers) {
        if (layer.status == LayerStatus::Blocks && layer.layer != "filesystem") {
            stopper = &layer;
            break;
        }
    }
    if (stopper != nullptr) {
        audit.verdict = fmt::format("Discards do not reach the drive: stopped at the {} layer "
                                    "{}.",
                                    stopper->layer, stopper->name);
    } else if (!snapshot.filesystem) {
        audit.verdict = "Discards issued on this device reach the drive.";
    } else if (audit.filesystemDiscards) {
        audit.verdict = "Discards reach the drive, and the filesystem issues them.";
    } else {
        audit.verdict = "Discards could reach the drive, but nothing issues them: mount with "
                        "discard or enable fstrim.timer.";
    }
    return audit;
}

Json toJson(const TrimAudit& audit) {
    Json layers = Json::array();
    for (const AuditLayer& layer : audit.layers) {
        layers.push_back(Json{{"layer", layer.layer},
                              {"name", layer.name},
                              {"status", std::string(toString(layer.status))},
                              {"detail", layer.detail}});
    }
    return Json{{"target", audit.target},
                {"reaches_drive", audit.reachesDrive},
                {"filesystem_discards", audit.filesystemDiscards},
                {"read_after_trim", std::string(toString(audit.readAfterTrim))},
                {"verdict", audit.verdict},
                {"layers", std::move(layers)}};
}

} // namespace ssdk::maintenance::trim
