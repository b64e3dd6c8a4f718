#include "core/base/atomic_file.h"

#include <cerrno>
#include <fcntl.h>
#include <random>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/unique_fd.h"

namespace ssdk {

namespace {

std::string temporaryName(std::string_view name) {
    static thread_local std::mt19937_64 random(std::random_device{}() ^
                                               static_cast<std::uint64_t>(::getpid()));
    static constexpr std::string_view kDigits = "0123456789abcdefghijklmnopqrstuvwxyz";
    std::string suffix;
    std::uint64_t value = random();
    for (int i = 0; i < 10; ++i) {
        suffix += kDigits[value % kDigits.size()];
        value /= kDigits.size();
    }
    return "." + std::string(name) + "." + suffix + ".ssdkeeper.tmp";
}

} // namespace

Expected<void> writeFileAtomicallyAt(int directoryFd, std::string_view name, std::string_view text,
                                     std::uint32_t mode, const std::filesystem::path& shownPath) {
    if (name.empty() || name.find('/') != std::string_view::npos || name == "." || name == "..") {
        return fail(ErrorCode::InvalidArgument,
                    "'" + std::string(name) + "' is not a plain file name");
    }
    // O_EXCL with O_CREAT never follows a link and never opens a file that exists: a name
    // planted by someone else is a collision, and another random name is tried.
    std::string temporary;
    UniqueFd fd;
    for (int attempt = 0; attempt < 16 && !fd.valid(); ++attempt) {
        temporary = temporaryName(name);
        fd.reset(::openat(directoryFd, temporary.c_str(),
                          O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode & 0777));
        if (!fd.valid() && errno != EEXIST) {
            return failErrno(errno, "creating a temporary file for " + shownPath.string());
        }
    }
    if (!fd.valid()) {
        return failErrno(EEXIST, "creating a temporary file for " + shownPath.string());
    }
    const auto failAndRemove = [&](int error, const std::string& what) {
        (void)::unlinkat(directoryFd, temporary.c_str(), 0);
        return failErrno(error, what);
    };
    if (::fchmod(fd.get(), mode) != 0) { // exactly `mode`, whatever the umask
        return failAndRemove(errno, "setting the mode of " + shownPath.string());
    }
    std::size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(fd.get(), text.data() + written, text.size() - written);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return failAndRemove(errno, "writing " + shownPath.string());
        }
        written += static_cast<std::size_t>(n);
    }
    if (::fsync(fd.get()) != 0) {
        return failAndRemove(errno, "syncing " + shownPath.string());
    }
    fd.reset();
    // rename replaces whatever entry has the target's name, a link included, without
    // following it.
    if (::renameat(directoryFd, temporary.c_str(), directoryFd, std::string(name).c_str()) != 0) {
        return failAndRemove(errno, "renaming a temporary file to " + shownPath.string());
    }
    (void)::fsync(directoryFd);
    return {};
}

Expected<void> writeFileAtomically(const std::filesystem::path& file, std::string_view text,
                                   std::uint32_t mode) {
    const auto directory = file.has_parent_path() ? file.parent_path() : ".";
    UniqueFd dir(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!dir.valid()) {
        return failErrno(errno, "opening the directory of " + file.string());
    }
    return writeFileAtomicallyAt(dir.get(), file.filename().string(), text, mode, file);
}

} // namespace ssdk
