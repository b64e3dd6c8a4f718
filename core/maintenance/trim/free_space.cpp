#include "core/maintenance/trim/free_space.h"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <optional>

namespace ssdk::maintenance::trim {

namespace {

std::string_view trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
        text.remove_prefix(1);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r' ||
                             text.back() == ',')) {
        text.remove_suffix(1);
    }
    return text;
}

std::optional<std::uint64_t> number(std::string_view text) {
    text = trim(text);
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
        return std::nullopt;
    }
    return value;
}

// Calls f(line) for each line of text.
template <typename F> void forEachLine(std::string_view text, F&& f) {
    while (!text.empty()) {
        const auto newline = text.find('\n');
        f(text.substr(0, newline));
        if (newline == std::string_view::npos) {
            break;
        }
        text.remove_prefix(newline + 1);
    }
}

// Splits on whitespace.
std::vector<std::string_view> words(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) {
            ++i;
        }
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') {
            ++i;
        }
        if (i > start) {
            out.push_back(line.substr(start, i - start));
        }
    }
    return out;
}

template <typename T> T little(std::span<const std::uint8_t> bytes, std::size_t at) {
    T value = 0;
    for (std::size_t i = sizeof(T); i-- > 0;) {
        value = static_cast<T>((value << 8) | bytes[at + i]);
    }
    return value;
}

// Free ranges from a run of allocation bits: bit i (least significant first within each byte)
// covers [base + i * unit, base + (i + 1) * unit); `count` bits are looked at; set = used.
std::vector<ByteRange> clearBits(std::span<const std::uint8_t> bits, std::uint64_t count,
                                 std::uint64_t base, std::uint64_t unit) {
    std::vector<ByteRange> ranges;
    bool inRun = false;
    std::uint64_t runStart = 0;
    for (std::uint64_t i = 0; i < count; ++i) {
        const bool used = (bits[static_cast<std::size_t>(i / 8)] >> (i % 8)) & 1U;
        if (!used && !inRun) {
            inRun = true;
            runStart = i;
        } else if (used && inRun) {
            ranges.push_back({base + runStart * unit, base + i * unit});
            inRun = false;
        }
    }
    if (inRun) {
        ranges.push_back({base + runStart * unit, base + count * unit});
    }
    return ranges;
}

} // namespace

FreeMap::FreeMap(std::vector<ByteRange> ranges) {
    std::erase_if(ranges, [](const ByteRange& r) { return r.end <= r.start; });
    std::sort(ranges.begin(), ranges.end(),
              [](const ByteRange& a, const ByteRange& b) { return a.start < b.start; });
    for (const ByteRange& range : ranges) {
        if (!m_ranges.empty() && range.start <= m_ranges.back().end) {
            m_ranges.back().end = std::max(m_ranges.back().end, range.end);
        } else {
            m_ranges.push_back(range);
        }
    }
}

std::uint64_t FreeMap::freeBytes() const {
    std::uint64_t total = 0;
    for (const ByteRange& range : m_ranges) {
        total += range.end - range.start;
    }
    return total;
}

bool FreeMap::whollyFree(std::uint64_t offset, std::uint64_t length) const {
    const auto after = std::upper_bound(
        m_ranges.begin(), m_ranges.end(), offset,
        [](std::uint64_t value, const ByteRange& range) { return value < range.start; });
    if (after == m_ranges.begin()) {
        return false;
    }
    const ByteRange& range = *std::prev(after);
    return offset >= range.start && offset + length <= range.end;
}

FreeMap FreeMap::without(std::vector<ByteRange> used) const {
    const FreeMap cut(std::move(used));
    std::vector<ByteRange> free;
    auto next = cut.ranges().begin();
    for (ByteRange range : m_ranges) {
        while (next != cut.ranges().end() && next->end <= range.start) {
            ++next;
        }
        for (auto it = next; it != cut.ranges().end() && it->start < range.end; ++it) {
            if (it->start > range.start) {
                free.push_back({range.start, it->start});
            }
            range.start = std::max(range.start, it->end);
        }
        if (range.start < range.end) {
            free.push_back(range);
        }
    }
    return FreeMap(std::move(free));
}

FreeMap FreeMap::outside(std::vector<ByteRange> used, std::uint64_t size) {
    const FreeMap merged(std::move(used));
    std::vector<ByteRange> free;
    std::uint64_t at = 0;
    for (const ByteRange& range : merged.ranges()) {
        if (range.start > at) {
            free.push_back({at, std::min(range.start, size)});
        }
        at = std::max(at, range.end);
        if (at >= size) {
            break;
        }
    }
    if (at < size) {
        free.push_back({at, size});
    }
    return FreeMap(std::move(free));
}

Expected<FreeMap> parseDumpe2fs(std::string_view text) {
    std::optional<std::uint64_t> blockSize;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> blocks; // [first, last]
    bool groups = false;
    std::optional<std::string> bad;
    forEachLine(text, [&](std::string_view line) {
        if (line.starts_with("Block size:")) {
            blockSize = number(line.substr(11));
            return;
        }
        const std::string_view stripped = trim(line);
        if (!line.starts_with(" ") || !stripped.starts_with("Free blocks:")) {
            return;
        }
        groups = true;
        std::string_view list = stripped.substr(12);
        while (!(list = trim(list)).empty()) {
            const auto comma = list.find(',');
            const std::string_view item = list.substr(0, comma);
            const auto dash = item.find('-');
            const auto first = number(item.substr(0, dash));
            const auto last =
                dash == std::string_view::npos ? first : number(item.substr(dash + 1));
            if (!first || !last || *last < *first) {
                bad = std::string(item);
                return;
            }
            blocks.emplace_back(*first, *last);
            if (comma == std::string_view::npos) {
                break;
            }
            list.remove_prefix(comma + 1);
        }
    });
    if (bad) {
        return fail(ErrorCode::Parse, "dumpe2fs: cannot read the free block range '" + *bad + "'");
    }
    if (!blockSize || *blockSize == 0) {
        return fail(ErrorCode::Parse, "dumpe2fs printed no block size");
    }
    if (!groups) {
        return fail(ErrorCode::Parse, "dumpe2fs printed no group's free blocks");
    }
    std::vector<ByteRange> ranges;
    for (const auto& [first, last] : blocks) {
        ranges.push_back({first * *blockSize, (last + 1) * *blockSize});
    }
    return FreeMap(std::move(ranges));
}

Expected<FreeMap> parseXfsFreesp(std::string_view text) {
    std::optional<std::uint64_t> agBlocks, blockSize, dataBlocks;
    std::vector<std::uint64_t> triples;
    forEachLine(text, [&](std::string_view line) {
        const auto w = words(line);
        if (w.size() == 3 && w[1] == "=") {
            if (w[0] == "agblocks") {
                agBlocks = number(w[2]);
            } else if (w[0] == "blocksize") {
                blockSize = number(w[2]);
            } else if (w[0] == "dblocks") {
                dataBlocks = number(w[2]);
            }
            return;
        }
        if (w.size() != 3) {
            return;
        }
        const auto ag = number(w[0]), agbno = number(w[1]), len = number(w[2]);
        if (ag && agbno && len) {
            triples.insert(triples.end(), {*ag, *agbno, *len});
        }
    });
    if (!agBlocks || !blockSize || !dataBlocks || *agBlocks == 0 || *blockSize == 0) {
        return fail(ErrorCode::Parse, "xfs_db printed no agblocks, blocksize or dblocks");
    }
    if (text.find("agno") == std::string_view::npos) {
        return fail(ErrorCode::Parse, "xfs_db printed no free space listing (freesp -d)");
    }
    // mkfs.xfs zeroes the first and the last 128 KiB (its WHACK_SIZE, against old signatures)
    // after its discard, free space or not: those zeros were written.
    constexpr std::uint64_t kWhacked = 128 * 1024;
    const std::uint64_t end = *dataBlocks * *blockSize;
    std::vector<ByteRange> free;
    for (std::size_t i = 0; i < triples.size(); i += 3) {
        const std::uint64_t first = triples[i] * *agBlocks + triples[i + 1];
        free.push_back({first * *blockSize, (first + triples[i + 2]) * *blockSize});
    }
    return FreeMap(std::move(free))
        .without({{0, kWhacked}, {end > kWhacked ? end - kWhacked : 0, end}});
}

Expected<FreeMap> parseBtrfsDevTree(std::string_view text, std::uint64_t deviceSize) {
    constexpr std::uint64_t kZeroed = 2ULL << 20;
    std::vector<ByteRange> used{{deviceSize > kZeroed ? deviceSize - kZeroed : 0, deviceSize}};
    for (const std::uint64_t copy : {64ULL << 10, 64ULL << 20, 256ULL << 30}) {
        used.push_back({copy, copy + 4096});
    }
    std::uint64_t firstExtent = deviceSize;
    std::optional<std::uint64_t> pendingStart;
    bool tree = false;
    std::optional<std::string> bad;
    forEachLine(text, [&](std::string_view line) {
        const auto w = words(line);
        if (w.size() >= 2 && w[0] == "leaf") {
            tree = true;
        }
        // "item 0 key (1 DEV_EXTENT 13631488) itemoff 16235 itemsize 48"
        for (std::size_t i = 0; i + 1 < w.size(); ++i) {
            if (w[i] == "DEV_EXTENT") {
                std::string_view offset = w[i + 1];
                if (!offset.empty() && offset.back() == ')') {
                    offset.remove_suffix(1);
                }
                pendingStart = number(offset);
                if (!pendingStart) {
                    bad = std::string(line);
                }
                return;
            }
        }
        // "chunk_objectid 256 chunk_offset 13631488 length 8388608"
        for (std::size_t i = 0; i + 1 < w.size(); ++i) {
            if (w[i] == "length" && pendingStart) {
                const auto length = number(w[i + 1]);
                if (!length) {
                    bad = std::string(line);
                    return;
                }
                used.push_back({*pendingStart, *pendingStart + *length});
                firstExtent = std::min(firstExtent, *pendingStart);
                pendingStart.reset();
                return;
            }
        }
    });
    if (bad) {
        return fail(ErrorCode::Parse, "btrfs dump-tree: cannot read the dev extent '" + *bad + "'");
    }
    if (!tree) {
        return fail(ErrorCode::Parse, "btrfs dump-tree printed no dev tree");
    }
    if (pendingStart) {
        return fail(ErrorCode::Parse, "btrfs dump-tree: a dev extent without its length");
    }
    used.push_back({0, std::max(firstExtent, kZeroed)});
    return FreeMap::outside(std::move(used), deviceSize);
}

Expected<FreeMap> parseNtfsBitmap(std::span<const std::uint8_t> bootSector,
                                  std::span<const std::uint8_t> bitmap) {
    if (bootSector.size() < 512 ||
        std::string_view(reinterpret_cast<const char*>(&bootSector[3]), 8) != "NTFS    ") {
        return fail(ErrorCode::Parse, "not an NTFS boot sector");
    }
    const auto sectorSize = little<std::uint16_t>(bootSector, 11);
    const std::uint8_t perCluster = bootSector[13];
    const auto sectors = little<std::uint64_t>(bootSector, 40);
    // Values above 0x80 are a negative power of two (clusters of 64 KiB and more).
    const std::uint64_t clusterSize = perCluster <= 0x80 ? std::uint64_t{perCluster} * sectorSize
                                                         : std::uint64_t{1} << (256U - perCluster);
    if (sectorSize == 0 || clusterSize == 0 || sectors == 0) {
        return fail(ErrorCode::Parse, "the NTFS boot sector gives no sector or cluster size");
    }
    const std::uint64_t clusters = sectors * sectorSize / clusterSize;
    if (bitmap.size() * 8 < clusters) {
        return fail(ErrorCode::Parse,
                    fmt::format("the NTFS $Bitmap covers {} clusters, the volume has {}",
                                bitmap.size() * 8, clusters));
    }
    return FreeMap(clearBits(bitmap, clusters, 0, clusterSize));
}

Expected<FreeMap> readFatFreeMap(const ReadBytes& read) {
    auto boot = read(0, 512);
    if (!boot) {
        return std::unexpected(boot.error());
    }
    const std::span<const std::uint8_t> b(*boot);
    if (b.size() < 512 || b[510] != 0x55 || b[511] != 0xAA) {
        return fail(ErrorCode::Parse, "not a FAT boot sector (no 55 AA signature)");
    }
    const std::uint64_t sectorSize = little<std::uint16_t>(b, 11);
    const std::uint64_t perCluster = b[13];
    const std::uint64_t reserved = little<std::uint16_t>(b, 14);
    const std::uint64_t fats = b[16];
    const std::uint64_t rootEntries = little<std::uint16_t>(b, 17);
    std::uint64_t sectors = little<std::uint16_t>(b, 19);
    if (sectors == 0) {
        sectors = little<std::uint32_t>(b, 32);
    }
    std::uint64_t fatSectors = little<std::uint16_t>(b, 22);
    if (fatSectors == 0) {
        fatSectors = little<std::uint32_t>(b, 36);
    }
    if (sectorSize < 512 || perCluster == 0 || fats == 0 || fatSectors == 0 || sectors == 0) {
        return fail(ErrorCode::Parse, "the FAT boot sector's BPB is incomplete");
    }
    const std::uint64_t rootSectors = (rootEntries * 32 + sectorSize - 1) / sectorSize;
    const std::uint64_t dataStart = reserved + fats * fatSectors + rootSectors;
    if (dataStart >= sectors) {
        return fail(ErrorCode::Parse, "the FAT boot sector leaves no data area");
    }
    const std::uint64_t clusters = (sectors - dataStart) / perCluster;
    const unsigned bits = clusters < 4085 ? 12 : clusters < 65525 ? 16 : 32;
    const std::uint64_t fatBytes = ((clusters + 2) * bits + 7) / 8;
    if (fatBytes > fatSectors * sectorSize) {
        return fail(ErrorCode::Parse, "the FAT is smaller than its clusters need");
    }
    auto fat = read(reserved * sectorSize, static_cast<std::size_t>(fatBytes));
    if (!fat) {
        return std::unexpected(fat.error());
    }
    const std::span<const std::uint8_t> f(*fat);
    const std::uint64_t clusterSize = perCluster * sectorSize;
    const std::uint64_t heap = dataStart * sectorSize;
    std::vector<ByteRange> ranges;
    for (std::uint64_t cluster = 2; cluster < clusters + 2; ++cluster) {
        std::uint32_t entry = 0;
        if (bits == 32) {
            entry = little<std::uint32_t>(f, static_cast<std::size_t>(cluster * 4)) & 0x0FFFFFFFU;
        } else if (bits == 16) {
            entry = little<std::uint16_t>(f, static_cast<std::size_t>(cluster * 2));
        } else {
            const auto pair = little<std::uint16_t>(f, static_cast<std::size_t>(cluster * 3 / 2));
            entry = (cluster % 2 == 0) ? (pair & 0x0FFFU) : (pair >> 4U);
        }
        if (entry == 0) {
            const std::uint64_t start = heap + (cluster - 2) * clusterSize;
            ranges.push_back({start, start + clusterSize});
        }
    }
    return FreeMap(std::move(ranges));
}

Expected<FreeMap> readExfatFreeMap(const ReadBytes& read) {
    auto boot = read(0, 512);
    if (!boot) {
        return std::unexpected(boot.error());
    }
    const std::span<const std::uint8_t> b(*boot);
    if (b.size() < 512 || std::string_view(reinterpret_cast<const char*>(&b[3]), 8) != "EXFAT   ") {
        return fail(ErrorCode::Parse, "not an exFAT boot sector");
    }
    const std::uint64_t fatOffset = little<std::uint32_t>(b, 80);
    const std::uint64_t heapOffset = little<std::uint32_t>(b, 88);
    const std::uint64_t clusters = little<std::uint32_t>(b, 92);
    const std::uint64_t rootCluster = little<std::uint32_t>(b, 96);
    const unsigned sectorShift = b[108], clusterShift = b[109];
    if (sectorShift < 9 || sectorShift > 12 || clusterShift > 25 - sectorShift || clusters == 0 ||
        rootCluster < 2 || rootCluster >= clusters + 2) {
        return fail(ErrorCode::Parse, "the exFAT boot sector is out of range");
    }
    const std::uint64_t sectorSize = 1ULL << sectorShift;
    const std::uint64_t clusterSize = sectorSize << clusterShift;
    const std::uint64_t heap = heapOffset * sectorSize;
    auto clusterAt = [&](std::uint64_t cluster) { return heap + (cluster - 2) * clusterSize; };
    // The FAT chains the root directory and the bitmap; 0 (a contiguous file) or
    // 0xFFFFFFFF ends it.
    auto next = [&](std::uint64_t cluster) -> Expected<std::uint64_t> {
        auto entry = read(fatOffset * sectorSize + cluster * 4, 4);
        if (!entry) {
            return std::unexpected(entry.error());
        }
        return little<std::uint32_t>(std::span<const std::uint8_t>(*entry), 0);
    };
    // Reads `length` bytes of the file starting at `first`, following its chain.
    auto readFile = [&](std::uint64_t first,
                        std::uint64_t length) -> Expected<std::vector<std::uint8_t>> {
        std::vector<std::uint8_t> data;
        std::uint64_t cluster = first;
        bool contiguous = false;
        while (data.size() < length) {
            if (cluster < 2 || cluster >= clusters + 2) {
                return fail(ErrorCode::Parse, "an exFAT cluster chain leaves the cluster heap");
            }
            const std::uint64_t want = std::min<std::uint64_t>(clusterSize, length - data.size());
            auto part = read(clusterAt(cluster), static_cast<std::size_t>(want));
            if (!part) {
                return std::unexpected(part.error());
            }
            data.insert(data.end(), part->begin(), part->end());
            if (data.size() >= length) {
                break;
            }
            std::uint64_t following = cluster + 1;
            if (!contiguous) {
                auto link = next(cluster);
                if (!link) {
                    return std::unexpected(link.error());
                }
                if (*link == 0) {
                    contiguous = true;
                } else {
                    following = *link;
                }
            }
            cluster = following;
        }
        return data;
    };
    auto root = readFile(rootCluster, clusterSize);
    if (!root) {
        return std::unexpected(root.error());
    }
    std::optional<std::pair<std::uint64_t, std::uint64_t>> bitmapFile;
    for (std::size_t at = 0; at + 32 <= root->size(); at += 32) {
        const std::uint8_t type = (*root)[at];
        if (type == 0x00) {
            break; // end of directory
        }
        if (type == 0x81) {
            const std::span<const std::uint8_t> entry(root->data() + at, 32);
            bitmapFile = {little<std::uint32_t>(entry, 20), little<std::uint64_t>(entry, 24)};
            break;
        }
    }
    if (!bitmapFile) {
        return fail(ErrorCode::Parse, "the exFAT root directory has no allocation bitmap entry");
    }
    if (bitmapFile->second * 8 < clusters) {
        return fail(ErrorCode::Parse, "the exFAT allocation bitmap is smaller than the heap");
    }
    auto bitmap = readFile(bitmapFile->first, (clusters + 7) / 8);
    if (!bitmap) {
        return std::unexpected(bitmap.error());
    }
    return FreeMap(clearBits(*bitmap, clusters, heap, clusterSize));
}

} // namespace ssdk::maintenance::trim
