#include "core/base/private_dir.h"

#include "core/base/platform/replay/unavailable.h"

namespace ssdk {

namespace fs = std::filesystem;

namespace {

// Standard C++ sees no owners: here a private directory is a real directory (not a link) with
// no group or other permission bits, below directories that are no links and that group and
// others cannot write (a sticky one such as /tmp excepted).
Expected<void> refused(const fs::path& dir, const std::string& why) {
    return fail(ErrorCode::PermissionDenied, "refusing " + dir.string() + ": " + why);
}

// The checks of every directory on the way and of the private one itself.
Expected<void> checkDirectory(const fs::path& dir, const fs::file_status& status) {
    if (!fs::is_directory(status)) {
        return refused(dir, "it is a symbolic link or not a directory");
    }
    const auto perms = status.permissions();
    if ((perms & (fs::perms::group_write | fs::perms::others_write)) != fs::perms::none &&
        (perms & fs::perms::sticky_bit) == fs::perms::none) {
        return refused(dir, "it is writable by group or others");
    }
    return {};
}

Expected<void> checkAncestor(const fs::path& dir) {
    std::error_code error;
    return checkDirectory(dir, fs::symlink_status(dir, error));
}

Expected<void> checkAncestors(const fs::path& dir) {
    fs::path current;
    for (const auto& part : dir.parent_path()) {
        current /= part;
        if (auto checked = checkAncestor(current); !checked) {
            return checked;
        }
    }
    return {};
}

} // namespace

Expected<void> checkPrivateDirectory(const fs::path& dir) {
    std::error_code error;
    const auto status = fs::symlink_status(dir, error);
    if (!fs::exists(status)) {
        return fail(ErrorCode::NotFound, dir.string() + " does not exist");
    }
    if (auto checked = checkAncestors(dir); !checked) {
        return checked;
    }
    if (auto checked = checkDirectory(dir, status); !checked) {
        return checked;
    }
    if ((status.permissions() & (fs::perms::group_all | fs::perms::others_all)) !=
        fs::perms::none) {
        return refused(dir, "group or others have access");
    }
    return {};
}

Expected<void> ensurePrivateDirectory(const fs::path& dir) {
    std::error_code error;
    fs::path current;
    for (const auto& part : dir.lexically_normal()) {
        current /= part;
        if (!fs::exists(fs::symlink_status(current, error))) {
            if (!fs::create_directory(current, error) && error) {
                return fail(ErrorCode::Io, "creating " + current.string() + ": " + error.message());
            }
            fs::permissions(current, fs::perms::owner_all, error);
        } else if (current != dir.lexically_normal()) {
            if (auto checked = checkAncestor(current); !checked) {
                return checked;
            }
        }
    }
    const auto perms = fs::symlink_status(dir, error).permissions();
    const auto readable = fs::perms::group_read | fs::perms::group_exec | fs::perms::others_read |
                          fs::perms::others_exec;
    if ((perms & (fs::perms::group_write | fs::perms::others_write)) == fs::perms::none &&
        (perms & readable) != fs::perms::none) {
        fs::permissions(dir, readable, fs::perm_options::remove, error);
    }
    return checkPrivateDirectory(dir);
}

Expected<UniqueFd> openPrivateDirectory(const fs::path& dir) {
    return std::unexpected(replay::unavailable("a descriptor of " + dir.string()));
}

} // namespace ssdk
