#include "helper/firmware_verbs.h"

#include <cerrno>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include "core/base/sysfs_root.h"
#include "core/base/unique_fd.h"
#include "core/firmware/info.h"
#include "core/firmware/nvme_update.h"
#include "core/firmware/verbs.h"
#include "core/lab/platform/linux/fs_identity.h"
#include "core/rpc/progress.h"
#include "core/smart/drivedb.h"
#include "helper/validation.h"

namespace ssdk::helper {

namespace {

namespace fw = firmware;
using maintenance::transport::NvmeAdmin;
using maintenance::transport::NvmeAdminFactory;

constexpr DeviceRules kFirmwareRules{.allowMounted = true, .allowSystemDisk = true};

// What plan and update act on: a plan's request, or an update's with its image's real size.
struct UpdateArgs {
    std::string device;
    std::uint8_t slot = 0;
    fw::CommitAction action = fw::CommitAction::ReplaceActivate;
    std::uint64_t imageSize = 0;
    bool confirmSystemDisk = false;
};

UpdateArgs updateArgsOf(const fw::PlanVerbRequest& request) {
    return UpdateArgs{request.device, static_cast<std::uint8_t>(request.slot), request.action,
                      request.imageSize.value_or(0), request.confirmSystemDisk};
}

// The firmware images SSD Keeper flashes are a few MiB; anything larger is not one.
constexpr std::uint64_t kMaxImageBytes = std::uint64_t{64} << 20;

// Reads the image once, with the caller's file access rights when they are not root (root
// must not read for them what they could not read themselves), refusing anything but a
// regular file: what is checked is what is flashed.
Expected<std::vector<std::uint8_t>> readImage(const std::string& path,
                                              const std::optional<lab::LabOwner>& caller) {
    lab::FsIdentity identity;
    if (caller) {
        if (auto switched = identity.assume(caller->uid, caller->gid); !switched) {
            return std::unexpected(switched.error());
        }
    }
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    if (!fd.valid()) {
        return failErrno(errno, "opening the image " + path);
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) {
        return failErrno(errno, "checking the image " + path);
    }
    if (!S_ISREG(st.st_mode)) {
        return fail(ErrorCode::InvalidArgument, path + " is not a regular file");
    }
    if (static_cast<std::uint64_t>(st.st_size) > kMaxImageBytes) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("{} has {} bytes: larger than any firmware image ({} MiB at most)",
                                path, st.st_size, kMaxImageBytes >> 20));
    }
    std::vector<std::uint8_t> image(static_cast<std::size_t>(st.st_size));
    std::size_t done = 0;
    while (done < image.size()) {
        const ssize_t n = ::read(fd.get(), image.data() + done, image.size() - done);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            return failErrno(errno, "reading the image " + path);
        }
        if (n == 0) {
            return fail(ErrorCode::Io, path + " shrank while it was read");
        }
        done += static_cast<std::size_t>(n);
    }
    return image;
}

struct Prepared {
    fw::UpdatePlan plan;
    std::unique_ptr<NvmeAdmin> admin;
};

Expected<Prepared> prepare(const NvmeAdminFactory& nvme, const UpdateArgs& args) {
    auto device = validateBlockDevice(args.device, kFirmwareRules);
    if (!device) {
        return failed(device);
    }
    if (device->bus != device::Bus::Nvme) {
        return fail(ErrorCode::Unsupported,
                    device->path + " is not an NVMe drive; SSD Keeper updates only NVMe "
                                   "firmware from an image");
    }
    fw::UpdateRequest request;
    request.slot = args.slot;
    request.action = args.action;
    request.systemDisk = device->holdsRootFilesystem();
    request.confirmSystemDisk = args.confirmSystemDisk;
    request.imageSize = args.imageSize;
    auto admin = nvme(device->path);
    if (!admin) {
        return failed(admin);
    }
    auto caps = fw::readFirmwareCaps(**admin);
    if (!caps) {
        return failed(caps);
    }
    auto slots = fw::readSlotLog(**admin);
    if (!slots) {
        return failed(slots);
    }
    Prepared prepared;
    prepared.plan = fw::planNvmeUpdate(*caps, *slots, request, fw::readPowerState(SysfsRoot()));
    prepared.admin = std::move(*admin);
    return prepared;
}

Expected<Json> infoVerb(fw::FwupdService* fwupd, const NvmeAdminFactory& nvme, const Json& args) {
    auto request = fw::infoRequestFromJson(args);
    if (!request) {
        return failed(request);
    }
    auto device = validateBlockDevice(request->device, kFirmwareRules);
    if (!device) {
        return failed(device);
    }
    std::string catalogError;
    auto catalog = fw::KnownIssueCatalog::load(fw::defaultCatalogPath());
    if (!catalog) {
        catalogError = catalog.error().describe();
    }
    auto db = smart::DriveDatabase::load();
    if (!db) {
        catalogError += (catalogError.empty() ? "" : "; ") + db.error().describe();
    }
    fw::InfoSources sources;
    sources.nvme = nvme;
    sources.fwupd = fwupd;
    sources.catalog = catalog ? &*catalog : nullptr;
    sources.driveDb = db ? &*db : nullptr;
    auto info = fw::readFirmwareInfo(*device, SysfsRoot(), sources);
    info.catalogError = catalogError;
    return fw::toJson(info);
}

Expected<Json> planVerb(const NvmeAdminFactory& nvme, const Json& args) {
    auto request = fw::planVerbRequestFromJson(args);
    if (!request) {
        return failed(request);
    }
    auto prepared = prepare(nvme, updateArgsOf(*request));
    if (!prepared) {
        return failed(prepared);
    }
    return fw::toJson(prepared->plan);
}

Expected<Json> updateVerb(const NvmeAdminFactory& nvme, const std::optional<lab::LabOwner>& caller,
                          const Json& args, const VerbEvents& events) {
    auto request = fw::updateVerbRequestFromJson(args);
    if (!request) {
        return failed(request);
    }
    // The device first, so a request for a wrong device reads no file at all.
    if (auto device = validateBlockDevice(request->device, kFirmwareRules); !device) {
        return failed(device);
    }
    std::vector<std::uint8_t> image;
    if (!request->image.empty()) {
        auto read = readImage(request->image, caller);
        if (!read) {
            return failed(read);
        }
        image = std::move(*read);
    }
    auto prepared = prepare(nvme, updateArgsOf(fw::planOf(*request, image.size())));
    if (!prepared) {
        return failed(prepared);
    }
    if (!prepared->plan.allowed()) {
        return fail(ErrorCode::InvalidArgument,
                    "the update is refused: " + prepared->plan.refusal());
    }
    auto result = fw::runNvmeUpdate(
        *prepared->admin, prepared->plan, image, [&](double fraction, const std::string& text) {
            events(rpc::kEventProgress,
                   rpc::toJson(rpc::Progress{.fraction = fraction, .text = text}));
        });
    if (!result) {
        return failed(result);
    }
    return fw::toJson(fw::UpdateReply{prepared->plan, *result});
}

} // namespace

void addFirmwareVerbs(HelperService& service, NvmeAdminFactory nvme,
                      std::shared_ptr<fw::FwupdService> fwupd,
                      std::optional<lab::LabOwner> caller) {
    // Every verb is authorized as its own polkit action, io.github.ssdkeeper.<verb>.
    auto add = [&service](const char* name, Grade grade,
                          std::function<Expected<Json>(const Json&, const VerbEvents&)> handler) {
        service.add(
            Verb{name, std::string("io.github.ssdkeeper.") + name, grade, std::move(handler)});
    };
    add(fw::kVerbInfo, Grade::Read, [fwupd, nvme](const Json& args, const VerbEvents&) {
        return infoVerb(fwupd.get(), nvme, args);
    });
    add(fw::kVerbPlan, Grade::Read,
        [nvme](const Json& args, const VerbEvents&) { return planVerb(nvme, args); });
    add(fw::kVerbUpdate, Grade::Destroy,
        [nvme, caller](const Json& args, const VerbEvents& events) {
            return updateVerb(nvme, caller, args, events);
        });
}

} // namespace ssdk::helper
