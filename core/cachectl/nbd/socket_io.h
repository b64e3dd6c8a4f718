#pragma once
// Blocking whole-buffer I/O on stream sockets. Writes use MSG_NOSIGNAL: a peer that went away
// gives an Io error, never SIGPIPE.

#include <cstddef>
#include <filesystem>
#include <span>
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
// is replaced; a live one is Busy; any other file there is left alone and Busy.
Expected<UniqueFd> listenUnixSocket(const std::filesystem::path& path);
Expected<UniqueFd> connectUnixSocket(const std::filesystem::path& path);

} // namespace ssdk::cachectl::nbd
