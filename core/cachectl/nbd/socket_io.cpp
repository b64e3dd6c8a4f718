#include "core/cachectl/nbd/socket_io.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fmt/core.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "core/base/private_dir.h"

namespace ssdk::cachectl::nbd {

Expected<std::size_t> readFull(int fd, std::span<std::byte> out) {
    std::size_t done = 0;
    while (done < out.size()) {
        const ssize_t n = ::read(fd, out.data() + done, out.size() - done);
        if (n == 0) {
            break;
        }
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return failErrno(errno, "reading from the NBD socket");
        }
        done += static_cast<std::size_t>(n);
    }
    return done;
}

Expected<void> readExact(int fd, std::span<std::byte> out) {
    auto got = readFull(fd, out);
    if (!got) {
        return std::unexpected(got.error());
    }
    if (*got != out.size()) {
        return fail(ErrorCode::Io, "the NBD peer closed the connection in the middle of a message");
    }
    return {};
}

Expected<void> discardBytes(int fd, std::uint64_t length) {
    std::array<std::byte, 64 * 1024> sink{};
    while (length > 0) {
        const std::size_t chunk =
            length < sink.size() ? static_cast<std::size_t>(length) : sink.size();
        if (auto read = readExact(fd, std::span(sink).first(chunk)); !read) {
            return read;
        }
        length -= chunk;
    }
    return {};
}

Expected<void> writeAll(int fd, std::span<const std::byte> data) {
    iovec one{.iov_base = const_cast<std::byte*>(data.data()), .iov_len = data.size()};
    return writevAll(fd, std::span(&one, 1));
}

Expected<void> writevAll(int fd, std::span<iovec> iov) {
    std::size_t first = 0;
    while (first < iov.size()) {
        msghdr message{};
        message.msg_iov = iov.data() + first;
        message.msg_iovlen = iov.size() - first;
        const ssize_t n = ::sendmsg(fd, &message, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return failErrno(errno, "writing to the NBD socket");
        }
        auto left = static_cast<std::size_t>(n);
        while (first < iov.size() && left >= iov[first].iov_len) {
            left -= iov[first].iov_len;
            ++first;
        }
        if (first < iov.size()) {
            iov[first].iov_base = static_cast<std::byte*>(iov[first].iov_base) + left;
            iov[first].iov_len -= left;
        }
    }
    return {};
}

BufferedReader::BufferedReader(int fd, std::size_t capacity)
    : m_fd(fd)
    , m_buffer(capacity) {}

Expected<std::size_t> BufferedReader::readFull(std::span<std::byte> out) {
    std::size_t done = 0;
    while (done < out.size()) {
        if (m_begin == m_end) {
            const std::size_t left = out.size() - done;
            if (left >= m_buffer.size()) {
                // A large payload goes straight to its destination.
                auto direct = nbd::readFull(m_fd, out.subspan(done));
                if (!direct) {
                    return direct;
                }
                return done + *direct;
            }
            ssize_t n = 0;
            do {
                n = ::read(m_fd, m_buffer.data(), m_buffer.size());
            } while (n < 0 && errno == EINTR);
            if (n < 0) {
                return failErrno(errno, "reading from the NBD socket");
            }
            if (n == 0) {
                return done;
            }
            m_begin = 0;
            m_end = static_cast<std::size_t>(n);
        }
        const std::size_t take = std::min(out.size() - done, m_end - m_begin);
        std::copy_n(m_buffer.begin() + static_cast<std::ptrdiff_t>(m_begin), take,
                    out.begin() + static_cast<std::ptrdiff_t>(done));
        m_begin += take;
        done += take;
    }
    return done;
}

Expected<void> BufferedReader::readExact(std::span<std::byte> out) {
    auto got = readFull(out);
    if (!got) {
        return std::unexpected(got.error());
    }
    if (*got != out.size()) {
        return fail(ErrorCode::Io, "the NBD peer closed the connection in the middle of a message");
    }
    return {};
}

Expected<void> BufferedReader::discard(std::uint64_t length) {
    std::array<std::byte, 64 * 1024> sink{};
    while (length > 0) {
        const std::size_t chunk =
            length < sink.size() ? static_cast<std::size_t>(length) : sink.size();
        if (auto read = readExact(std::span(sink).first(chunk)); !read) {
            return read;
        }
        length -= chunk;
    }
    return {};
}

namespace {

Expected<sockaddr_un> unixAddress(const std::filesystem::path& path) {
    sockaddr_un address{};
    if (path.native().size() >= sizeof(address.sun_path)) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("socket path {} is longer than {} bytes", path.string(),
                                sizeof(address.sun_path) - 1));
    }
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, path.c_str(), path.native().size());
    return address;
}

} // namespace

Expected<UniqueFd> connectUnixSocket(const std::filesystem::path& path) {
    auto address = unixAddress(path);
    if (!address) {
        return std::unexpected(address.error());
    }
    UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!fd.valid()) {
        return failErrno(errno, "creating a Unix socket");
    }
    if (::connect(fd.get(), reinterpret_cast<sockaddr*>(&*address), sizeof(*address)) != 0) {
        return failErrno(errno, fmt::format("connecting to {}", path.string()));
    }
    return fd;
}

Expected<UniqueFd> listenUnixSocket(const std::filesystem::path& path) {
    auto address = unixAddress(path);
    if (!address) {
        return std::unexpected(address.error());
    }
    const std::filesystem::path directory =
        path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
    if (auto check = checkPrivateDirectory(directory); !check) {
        return std::unexpected(
            std::move(check.error())
                .addContext(fmt::format("checking the directory of socket {}", path.string())));
    }
    struct stat info {};
    if (::lstat(path.c_str(), &info) == 0) {
        if (!S_ISSOCK(info.st_mode)) {
            return fail(ErrorCode::Busy,
                        fmt::format("{} exists and is not a socket", path.string()));
        }
        if (connectUnixSocket(path)) {
            return fail(ErrorCode::Busy,
                        fmt::format("another server is listening on {}", path.string()));
        }
        ::unlink(path.c_str());
    }
    UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!fd.valid()) {
        return failErrno(errno, "creating a Unix socket");
    }
    // Linux gives the bound file the socket inode's mode less the umask: 0600 from the start,
    // with no moment at which others could connect.
    if (::fchmod(fd.get(), 0600) != 0) {
        return failErrno(errno, fmt::format("setting the mode of socket {}", path.string()));
    }
    if (::bind(fd.get(), reinterpret_cast<sockaddr*>(&*address), sizeof(*address)) != 0) {
        return failErrno(errno, fmt::format("binding {}", path.string()));
    }
    if (::lstat(path.c_str(), &info) != 0 || !S_ISSOCK(info.st_mode) || (info.st_mode & 077) != 0) {
        ::unlink(path.c_str());
        return fail(ErrorCode::PermissionDenied,
                    fmt::format("socket {} was not created private (mode 0600)", path.string()));
    }
    if (::listen(fd.get(), 64) != 0) {
        return failErrno(errno, fmt::format("listening on {}", path.string()));
    }
    return fd;
}

Expected<void> checkUnixPeer(int fd) {
    sockaddr_storage local{};
    socklen_t length = sizeof(local);
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &length) != 0) {
        return failErrno(errno, "checking a connection's socket");
    }
    if (local.ss_family != AF_UNIX) {
        return {};
    }
    ucred peer{};
    socklen_t size = sizeof(peer);
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &size) != 0) {
        return failErrno(errno, "reading the peer credentials of a Unix socket connection");
    }
    if (!peerUidAllowed(peer.uid, ::geteuid())) {
        return fail(ErrorCode::PermissionDenied,
                    fmt::format("a process of uid {} (pid {}) connected; only root and uid {} "
                                "are served",
                                peer.uid, peer.pid, ::geteuid()));
    }
    return {};
}

} // namespace ssdk::cachectl::nbd
