#pragma once
// Reading a block device the way verification needs it: O_DIRECT (past the page cache, so
// what the device returns now), aligned buffers, and a classification of what came back.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "core/base/bytes.h"
#include "core/base/error.h"
#include "core/base/page_buffer.h"
#include "core/base/unique_fd.h"

namespace ssdk::maintenance {

// What a block read back as.
enum class BlockContent { Zeros, Ones, Marker, Other };
std::string_view toString(BlockContent content); // "zeros", "ones", "marker", "other"

// Pure: all 0x00, all 0xFF, else Other (markers are recognised by the caller).
BlockContent classifyBlock(std::span<const std::uint8_t> block);

// A page-aligned buffer for O_DIRECT, as bytes to classify.
class AlignedBuffer {
public:
    explicit AlignedBuffer(std::size_t size)
        : m_buffer(size) {}
    std::span<std::uint8_t> span() {
        return {reinterpret_cast<std::uint8_t*>(m_buffer.data()), m_buffer.size()};
    }
    std::span<const std::uint8_t> span() const {
        return {reinterpret_cast<const std::uint8_t*>(m_buffer.data()), m_buffer.size()};
    }

private:
    PageBuffer m_buffer;
};

// A block device opened read-only with O_DIRECT.
class DirectReader {
public:
    static Expected<DirectReader> open(const std::string& path);
    // Reads buffer.size() bytes at offset (both multiples of the logical block size).
    Expected<void> read(std::uint64_t offset, std::span<std::uint8_t> buffer) const;
    Bytes size() const { return m_size; }

private:
    DirectReader(UniqueFd fd, Bytes size, std::string path)
        : m_fd(std::move(fd))
        , m_size(size)
        , m_path(std::move(path)) {}
    UniqueFd m_fd;
    Bytes m_size;
    std::string m_path;
};

// Ground truth for lab drives: whether [offset, offset+length) of a sparse image stores no
// data: every part is a hole or an unwritten (fallocated, reads-as-zero) extent. A discard on
// a loop device punches holes; a write-zeroes becomes FALLOC_FL_ZERO_RANGE (unwritten).
Expected<bool> isHoleInFile(const std::filesystem::path& file, std::uint64_t offset,
                            std::uint64_t length);

} // namespace ssdk::maintenance
