#include "core/overprovision/filesystem_usage.h"

#include <algorithm>
#include <charconv>
#include <optional>

namespace ssdk::overprovision {

namespace {

std::string_view trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
        text.remove_prefix(1);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
        text.remove_suffix(1);
    }
    return text;
}

// The leading unsigned number of text (after blanks), or nothing.
std::optional<std::uint64_t> leadingNumber(std::string_view text) {
    text = trim(text);
    std::uint64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end == text.data()) {
        return std::nullopt;
    }
    return value;
}

// The text after the first line starting with `key` (blanks before it allowed).
std::optional<std::string_view> valueAfter(std::string_view text, std::string_view key) {
    std::size_t position = 0;
    while (position < text.size()) {
        std::size_t end = text.find('\n', position);
        if (end == std::string_view::npos) {
            end = text.size();
        }
        std::string_view line = trim(text.substr(position, end - position));
        if (line.starts_with(key)) {
            return line.substr(key.size());
        }
        position = end + 1;
    }
    return std::nullopt;
}

Expected<std::uint64_t> numberAfter(std::string_view text, std::string_view key,
                                    std::string_view tool) {
    auto value = valueAfter(text, key);
    if (!value) {
        return fail(ErrorCode::Parse,
                    std::string(tool) + " output has no \"" + std::string(key) + "\" line");
    }
    auto number = leadingNumber(*value);
    if (!number) {
        return fail(ErrorCode::Parse, std::string(tool) + ": \"" + std::string(key) +
                                          "\" is not followed by a number");
    }
    return *number;
}

} // namespace

Expected<FilesystemUsage> parseDumpe2fs(std::string_view text) {
    auto blocks = numberAfter(text, "Block count:", "dumpe2fs");
    auto freeBlocks = numberAfter(text, "Free blocks:", "dumpe2fs");
    auto blockSize = numberAfter(text, "Block size:", "dumpe2fs");
    for (const auto* field : {&blocks, &freeBlocks, &blockSize}) {
        if (!*field) {
            return std::unexpected(field->error());
        }
    }
    if (*freeBlocks > *blocks || *blockSize == 0) {
        return fail(ErrorCode::Parse, "dumpe2fs: free blocks exceed the block count");
    }
    FilesystemUsage usage;
    usage.type = "ext";
    usage.size = Bytes(*blocks * *blockSize);
    usage.blockSize = Bytes(*blockSize);
    std::uint64_t allocated = (*blocks - *freeBlocks) * *blockSize;
    // Bitmaps, inode tables, group descriptors and the journal: counted by the kernel's statfs
    // as neither used nor free. In clusters, which are blocks unless bigalloc.
    const auto overheadClusters = numberAfter(text, "Overhead clusters:", "dumpe2fs");
    const std::uint64_t clusterSize =
        numberAfter(text, "Cluster size:", "dumpe2fs").value_or(*blockSize);
    if (overheadClusters && *overheadClusters * clusterSize <= allocated) {
        allocated -= *overheadClusters * clusterSize;
        usage.usedSource = "dumpe2fs -h: blocks − free − overhead, as df counts";
    } else {
        usage.usedSource = "dumpe2fs -h: allocated blocks, metadata included";
    }
    usage.used = Bytes(allocated);
    usage.minimumSize = usage.used;
    usage.source = "dumpe2fs -h";
    return usage;
}

Expected<std::uint64_t> parseResize2fsMinimumBlocks(std::string_view text) {
    return numberAfter(text, "Estimated minimum size of the filesystem:", "resize2fs -P");
}

Expected<FilesystemUsage> parseNtfsresizeInfo(std::string_view text) {
    auto size = numberAfter(text, "Current volume size:", "ntfsresize");
    if (!size) {
        return std::unexpected(size.error());
    }
    FilesystemUsage usage;
    usage.type = "ntfs";
    usage.size = Bytes(*size);
    usage.source = "ntfsresize --info";
    if (auto minimum = numberAfter(text, "You might resize at", "ntfsresize")) {
        usage.minimumSize = Bytes(*minimum);
    } else if (text.find("already at its minimum") != std::string_view::npos ||
               text.find("No need to resize") != std::string_view::npos) {
        usage.minimumSize = usage.size;
    } else {
        return std::unexpected(minimum.error());
    }
    // ntfsresize refuses a smaller --size ("can't be less than the space already occupied")
    // while collecting its constraints, before it writes anything.
    usage.minimumSource = "ntfsresize --info";
    usage.minimumExact = true;
    // "Space in use       : 851 MB (39.6%)": MB of 10^6 bytes, rounded up, so it may pass
    // the exact minimum by less than a MB.
    constexpr std::uint64_t kNtfsMegabyte = 1000 * 1000;
    std::optional<std::uint64_t> inUseMegabytes;
    if (auto inUse = valueAfter(text, "Space in use")) {
        if (const auto colon = inUse->find(':'); colon != std::string_view::npos) {
            inUseMegabytes = leadingNumber(inUse->substr(colon + 1));
        }
    }
    if (inUseMegabytes) {
        usage.used = std::min(usage.minimumSize, Bytes(*inUseMegabytes * kNtfsMegabyte));
        usage.usedSource = "ntfsresize --info: space in use, rounded up to MB";
    } else {
        usage.used = usage.minimumSize;
        usage.usedSource = "ntfsresize --info: its minimum size";
    }
    return usage;
}

Expected<FilesystemUsage> parseBtrfsUsage(std::string_view text) {
    auto size = numberAfter(text, "Device size:", "btrfs filesystem usage");
    auto used = numberAfter(text, "Used:", "btrfs filesystem usage");
    if (!size) {
        return std::unexpected(size.error());
    }
    if (!used) {
        return std::unexpected(used.error());
    }
    FilesystemUsage usage;
    usage.type = "btrfs";
    usage.size = Bytes(*size);
    usage.used = Bytes(*used);
    usage.minimumSize = usage.used;
    usage.source = "btrfs filesystem usage -b";
    usage.usedSource = "btrfs filesystem usage -b: Used";
    return usage;
}

} // namespace ssdk::overprovision

namespace ssdk::overprovision {

Json toJson(const FilesystemUsage& usage) {
    return Json{{"type", usage.type},
                {"size", usage.size.value},
                {"used", usage.used.value},
                {"minimum_size", usage.minimumSize.value},
                {"source", usage.source},
                {"used_source", usage.usedSource},
                {"minimum_source", usage.minimumSource},
                {"minimum_exact", usage.minimumExact}};
}

Expected<FilesystemUsage> filesystemUsageFromJson(const Json& json) {
    try {
        FilesystemUsage usage;
        usage.type = json.at("type").get<std::string>();
        usage.size = Bytes(json.at("size").get<std::uint64_t>());
        usage.used = Bytes(json.at("used").get<std::uint64_t>());
        usage.minimumSize = Bytes(json.at("minimum_size").get<std::uint64_t>());
        usage.source = json.value("source", "");
        usage.usedSource = json.value("used_source", "");
        usage.minimumSource = json.value("minimum_source", "");
        usage.minimumExact = json.value("minimum_exact", false);
        return usage;
    } catch (const Json::exception& error) {
        return fail(ErrorCode::Parse, std::string("filesystem usage: ") + error.what());
    }
}

} // namespace ssdk::overprovision
