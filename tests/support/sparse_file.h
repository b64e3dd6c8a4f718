#pragma once
// What a sparse file (a lab drive's image) really holds, asked of the host's filesystem with
// SEEK_DATA / SEEK_HOLE: the ground truth for discards that reached the image.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <fcntl.h>
#include <filesystem>
#include <unistd.h>
#include <vector>

namespace ssdk::test {

// The stretches [data, hole) of [start, end) of a file that are backed by real blocks, in
// order (SEEK_DATA / SEEK_HOLE; a filesystem without them shows the whole file as data).
struct DataRange {
    std::uint64_t start = 0, end = 0;
};

inline std::vector<DataRange> dataRanges(const std::filesystem::path& file, std::uint64_t start,
                                         std::uint64_t end) {
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    REQUIRE(fd >= 0);
    std::vector<DataRange> ranges;
    auto position = static_cast<off_t>(start);
    while (static_cast<std::uint64_t>(position) < end) {
        const off_t data = ::lseek(fd, position, SEEK_DATA);
        if (data < 0 || static_cast<std::uint64_t>(data) >= end) {
            break;
        }
        off_t hole = ::lseek(fd, data, SEEK_HOLE);
        if (hole < 0) {
            hole = static_cast<off_t>(end);
        }
        ranges.push_back({static_cast<std::uint64_t>(data),
                          std::min<std::uint64_t>(static_cast<std::uint64_t>(hole), end)});
        position = hole;
    }
    ::close(fd);
    return ranges;
}

// Bytes of [start, end) of a file backed by real blocks.
inline std::uint64_t allocatedInRange(const std::filesystem::path& file, std::uint64_t start,
                                      std::uint64_t end) {
    std::uint64_t total = 0;
    for (const DataRange& range : dataRanges(file, start, end)) {
        total += range.end - range.start;
    }
    return total;
}

} // namespace ssdk::test
