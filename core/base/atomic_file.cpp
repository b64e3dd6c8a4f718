#include "core/base/atomic_file.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/unique_fd.h"

namespace ssdk {

Expected<void> writeFileAtomically(const std::filesystem::path& file, std::string_view text,
                                   mode_t mode) {
    const std::filesystem::path temporary = file.string() + ".ssdkeeper.tmp";
    UniqueFd fd(::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode));
    if (!fd.valid()) {
        return failErrno(errno, "creating " + temporary.string());
    }
    if (::fchmod(fd.get(), mode) != 0) { // exactly `mode`, whatever the umask
        const int error = errno;
        (void)::unlink(temporary.c_str());
        return failErrno(error, "setting the mode of " + temporary.string());
    }
    std::size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(fd.get(), text.data() + written, text.size() - written);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            const int error = errno;
            (void)::unlink(temporary.c_str());
            return failErrno(error, "writing " + temporary.string());
        }
        written += static_cast<std::size_t>(n);
    }
    if (::fsync(fd.get()) != 0) {
        const int error = errno;
        (void)::unlink(temporary.c_str());
        return failErrno(error, "syncing " + temporary.string());
    }
    fd.reset();
    if (::rename(temporary.c_str(), file.c_str()) != 0) {
        const int error = errno;
        (void)::unlink(temporary.c_str());
        return failErrno(error, "renaming " + temporary.string() + " to " + file.string());
    }
    const auto directory = file.has_parent_path() ? file.parent_path() : ".";
    UniqueFd dir(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (dir.valid()) {
        (void)::fsync(dir.get());
    }
    return {};
}

} // namespace ssdk
