#include "core/lab/lab.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <fmt/format.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <thread>
#include <unistd.h>

#include "core/base/log.h"
#include "core/base/unique_fd.h"
#include "core/device/discovery.h"
#include "core/lab/platform/linux/fs_identity.h"
#include "core/lab/platform/linux/loop_device.h"

namespace ssdk::lab {

namespace fs = std::filesystem;

namespace {

constexpr Bytes kMinimumSize = Bytes::mib(16);
constexpr Bytes kMaximumSize = Bytes::tib(4);
constexpr std::string_view kImageExtension = ".img";
// ext4 labels hold at most 16 bytes; mkfs.ext4 would truncate with a warning.
constexpr std::size_t kExt4LabelLength = 16;

fs::path imagePath(const fs::path& labDir, std::string_view name) {
    return labDir / (std::string(name) + std::string(kImageExtension));
}

// The loop device whose backing file is image, or "" when it is not attached. sysfs shows
// the file's real path, with " (deleted)" appended once it has been unlinked.
std::string attachedDevice(const SysfsRoot& root, const fs::path& image) {
    std::error_code ec;
    const fs::path real = fs::weakly_canonical(image, ec);
    for (const auto& name : root.list(root.sys() / "block")) {
        if (!name.starts_with("loop")) {
            continue;
        }
        auto backing = root.tryString(root.sys() / "block" / name / "loop" / "backing_file");
        if (!backing) {
            continue;
        }
        static constexpr std::string_view kDeleted = " (deleted)";
        if (backing->ends_with(kDeleted)) {
            backing->resize(backing->size() - kDeleted.size());
        }
        if (*backing == image.string() || (!ec && *backing == real.string())) {
            return "/dev/" + name;
        }
    }
    return {};
}

Expected<void> createDirectories(const fs::path& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) {
        return fail(ErrorCode::Io, "creating " + dir.string() + ": " + ec.message());
    }
    return {};
}

// Creates the sparse image (never over an existing file or link) and returns it open
// read-write, for attaching.
Expected<int> createSparseImage(const fs::path& image, Bytes size) {
    const int fd = ::open(image.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        return failErrno(errno, "creating " + image.string());
    }
    if (::ftruncate(fd, static_cast<off_t>(size.value)) != 0) {
        const int error = errno;
        ::close(fd);
        ::unlink(image.c_str());
        return failErrno(error, "sizing " + image.string());
    }
    return fd;
}

// Some kernels leave partition scanning to user space: partx adds the partitions through
// BLKPG when the node has not appeared on its own. Waits up to 2 s for "<device>p1".
Expected<std::string> firstPartition(ProcessRunner& runner, const std::string& device) {
    const std::string partition = device + "p1";
    for (int attempt = 0; attempt < 100; ++attempt) {
        if (fs::exists(partition)) {
            return partition;
        }
        if (attempt == 10) {
            (void)runner.run({.argv = {"partx", "--add", device}});
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return fail(ErrorCode::NotFound,
                partition + " did not appear after writing the partition table");
}

Expected<void> writeLayout(ProcessRunner& runner, const std::string& device,
                           const LabCreateRequest& request) {
    if (request.layout == "empty") {
        return {};
    }
    const std::map<std::string, std::string> environment{{"LC_ALL", "C"}};
    auto table = runChecked(runner, {.argv = {"sfdisk", "--quiet", "--wipe", "always", device},
                                     .standardInput = "label: gpt\n,,L\n",
                                     .environment = environment});
    if (!table) {
        return std::unexpected(table.error());
    }
    auto partition = firstPartition(runner, device);
    if (!partition) {
        return std::unexpected(partition.error());
    }
    const std::string label = request.name.substr(0, kExt4LabelLength);
    auto mkfs = runChecked(runner, {.argv = {"mkfs.ext4", "-q", "-L", label, *partition},
                                    .timeout = std::chrono::minutes(5),
                                    .environment = environment});
    if (!mkfs) {
        return std::unexpected(mkfs.error());
    }
    return {};
}

Bytes allocatedBytes(const fs::path& image) {
    struct stat info {};
    if (::stat(image.c_str(), &info) != 0) {
        return Bytes(0);
    }
    return Bytes(static_cast<std::uint64_t>(info.st_blocks) * 512);
}

Expected<void> assumeOwner(FsIdentity& identity, const std::optional<LabOwner>& owner) {
    return owner ? identity.assume(owner->uid, owner->gid) : Expected<void>();
}

// "…/loop0p1 is mounted at /mnt; …" for everything that keeps device busy.
std::string describeUse(const device::Device& device) {
    std::vector<std::string> uses;
    for (const auto& mount : device.mounts) {
        uses.push_back(device.path + " is mounted at " + mount.mountPoint);
    }
    for (const auto& holder : device.holders) {
        uses.push_back(device.path + " is held by " + holder.displayName);
    }
    for (const auto& part : device.partitions) {
        for (const auto& mount : part.mounts) {
            uses.push_back(part.path + " is mounted at " + mount.mountPoint);
        }
        for (const auto& holder : part.holders) {
            uses.push_back(part.path + " is held by " + holder.displayName);
        }
    }
    return fmt::format("{}", fmt::join(uses, "; "));
}

} // namespace

fs::path userStateDirectory() {
    if (const char* state = std::getenv("XDG_STATE_HOME"); state != nullptr && *state == '/') {
        return state;
    }
    if (const char* home = std::getenv("HOME"); home != nullptr && *home == '/') {
        return fs::path(home) / ".local" / "state";
    }
    const passwd* user = ::getpwuid(::getuid());
    return fs::path(user != nullptr && user->pw_dir != nullptr ? user->pw_dir : "/") / ".local" /
           "state";
}

fs::path labDirectory(const fs::path& stateDir) {
    return stateDir / "ssdkeeper" / "lab";
}

Expected<void> validateLabName(std::string_view name) {
    const auto allowed = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '-' || c == '_';
    };
    if (name.empty() || name.size() > 32 || !std::ranges::all_of(name, allowed) ||
        name.front() == '-' || name.front() == '_') {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("'{}' is not a lab drive name: use 1 to 32 letters, digits, '-' "
                                "or '_', starting with a letter or digit",
                                name));
    }
    return {};
}

LabManager::LabManager(fs::path stateDir, SysfsRoot root, ProcessRunner& runner,
                       std::optional<LabOwner> owner)
    : m_labDir(labDirectory(stateDir))
    , m_root(std::move(root))
    , m_runner(runner)
    , m_owner(owner) {}

Expected<Bytes> LabManager::maximumSize() const {
    // The nearest existing ancestor is on the same filesystem the lab directory will be.
    fs::path probe = m_labDir;
    std::error_code ec;
    while (probe.has_relative_path() && !fs::exists(probe, ec)) {
        probe = probe.parent_path();
    }
    struct statvfs info {};
    if (::statvfs(probe.c_str(), &info) != 0) {
        return failErrno(errno, "checking free space in " + probe.string());
    }
    const Bytes available(static_cast<std::uint64_t>(info.f_bavail) * info.f_frsize);
    return std::min(available, kMaximumSize);
}

Expected<LabDrive> LabManager::create(const LabCreateRequest& request) {
    const std::string what = "creating lab drive '" + request.name + "'";
    if (auto valid = validateLabName(request.name); !valid) {
        return std::unexpected(valid.error());
    }
    if (request.logicalSectorSize != 512 && request.logicalSectorSize != 4096) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("sector size {} is not 512 or 4096", request.logicalSectorSize));
    }
    if (request.layout != "empty" && request.layout != "gpt-ext4") {
        return fail(ErrorCode::InvalidArgument,
                    "layout '" + request.layout + "' is not 'empty' or 'gpt-ext4'");
    }
    std::optional<LabOwner> owner = m_owner;
    if (request.ownerUid && request.ownerGid) {
        owner = LabOwner{*request.ownerUid, *request.ownerGid};
    }
    const fs::path image = imagePath(m_labDir, request.name);
    UniqueFd imageFd;
    {
        FsIdentity identity;
        if (auto switched = assumeOwner(identity, owner); !switched) {
            return std::unexpected(Error(switched.error()).addContext(what));
        }
        auto maximum = maximumSize();
        if (!maximum) {
            return std::unexpected(Error(maximum.error()).addContext(what));
        }
        if (request.size < kMinimumSize || request.size > *maximum ||
            request.size.value % request.logicalSectorSize != 0) {
            return fail(ErrorCode::InvalidArgument,
                        fmt::format("a lab drive must be a whole number of {}-byte sectors "
                                    "between {} and {} (the free space of {}, at most {}); {} "
                                    "bytes were asked",
                                    request.logicalSectorSize, formatIec(kMinimumSize),
                                    formatIec(*maximum), m_labDir.string(), formatIec(kMaximumSize),
                                    request.size.value));
        }
        std::error_code ec;
        if (fs::exists(fs::symlink_status(image, ec))) {
            return fail(ErrorCode::InvalidArgument, "a lab drive named '" + request.name +
                                                        "' exists already (" + image.string() +
                                                        ")");
        }
        if (auto dirs = createDirectories(m_labDir); !dirs) {
            return std::unexpected(Error(dirs.error()).addContext(what));
        }
        auto fd = createSparseImage(image, request.size);
        if (!fd) {
            return std::unexpected(Error(fd.error()).addContext(what));
        }
        imageFd.reset(*fd);
    }
    const auto removeImage = [&] {
        FsIdentity identity;
        if (assumeOwner(identity, owner)) {
            ::unlink(image.c_str());
        }
    };
    auto device = attachLoop(imageFd.get(), image, request.logicalSectorSize);
    imageFd.reset();
    if (!device) {
        removeImage();
        return std::unexpected(Error(device.error()).addContext(what));
    }
    if (auto marked = markNonRotational(*device); !marked) {
        log::get("lab")->warn("{} stays rotational: {}", *device, marked.error().describe());
    }
    if (auto layout = writeLayout(m_runner, *device, request); !layout) {
        if (auto detached = detachLoop(*device); !detached) {
            log::get("lab")->error("{}", detached.error().describe());
        }
        removeImage();
        return std::unexpected(Error(layout.error()).addContext(what));
    }
    log::get("lab")->info("created lab drive '{}' on {}", request.name, *device);
    return LabDrive{request.name, image, *device, request.size, allocatedBytes(image)};
}

Expected<std::vector<LabDrive>> LabManager::list() const {
    FsIdentity identity;
    if (auto switched = assumeOwner(identity, m_owner); !switched) {
        return std::unexpected(switched.error());
    }
    std::vector<LabDrive> drives;
    std::error_code ec;
    if (!fs::exists(m_labDir, ec)) {
        return drives;
    }
    for (const auto& entry : fs::directory_iterator(m_labDir, ec)) {
        const fs::path& path = entry.path();
        std::error_code entryEc;
        if (path.extension() != kImageExtension || !entry.is_regular_file(entryEc) ||
            entry.is_symlink(entryEc)) {
            continue;
        }
        const std::string name = path.stem().string();
        if (!validateLabName(name)) {
            continue;
        }
        drives.push_back(LabDrive{name, path, attachedDevice(m_root, path),
                                  Bytes(entry.file_size(entryEc)), allocatedBytes(path)});
    }
    if (ec) {
        return fail(ErrorCode::Io, "listing " + m_labDir.string() + ": " + ec.message());
    }
    std::ranges::sort(drives, {}, &LabDrive::name);
    return drives;
}

Expected<void> LabManager::destroy(std::string_view nameOrDevice) {
    const std::string what = "destroying lab drive '" + std::string(nameOrDevice) + "'";
    auto drives = list();
    if (!drives) {
        return std::unexpected(Error(drives.error()).addContext(what));
    }
    const auto match = std::ranges::find_if(*drives, [&](const LabDrive& drive) {
        return drive.name == nameOrDevice || drive.image.string() == nameOrDevice ||
               (!drive.devicePath.empty() && drive.devicePath == nameOrDevice);
    });
    if (match == drives->end()) {
        return fail(ErrorCode::NotFound, fmt::format("'{}' is not one of the lab drives in {}",
                                                     nameOrDevice, m_labDir.string()));
    }
    if (!match->devicePath.empty()) {
        const device::Discovery discovery(m_root, device::makeSystemFsProber(m_root));
        auto current = discovery.find(match->devicePath);
        if (!current) {
            return std::unexpected(Error(current.error()).addContext(what));
        }
        if (current->inUse()) {
            return fail(ErrorCode::Busy, match->devicePath + " is in use (" +
                                             describeUse(*current) +
                                             "); unmount or close it first");
        }
        // Partitions that partx added (firstPartition) outlive the detach on kernels that leave
        // partition scanning to user space, and would stand, stale, on the next drive attached
        // as this loop device. Nothing to delete is not an error.
        (void)m_runner.run({.argv = {"partx", "--delete", match->devicePath}});
        if (auto detached = detachLoop(match->devicePath); !detached) {
            return std::unexpected(Error(detached.error()).addContext(what));
        }
        // A device still open elsewhere (udev probing, a tool) is only marked for auto-clear:
        // wait briefly, then say so rather than delete the image under it.
        for (int attempt = 0; attempt < 100 && !attachedDevice(m_root, match->image).empty();
             ++attempt) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        if (!attachedDevice(m_root, match->image).empty()) {
            return fail(ErrorCode::Busy,
                        match->devicePath +
                            " is still open in another program; it detaches by itself when "
                            "that program closes it, and the image can be removed then");
        }
    }
    FsIdentity identity;
    if (auto switched = assumeOwner(identity, m_owner); !switched) {
        return std::unexpected(Error(switched.error()).addContext(what));
    }
    if (::unlink(match->image.c_str()) != 0) {
        return std::unexpected(
            errnoError(errno, "removing " + match->image.string()).addContext(what));
    }
    log::get("lab")->info("destroyed lab drive '{}'", match->name);
    return {};
}

} // namespace ssdk::lab
