#include "core/maintenance/block_io.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <unistd.h>

#include "core/maintenance/block_ioctl.h"
#include "core/maintenance/extents.h"

namespace ssdk::maintenance {

std::string_view toString(BlockContent content) {
    switch (content) {
    case BlockContent::Zeros:
        return "zeros";
    case BlockContent::Ones:
        return "ones";
    case BlockContent::Marker:
        return "marker";
    case BlockContent::Other:
        return "other";
    }
    return "other";
}

BlockContent classifyBlock(std::span<const std::uint8_t> block) {
    if (std::all_of(block.begin(), block.end(), [](std::uint8_t b) { return b == 0x00; })) {
        return BlockContent::Zeros;
    }
    if (std::all_of(block.begin(), block.end(), [](std::uint8_t b) { return b == 0xFF; })) {
        return BlockContent::Ones;
    }
    return BlockContent::Other;
}

Expected<DirectReader> DirectReader::open(const std::string& path) {
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC));
    if (!fd.valid()) {
        return failErrno(errno, "opening " + path + " with O_DIRECT");
    }
    const auto size = blockDeviceSize(fd.get());
    if (!size) {
        return failErrno(size.error(), "BLKGETSIZE64 on " + path);
    }
    return DirectReader(std::move(fd), Bytes(*size), path);
}

Expected<void> DirectReader::read(std::uint64_t offset, std::span<std::uint8_t> buffer) const {
    std::size_t done = 0;
    while (done < buffer.size()) {
        const ssize_t n = ::pread(m_fd.get(), buffer.data() + done, buffer.size() - done,
                                  static_cast<off_t>(offset + done));
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return failErrno(errno, "reading " + m_path + " at byte " + std::to_string(offset));
        }
        if (n == 0) {
            return fail(ErrorCode::Io, "reading " + m_path + ": end of device at byte " +
                                           std::to_string(offset + done));
        }
        done += static_cast<std::size_t>(n);
    }
    return {};
}

Expected<bool> isHoleInFile(const std::filesystem::path& file, std::uint64_t offset,
                            std::uint64_t length) {
    UniqueFd fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid()) {
        return failErrno(errno, "opening " + file.string());
    }
    const off_t data = ::lseek(fd.get(), static_cast<off_t>(offset), SEEK_DATA);
    if (data < 0) {
        if (errno == ENXIO) {
            return true; // no data at or after offset
        }
        return failErrno(errno, "SEEK_DATA in " + file.string());
    }
    if (static_cast<std::uint64_t>(data) >= offset + length) {
        return true;
    }
    // Data by SEEK_DATA's account: unwritten extents still store nothing.
    return allExtentsUnwritten(fd.get(), offset, length);
}

} // namespace ssdk::maintenance
