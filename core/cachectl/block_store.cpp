#include "core/cachectl/block_store.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ssdk::cachectl {

Expected<void> checkRange(std::uint64_t offset, std::uint64_t length, std::uint64_t size) {
    if (offset > size || length > size - offset) {
        return fail(
            ErrorCode::InvalidArgument,
            fmt::format("range {}+{} lies outside a device of {} bytes", offset, length, size));
    }
    return {};
}

MemoryBlockStore::MemoryBlockStore(std::uint64_t size, std::uint32_t blockSize)
    : m_data(size)
    , m_blockSize(blockSize) {}

Expected<void> MemoryBlockStore::read(std::uint64_t offset, std::span<std::byte> out) {
    if (auto range = checkRange(offset, out.size(), size()); !range) {
        return range;
    }
    const std::scoped_lock lock(m_mutex);
    std::memcpy(out.data(), m_data.data() + offset, out.size());
    return {};
}

Expected<void> MemoryBlockStore::write(std::uint64_t offset, std::span<const std::byte> data,
                                       bool /*fua*/) {
    if (auto range = checkRange(offset, data.size(), size()); !range) {
        return range;
    }
    const std::scoped_lock lock(m_mutex);
    std::memcpy(m_data.data() + offset, data.data(), data.size());
    return {};
}

Expected<void> MemoryBlockStore::discard(std::uint64_t offset, std::uint64_t length) {
    return writeZeroes(offset, length, false);
}

Expected<void> MemoryBlockStore::writeZeroes(std::uint64_t offset, std::uint64_t length,
                                             bool /*fua*/) {
    if (auto range = checkRange(offset, length, size()); !range) {
        return range;
    }
    const std::scoped_lock lock(m_mutex);
    std::fill_n(m_data.begin() + static_cast<std::ptrdiff_t>(offset), length, std::byte{0});
    return {};
}

FileBlockStore::FileBlockStore(UniqueFd fd, std::filesystem::path path, std::uint64_t size,
                               std::uint32_t blockSize, bool isBlockDevice,
                               std::pair<std::uint64_t, std::uint64_t> identity)
    : m_fd(std::move(fd))
    , m_path(std::move(path))
    , m_size(size)
    , m_blockSize(blockSize)
    , m_isBlockDevice(isBlockDevice)
    , m_identity(identity) {}

Expected<FileBlockStore> FileBlockStore::open(const std::filesystem::path& path) {
    // O_NONBLOCK: opening a FIFO someone put there must not hang; it is refused below.
    UniqueFd fd(::open(path.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK));
    if (!fd.valid()) {
        if (errno == ELOOP) {
            return fail(ErrorCode::PermissionDenied,
                        path.string() + " is a symbolic link; give the device or file itself");
        }
        return failErrno(errno, "opening " + path.string());
    }
    struct stat info {};
    if (::fstat(fd.get(), &info) != 0) {
        return failErrno(errno, "checking " + path.string());
    }
    const int flags = ::fcntl(fd.get(), F_GETFL);
    if (flags < 0 || ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK) != 0) {
        return failErrno(errno, "setting up " + path.string());
    }
    const std::pair<std::uint64_t, std::uint64_t> identity{info.st_dev, info.st_ino};
    if (S_ISBLK(info.st_mode)) {
        const auto geometry = blockDeviceGeometry(fd.get());
        if (!geometry) {
            return failErrno(geometry.error(), "reading the size of " + path.string());
        }
        return FileBlockStore(std::move(fd), path, geometry->size, geometry->logicalSectorSize,
                              true, identity);
    }
    if (!S_ISREG(info.st_mode)) {
        return fail(ErrorCode::InvalidArgument,
                    path.string() + " is neither a block device nor a regular file");
    }
    if (info.st_uid != ::geteuid()) {
        return fail(ErrorCode::PermissionDenied,
                    fmt::format("{} belongs to uid {}: only files of uid {} (this process) and "
                                "block devices are served",
                                path.string(), info.st_uid, ::geteuid()));
    }
    if (info.st_nlink != 1) {
        return fail(ErrorCode::PermissionDenied,
                    fmt::format("{} has {} hard links: only a file with one name is served",
                                path.string(), info.st_nlink));
    }
    return FileBlockStore(std::move(fd), path, static_cast<std::uint64_t>(info.st_size), 512, false,
                          identity);
}

Expected<void> FileBlockStore::setFileSize(std::uint64_t size) {
    if (m_isBlockDevice) {
        return fail(ErrorCode::Unsupported,
                    m_path.string() + " is a block device: its size is the device's");
    }
    if (::ftruncate(m_fd.get(), static_cast<off_t>(size)) != 0) {
        return failErrno(errno, fmt::format("resizing {} to {} bytes", m_path.string(), size));
    }
    m_size = size;
    return {};
}

Expected<void> FileBlockStore::read(std::uint64_t offset, std::span<std::byte> out) {
    if (auto range = checkRange(offset, out.size(), m_size); !range) {
        return range;
    }
    std::size_t done = 0;
    while (done < out.size()) {
        const auto got = ::pread(m_fd.get(), out.data() + done, out.size() - done,
                                 static_cast<off_t>(offset + done));
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got < 0) {
            return failErrno(errno, fmt::format("reading {} at {}", m_path.string(), offset));
        }
        if (got == 0) {
            return fail(ErrorCode::Io,
                        fmt::format("{} ended at {}", m_path.string(), offset + done));
        }
        done += static_cast<std::size_t>(got);
    }
    return {};
}

Expected<void> FileBlockStore::write(std::uint64_t offset, std::span<const std::byte> data,
                                     bool fua) {
    if (auto range = checkRange(offset, data.size(), m_size); !range) {
        return range;
    }
    std::size_t done = 0;
    while (done < data.size()) {
        const auto put = ::pwrite(m_fd.get(), data.data() + done, data.size() - done,
                                  static_cast<off_t>(offset + done));
        if (put < 0 && errno == EINTR) {
            continue;
        }
        if (put < 0) {
            return failErrno(errno, fmt::format("writing {} at {}", m_path.string(), offset));
        }
        done += static_cast<std::size_t>(put);
    }
    return fua ? flush() : Expected<void>{};
}

Expected<void> FileBlockStore::flush() {
    if (::fdatasync(m_fd.get()) != 0) {
        return failErrno(errno, "flushing " + m_path.string());
    }
    return {};
}

Expected<void> FileBlockStore::discard(std::uint64_t offset, std::uint64_t length) {
    if (auto range = checkRange(offset, length, m_size); !range) {
        return range;
    }
    const auto discarded = discardRange(m_fd.get(), m_isBlockDevice, offset, length);
    // Discard is a hint: a device or filesystem that cannot do it is not an error.
    if (!discarded && discarded.error() != EOPNOTSUPP && discarded.error() != ENOTTY) {
        return failErrno(discarded.error(),
                         fmt::format("discarding {}+{} on {}", offset, length, m_path.string()));
    }
    return {};
}

Expected<void> FileBlockStore::writeZeroes(std::uint64_t offset, std::uint64_t length, bool fua) {
    if (auto range = checkRange(offset, length, m_size); !range) {
        return range;
    }
    if (auto zeroed = zeroRange(m_fd.get(), m_isBlockDevice, offset, length); !zeroed) {
        const int err = zeroed.error();
        if (err != EOPNOTSUPP && err != ENOTTY && err != EINVAL) {
            return failErrno(err,
                             fmt::format("zeroing {}+{} on {}", offset, length, m_path.string()));
        }
        if (auto written = writeZeroesByWriting(offset, length); !written) {
            return written;
        }
    }
    return fua ? flush() : Expected<void>{};
}

Expected<void> FileBlockStore::writeZeroesByWriting(std::uint64_t offset, std::uint64_t length) {
    const std::vector<std::byte> zeroes(std::min<std::uint64_t>(length, 1 << 20));
    while (length > 0) {
        const auto chunk = std::min<std::uint64_t>(length, zeroes.size());
        if (auto written = write(offset, std::span(zeroes).first(chunk), false); !written) {
            return written;
        }
        offset += chunk;
        length -= chunk;
    }
    return {};
}

} // namespace ssdk::cachectl
