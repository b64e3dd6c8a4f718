#include "core/overprovision/filesystem_tool.h"

#include <fmt/format.h>
#include <fstream>

#include "core/base/log.h"
#include "core/base/mount_options.h"
#include "core/overprovision/mounts.h"

namespace ssdk::overprovision {

namespace {

using namespace std::chrono_literals;

// Resizing a large filesystem moves data: give the tools time.
constexpr std::chrono::milliseconds kResizeTimeout = std::chrono::hours(6);
constexpr std::chrono::milliseconds kCheckTimeout = std::chrono::hours(2);

ProcessRequest request(std::vector<std::string> argv,
                       std::chrono::milliseconds timeout = std::chrono::minutes(2)) {
    ProcessRequest result;
    result.argv = std::move(argv);
    result.timeout = timeout;
    result.environment = {{"LC_ALL", "C"}};
    return result;
}

Error unsupported(const FilesystemLocation& where) {
    return Error(ErrorCode::Unsupported,
                 "SSD Keeper does not resize \"" + where.type + "\" (" + where.device + ")");
}

Error failedTool(const ProcessRequest& request, const ProcessResult& result) {
    std::string detail =
        result.standardError.empty() ? result.standardOutput : result.standardError;
    while (!detail.empty() && (detail.back() == '\n' || detail.back() == ' ')) {
        detail.pop_back();
    }
    return Error(ErrorCode::ProcessFailed,
                 fmt::format("{} exited with {}: {}", describeCommand(request.argv),
                             result.exitCode, detail));
}

Expected<ProcessResult> runLogged(ProcessRunner& runner, const ProcessRequest& req) {
    log::get("overprovision")->info("running {}", describeCommand(req.argv));
    return runner.run(req);
}

// Runs a tool; fails unless it exits with at most highestAcceptedExit.
Expected<void> runAccepting(ProcessRunner& runner, const ProcessRequest& req,
                            int highestAcceptedExit = 0) {
    auto result = runLogged(runner, req);
    if (!result) {
        return std::unexpected(result.error());
    }
    if (result->exitCode < 0 || result->exitCode > highestAcceptedExit) {
        return std::unexpected(failedTool(req, *result));
    }
    return {};
}

} // namespace

bool sameSize(Bytes filesystemSize, Bytes target) {
    return filesystemSize <= target && (target - filesystemSize) < kSizeSlack;
}

bool isExtFilesystem(std::string_view type) {
    return type == "ext2" || type == "ext3" || type == "ext4";
}

bool isSupportedFilesystem(std::string_view type) {
    return isExtFilesystem(type) || type == "ntfs" || type == "btrfs";
}

FilesystemTool::FilesystemTool(ProcessRunner& runner, std::filesystem::path mountInfo)
    : m_runner(runner)
    , m_mountInfo(std::move(mountInfo)) {}

Expected<FilesystemUsage> FilesystemTool::readUsage(const FilesystemLocation& where) {
    std::vector<std::string> argv;
    Expected<FilesystemUsage> (*parse)(std::string_view) = nullptr;
    if (isExtFilesystem(where.type)) {
        argv = {"dumpe2fs", "-h", where.device};
        parse = parseDumpe2fs;
    } else if (where.type == "ntfs") {
        argv = {"ntfsresize", "--info", "--force", "--no-progress-bar", where.device};
        parse = parseNtfsresizeInfo;
    } else if (where.type == "btrfs") {
        if (where.mountPoint.empty()) {
            return fail(ErrorCode::Unsupported,
                        "btrfs on " + where.device + " can be measured only while mounted");
        }
        argv = {"btrfs", "filesystem", "usage", "-b", where.mountPoint};
        parse = parseBtrfsUsage;
    } else {
        return std::unexpected(unsupported(where));
    }
    // ntfsresize --info exits non-zero on volumes it would still report; its output decides.
    auto output = where.type == "ntfs" ? runLogged(m_runner, request(argv))
                                       : runChecked(m_runner, request(argv));
    if (!output) {
        return std::unexpected(output.error());
    }
    auto usage = parse(output->standardOutput);
    if (!usage) {
        return std::unexpected(
            usage.error().addContext("reading " + where.device + " with " + argv.front()));
    }
    usage->type = where.type;
    return usage;
}

Expected<FilesystemUsage> FilesystemTool::inspect(const FilesystemLocation& where) {
    if (isExtFilesystem(where.type) && !where.mountPoint.empty()) {
        // A mounted ext filesystem's superblock and bitmaps on disk lag behind what was
        // written (delayed allocation): write them out first, or dumpe2fs and resize2fs -P
        // read it emptier than it is.
        if (auto synced =
                runChecked(m_runner, request({"sync", "--file-system", where.mountPoint}));
            !synced) {
            return std::unexpected(synced.error().addContext("flushing " + where.mountPoint));
        }
    }
    auto usage = readUsage(where);
    if (!usage) {
        return usage;
    }
    if (isExtFilesystem(where.type)) {
        // resize2fs refuses any size below this very figure (calculate_minimum_resize_size)
        // before changing anything, unless forced, which SSD Keeper never does.
        auto minimum = runChecked(m_runner, request({"resize2fs", "-P", where.device}));
        if (!minimum) {
            return std::unexpected(minimum.error());
        }
        auto blocks = parseResize2fsMinimumBlocks(minimum->standardOutput);
        if (!blocks) {
            return std::unexpected(blocks.error());
        }
        usage->minimumSize = std::max(usage->used, Bytes(*blocks * usage->blockSize.value));
        usage->minimumSource = "resize2fs -P";
        usage->minimumExact = true;
        usage->source = "dumpe2fs -h, resize2fs -P";
    } else if (where.type == "btrfs") {
        // Not `btrfs inspect-internal min-dev-size`: it counts allocated chunks, which a
        // shrinking resize relocates by itself. Relocating them needs unallocated room for a
        // chunk or two besides what is used: a quarter more, which the resize itself checks
        // (ENOSPC leaves the filesystem as it was).
        usage->minimumSize = Bytes(usage->used.value + usage->used.value / 4);
        usage->minimumSource = "in use + 25 % to relocate chunks (an estimate)";
        usage->minimumExact = false;
    }
    return usage;
}

Expected<Bytes> FilesystemTool::size(const FilesystemLocation& where) {
    auto usage = readUsage(where);
    if (!usage) {
        return std::unexpected(usage.error());
    }
    return usage->size;
}

Expected<std::optional<device::MountInfoEntry>>
FilesystemTool::mountOf(const std::string& device, const std::string& mountPoint) const {
    std::ifstream in(m_mountInfo);
    if (!in) {
        return fail(ErrorCode::Io, "cannot read " + m_mountInfo.string());
    }
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    return findMount(text, device, mountPoint);
}

Expected<void> FilesystemTool::unmount(const std::string& device, const std::string& mountPoint) {
    auto mounted = mountOf(device, mountPoint);
    if (!mounted) {
        return std::unexpected(mounted.error());
    }
    if (!*mounted) {
        return {};
    }
    // Never lazily (-l): a filesystem still in use must stay mounted and the step fail.
    if (auto done = runChecked(m_runner, request({"umount", mountPoint})); !done) {
        return std::unexpected(
            done.error().addContext("unmounting " + device + " from " + mountPoint));
    }
    return {};
}

Expected<void> FilesystemTool::mount(const FilesystemLocation& where, const std::string& options) {
    auto mounted = mountOf(where.device, where.mountPoint);
    if (!mounted) {
        return std::unexpected(mounted.error());
    }
    if (*mounted) {
        return {};
    }
    auto safeOptions = helperMountOptions(options);
    if (!safeOptions) {
        return std::unexpected(safeOptions.error().addContext("mounting " + where.device));
    }
    std::error_code error;
    const auto canonical = std::filesystem::canonical(where.mountPoint, error);
    if (error || canonical != where.mountPoint || !std::filesystem::is_directory(canonical)) {
        return fail(ErrorCode::InvalidArgument,
                    "refusing to mount " + where.device + " at " + where.mountPoint +
                        ": not an existing directory named by its canonical path");
    }
    const std::vector<std::string> argv{"mount",      "-t",         where.type,      "-o",
                                        *safeOptions, where.device, where.mountPoint};
    if (auto done = runChecked(m_runner, request(argv)); !done) {
        return std::unexpected(
            done.error().addContext("mounting " + where.device + " at " + where.mountPoint));
    }
    return {};
}

Expected<void> FilesystemTool::check(const FilesystemLocation& where) {
    if (!where.mountPoint.empty() || where.type == "btrfs") {
        return {};
    }
    if (isExtFilesystem(where.type)) {
        // 0: clean, 1: errors corrected, 2: corrected, reboot advised (not for unmounted).
        return runAccepting(m_runner, request({"e2fsck", "-f", "-y", where.device}, kCheckTimeout),
                            2);
    }
    if (where.type == "ntfs") {
        return runAccepting(m_runner, request({"ntfsresize", "--check", "--force",
                                               "--no-progress-bar", where.device},
                                              kCheckTimeout));
    }
    return std::unexpected(unsupported(where));
}

Expected<void> FilesystemTool::verify(const FilesystemLocation& where) {
    if (!where.mountPoint.empty() || where.type == "btrfs") {
        return {};
    }
    if (isExtFilesystem(where.type)) {
        return runAccepting(m_runner, request({"e2fsck", "-f", "-n", where.device}, kCheckTimeout));
    }
    return check(where);
}

Expected<void> FilesystemTool::resize(const FilesystemLocation& where, Bytes newSize) {
    auto current = size(where);
    if (!current) {
        return std::unexpected(current.error());
    }
    if (sameSize(*current, newSize)) {
        return {};
    }
    ProcessRequest req;
    if (isExtFilesystem(where.type)) {
        if (newSize.value % 1024 != 0) {
            return fail(ErrorCode::InvalidArgument,
                        fmt::format("ext size {} is not a multiple of 1 KiB", newSize.value));
        }
        // Online (mounted) resize2fs can only grow; the planner refuses a mounted shrink.
        req = request({"resize2fs", where.device, fmt::format("{}K", newSize.value / 1024)},
                      kResizeTimeout);
    } else if (where.type == "ntfs") {
        req = request({"ntfsresize", "--force", "--no-progress-bar", "--size",
                       std::to_string(newSize.value), where.device},
                      kResizeTimeout);
        req.standardInput = "y\n";
    } else if (where.type == "btrfs" && !where.mountPoint.empty()) {
        req = request(
            {"btrfs", "filesystem", "resize", fmt::format("1:{}", newSize.value), where.mountPoint},
            kResizeTimeout);
    } else {
        return std::unexpected(unsupported(where));
    }
    auto resized = runAccepting(m_runner, req);
    if (!resized && isExtFilesystem(where.type) && !where.mountPoint.empty() &&
        resized.error().message().find("Permission denied") != std::string::npos) {
        return std::unexpected(resized.error().addContext(
            "growing a mounted ext filesystem needs CAP_SYS_RESOURCE, which this system denies "
            "(a container?): unmount " +
            where.mountPoint + " and try again"));
    }
    return resized;
}

} // namespace ssdk::overprovision
