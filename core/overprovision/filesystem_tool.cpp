#include "core/overprovision/filesystem_tool.h"

#include <fmt/format.h>

#include "core/base/log.h"

namespace ssdk::overprovision {

namespace {

using namespace std::chrono_literals;

// Resizing a large filesystem moves data: give the tools time.
constexpr std::chrono::milliseconds kResizeTimeout = std::chrono::hours(6);
constexpr std::chrono::milliseconds kCheckTimeout = std::chrono::hours(2);

bool isExt(std::string_view type) {
    return type == "ext2" || type == "ext3" || type == "ext4";
}

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

} // namespace

bool sameSize(Bytes filesystemSize, Bytes target) {
    return filesystemSize <= target && (target - filesystemSize) < kSizeSlack;
}

bool isSupportedFilesystem(std::string_view type) {
    return isExt(type) || type == "ntfs" || type == "btrfs";
}

FilesystemTool::FilesystemTool(ProcessRunner& runner)
    : m_runner(runner) {}

Expected<FilesystemUsage> FilesystemTool::inspect(const FilesystemLocation& where) {
    if (isExt(where.type)) {
        auto dump = runChecked(m_runner, request({"dumpe2fs", "-h", where.device}));
        if (!dump) {
            return std::unexpected(dump.error());
        }
        auto usage = parseDumpe2fs(dump->standardOutput);
        if (!usage) {
            return usage;
        }
        usage->type = where.type;
        auto minimum = runChecked(m_runner, request({"resize2fs", "-P", where.device}));
        if (!minimum) {
            return std::unexpected(minimum.error());
        }
        auto blocks = parseResize2fsMinimumBlocks(minimum->standardOutput);
        if (!blocks) {
            return std::unexpected(blocks.error());
        }
        usage->minimumSize = std::max(usage->used, Bytes(*blocks * usage->blockSize.value));
        usage->source = "dumpe2fs -h, resize2fs -P";
        return usage;
    }
    if (where.type == "ntfs") {
        auto info = runLogged(m_runner, request({"ntfsresize", "--info", "--force",
                                                 "--no-progress-bar", where.device}));
        if (!info) {
            return std::unexpected(info.error());
        }
        auto usage = parseNtfsresizeInfo(info->standardOutput);
        if (!usage) {
            return std::unexpected(
                usage.error().addContext("reading " + where.device + " with ntfsresize"));
        }
        return usage;
    }
    if (where.type == "btrfs") {
        if (where.mountPoint.empty()) {
            return fail(ErrorCode::Unsupported,
                        "btrfs on " + where.device + " can be measured only while mounted");
        }
        auto usageOut =
            runChecked(m_runner, request({"btrfs", "filesystem", "usage", "-b", where.mountPoint}));
        if (!usageOut) {
            return std::unexpected(usageOut.error());
        }
        auto usage = parseBtrfsUsage(usageOut->standardOutput);
        if (!usage) {
            return usage;
        }
        // Not `btrfs inspect-internal min-dev-size`: it counts allocated chunks, which a
        // shrinking resize relocates by itself. Relocating them needs unallocated room for a
        // chunk or two besides what is used: a quarter more, which the resize itself checks
        // (ENOSPC leaves the filesystem as it was).
        usage->minimumSize = Bytes(usage->used.value + usage->used.value / 4);
        return usage;
    }
    return std::unexpected(unsupported(where));
}

Expected<Bytes> FilesystemTool::size(const FilesystemLocation& where) {
    if (isExt(where.type)) {
        auto dump = runChecked(m_runner, request({"dumpe2fs", "-h", where.device}));
        if (!dump) {
            return std::unexpected(dump.error());
        }
        auto usage = parseDumpe2fs(dump->standardOutput);
        if (!usage) {
            return std::unexpected(usage.error());
        }
        return usage->size;
    }
    if (where.type == "ntfs") {
        auto info = runLogged(m_runner, request({"ntfsresize", "--info", "--force",
                                                 "--no-progress-bar", where.device}));
        if (!info) {
            return std::unexpected(info.error());
        }
        auto usage = parseNtfsresizeInfo(info->standardOutput);
        if (!usage) {
            return std::unexpected(usage.error());
        }
        return usage->size;
    }
    if (where.type == "btrfs" && !where.mountPoint.empty()) {
        auto out =
            runChecked(m_runner, request({"btrfs", "filesystem", "usage", "-b", where.mountPoint}));
        if (!out) {
            return std::unexpected(out.error());
        }
        auto usage = parseBtrfsUsage(out->standardOutput);
        if (!usage) {
            return std::unexpected(usage.error());
        }
        return usage->size;
    }
    return std::unexpected(unsupported(where));
}

Expected<void> FilesystemTool::check(const FilesystemLocation& where) {
    if (!where.mountPoint.empty() || where.type == "btrfs") {
        return {};
    }
    if (isExt(where.type)) {
        auto req = request({"e2fsck", "-f", "-y", where.device}, kCheckTimeout);
        auto result = runLogged(m_runner, req);
        if (!result) {
            return std::unexpected(result.error());
        }
        // 0: clean, 1: errors corrected, 2: corrected, reboot advised (not for unmounted).
        if (result->exitCode > 2) {
            return std::unexpected(failedTool(req, *result));
        }
        return {};
    }
    if (where.type == "ntfs") {
        auto req = request({"ntfsresize", "--check", "--force", "--no-progress-bar", where.device},
                           kCheckTimeout);
        auto result = runLogged(m_runner, req);
        if (!result) {
            return std::unexpected(result.error());
        }
        if (!result->succeeded()) {
            return std::unexpected(failedTool(req, *result));
        }
        return {};
    }
    return std::unexpected(unsupported(where));
}

Expected<void> FilesystemTool::verify(const FilesystemLocation& where) {
    if (!where.mountPoint.empty() || where.type == "btrfs") {
        return {};
    }
    if (isExt(where.type)) {
        auto req = request({"e2fsck", "-f", "-n", where.device}, kCheckTimeout);
        auto result = runLogged(m_runner, req);
        if (!result) {
            return std::unexpected(result.error());
        }
        if (!result->succeeded()) {
            return std::unexpected(failedTool(req, *result));
        }
        return {};
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
    if (isExt(where.type)) {
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
    auto result = runLogged(m_runner, req);
    if (!result) {
        return std::unexpected(result.error());
    }
    if (!result->succeeded()) {
        return std::unexpected(failedTool(req, *result));
    }
    return {};
}

} // namespace ssdk::overprovision
