#include "core/maintenance/trim/fstrim.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <fcntl.h>
#include <filesystem>
#include <sys/statvfs.h>

#include "core/base/unique_fd.h"
#include "core/device/mountinfo.h"
#include "core/maintenance/block_ioctl.h"

namespace ssdk::maintenance::trim {

namespace {

bool isMountPoint(const SysfsRoot& root, const std::string& path) {
    auto text = root.tryString(root.proc() / "self" / "mountinfo");
    if (!text) {
        return false;
    }
    for (const auto& mount : device::parseMountInfo(*text)) {
        if (mount.mountPoint == path) {
            return true;
        }
    }
    return false;
}

std::string_view value(std::string_view text, std::string_view key) {
    std::size_t pos = 0;
    while (pos < text.size()) {
        auto end = text.find('\n', pos);
        if (end == std::string_view::npos) {
            end = text.size();
        }
        const auto line = text.substr(pos, end - pos);
        if (line.starts_with(key) && line.size() > key.size() && line[key.size()] == '=') {
            return line.substr(key.size() + 1);
        }
        pos = end + 1;
    }
    return {};
}

} // namespace

Expected<FstrimResult> runFstrim(const std::string& mountPoint, const SysfsRoot& root, int slices,
                                 const TrimProgress& progress) {
    std::error_code ec;
    const std::string canonical = std::filesystem::canonical(mountPoint, ec).string();
    if (ec) {
        return fail(ErrorCode::NotFound, "no such mount point " + mountPoint);
    }
    if (!isMountPoint(root, canonical)) {
        return fail(ErrorCode::InvalidArgument,
                    mountPoint + " is not a mount point; fstrim acts on a whole filesystem, "
                                 "give its mount point");
    }
    UniqueFd fd(::open(canonical.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!fd.valid()) {
        return failErrno(errno, "opening " + canonical);
    }
    struct statvfs vfs {};
    if (::fstatvfs(fd.get(), &vfs) != 0) {
        return failErrno(errno, "statvfs " + canonical);
    }
    FstrimResult result;
    result.mountPoint = canonical;
    result.filesystemSize = Bytes(std::uint64_t{vfs.f_blocks} * vfs.f_frsize);
    slices = std::max(1, slices);
    const std::uint64_t total = result.filesystemSize.value;
    const std::uint64_t step =
        std::max<std::uint64_t>(total / static_cast<std::uint64_t>(slices) + 1, 1ULL << 20);
    for (std::uint64_t start = 0; start < total; start += step) {
        const auto trimmed = trimFilesystemRange(fd.get(), start, std::min(step, total - start));
        if (!trimmed) {
            const int err = trimmed.error();
            if (err == EOPNOTSUPP) {
                return fail(ErrorCode::Unsupported,
                            "the discard operation is not supported by " + canonical +
                                " or a layer below it (FITRIM: EOPNOTSUPP)");
            }
            return failErrno(err, "FITRIM on " + canonical);
        }
        result.trimmed = result.trimmed + Bytes(*trimmed);
        ++result.slices;
        if (progress) {
            progress(static_cast<double>(std::min(total, start + step)) /
                         static_cast<double>(total),
                     result.trimmed);
        }
    }
    return result;
}

TimerFacts parseTimerShow(std::string_view text) {
    TimerFacts timer;
    timer.available = true;
    const auto fileState = value(text, "UnitFileState");
    timer.enabled = fileState == "enabled" || fileState == "enabled-runtime";
    timer.active = value(text, "ActiveState") == "active";
    auto last = value(text, "LastTriggerUSec");
    if (last.starts_with('@')) {
        last.remove_prefix(1);
        std::int64_t seconds = 0;
        auto [ptr, err] = std::from_chars(last.data(), last.data() + last.size(), seconds);
        if (err == std::errc() && seconds > 0) {
            timer.lastTriggerEpochSeconds = seconds;
        }
    }
    if (fileState.empty()) {
        timer.available = false;
        timer.unavailableReason = "systemd knows no fstrim.timer (util-linux ships it)";
    }
    return timer;
}

TimerFacts readTimer(ProcessRunner& runner, const SysfsRoot& root) {
    TimerFacts timer;
    std::error_code ec;
    if (!std::filesystem::exists(root.run() / "systemd" / "system", ec)) {
        timer.unavailableReason = "systemd is not the init system here (no " +
                                  (root.run() / "systemd" / "system").string() + ")";
        return timer;
    }
    auto shown =
        runner.run({.argv = {"systemctl", "show", "fstrim.timer", "-p", "UnitFileState", "-p",
                             "ActiveState", "-p", "LastTriggerUSec", "--timestamp=unix"}});
    if (!shown) {
        timer.unavailableReason = shown.error().describe();
        return timer;
    }
    if (!shown->succeeded()) {
        timer.unavailableReason = "systemctl show failed: " + shown->standardError;
        return timer;
    }
    return parseTimerShow(shown->standardOutput);
}

Expected<TimerFacts> setTimerEnabled(ProcessRunner& runner, const SysfsRoot& root, bool enabled) {
    TimerFacts before = readTimer(runner, root);
    if (!before.available) {
        return fail(ErrorCode::Unsupported,
                    "fstrim.timer cannot be changed: " + before.unavailableReason);
    }
    auto changed = runChecked(
        runner, {.argv = {"systemctl", enabled ? "enable" : "disable", "--now", "fstrim.timer"}});
    if (!changed) {
        return std::unexpected(changed.error());
    }
    return readTimer(runner, root);
}

Json toJson(const TimerFacts& timer) {
    Json json{{"available", timer.available},
              {"enabled", timer.enabled},
              {"active", timer.active},
              {"last_trigger", timer.lastTriggerEpochSeconds ? Json(*timer.lastTriggerEpochSeconds)
                                                             : Json(nullptr)}};
    if (!timer.available) {
        json["reason"] = timer.unavailableReason;
    }
    return json;
}

} // namespace ssdk::maintenance::trim
