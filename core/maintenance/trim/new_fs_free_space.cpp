#include "core/maintenance/trim/new_fs_free_space.h"

#include <algorithm>
#include <cstring>

namespace ssdk::maintenance::trim {

namespace {

constexpr std::uint64_t kAlign = 4096;

// Reads any byte range through O_DIRECT: whole aligned blocks around it, then the slice.
ReadBytes deviceBytes(const DirectReader& reader) {
    return
        [&reader](std::uint64_t offset, std::size_t length) -> Expected<std::vector<std::uint8_t>> {
            const std::uint64_t first = offset / kAlign * kAlign;
            const std::uint64_t last = (offset + length + kAlign - 1) / kAlign * kAlign;
            if (last > reader.size().value) {
                return fail(ErrorCode::Parse, "the filesystem points past the end of its device");
            }
            AlignedBuffer buffer(static_cast<std::size_t>(last - first));
            if (auto read = reader.read(first, buffer.span()); !read) {
                return std::unexpected(read.error());
            }
            const auto begin = buffer.span().begin() + static_cast<std::ptrdiff_t>(offset - first);
            return std::vector<std::uint8_t>(begin, begin + static_cast<std::ptrdiff_t>(length));
        };
}

Expected<std::string> toolOutput(ProcessRunner& runner, std::vector<std::string> argv) {
    auto ran = runChecked(runner, {.argv = std::move(argv), .environment = {{"LC_ALL", "C"}}});
    if (!ran) {
        return std::unexpected(ran.error());
    }
    return std::move(ran->standardOutput);
}

} // namespace

Expected<NewFsFreeMap> readNewFsFreeMap(const std::string& fsType, const std::string& device,
                                        const DirectReader& reader, ProcessRunner& runner) {
    auto withSource = [](Expected<FreeMap> map, std::string source) -> Expected<NewFsFreeMap> {
        if (!map) {
            return std::unexpected(Error(map.error()).addContext("reading " + source));
        }
        return NewFsFreeMap{std::move(*map), std::move(source)};
    };
    if (fsType == "ext4") {
        auto text = toolOutput(runner, {"dumpe2fs", device});
        if (!text) {
            return std::unexpected(text.error());
        }
        return withSource(parseDumpe2fs(*text), "dumpe2fs");
    }
    if (fsType == "xfs") {
        auto text = toolOutput(runner, {"xfs_db", "-r", "-c", "sb 0", "-c",
                                        "p agblocks blocksize dblocks", "-c", "freesp -d", device});
        if (!text) {
            return std::unexpected(text.error());
        }
        return withSource(parseXfsFreesp(*text), "xfs_db freesp");
    }
    if (fsType == "btrfs") {
        auto text =
            toolOutput(runner, {"btrfs", "inspect-internal", "dump-tree", "-t", "dev", device});
        if (!text) {
            return std::unexpected(text.error());
        }
        return withSource(parseBtrfsDevTree(*text, reader.size().value), "btrfs dev extents");
    }
    if (fsType == "ntfs") {
        auto boot = deviceBytes(reader)(0, 512);
        if (!boot) {
            return std::unexpected(boot.error());
        }
        auto bitmap = toolOutput(runner, {"ntfscat", device, "$Bitmap"});
        if (!bitmap) {
            return std::unexpected(bitmap.error());
        }
        const std::span<const std::uint8_t> bits(
            reinterpret_cast<const std::uint8_t*>(bitmap->data()), bitmap->size());
        return withSource(parseNtfsBitmap(*boot, bits), "the NTFS $Bitmap");
    }
    if (fsType == "exfat") {
        return withSource(readExfatFreeMap(deviceBytes(reader)), "the exFAT allocation bitmap");
    }
    if (fsType == "vfat") {
        return withSource(readFatFreeMap(deviceBytes(reader)), "the FAT");
    }
    return fail(ErrorCode::Unsupported, "no free-space reader for " + fsType);
}

} // namespace ssdk::maintenance::trim
