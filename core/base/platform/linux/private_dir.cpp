#include "core/base/private_dir.h"

#include <cerrno>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "core/base/log.h"

namespace ssdk {

namespace {

namespace fs = std::filesystem;

Error refused(const std::string& shown, const std::string& why) {
    const std::string who =
        ::geteuid() == 0 ? std::string("root") : fmt::format("root or uid {}", ::geteuid());
    return Error(ErrorCode::PermissionDenied,
                 fmt::format("refusing {}: {} (it must be a directory only {} can change)", shown,
                             why, who));
}

// A directory on the way: root's or ours, and nobody else may add, rename or remove entries.
Expected<void> checkAncestor(const struct stat& info, const std::string& shown) {
    if (!S_ISDIR(info.st_mode)) {
        return std::unexpected(refused(shown, "it is not a directory"));
    }
    if (info.st_uid != 0 && info.st_uid != ::geteuid()) {
        return std::unexpected(refused(shown, fmt::format("it is owned by uid {}", info.st_uid)));
    }
    if ((info.st_mode & (S_IWGRP | S_IWOTH)) != 0 && (info.st_mode & S_ISVTX) == 0) {
        return std::unexpected(
            refused(shown, fmt::format("it is writable by group or others (mode {:04o})",
                                       info.st_mode & 07777)));
    }
    return {};
}

// The private directory itself: ours and closed to everyone else.
Expected<void> checkFinal(const struct stat& info, const std::string& shown) {
    if (!S_ISDIR(info.st_mode)) {
        return std::unexpected(refused(shown, "it is not a directory"));
    }
    if (info.st_uid != ::geteuid()) {
        return std::unexpected(refused(
            shown, fmt::format("it is owned by uid {}, not by uid {}", info.st_uid, ::geteuid())));
    }
    if ((info.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
        return std::unexpected(
            refused(shown, fmt::format("it is writable by group or others (mode {:04o})",
                                       info.st_mode & 07777)));
    }
    if ((info.st_mode & 077) != 0) {
        return std::unexpected(
            refused(shown, fmt::format("group or others have access (mode {:04o}, expected 0700)",
                                       info.st_mode & 07777)));
    }
    return {};
}

Expected<UniqueFd> walk(const fs::path& dir, bool create) {
    std::error_code error;
    const fs::path absolute = fs::absolute(dir, error).lexically_normal();
    if (error) {
        return failErrno(error.value(), "resolving " + dir.string());
    }
    std::vector<std::string> components;
    for (const auto& part : absolute.relative_path()) {
        if (!part.empty()) {
            components.push_back(part.string());
        }
    }
    if (components.empty()) {
        return std::unexpected(refused("/", "the root directory is not private"));
    }
    UniqueFd current(::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!current.valid()) {
        return failErrno(errno, "opening /");
    }
    struct stat info {};
    if (::fstat(current.get(), &info) != 0) {
        return failErrno(errno, "checking /");
    }
    if (auto checked = checkAncestor(info, "/"); !checked) {
        return std::unexpected(checked.error());
    }
    std::string shown;
    for (std::size_t i = 0; i < components.size(); ++i) {
        const bool last = i + 1 == components.size();
        const std::string& name = components[i];
        shown += "/" + name;
        const int flags = O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
        UniqueFd next(::openat(current.get(), name.c_str(), flags));
        bool made = false;
        if (!next.valid() && errno == ENOENT && create) {
            // Made inside a directory checked above, which nobody else can change.
            if (::mkdirat(current.get(), name.c_str(), 0700) == 0) {
                made = true;
            } else if (errno != EEXIST) {
                return failErrno(errno, "creating " + shown);
            }
            next = UniqueFd(::openat(current.get(), name.c_str(), flags));
        }
        if (!next.valid()) {
            if (errno == ELOOP || errno == ENOTDIR) {
                return std::unexpected(refused(shown, "it is a symbolic link or not a directory"));
            }
            return failErrno(errno, "opening " + shown);
        }
        if (::fstat(next.get(), &info) != 0) {
            return failErrno(errno, "checking " + shown);
        }
        // 0700 whatever the umask was when it was made; an older, merely readable directory
        // of ours loses the group and other bits. A writable one is refused below.
        const bool ours = S_ISDIR(info.st_mode) && info.st_uid == ::geteuid() &&
                          (info.st_mode & (S_IWGRP | S_IWOTH)) == 0;
        if (ours && (made || (last && create && (info.st_mode & 077) != 0))) {
            const mode_t mode = made ? 0700 : (info.st_mode & 07700);
            if (::fchmodat(current.get(), name.c_str(), mode, 0) != 0) {
                return failErrno(errno, "restricting the mode of " + shown);
            }
            if (!made) {
                log::get("base")->info("{}: mode {:04o} -> {:04o}", shown, info.st_mode & 07777,
                                       mode);
            }
            if (::fstat(next.get(), &info) != 0) {
                return failErrno(errno, "checking " + shown);
            }
        }
        if (auto checked = last ? checkFinal(info, shown) : checkAncestor(info, shown); !checked) {
            return std::unexpected(checked.error());
        }
        current = std::move(next);
    }
    // The walk holds O_PATH descriptors; the caller gets one it can read and sync.
    UniqueFd directory(::openat(current.get(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!directory.valid()) {
        return failErrno(errno, "opening " + shown);
    }
    return directory;
}

} // namespace

Expected<void> checkPrivateDirectory(const std::filesystem::path& dir) {
    auto opened = walk(dir, false);
    return opened ? Expected<void>() : Expected<void>(std::unexpected(opened.error()));
}

Expected<void> ensurePrivateDirectory(const std::filesystem::path& dir) {
    auto opened = walk(dir, true);
    return opened ? Expected<void>() : Expected<void>(std::unexpected(opened.error()));
}

Expected<UniqueFd> openPrivateDirectory(const std::filesystem::path& dir) {
    return walk(dir, true);
}

} // namespace ssdk
