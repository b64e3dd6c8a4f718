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
#include "core/maintenance/format_target.h"
#include "core/maintenance/trim/audit.h"
#include "core/maintenance/trim/format_verify.h"
#include "core/maintenance/trim/fstrim.h"
#include "core/maintenance/trim/stack.h"
#include "core/maintenance/trim/verify.h"
#include "core/maintenance/verbs.h"
#include "core/rpc/progress.h"
#include "helper/validation.h"

namespace ssdk::helper {

namespace {

namespace trim = maintenance::trim;
namespace erase = maintenance::erase;

void progressEvent(const VerbEvents& events, double fraction, const std::string& text) {
    events(rpc::kEventProgress, rpc::toJson(rpc::Progress{.fraction = fraction, .text = text}));
}

// A mount point must be absolute (and then exactly one of a block-device filesystem).
Expected<void> checkAbsolute(const std::string& path) {
    if (!path.starts_with('/')) {
        return fail(ErrorCode::InvalidArgument, "'" + path + "' is not an absolute path");
    }
    return {};
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
    auto request = maintenance::auditRequestFromJson(args);
    if (!request) {
        return failed(request);
    }
    const std::string& target = request->target;
    std::string resolved = target;
    if (target.starts_with("/dev/")) {
        auto validated =
            validateBlockDeviceNode(target, {.allowMounted = true, .allowSystemDisk = true});
        if (!validated) {
            return failed(validated);
        }
        resolved = validated->node; // the node checked, not what the path names by now
    } else if (!isMountPoint(target)) {
        // Only what /proc/self/mountinfo lists, compared as text: resolving the path as root
        // would tell the caller which files exist in directories they cannot read.
        return fail(ErrorCode::InvalidArgument,
                    "'" + target +
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
    auto request = maintenance::verifyRequestFromJson(args);
    if (!request) {
        return failed(request);
    }
    if (auto absolute = checkAbsolute(request->mountPoint); !absolute) {
        return failed(absolute);
    }
    trim::VerifyOptions options;
    options.markerBlocks = request->blocks;
    options.mode = request->mode;
    options.stack = liveStackOptions(runner);
    auto result = trim::verifyTrim(
        request->mountPoint, SysfsRoot(), options,
        [&](double fraction, const std::string& step) { progressEvent(events, fraction, step); });
    if (!result) {
        return failed(result);
    }
    return trim::toJson(*result);
}

Expected<Json> fstrimVerb(const Json& args, const VerbEvents& events) {
    auto request = maintenance::fstrimRequestFromJson(args);
    if (!request) {
        return failed(request);
    }
    if (auto absolute = checkAbsolute(request->mountPoint); !absolute) {
        return failed(absolute);
    }
    auto result =
        trim::runFstrim(request->mountPoint, SysfsRoot(), 16, [&](double fraction, Bytes done) {
            progressEvent(events, fraction, formatIec(done) + " trimmed");
        });
    if (!result) {
        return failed(result);
    }
    return toJson(
        maintenance::FstrimReply{result->mountPoint, result->filesystemSize, result->trimmed});
}

Expected<Json> timerVerb(ProcessRunner& runner, const Json& args) {
    auto request = maintenance::timerRequestFromJson(args);
    if (!request) {
        return failed(request);
    }
    auto timer = trim::setTimerEnabled(runner, SysfsRoot(), request->enabled);
    if (!timer) {
        return failed(timer);
    }
    return trim::toJson(*timer);
}

Expected<Json> formatVerb(ProcessRunner& runner, const Json& args, const VerbEvents& events) {
    auto request = maintenance::formatRequestFromJson(args);
    if (!request) {
        return failed(request);
    }
    const std::string& path = request->device;
    // Other partitions of the disk may be mounted; the one being formatted may not.
    auto disk = validateBlockDevice(path, {.allowMounted = true});
    if (!disk) {
        return failed(disk);
    }
    char resolved[PATH_MAX];
    if (::realpath(path.c_str(), resolved) == nullptr) {
        return failErrno(errno, "resolving " + path);
    }
    const std::string real = resolved;
    if (auto allowed = maintenance::checkFormatTarget(*disk, real); !allowed) {
        return failed(allowed);
    }
    trim::FormatOptions options;
    options.fsType = request->fs;
    options.verify = request->verify;
    options.discardFirst = request->discardFirst;
    auto result = trim::quickFormat(
        real, options, SysfsRoot(), runner,
        [&](double fraction, const std::string& step) { progressEvent(events, fraction, step); });
    if (!result) {
        return failed(result);
    }
    return trim::toJson(*result);
}

// The whole drive a request names.
Expected<device::Device> wholeDisk(const std::string& path) {
    char resolved[PATH_MAX];
    if (path.starts_with("/dev/") && ::realpath(path.c_str(), resolved) != nullptr) {
        auto device = validateBlockDevice(path, {.allowMounted = true, .allowSystemDisk = true});
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
    return validateBlockDevice(path, {.allowMounted = true, .allowSystemDisk = true});
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
    auto request = maintenance::eraseDeviceRequestFromJson(args);
    if (!request) {
        return failed(request);
    }
    auto device = wholeDisk(request->device);
    if (!device) {
        return failed(device);
    }
    auto status = journalStatus(journals, *device);
    if (!status) {
        return failed(status);
    }
    const auto caps = capabilitiesOf(*device, transports, *status);
    auto chosen = erase::chooseMethod(caps, maintenance::kAutoMethod);
    maintenance::EraseProbeReply reply;
    reply.device = device->path;
    reply.model = device->model;
    reply.serial = device->serial;
    reply.size = device->size.value;
    reply.identity = erase::identityLine(*device);
    reply.confirmation = erase::confirmationWord(*device);
    reply.methods = maintenance::methodReportsOf(erase::listMethods(caps));
    if (chosen) {
        reply.automatic = *chosen;
    }
    if (auto guards = erase::checkEraseGuards(*device, reply.confirmation); !guards) {
        reply.refused = guards.error().message();
    }
    // A read any user may run: the temporary ATA password an erase left stays in the journal.
    if (status->journal) {
        reply.lastErase = erase::redacted(*status->journal);
        if (status->interrupted()) {
            reply.interrupted = erase::interruptedMessage(*reply.lastErase);
        }
    }
    reply.eraseRunning = status->runningNow;
    if (caps.ata) {
        const auto& security = caps.ata->security;
        reply.ataSecurity = maintenance::AtaSecurityReport{security.supported, security.frozen,
                                                           security.locked, security.enabled};
    }
    return maintenance::toJson(reply);
}

// Suspends the machine for a few seconds so a frozen ATA drive loses power and wakes up
// unfrozen, then reads its security state again.
Expected<Json> unfreezeVerb(ProcessRunner& runner, const erase::TransportFactory& transports,
                            const Json& args, const VerbEvents& events) {
    auto request = maintenance::eraseDeviceRequestFromJson(args);
    if (!request) {
        return failed(request);
    }
    auto device = wholeDisk(request->device);
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
        return maintenance::toJson(maintenance::UnfreezeReply{device->path, false, false});
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
    return maintenance::toJson(
        maintenance::UnfreezeReply{device->path, true, after.ata->security.frozen});
}

Expected<Json> eraseVerb(const erase::TransportFactory& transports, const Journals& journals,
                         const Json& args, const VerbEvents& events) {
    auto request = maintenance::eraseRequestFromJson(args);
    if (!request) {
        return failed(request);
    }
    auto device = wholeDisk(request->device);
    if (!device) {
        return failed(device);
    }
    if (auto guards = erase::checkEraseGuards(*device, request->confirm); !guards) {
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
    auto chosen = erase::chooseMethod(caps, request->method);
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
    maintenance::EraseReply reply{*cert, erase::toText(*cert), std::nullopt};
    if (status->interrupted()) {
        reply.replacedInterrupted = erase::interruptedMessage(*status->journal);
    }
    return maintenance::toJson(reply);
}

} // namespace

void addMaintenanceVerbs(HelperService& service, ProcessRunner& runner,
                         erase::TransportFactory transports, Journals journals) {
    // Every verb is authorized as its own polkit action, io.github.ssdkeeper.<verb>.
    auto add = [&service](const char* name, Grade grade,
                          std::function<Expected<Json>(const Json&, const VerbEvents&)> handler) {
        service.add(
            Verb{name, std::string("io.github.ssdkeeper.") + name, grade, std::move(handler)});
    };
    add(maintenance::kVerbTrimAudit, Grade::Read,
        [&runner](const Json& args, const VerbEvents&) { return auditVerb(runner, args); });
    add(maintenance::kVerbTrimVerify, Grade::Change,
        [&runner](const Json& args, const VerbEvents& events) {
            return verifyVerb(runner, args, events);
        });
    add(maintenance::kVerbTrimFstrim, Grade::Change,
        [](const Json& args, const VerbEvents& events) { return fstrimVerb(args, events); });
    add(maintenance::kVerbTrimTimer, Grade::Change,
        [&runner](const Json& args, const VerbEvents&) { return timerVerb(runner, args); });
    add(maintenance::kVerbFormatRun, Grade::Destroy,
        [&runner](const Json& args, const VerbEvents& events) {
            return formatVerb(runner, args, events);
        });
    add(maintenance::kVerbEraseProbe, Grade::Read,
        [transports, journals](const Json& args, const VerbEvents&) {
            return probeVerb(transports, journals, args);
        });
    add(maintenance::kVerbEraseUnfreeze, Grade::Change,
        [&runner, transports](const Json& args, const VerbEvents& events) {
            return unfreezeVerb(runner, transports, args, events);
        });
    add(maintenance::kVerbEraseRun, Grade::Destroy,
        [transports, journals](const Json& args, const VerbEvents& events) {
            return eraseVerb(transports, journals, args, events);
        });
}

} // namespace ssdk::helper
