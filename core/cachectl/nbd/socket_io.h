#pragma once
// Blocking whole-buffer I/O on stream sockets. Writes use MSG_NOSIGNAL: a peer that went away
// gives an Io error, never SIGPIPE.

#include <cstddef>
#include <filesystem>
#include <span>
#include <sys/types.h>
#include <sys/uio.h>
#include <vector>

#include "core/base/error.h"
#include "core/base/unique_fd.h"

namespace ssdk::cachectl::nbd {

// Reads until out is full or the peer closes; returns the bytes read (less than out.size()
// only at end of stream). EINTR is retried.
Expected<std::size_t> readFull(int fd, std::span<std::byte> out);
// Reads exactly out.size() bytes; end of stream before that is an Io error.
Expected<void> readExact(int fd, std::span<std::byte> out);
// Reads and drops length bytes (a payload the server will not use).
Expected<void> discardBytes(int fd, std::uint64_t length);
Expected<void> writeAll(int fd, std::span<const std::byte> data);
// Writes every buffer in order, as one sendmsg when the socket takes it all. Modifies iov.
Expected<void> writevAll(int fd, std::span<iovec> iov);

// Reads a stream through a buffer: one read() fetches as much as the peer has sent, so
// pipelined small messages cost one system call between them. Not thread-safe.
class BufferedReader {
public:
    BufferedReader(int fd, std::size_t capacity);
    // As readFull/readExact/discardBytes above.
    Expected<std::size_t> readFull(std::span<std::byte> out);
    Expected<void> readExact(std::span<std::byte> out);
    Expected<void> discard(std::uint64_t length);

private:
    int m_fd;
    std::vector<std::byte> m_buffer;
    std::size_t m_begin = 0;
    std::size_t m_end = 0;
};

// Binds and listens on a Unix stream socket at path. A stale socket file (nobody accepting)
// is replaced; a live one is Busy; any other file there is left alone and Busy. The socket's
// directory must be private (core/base/private_dir.h; PermissionDenied otherwise) and the
// socket file is made with mode 0600 whatever the umask: only root and this user can
// connect, and nobody else can swap the file.
Expected<UniqueFd> listenUnixSocket(const std::filesystem::path& path);
Expected<UniqueFd> connectUnixSocket(const std::filesystem::path& path);

// Ok when fd is a Unix socket whose peer (SO_PEERCRED, taken at connect) is root or this
// process's effective uid, or when fd is not a Unix socket (loopback TCP: the caller's
// choice); PermissionDenied naming the peer's uid and pid otherwise.
Expected<void> checkUnixPeer(int fd);

// Whether a Unix-socket peer with this uid may talk to a process running as selfEuid:
// root (the helper, the kernel's nbd-client setup) or the same user.
constexpr bool peerUidAllowed(uid_t peer, uid_t selfEuid) {
    return peer == 0 || peer == selfEuid;
}

} // namespace ssdk::cachectl::nbd
