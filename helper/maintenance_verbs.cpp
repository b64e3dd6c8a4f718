#include "helper/maintenance_verbs.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <ctime>
#include <fmt/format.h>

#include "core/base/sysfs_root.h"
#include "core/base/timestamp.h"
#include "core/device/drive_key.h"
#include "core/device/mountinfo.h"
#include "core/maintenance/erase/guards.h"
#include "core/maintenance/erase/methods.h"
#include "core/maintenance/erase/unfreeze.h"
#include "core/maintenance/trim/audit.h"
#include "core/maintenance/trim/format_verify.h"
#include "core/maintenance/trim/fstrim.h"
#include "core/maintenance/trim/stack.h"
#include "core/maintenance/trim/verify.h"
#include "helper/validation.h"

namespace ssdk::helper {

namespace {

namespace trim = maintenance::trim;
namespace erase = maintenance::erase;

void progressEvent(const VerbEvents& events, double fraction, const std::string& text) {
    events("progress", Json{{"fraction", fraction}, {"text", text}});
}

// A mount point argument: absolute, and exactly a mount point of a block-device filesystem.
Expected<std::string> mountPointArg(const Json& args, std::string_view key) {
    auto path = stringArg(args, key, kMaxPathLength);
    if (!path) {
        return path;
    }
    if (!path->starts_with('/')) {
        return fail(ErrorCode::InvalidArgument, "'" + *path + "' is not an absolute path");
    }
    return path;
}

bool isMountPoint(const std::string& path) {
    const auto text = SysfsRoot().tryString("/proc/self/mountinfo");
    if (!text) {
        return false;
    }
    return std::ranges::any_of(device::parseMountInfo(*text),
                               [&path](const auto& mount) { return mount.mountPoint == path; });
}

trim::StackOptions liveStackOptions(ProcessRunner& runner) {
    trim::StackOptions options;
    options.nvmeIdentify = trim::liveNvmeIdentifyReader();
    options.timer = trim::readTimer(runner, SysfsRoot());
    options.nowEpochSeconds = static_cast<std::int64_t>(std::time(nullptr));
    return options;
}

Expected<Json> auditVerb(ProcessRunner& runner, const Json& args) {
    if (auto keys = requireOnlyKeys(args, {"target"}); !keys) {
        return failed(keys);
    }
    auto target = stringArg(args, "target", kMaxPathLength);
    if (!target) {
        return failed(target);
    }
    std::string resolved = *target;
    if (target->starts_with("/dev/")) {
        auto validated =
            validateBlockDeviceNode(*target, {.allowMounted = true, .allowSystemDisk = true});
        if (!validated) {
            return failed(validated);
        }
        resolved = validated->node; // the node checked, not what the path names by now
    } else if (!isMountPoint(*target)) {
        // Only what /proc/self/mountinfo lists, compared as text: resolving the path as root
        // would tell the caller which files exist in directories they cannot read.
        return fail(ErrorCode::InvalidArgument,
                    "'" + *target +
                        "' is not a mount point; give a mounted filesystem's mount point exactly "
                        "as findmnt shows it, or a /dev path");
    }
    auto stack = trim::snapshotStack(resolved, SysfsRoot(), liveStackOptions(runner));
    if (!stack) {
        return failed(stack);
    }
    return trim::toJson(trim::auditTrim(*stack));
}

Expected<Json> verifyVerb(ProcessRunner& runner, const Json& args, const VerbEvents& events) {
    if (auto keys = requireOnlyKeys(args, {"mount_point", "mode", "blocks"}); !keys) {
        return failed(keys);
    }
    auto mountPoint = mountPointArg(args, "mount_point");
    if (!mountPoint) {
        return failed(mountPoint);
    }
    auto mode = stringArg(args, "mode", 16, "fstrim");
    if (!mode) {
        return failed(mode);
    }
    if (*mode != "fstrim" && *mode != "online") {
        return fail(ErrorCode::InvalidArgument, "argument 'mode' must be \"fstrim\" or \"online\"");
    }
    auto blocks = unsignedArg(args, "blocks", 256);
    if (!blocks) {
        return failed(blocks);
    }
    if (*blocks < 16 || *blocks > 16384) {
        return fail(ErrorCode::InvalidArgument, "argument 'blocks' must be 16 to 16384");
    }
    trim::VerifyOptions options;
    options.markerBlocks = static_cast<std::uint32_t>(*blocks);
    options.mode = *mode == "online" ? trim::TrimMode::OnlineDiscard : trim::TrimMode::Fstrim;
    options.stack = liveStackOptions(runner);
    auto result = trim::verifyTrim(
        *mountPoint, SysfsRoot(), options,
        [&](double fraction, const std::string& step) { progressEvent(events, fraction, step); });
    if (!result) {
        return failed(result);
    }
    return trim::toJson(*result);
}

Expected<Json> fstrimVerb(const Json& args, const VerbEvents& events) {
    if (auto keys = requireOnlyKeys(args, {"mount_point"}); !keys) {
        return failed(keys);
    }
    auto mountPoint = mountPointArg(args, "mount_point");
    if (!mountPoint) {
        return failed(mountPoint);
    }
    auto result = trim::runFstrim(*mountPoint, SysfsRoot(), 16, [&](double fraction, Bytes done) {
        progressEvent(events, fraction, formatIec(done) + " trimmed");
    });
    if (!result) {
        return failed(result);
    }
    return Json{{"mount_point", result->mountPoint},
                {"size", result->filesystemSize.value},
                {"trimmed", result->trimmed.value}};
}

Expected<Json> timerVerb(ProcessRunner& runner, const Json& args) {
    if (auto keys = requireOnlyKeys(args, {"enabled"}); !keys) {
        return failed(keys);
    }
    if (!args.contains("enabled") || !args["enabled"].is_boolean()) {
        return fail(ErrorCode::InvalidArgument, "argument 'enabled' must be true or false");
    }
    auto timer = trim::setTimerEnabled(runner, SysfsRoot(), args["enabled"].get<bool>());
    if (!timer) {
        return failed(timer);
    }
    return trim::toJson(*timer);
}

Expected<bool> boolArg(const Json& args, const char* key, bool fallback) {
    if (!args.contains(key)) {
        return fallback;
    }
    if (!args[key].is_boolean()) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("argument '{}' must be a boolean", key));
    }
    return args[key].get<bool>();
}

Expected<Json> formatVerb(ProcessRunner& runner, const Json& args, const VerbEvents& events) {
    if (auto keys = requireOnlyKeys(args, {"device", "fs", "verify", "discard_first"}); !keys) {
        return failed(keys);
    }
    auto path = stringArg(args, "device", kMaxPathLength);
    auto fsType = stringArg(args, "fs", 16);
    auto verify = boolArg(args, "verify", true);
    auto discardFirst = boolArg(args, "discard_first", false);
    if (!path || !fsType || !verify || !discardFirst) {
        return fail(ErrorCode::InvalidArgument, !path     ? path.error().message()
                                                : !fsType ? fsType.error().message()
                                                : !verify ? verify.error().message()
                                                          : discardFirst.error().message());
    }
    if (trim::findFormatter(*fsType) == nullptr) {
        return fail(ErrorCode::InvalidArgument, "unknown filesystem '" + *fsType + "'");
    }
    // Other partitions of the disk may be mounted; the one being formatted may not.
    auto disk = validateBlockDevice(*path, {.allowMounted = true});
    if (!disk) {
        return failed(disk);
    }
    char resolved[PATH_MAX];
    if (::realpath(path->c_str(), resolved) == nullptr) {
        return failErrno(errno, "resolving " + *path);
    }
    const std::string real = resolved;
    bool found = real == disk->path;
    if (found && !disk->partitions.empty()) {
        return fail(ErrorCode::InvalidArgument,
                    real + " has a partition table; format one of its partitions");
    }
    if (found && (!disk->mounts.empty() || !disk->holders.empty())) {
        return fail(ErrorCode::Busy, real + " is mounted or in use");
    }
    for (const auto& partition : disk->partitions) {
        if (partition.path == real) {
            found = true;
            if (!partition.mounts.empty() || !partition.holders.empty()) {
                return fail(ErrorCode::Busy, real + " is mounted or in use; unmount it first");
            }
        }
    }
    if (!found) {
        return fail(ErrorCode::NotFound, real + " is not a partition of " + disk->path);
    }
    trim::FormatOptions options;
    options.fsType = *fsType;
    options.verify = *verify;
    options.discardFirst = *discardFirst;
    auto result = trim::quickFormat(
        real, options, SysfsRoot(), runner,
        [&](double fraction, const std::string& step) { progressEvent(events, fraction, step); });
    if (!result) {
        return failed(result);
    }
    return trim::toJson(*result);
}

Expected<device::Device> wholeDiskArg(const Json& args) {
    auto path = stringArg(args, "device", kMaxPathLength);
    if (!path) {
        return failed(path);
    }
    char resolved[PATH_MAX];
    if (path->starts_with("/dev/") && ::realpath(path->c_str(), resolved) != nullptr) {
        auto device = validateBlockDevice(*path, {.allowMounted = true, .allowSystemDisk = true});
        if (!device) {
            return device;
        }
        if (device->path != resolved) {
            return fail(ErrorCode::InvalidArgument,
                        std::string(resolved) +
                            " is a partition; secure erase acts on a whole "
                            "drive (" +
                            device->path + ")");
        }
        return device;
    }
    return validateBlockDevice(*path, {.allowMounted = true, .allowSystemDisk = true});
}

using Journals = std::optional<erase::EraseJournalStore>;

// The drive's last erase journal and whether it runs now (nothing without a store).
Expected<erase::EraseJournalStore::Status> journalStatus(const Journals& journals,
                                                         const device::Device& device) {
    if (!journals) {
        return erase::EraseJournalStore::Status{};
    }
    return journals->status(device::driveKey(device));
}

// Capabilities, knowing the temporary ATA password an interrupted erase left behind.
erase::EraseCapabilities capabilitiesOf(const device::Device& device,
                                        const erase::TransportFactory& transports,
                                        const erase::EraseJournalStore::Status& status) {
    auto caps = erase::probeCapabilities(device, transports);
    caps.knownAtaPassword = status.journal && !status.journal->ataPassword.empty() &&
                            status.journal->state != erase::EraseState::Completed;
    return caps;
}

Expected<Json> probeVerb(const erase::TransportFactory& transports, const Journals& journals,
                         const Json& args) {
    if (auto keys = requireOnlyKeys(args, {"device"}); !keys) {
        return failed(keys);
    }
    auto device = wholeDiskArg(args);
    if (!device) {
        return failed(device);
    }
    auto status = journalStatus(journals, *device);
    if (!status) {
        return failed(status);
    }
    const auto caps = capabilitiesOf(*device, transports, *status);
    const auto options = erase::listMethods(caps);
    auto chosen = erase::chooseMethod(caps, "auto");
    Json json{{"device", device->path},
              {"model", device->model},
              {"serial", device->serial},
              {"size", device->size.value},
              {"identity", erase::identityLine(*device)},
              {"confirmation", erase::confirmationWord(*device)},
              {"methods", erase::toJson(options)},
              {"auto", chosen ? Json(std::string(erase::toString(*chosen))) : Json(nullptr)}};
    auto guards = erase::checkEraseGuards(*device, erase::confirmationWord(*device));
    json["refused"] = guards ? Json(nullptr) : Json(guards.error().message());
    json["last_erase"] = status->journal ? erase::toJson(*status->journal) : Json(nullptr);
    json["erase_running"] = status->runningNow;
    json["interrupted"] =
        status->interrupted() ? Json(erase::interruptedMessage(*status->journal)) : Json(nullptr);
    if (caps.ata) {
        json["ata_security"] = Json{{"supported", caps.ata->security.supported},
                                    {"frozen", caps.ata->security.frozen},
                                    {"locked", caps.ata->security.locked},
                                    {"enabled", caps.ata->security.enabled}};
    }
    return json;
}

// Suspends the machine for a few seconds so a frozen ATA drive loses power and wakes up
// unfrozen, then reads its security state again.
Expected<Json> unfreezeVerb(ProcessRunner& runner, const erase::TransportFactory& transports,
                            const Json& args, const VerbEvents& events) {
    if (auto keys = requireOnlyKeys(args, {"device"}); !keys) {
        return failed(keys);
    }
    auto device = wholeDiskArg(args);
    if (!device) {
        return failed(device);
    }
    const auto before = erase::probeCapabilities(*device, transports);
    if (!before.ata) {
        return fail(ErrorCode::InvalidArgument,
                    device->path + " is not an ATA drive (or its IDENTIFY data cannot be read): "
                                   "there is no security freeze to lift");
    }
    if (!before.ata->security.frozen) {
        return Json{{"device", device->path}, {"suspended", false}, {"frozen", false}};
    }
    constexpr std::chrono::seconds kSleep{5};
    progressEvent(events, -1, fmt::format("Suspending the machine for {} s…", kSleep.count()));
    if (auto slept = erase::suspendBriefly(runner, SysfsRoot(), kSleep); !slept) {
        return failed(slept);
    }
    const auto after = erase::probeCapabilities(*device, transports);
    if (!after.ata) {
        return fail(ErrorCode::Io, device->path + " did not answer IDENTIFY after the resume");
    }
    return Json{
        {"device", device->path}, {"suspended", true}, {"frozen", after.ata->security.frozen}};
}

Expected<Json> eraseVerb(const erase::TransportFactory& transports, const Journals& journals,
                         const Json& args, const VerbEvents& events) {
    if (auto keys = requireOnlyKeys(args, {"device", "method", "confirm"}); !keys) {
        return failed(keys);
    }
    auto method = stringArg(args, "method", 40);
    auto confirm = stringArg(args, "confirm", 256);
    if (!method || !confirm) {
        return fail(ErrorCode::InvalidArgument,
                    !method ? method.error().message() : confirm.error().message());
    }
    auto device = wholeDiskArg(args);
    if (!device) {
        return failed(device);
    }
    if (auto guards = erase::checkEraseGuards(*device, *confirm); !guards) {
        return failed(guards);
    }
    if (!journals) {
        return fail(ErrorCode::Unsupported, "the helper has no state directory for the erase "
                                            "journal; refusing to erase without one");
    }
    auto status = journalStatus(journals, *device);
    if (!status) {
        return failed(status);
    }
    if (status->runningNow) {
        return fail(ErrorCode::Busy, "an erase of " + device->path + " is running already");
    }
    const auto caps = capabilitiesOf(*device, transports, *status);
    auto chosen = erase::chooseMethod(caps, *method);
    if (!chosen) {
        return failed(chosen);
    }
    // Nothing has reached the drive yet: a refusal above leaves no journal behind.
    auto journal =
        erase::newJournal(*device, std::string(erase::toString(*chosen)), utcTimestampNow());
    if (caps.knownAtaPassword) {
        journal.ataPassword = status->journal->ataPassword;
    }
    auto active = journals->begin(std::move(journal));
    if (!active) {
        return failed(active);
    }
    auto cert = erase::eraseDevice(
        *device, *chosen, transports,
        [&](double fraction, const std::string& step) { progressEvent(events, fraction, step); },
        &*active);
    if (!cert) {
        return failed(cert);
    }
    Json json = erase::toJson(*cert);
    json["text"] = erase::toText(*cert);
    if (status->interrupted()) {
        json["replaced_interrupted"] = erase::interruptedMessage(*status->journal);
    }
    return json;
}

} // namespace

void addMaintenanceVerbs(HelperService& service, ProcessRunner& runner,
                         erase::TransportFactory transports, Journals journals) {
    service.add(
        Verb{"trim.audit", "io.github.ssdkeeper.trim.audit", Grade::Read,
             [&runner](const Json& args, const VerbEvents&) { return auditVerb(runner, args); }});
    service.add(Verb{"trim.verify", "io.github.ssdkeeper.trim.verify", Grade::Change,
                     [&runner](const Json& args, const VerbEvents& events) {
                         return verifyVerb(runner, args, events);
                     }});
    service.add(
        Verb{"trim.fstrim", "io.github.ssdkeeper.trim.fstrim", Grade::Change,
             [](const Json& args, const VerbEvents& events) { return fstrimVerb(args, events); }});
    service.add(
        Verb{"trim.timer", "io.github.ssdkeeper.trim.timer", Grade::Change,
             [&runner](const Json& args, const VerbEvents&) { return timerVerb(runner, args); }});
    service.add(Verb{"format.run", "io.github.ssdkeeper.format.run", Grade::Destroy,
                     [&runner](const Json& args, const VerbEvents& events) {
                         return formatVerb(runner, args, events);
                     }});
    service.add(Verb{"erase.probe", "io.github.ssdkeeper.erase.probe", Grade::Read,
                     [transports, journals](const Json& args, const VerbEvents&) {
                         return probeVerb(transports, journals, args);
                     }});
    service.add(Verb{"erase.unfreeze", "io.github.ssdkeeper.erase.unfreeze", Grade::Change,
                     [&runner, transports](const Json& args, const VerbEvents& events) {
                         return unfreezeVerb(runner, transports, args, events);
                     }});
    service.add(Verb{"erase.run", "io.github.ssdkeeper.erase.run", Grade::Destroy,
                     [transports, journals](const Json& args, const VerbEvents& events) {
                         return eraseVerb(transports, journals, args, events);
                     }});
}

} // namespace ssdk::helper
