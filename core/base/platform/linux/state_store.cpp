#include "core/base/state_store.h"

#include <algorithm>
#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/atomic_file.h"
#include "core/base/private_dir.h"

namespace ssdk {

namespace {

constexpr int kDirectoryFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

Expected<void> readAll(int fd, std::string& out, std::size_t limit,
                       const std::filesystem::path& shown) {
    char chunk[8192];
    while (true) {
        const ssize_t n = ::read(fd, chunk, sizeof(chunk));
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            return failErrno(errno, "reading " + shown.string());
        }
        if (n == 0) {
            return {};
        }
        out.append(chunk, static_cast<std::size_t>(n));
        if (out.size() > limit) {
            return fail(ErrorCode::InvalidArgument,
                        fmt::format("{} is larger than {} bytes; refusing to read it",
                                    shown.string(), limit));
        }
    }
}

} // namespace

Expected<StateStore> StateStore::open(const std::filesystem::path& directory) {
    if (!directory.is_absolute()) {
        return fail(ErrorCode::InvalidArgument,
                    "a state directory must be an absolute path, not " + directory.string());
    }
    for (const auto& part : directory) {
        if (part == "..") {
            return fail(ErrorCode::InvalidArgument,
                        "a state directory must not contain '..': " + directory.string());
        }
    }
    auto opened = openPrivateDirectory(directory);
    if (!opened) {
        return std::unexpected(opened.error());
    }
    return StateStore(directory.lexically_normal(),
                      std::make_shared<const UniqueFd>(std::move(*opened)));
}

Expected<std::optional<std::string>> StateStore::read(std::string_view name,
                                                      std::size_t maxBytes) const {
    if (auto checked = checkName(name); !checked) {
        return std::unexpected(checked.error());
    }
    const auto shown = pathOf(name);
    UniqueFd file(::openat(fd(), std::string(name).c_str(),
                           O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    if (!file.valid()) {
        if (errno == ENOENT) {
            return std::optional<std::string>();
        }
        if (errno == ELOOP) {
            return fail(ErrorCode::PermissionDenied, shown.string() + " is a link; refusing it");
        }
        return failErrno(errno, "opening " + shown.string());
    }
    struct stat info {};
    if (::fstat(file.get(), &info) != 0) {
        return failErrno(errno, "checking " + shown.string());
    }
    if (!S_ISREG(info.st_mode)) {
        return fail(ErrorCode::PermissionDenied,
                    shown.string() + " is not a regular file; refusing it");
    }
    if (static_cast<std::uint64_t>(info.st_size) > maxBytes) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("{} is larger than {} bytes; refusing to read it", shown.string(),
                                maxBytes));
    }
    std::string text;
    if (auto done = readAll(file.get(), text, maxBytes, shown); !done) {
        return std::unexpected(done.error());
    }
    return std::optional<std::string>(std::move(text));
}

Expected<void> StateStore::write(std::string_view name, std::string_view text) const {
    if (auto checked = checkName(name); !checked) {
        return checked;
    }
    return writeFileAtomicallyAt(fd(), name, text, 0600, pathOf(name));
}

Expected<bool> StateStore::exists(std::string_view name) const {
    if (auto checked = checkName(name); !checked) {
        return std::unexpected(checked.error());
    }
    struct stat info {};
    if (::fstatat(fd(), std::string(name).c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0) {
        return true;
    }
    if (errno == ENOENT) {
        return false;
    }
    return failErrno(errno, "checking " + pathOf(name).string());
}

Expected<void> StateStore::remove(std::string_view name) const {
    if (auto checked = checkName(name); !checked) {
        return checked;
    }
    if (::unlinkat(fd(), std::string(name).c_str(), 0) != 0 && errno != ENOENT) {
        return failErrno(errno, "removing " + pathOf(name).string());
    }
    return {};
}

Expected<std::vector<std::string>> StateStore::list() const {
    const int copy = ::openat(fd(), ".", kDirectoryFlags);
    if (copy < 0) {
        return failErrno(errno, "listing " + m_path.string());
    }
    DIR* dir = ::fdopendir(copy);
    if (dir == nullptr) {
        const int error = errno;
        ::close(copy);
        return failErrno(error, "listing " + m_path.string());
    }
    std::vector<std::string> names;
    while (const dirent* entry = ::readdir(dir)) {
        if (validName(entry->d_name)) {
            names.emplace_back(entry->d_name);
        }
    }
    ::closedir(dir);
    std::ranges::sort(names);
    return names;
}

Expected<UniqueFd> StateStore::lock(std::string_view name) const {
    if (auto checked = checkName(name); !checked) {
        return std::unexpected(checked.error());
    }
    const auto shown = pathOf(name);
    UniqueFd file(::openat(fd(), std::string(name).c_str(),
                           O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600));
    if (!file.valid()) {
        if (errno == ELOOP) {
            return fail(ErrorCode::PermissionDenied, shown.string() + " is a link; refusing it");
        }
        return failErrno(errno, "opening the lock " + shown.string());
    }
    struct stat info {};
    if (::fstat(file.get(), &info) != 0 || !S_ISREG(info.st_mode)) {
        return fail(ErrorCode::PermissionDenied,
                    shown.string() + " is not a regular file; refusing it as a lock");
    }
    if (::flock(file.get(), LOCK_EX | LOCK_NB) != 0) {
        if (errno == EWOULDBLOCK) {
            return fail(ErrorCode::Busy, shown.string() + " is held by another process");
        }
        return failErrno(errno, "locking " + shown.string());
    }
    return file;
}

Expected<bool> StateStore::isLocked(std::string_view name) const {
    if (auto checked = checkName(name); !checked) {
        return std::unexpected(checked.error());
    }
    UniqueFd file(
        ::openat(fd(), std::string(name).c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    if (!file.valid()) {
        if (errno == ENOENT) {
            return false;
        }
        return failErrno(errno, "opening the lock " + pathOf(name).string());
    }
    struct stat info {};
    if (::fstat(file.get(), &info) != 0 || !S_ISREG(info.st_mode)) {
        return fail(ErrorCode::PermissionDenied,
                    pathOf(name).string() + " is not a regular file; refusing it as a lock");
    }
    return ::flock(file.get(), LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
}

} // namespace ssdk
