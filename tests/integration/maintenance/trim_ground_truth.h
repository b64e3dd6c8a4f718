#pragma once
// The ground truth of TRIM on a lab drive, measured by the test and not by the product: where
// a file's blocks sit on the drive (the test's own FIEMAP), whether those bytes of the drive's
// sparse image are holes afterwards (SEEK_DATA / SEEK_HOLE), and comparisons of a product's
// verdict (its JSON) with that measurement. A verdict that disagrees with the image is a lie,
// however consistent it is with itself.
#include <catch2/catch.hpp>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <string>
#include <sys/ioctl.h>
#include <unistd.h>
#include <vector>

#include "core/base/json.h"
#include "tests/integration/maintenance/maintenance_scratch.h"
#include "tests/support/sparse_file.h"

namespace ssdk::test {

inline constexpr std::uint64_t kTruthBlock = 4096;

// A byte range on a block device (a filesystem's device, e.g. a partition).
struct DeviceRange {
    std::uint64_t start = 0, length = 0;
};

// Where a file's data sits on its filesystem's device, by FIEMAP (synced first). Fails the
// test for extents that are not plain blocks of the device (inline, encoded, unknown).
inline std::vector<DeviceRange> deviceRangesOf(const std::filesystem::path& file) {
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    REQUIRE(fd >= 0);
    constexpr std::size_t kExtents = 256;
    std::vector<std::uint64_t> storage(
        (sizeof(fiemap) + kExtents * sizeof(fiemap_extent)) / sizeof(std::uint64_t) + 1);
    std::vector<DeviceRange> ranges;
    std::uint64_t logical = 0;
    for (bool last = false; !last;) {
        std::fill(storage.begin(), storage.end(), 0);
        auto* map = reinterpret_cast<fiemap*>(storage.data());
        map->fm_start = logical;
        map->fm_length = FIEMAP_MAX_OFFSET - logical;
        map->fm_flags = FIEMAP_FLAG_SYNC;
        map->fm_extent_count = kExtents;
        const int mapped = ::ioctl(fd, FS_IOC_FIEMAP, map);
        INFO("FIEMAP " << file << ": " << std::strerror(errno));
        REQUIRE(mapped == 0);
        if (map->fm_mapped_extents == 0) {
            break;
        }
        for (std::uint32_t i = 0; i < map->fm_mapped_extents; ++i) {
            const fiemap_extent& extent = map->fm_extents[i];
            REQUIRE((extent.fe_flags & (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_ENCODED |
                                        FIEMAP_EXTENT_DATA_INLINE)) == 0);
            ranges.push_back({extent.fe_physical, extent.fe_length});
            logical = extent.fe_logical + extent.fe_length;
            last = (extent.fe_flags & FIEMAP_EXTENT_LAST) != 0;
        }
    }
    ::close(fd);
    return ranges;
}

// The byte offset of a block device inside its lab image: the partition's start (sysfs, in
// 512-byte sectors) plus the loop device's offset. Device: /dev/loopN or /dev/loopNpM.
inline std::uint64_t imageOffsetOf(const std::string& device) {
    auto readNumber = [](const std::filesystem::path& path) {
        std::ifstream in(path);
        std::uint64_t value = 0;
        in >> value;
        return value;
    };
    std::filesystem::path dir = std::filesystem::canonical(
        "/sys/class/block/" + std::filesystem::path(device).filename().string());
    std::uint64_t offset = 0;
    if (std::filesystem::exists(dir / "partition")) {
        offset += readNumber(dir / "start") * 512;
        dir = dir.parent_path();
    }
    return offset + readNumber(dir / "loop" / "offset");
}

// Bytes of the image that hold ranges of a device which starts at imageOffset in it.
inline std::uint64_t allocatedOf(const std::filesystem::path& image, std::uint64_t imageOffset,
                                 const std::vector<DeviceRange>& ranges) {
    std::uint64_t allocated = 0;
    for (const DeviceRange& range : ranges) {
        allocated += allocatedInRange(image, imageOffset + range.start,
                                      imageOffset + range.start + range.length);
    }
    return allocated;
}

// Blocks of [start, end) of the image that hold a TRIM-verify marker block (they begin with
// the marker magic of core/maintenance/trim/verify.cpp), looking only where the image is
// allocated: what a verify run left on the drive, found without asking the product.
inline std::uint32_t markerBlocksInImage(const std::filesystem::path& image, std::uint64_t start,
                                         std::uint64_t end) {
    constexpr std::string_view kMagic = "SSDK-TRIM-MARKER";
    const int fd = ::open(image.c_str(), O_RDONLY | O_CLOEXEC);
    REQUIRE(fd >= 0);
    std::uint32_t markers = 0;
    std::vector<char> block(kTruthBlock);
    for (const DataRange& range : dataRanges(image, start, end)) {
        for (std::uint64_t at = range.start - range.start % kTruthBlock; at < range.end;
             at += kTruthBlock) {
            if (::pread(fd, block.data(), block.size(), static_cast<off_t>(at)) ==
                    static_cast<ssize_t>(block.size()) &&
                std::memcmp(block.data(), kMagic.data(), kMagic.size()) == 0) {
                ++markers;
            }
        }
    }
    ::close(fd);
    return markers;
}

// What the image shows after a TRIM verify: of `tested` marker blocks, how many are still
// allocated (not holes).
struct TrimTruth {
    std::uint32_t tested = 0;
    std::uint32_t stillAllocated = 0;
};

// "reached" when every tested block is a hole, "not-reached" when none is, else
// "inconclusive" (partly discarded, or nothing tested).
inline std::string outcomeShownBy(const TrimTruth& truth) {
    if (truth.tested == 0 || (truth.stillAllocated != 0 && truth.stillAllocated != truth.tested)) {
        return "inconclusive";
    }
    return truth.stillAllocated == 0 ? "reached" : "not-reached";
}

// Where a verify result (toJson of VerifyResult, or `ssdkeeperctl --json trim verify`)
// disagrees with the image: its verdict, and the marker blocks it says it read before and after
// (on a lab drive a hole reads as zeros and an allocated block still holds its marker).
inline std::vector<std::string> trimDisagreements(const Json& product, const TrimTruth& truth) {
    std::vector<std::string> found;
    const std::string shown = outcomeShownBy(truth);
    if (product["result"] != shown) {
        found.push_back("result " + product["result"].dump() + ", the image shows " + shown);
    }
    if (product["before"]["markers"] != truth.tested) {
        found.push_back("markers before " + product["before"]["markers"].dump() +
                        ", the image held " + std::to_string(truth.tested));
    }
    if (product["after"]["markers"] != truth.stillAllocated) {
        found.push_back("markers after " + product["after"]["markers"].dump() +
                        ", the image still holds " + std::to_string(truth.stillAllocated));
    }
    if (!product["backing_file_holes"].is_null() &&
        product["backing_file_holes"] != truth.tested - truth.stillAllocated) {
        found.push_back("backing_file_holes " + product["backing_file_holes"].dump() +
                        ", the image has " + std::to_string(truth.tested - truth.stillAllocated));
    }
    return found;
}

// A verify result that lies the other way about the same run, consistently with itself:
// the negative control a comparison with the image must catch.
inline Json lyingTrimResult(Json product) {
    const std::uint32_t total = product["before"]["markers"].get<std::uint32_t>();
    const bool saidReached = product["result"] == "reached";
    product["result"] = saidReached ? "not-reached" : "reached";
    product["after"]["markers"] = saidReached ? total : 0U;
    product["after"]["zeros"] = saidReached ? 0U : total;
    product["returned"] = saidReached ? "old data" : "zeros";
    if (!product["backing_file_holes"].is_null()) {
        product["backing_file_holes"] = saidReached ? 0U : total;
    }
    return product;
}

// What the image shows, block by block, for the data blocks an old filesystem's files held
// before a format: discarded (holes), kept (the same bytes), rewritten (allocated, other bytes).
struct FormatTruth {
    std::uint64_t holes = 0, kept = 0, rewritten = 0;
};

// 64-bit FNV-1a of one block.
inline std::uint64_t blockChecksum(const std::vector<char>& block) {
    std::uint64_t hash = 1469598103934665603ULL;
    for (const char c : block) {
        hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
    }
    return hash;
}

inline std::vector<char> imageBlock(const std::filesystem::path& image, std::uint64_t offset) {
    std::vector<char> block(kTruthBlock);
    std::ifstream in(image, std::ios::binary);
    in.seekg(static_cast<std::streamoff>(offset));
    in.read(block.data(), static_cast<std::streamsize>(block.size()));
    REQUIRE(in);
    return block;
}

// Where the data blocks of every file under a mounted filesystem sit in its image (the
// filesystem's device starts at imageOffset in it), by FIEMAP.
inline std::vector<std::uint64_t> fileBlocksInImage(const std::filesystem::path& mountPoint,
                                                    std::uint64_t imageOffset) {
    std::vector<std::uint64_t> offsets;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(mountPoint)) {
        if (!entry.is_regular_file()) {
            continue;
        }
        for (const DeviceRange& range : deviceRangesOf(entry.path())) {
            for (std::uint64_t at = 0; at < range.length; at += kTruthBlock) {
                offsets.push_back(imageOffset + range.start + at);
            }
        }
    }
    return offsets;
}

// The blocks of an image that held an old filesystem's file data, and their bytes then.
struct OldData {
    std::filesystem::path image;
    std::vector<std::uint64_t> offsets; // in the image
    std::vector<std::uint64_t> checksums;
};

// Reads what the image holds at offsets now (the filesystem unmounted, so all of it is
// written), failing the test for a block that is not allocated.
inline OldData recordOldData(const std::filesystem::path& image,
                             std::vector<std::uint64_t> offsets) {
    OldData old{image, std::move(offsets), {}};
    for (const std::uint64_t offset : old.offsets) {
        REQUIRE(allocatedInRange(image, offset, offset + kTruthBlock) == kTruthBlock);
        old.checksums.push_back(blockChecksum(imageBlock(image, offset)));
    }
    return old;
}

// What the image shows now where the old data was.
inline FormatTruth measureFormat(const OldData& old) {
    FormatTruth truth;
    for (std::size_t i = 0; i < old.offsets.size(); ++i) {
        const std::uint64_t offset = old.offsets[i];
        if (allocatedInRange(old.image, offset, offset + kTruthBlock) == 0) {
            ++truth.holes;
        } else if (blockChecksum(imageBlock(old.image, offset)) == old.checksums[i]) {
            ++truth.kept;
        } else {
            ++truth.rewritten;
        }
    }
    return truth;
}

// "reached" when no block kept its data and some became holes, "not-reached" when none became
// a hole and some kept their data, else "inconclusive" (null when nothing was measured).
inline Json outcomeShownBy(const FormatTruth& truth) {
    if (truth.holes + truth.kept == 0) {
        return nullptr;
    }
    if (truth.kept == 0) {
        return "reached";
    }
    return truth.holes == 0 ? "not-reached" : "inconclusive";
}

// Where a quick-format result (toJson of FormatResult) disagrees with the image: its verdict,
// and sampled counts that the image rules out (any block kept when none was, any discarded
// when none was).
inline std::vector<std::string> formatDisagreements(const Json& product, const FormatTruth& truth) {
    std::vector<std::string> found;
    const Json shown = outcomeShownBy(truth);
    if (product["result"] != shown) {
        found.push_back("result " + product["result"].dump() + ", the image shows " + shown.dump());
    }
    if (truth.kept == 0 && product["kept"] != 0) {
        found.push_back("kept " + product["kept"].dump() + ", the image kept no old block");
    }
    if (truth.holes == 0 && product["discarded"] != 0) {
        found.push_back("discarded " + product["discarded"].dump() +
                        ", the image has no hole where old data was");
    }
    return found;
}

// A format result that lies the other way, consistently with itself.
inline Json lyingFormatResult(Json product) {
    const auto judged =
        product["discarded"].get<std::uint32_t>() + product["kept"].get<std::uint32_t>();
    const bool saidReached = product["result"] == "reached";
    product["result"] = saidReached ? "not-reached" : "reached";
    product["discarded"] = saidReached ? 0U : judged;
    product["kept"] = saidReached ? judged : 0U;
    product["offer_blkdiscard"] = saidReached;
    return product;
}

// A loop device whose image lives on NTFS served by ntfs-3g (FUSE), on a lab drive of its own:
// the loop device accepts discards, but FUSE cannot punch holes, so they never reach the image
// (which has no holes to show: SEEK_DATA there sees all of it as data, and that is the truth).
// Everything is unmounted and detached on every path.
class NtfsHostedLoop {
public:
    static bool available() {
        return haveProgram("ntfs-3g") && haveProgram("mkfs.ntfs") &&
               std::filesystem::exists("/dev/fuse");
    }

    NtfsHostedLoop(const MaintenanceScratch& scratch, const std::string& imageSize)
        : m_hostDir(scratch.dir() / "ntfs") {
        try {
            const auto host = makeLabDrive("maint-ntfshost", Bytes::mib(512), "empty");
            REQUIRE(
                runChecked(m_runner, {.argv = {"mkfs.ntfs", "-Q", "-F", "-q", host.devicePath}}));
            std::filesystem::create_directories(m_hostDir);
            REQUIRE(
                runChecked(m_runner, {.argv = {"ntfs-3g", host.devicePath, m_hostDir.string()}}));
            m_hostMounted = true;
            m_image = m_hostDir / "inner.img";
            REQUIRE(
                runChecked(m_runner, {.argv = {"truncate", "-s", imageSize, m_image.string()}}));
            auto attached =
                runChecked(m_runner, {.argv = {"losetup", "-f", "--show", m_image.string()}});
            REQUIRE(attached);
            m_loop = attached->standardOutput.substr(0, attached->standardOutput.find('\n'));
        } catch (...) { // the destructor does not run for a half-made object
            cleanUp();
            throw;
        }
    }
    ~NtfsHostedLoop() { cleanUp(); }
    NtfsHostedLoop(const NtfsHostedLoop&) = delete;
    NtfsHostedLoop& operator=(const NtfsHostedLoop&) = delete;

    const std::string& loop() const { return m_loop; }
    const std::filesystem::path& image() const { return m_image; }
    // Mounts the loop device's filesystem at dir; unmounted with the rest.
    void mountInner(const std::filesystem::path& dir) {
        std::filesystem::create_directories(dir);
        m_innerMounts.push_back(dir);
        REQUIRE(runChecked(m_runner, {.argv = {"mount", m_loop, dir.string()}}));
    }

private:
    void cleanUp() {
        for (const auto& dir : m_innerMounts) {
            (void)m_runner.run({.argv = {"umount", dir.string()}});
        }
        if (!m_loop.empty()) {
            (void)m_runner.run({.argv = {"losetup", "-d", m_loop}});
        }
        if (m_hostMounted) {
            (void)m_runner.run({.argv = {"umount", m_hostDir.string()}});
        }
    }

    SystemProcessRunner m_runner;
    std::filesystem::path m_hostDir, m_image;
    std::string m_loop;
    bool m_hostMounted = false;
    std::vector<std::filesystem::path> m_innerMounts;
};

} // namespace ssdk::test
