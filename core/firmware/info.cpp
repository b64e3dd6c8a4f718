#include "core/firmware/info.h"

#include <filesystem>
#include <limits>

#include "core/firmware/nvme_update.h"
#include "core/firmware/verbs.h"
#include "core/maintenance/identify.h"
#include "core/smart/drivedb.h"

namespace ssdk::firmware {

namespace fs = std::filesystem;

namespace {

// "/sys/devices/pci0000:00/0000:00:1f.2/ata3/host2/…" → "3"
std::optional<std::string> ataPortOf(const std::string& sysPath) {
    const auto pos = sysPath.find("/ata");
    if (pos == std::string::npos) {
        return std::nullopt;
    }
    auto end = pos + 4;
    while (end < sysPath.size() && sysPath[end] >= '0' && sysPath[end] <= '9') {
        ++end;
    }
    if (end == pos + 4) {
        return std::nullopt;
    }
    return sysPath.substr(pos + 4, end - pos - 4);
}

Json capsJson(const NvmeFirmwareCaps& caps) {
    return Json{{"download_commit_supported", caps.downloadCommitSupported},
                {"slots", caps.slotCount},
                {"slot1_read_only", caps.slot1ReadOnly},
                {"activation_without_reset", caps.activationWithoutReset},
                {"fwug", caps.fwugRaw},
                {"chunk_bytes", caps.chunkBytes()},
                {"granularity_stated", caps.granularityStated()},
                {"max_activation_time_ms", std::uint32_t{caps.maxActivationTime100ms} * 100}};
}

Json ataJson(const AtaMicrocode& mc) {
    Json json{{"supported", mc.supported},
              {"enabled", mc.enabled},
              {"dma", mc.dmaSupported},
              {"segmented", mc.segmentedSupported},
              {"modes", mc.modes()}};
    json["min_blocks"] = mc.minBlocks ? Json(*mc.minBlocks) : Json();
    json["max_blocks"] = mc.maxBlocks ? Json(*mc.maxBlocks) : Json();
    return json;
}

NvmeFirmwareCaps readCaps(const ResultReader& reader) {
    constexpr std::uint64_t kMaxByte = std::numeric_limits<std::uint8_t>::max();
    constexpr std::uint64_t kMaxActivationMs = std::uint64_t{0xFFFF} * 100;
    NvmeFirmwareCaps caps;
    caps.downloadCommitSupported = reader.boolean("download_commit_supported");
    caps.slotCount = static_cast<std::uint8_t>(reader.number("slots", kMaxByte));
    caps.slot1ReadOnly = reader.boolean("slot1_read_only");
    caps.activationWithoutReset = reader.boolean("activation_without_reset");
    caps.fwugRaw = static_cast<std::uint8_t>(reader.number("fwug", kMaxByte));
    reader.derived("chunk_bytes", caps.chunkBytes(), "'fwug'");
    reader.derived("granularity_stated", caps.granularityStated(), "'fwug'");
    const auto activationMs = reader.number("max_activation_time_ms", kMaxActivationMs);
    if (activationMs % 100 != 0) {
        reader.refuse("max_activation_time_ms", "is not a multiple of 100 ms (MTFA's unit)");
    }
    caps.maxActivationTime100ms = static_cast<std::uint16_t>(activationMs / 100);
    return caps;
}

AtaMicrocode readAta(const ResultReader& reader) {
    constexpr std::uint64_t kMaxWord = std::numeric_limits<std::uint16_t>::max();
    AtaMicrocode mc;
    mc.supported = reader.boolean("supported");
    mc.enabled = reader.boolean("enabled");
    mc.dmaSupported = reader.boolean("dma");
    mc.segmentedSupported = reader.boolean("segmented");
    if (auto blocks = reader.nullableNumber("min_blocks", kMaxWord)) {
        mc.minBlocks = static_cast<std::uint16_t>(*blocks);
    }
    if (auto blocks = reader.nullableNumber("max_blocks", kMaxWord)) {
        mc.maxBlocks = static_cast<std::uint16_t>(*blocks);
    }
    reader.derived("modes", mc.modes(), "its other fields");
    return mc;
}

// device::toString's name of a bus, back.
std::optional<device::Bus> busOf(std::string_view name) {
    for (int i = 0; i <= static_cast<int>(device::Bus::Unknown); ++i) {
        const auto bus = static_cast<device::Bus>(i);
        if (device::toString(bus) == name) {
            return bus;
        }
    }
    return std::nullopt;
}

} // namespace

std::optional<std::vector<std::uint8_t>> readAtaIdentify(const SysfsRoot& root,
                                                         const device::Device& device) {
    std::error_code ec;
    const fs::path resolved = fs::canonical(root.sys() / "block" / device.name, ec);
    if (ec) {
        return std::nullopt;
    }
    const auto port = ataPortOf(resolved.string());
    if (!port) {
        return std::nullopt;
    }
    const auto text =
        root.tryString(root.sys() / "class" / "ata_device" / ("dev" + *port + ".0") / "id");
    if (!text) {
        return std::nullopt;
    }
    auto bytes = maintenance::parseAtaIdHexText(*text);
    if (!bytes) {
        return std::nullopt;
    }
    return std::vector<std::uint8_t>(bytes->begin(), bytes->end());
}

FirmwareInfo readFirmwareInfo(const device::Device& device, const SysfsRoot& root,
                              const InfoSources& sources) {
    FirmwareInfo info;
    info.device = device;
    DriveFirmwareFacts& facts = info.facts;
    facts.device = &info.device;
    facts.model = device.model;
    facts.serial = device.serial;
    facts.revision = device.firmware;
    if (device.bus == device::Bus::Nvme) {
        if (!sources.nvme) {
            facts.nvmeError = "NVMe admin commands are not available here";
        } else if (auto admin = sources.nvme(device.path); !admin) {
            facts.nvmeError = admin.error().describe();
        } else {
            if (auto caps = readFirmwareCaps(**admin)) {
                facts.nvme = *caps;
                if (!caps->firmware.empty()) {
                    facts.revision = caps->firmware;
                }
                if (!caps->model.empty()) {
                    facts.model = caps->model;
                }
                if (!caps->serial.empty()) {
                    facts.serial = caps->serial;
                }
            } else {
                facts.nvmeError = caps.error().describe();
            }
            if (auto slots = readSlotLog(**admin)) {
                facts.slotLog = *slots;
            } else if (facts.nvmeError.empty()) {
                facts.nvmeError = slots.error().describe();
            }
        }
    } else if (device.bus == device::Bus::Sata) {
        if (auto identify = readAtaIdentify(root, device)) {
            // The SCSI model in sysfs is cut at 16 characters: IDENTIFY has the whole one,
            // which the known-issue patterns need.
            if (auto id = maintenance::parseAtaIdentify(*identify)) {
                if (!id->model.empty()) {
                    facts.model = id->model;
                }
                if (!id->serial.empty()) {
                    facts.serial = id->serial;
                }
                if (!id->firmware.empty()) {
                    facts.revision = id->firmware;
                }
            }
            if (auto mc = parseAtaMicrocode(*identify)) {
                facts.ata = *mc;
            } else {
                info.ataError = mc.error().describe();
            }
        } else {
            info.ataError = "libata's IDENTIFY data (/sys/class/ata_device/*/id) is not available";
        }
    }
    if (sources.catalog != nullptr) {
        info.knownIssues =
            findKnownIssues(*sources.catalog, sources.driveDb, facts.model, facts.revision);
    }
    info.paths = probeAllPaths(facts, sources.fwupd);
    return info;
}

FirmwareInfo readFirmwareInfo(const device::Device& device) {
    const auto fwupd = systemFwupdService();
    std::string catalogError;
    auto catalog = KnownIssueCatalog::load(defaultCatalogPath());
    if (!catalog) {
        catalogError = catalog.error().describe();
    }
    auto db = smart::DriveDatabase::load();
    if (!db) {
        catalogError += (catalogError.empty() ? "" : "; ") + db.error().describe();
    }
    InfoSources sources;
    sources.nvme = maintenance::transport::openNvmeAdmin;
    sources.fwupd = fwupd.get();
    sources.catalog = catalog ? &*catalog : nullptr;
    sources.driveDb = db ? &*db : nullptr;
    FirmwareInfo info = readFirmwareInfo(device, SysfsRoot(), sources);
    info.catalogError = catalogError;
    return info;
}

Json toJson(const FirmwareInfo& info) {
    const DriveFirmwareFacts& facts = info.facts;
    Json json{{"device", info.device.path}, {"bus", std::string(device::toString(info.device.bus))},
              {"model", facts.model},       {"serial", facts.serial},
              {"revision", facts.revision}, {"nvme_error", facts.nvmeError},
              {"ata_error", info.ataError}, {"catalog_error", info.catalogError}};
    json["nvme"] = facts.nvme ? capsJson(*facts.nvme) : Json();
    json["slot_log"] =
        facts.slotLog ? toJson(*facts.slotLog, facts.nvme ? &*facts.nvme : nullptr) : Json();
    json["ata_microcode"] = facts.ata ? ataJson(*facts.ata) : Json();
    Json issues = Json::array();
    for (const auto& finding : info.knownIssues) {
        issues.push_back(toJson(finding));
    }
    json["known_issues"] = issues;
    json["health_reasons"] = healthReasons(info.knownIssues);
    Json paths = Json::array();
    for (const auto& path : info.paths) {
        paths.push_back(toJson(path));
    }
    json["update_paths"] = paths;
    return json;
}

Expected<FirmwareInfo> firmwareInfoFromJson(const Json& json) {
    const ResultReader reader(json, "the firmware.info result");
    FirmwareInfo info;
    DriveFirmwareFacts& facts = info.facts;
    info.device.path = reader.string("device");
    if (auto bus = busOf(reader.string("bus"))) {
        info.device.bus = *bus;
    } else {
        reader.refuse("bus", "is not a bus name");
    }
    facts.model = reader.string("model");
    facts.serial = reader.string("serial");
    facts.revision = reader.string("revision");
    facts.nvmeError = reader.string("nvme_error");
    info.ataError = reader.string("ata_error");
    info.catalogError = reader.string("catalog_error");
    if (auto nvme = reader.nullableObject("nvme")) {
        facts.nvme = readCaps(*nvme);
    }
    if (auto log = reader.nullableObject("slot_log")) {
        facts.slotLog = readSlotLog(*log, facts.nvme ? &*facts.nvme : nullptr);
    }
    if (auto ata = reader.nullableObject("ata_microcode")) {
        facts.ata = readAta(*ata);
    }
    for (const auto& issue : reader.objects("known_issues")) {
        info.knownIssues.push_back(readFinding(issue));
    }
    reader.derived("health_reasons", healthReasons(info.knownIssues), "its known issues");
    for (const auto& path : reader.objects("update_paths")) {
        info.paths.push_back(readPathStatus(path));
    }
    return reader.finish(std::move(info));
}

} // namespace ssdk::firmware
