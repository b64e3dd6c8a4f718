#pragma once
// fwupd, the Linux firmware update daemon (LVFS), seen through a plain C++ interface. The
// libfwupd/GLib implementation lives in platform/linux/libfwupd_service.cpp; everything here
// is plain C++ so the matching and the "offer only upgrades" rules are tested without a daemon.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/base/json.h"

namespace ssdk::firmware {

struct DriveFirmwareFacts;

struct FwupdRelease {
    std::string version, summary, remoteId, uri;
    std::uint64_t sizeBytes = 0;
    bool isUpgrade = false;   // fwupd's own "is-upgrade" flag for the device it was listed for
    bool isDowngrade = false; // fwupd's "is-downgrade"
};

struct FwupdDevice {
    std::string id, name, vendor, serial, plugin, version;
    std::string updateError; // fwupd's reason the device cannot be updated, if any
    std::vector<std::string> guids, flags;
    bool hasFlag(std::string_view flag) const;
};

struct FwupdRemote {
    std::string id, title;
    std::string kind; // "download" (needs network: LVFS), "local", "directory"
    bool enabled = false;
    bool hasMetadata = false; // a download remote that was refreshed at least once
};

// fwupd's own status word ("downloading", "decompressing", "writing", "verifying", …) and
// the percentage of the current step, as the daemon reports them.
struct FwupdProgress {
    unsigned percent = 0;
    std::string status;
};
using FwupdProgressFn = std::function<void(const FwupdProgress&)>;

// One connection per call; safe to use from any one thread at a time. Errors:
// ToolMissing (fwupd is not installed), Unsupported (no system D-Bus), ProcessFailed (the
// daemon is not reachable or refused), NotFound (no such device / nothing for it),
// PermissionDenied (fwupd's polkit said no), Cancelled.
class FwupdService {
public:
    virtual ~FwupdService() = default;
    virtual Expected<std::string> daemonVersion() = 0;
    virtual Expected<std::vector<FwupdDevice>> devices() = 0;
    // Every release the enabled remotes list for the device, newest first, with fwupd's flags.
    virtual Expected<std::vector<FwupdRelease>> releases(const std::string& deviceId) = 0;
    virtual Expected<std::vector<FwupdRemote>> remotes() = 0;
    // The release with this version from the device's release list (fwupd downloads it).
    virtual Expected<void> installRelease(const std::string& deviceId, const std::string& version,
                                          const FwupdProgressFn& progress,
                                          const std::atomic<bool>* cancel) = 0;
    // A cabinet archive the user supplies; fwupd itself checks that it is made for the device
    // and refuses older or same versions.
    virtual Expected<void> installCabinet(const std::string& deviceId, const std::string& cabPath,
                                          const FwupdProgressFn& progress,
                                          const std::atomic<bool>* cancel) = 0;
};

// libfwupd on the system bus (DBUS_SYSTEM_BUS_ADDRESS honoured).
std::unique_ptr<FwupdService> systemFwupdService();

// The fwupd device that is this drive, or why none is. A drive matches only by its serial
// number from a storage plugin, with the model agreeing; no serial, a model that disagrees
// or two candidates is "no match", never a guess.
struct FwupdMatch {
    std::optional<FwupdDevice> device;
    std::string reason; // why there is no match
};
FwupdMatch matchFwupdDevice(const std::vector<FwupdDevice>& devices,
                            const DriveFirmwareFacts& facts);

// The releases SSD Keeper offers: those fwupd flags as an upgrade for the device.
std::vector<FwupdRelease> offeredReleases(const std::vector<FwupdRelease>& releases);

// Why fwupd has no release to offer, from its remotes: none enabled, download remotes
// never refreshed (LVFS needs the network), or the remotes have nothing for the device.
std::string noReleaseReason(const std::vector<FwupdRemote>& remotes);

struct FwupdInstallRequest {
    std::string deviceId;
    std::string version; // a release fwupd offers as an upgrade; empty: the newest one
    std::string cabPath; // instead of a release: a .cab the user supplies
};

struct FwupdInstallOutcome {
    std::string deviceId, name, versionBefore, versionAfter, installed;
};

// Checks the request against what fwupd reports now (device updatable, the version offered
// as an upgrade), installs, and reads the device's version again.
Expected<FwupdInstallOutcome> installWithFwupd(FwupdService& service,
                                               const FwupdInstallRequest& request,
                                               const FwupdProgressFn& progress,
                                               const std::atomic<bool>* cancel);

Json toJson(const FwupdRelease& release);
Json toJson(const FwupdInstallOutcome& outcome);

} // namespace ssdk::firmware
